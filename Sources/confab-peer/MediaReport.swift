import ConfabCore
import FoundationEssentials
import GLibBridge

/// The `media` section of the report: what this peer sent, when it joined, and per remote
/// participant what it received. Times are absolute (the peers of a test share a clock), so
/// one peer's `microphone` changes can be compared with another's `changes`.
struct MediaReport: Encodable {
    struct Sent: Encodable {
        /// The test camera's colour, RRGGBB.
        let color: String
        let tone: Double
        let volume: Double
        let mediaAddress: String?
    }

    /// The microphone turned off (`on` false) or back on, as the user's toggle did it.
    struct MicrophoneChange: Encodable {
        let at: Date
        let on: Bool
    }

    /// The camera turned off or on, and whether the camera device was open half a second later
    /// (off must release it: the camera's light goes off).
    struct CameraChange: Encodable {
        let at: Date
        let on: Bool
        var deviceOpenAfter: Bool?
    }

    struct Color: Encodable, Equatable {
        let red: Int
        let green: Int
        let blue: Int
    }

    struct Size: Encodable {
        let width: Int
        let height: Int
    }

    /// The participant's media as the call view model showed it, whenever one of these changed.
    struct Change: Encodable {
        let at: Date
        let hasVideo: Bool
        let hasAudio: Bool
        let isSpeaking: Bool
    }

    /// Counters every half second, to see when frames or audio stopped and resumed, with the
    /// video's size as it arrives (before scaling for display), frame rate and bitrate then (the
    /// rate and bitrate over the last second).
    struct Sample: Encodable {
        let at: Date
        let framesReceived: Int
        let audioReadings: Int
        var width: Int?
        var height: Int?
        var framesPerSecond: Double?
        var videoKilobitsPerSecond: Double?
    }

    /// Our own camera as sent, every half second: the encoded size and frame rate, the bitrate
    /// over the last second and the one the encoder is asked for, and what the media server's
    /// latest report said of the path (loss 0…1, round trip in seconds).
    struct SentSample: Encodable {
        let at: Date
        let width: Int
        let height: Int
        let framerate: Int
        /// The size the camera itself gave (absent while none ran).
        let cameraWidth: Int?
        let cameraHeight: Int?
        let videoKilobitsPerSecond: Double?
        let targetKilobitsPerSecond: Double
        let lossFraction: Double?
        let roundTripSeconds: Double?
        /// From the media server's transport-wide feedback (absent without it): what arrived of
        /// what we sent (all our packets, audio too), and how fast the delay grew.
        let deliveredKilobitsPerSecond: Double?
        let transportSentKilobitsPerSecond: Double?
        let delayGrowthMilliseconds: Double?
    }

    /// What this peer received from one other participant session.
    struct Remote: Encodable, ReceivedVideo {
        let userID: String
        let sessionID: String
        let feedID: UInt64
        let firstSeenAt: Date
        /// When its feed left the media room (it left the call or stopped publishing).
        var goneAt: Date?

        var framesReceived = 0
        var firstFrameAt: Date?
        var lastFrameAt: Date?
        /// Seconds from this peer asking to join to the first frame of this participant (for a
        /// participant who joined later, it includes the wait for them).
        var firstFrameAfterJoinSeconds: Double?
        /// Frames per second between the first and the last frame.
        var averageFPS: Double?
        /// The centre pixel of the last frame.
        var centerPixel: Color?
        /// The size the camera's video arrives at (decoded; the frames this peer looks at are
        /// scaled down, see PeerMedia).
        var videoSize: Size?

        /// RMS level of the received audio, dBFS: the last reading, the mean of all and their
        /// median (which one silent reading, a concealed packet on a loaded machine, does not
        /// pull down: with the −100 dB floor it takes the mean 4 dB lower over 20 readings).
        var audioLevelLast: Double?
        var audioLevelAverage: Double?
        var audioLevelMedian: Double?
        var audioReadings = 0
        var lastAudioAt: Date?

        var seenSpeaking = false
        var firstSpeakingAt: Date?
        /// The connection quality last shown (unknown, poor, good, excellent).
        var connectionQuality = "unknown"
        var changes: [Change] = []
        var samples: [Sample] = []
        /// Lost video packets this peer asked again for (NACK) and keyframes it asked for (PLI/FIR).
        var videoNacksSent: Int?
        var videoKeyframeRequestsSent: Int?

        init(userID: String, sessionID: String, feedID: UInt64, firstSeenAt: Date) {
            self.userID = userID
            self.sessionID = sessionID
            self.feedID = feedID
            self.firstSeenAt = firstSeenAt
        }
    }

    /// Our own screen share (`--screen`): when it started and stopped, or why it could not.
    struct Screenshare: Encodable {
        /// test, x11 or portal.
        let source: String
        var startedAt: Date?
        var stoppedAt: Date?
        var error: String?
    }

    /// A shared screen received from one participant session, kept apart from their camera (`remote`).
    struct RemoteScreen: Encodable, ReceivedVideo {
        let userID: String
        let sessionID: String
        let feedID: UInt64
        let firstSeenAt: Date
        /// When the screen feed left the media room (sharing stopped or the participant left).
        var goneAt: Date?
        var framesReceived = 0
        var firstFrameAt: Date?
        var lastFrameAt: Date?
        /// Frames per second between the first and the last frame.
        var averageFPS: Double?
        var videoSize: Size?
        /// The centre pixel of the last frame.
        var centerPixel: Color?
    }

    /// The call view model started or stopped showing a participant as sharing their screen.
    struct ScreensharingChange: Encodable {
        let at: Date
        let userID: String
        let sessionID: String
        let isScreensharing: Bool
        let screenshareTrackSize: Size?
    }

    /// What the test speaker played (`--listen`): RMS levels (dBFS) every `intervalSeconds`
    /// from `startedAt`, overall ("all") and per frequency band.
    struct Heard: Encodable {
        let startedAt: Date
        let intervalSeconds: Double
        let bands: [HeardBand]
    }

    struct HeardBand: Encodable {
        /// "all", or the band's centre frequency in Hz.
        let band: String
        var rmsDecibels: [Double] = []
    }

    /// Two decimals are plenty for a level in dB (and keep the report small); silence (−∞) is −200.
    static func rounded(_ decibels: Double) -> Double {
        decibels.isFinite ? (decibels * 100).rounded() / 100 : -200
    }

    let sent: Sent
    /// Voice processing on our test microphone.
    var audioProcessing: AudioProcessingReport?
    var heard: Heard?
    /// When this peer asked the coordinator to join, and when it was in the call.
    var joinRequestedAt: Date?
    var inCallAt: Date?
    /// When the media connection (publisher) was up.
    var connectedAt: Date?
    var microphone: [MicrophoneChange] = []
    /// The speaker muted (`on` false) or unmuted, as the call window's button does it.
    var speaker: [MicrophoneChange] = []
    var camera: [CameraChange] = []
    /// Whether the camera device was open when media came up (joining with the camera off must not open it).
    var cameraOpenWhenConnected: Bool?
    /// When `--switch-devices-after` switched to the second camera and microphone.
    var devicesSwitchedAt: Date?
    /// Messages the call view model showed the user (media failures among them).
    var messages: [String] = []
    var remote: [Remote] = []
    var sentVideo: [SentSample] = []
    var screenshare: Screenshare?
    /// Screens received, one entry per screen feed (a participant who shares twice appears twice).
    var remoteScreens: [RemoteScreen] = []
    var screensharingChanges: [ScreensharingChange] = []
}

/// Which voice processing the peer's microphone had.
struct AudioProcessingReport: Encodable {
    let echoCancellation: Bool
    let noiseSuppression: Bool
    let gainControl: Bool
    let simulatedRoom: Bool
}

/// What a report keeps about one received video stream, a camera or a shared screen.
protocol ReceivedVideo {
    var framesReceived: Int { get set }
    var firstFrameAt: Date? { get set }
    var lastFrameAt: Date? { get set }
    /// Frames per second between the first and the last frame.
    var averageFPS: Double? { get set }
    var videoSize: MediaReport.Size? { get set }
    /// The centre pixel of the last frame.
    var centerPixel: MediaReport.Color? { get set }
}

extension ReceivedVideo {
    /// Counts `frame`, received at `now` and decoded at `decodedSize` (the frame's own size when
    /// nil); true when it is the first.
    @discardableResult
    mutating func record(_ frame: VideoFrame, decodedSize: VideoSize? = nil, at now: Date) -> Bool {
        framesReceived += 1
        let isFirst = firstFrameAt == nil
        if isFirst { firstFrameAt = now }
        lastFrameAt = now
        videoSize = MediaReport.Size(width: decodedSize?.width ?? frame.width, height: decodedSize?.height ?? frame.height)
        if let pixel = frame.pixel(x: frame.width / 2, y: frame.height / 2) {
            centerPixel = MediaReport.Color(red: Int(pixel.red), green: Int(pixel.green), blue: Int(pixel.blue))
        }
        if let first = firstFrameAt, framesReceived > 1 {
            let span = now.timeIntervalSince(first)
            if span > 0 { averageFPS = Double(framesReceived - 1) / span }
        }
        return isFirst
    }
}
