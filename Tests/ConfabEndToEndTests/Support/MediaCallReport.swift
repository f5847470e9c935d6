import Foundation

/// The parts of a `confab-peer --media test` report the media tests read (the `media` section
/// and the coordinator's view of the participants).
struct MediaPeerReport: Decodable {
    struct Participant: Decodable {
        let user: String
        let leftAt: Date?
    }

    struct Media: Decodable {
        struct Sent: Decodable {
            let color: String
            let volume: Double
        }
        struct MicrophoneChange: Decodable {
            let at: Date
            let on: Bool
        }
        struct CameraChange: Decodable {
            let at: Date
            let on: Bool
            /// Whether the camera device was open half a second after the change.
            let deviceOpenAfter: Bool?
        }
        /// What the test speaker played (`--listen`), every `intervalSeconds`.
        struct Heard: Decodable {
            struct Band: Decodable {
                let band: String
                let rmsDecibels: [Double]
            }
            let startedAt: Date
            let intervalSeconds: Double
            let bands: [Band]

            /// The readings of `band` ("all", or a frequency such as "440") from `start` seconds
            /// after listening began to `end` seconds (nil: to the end).
            func readings(_ band: String, from start: Double, to end: Double? = nil) -> [Double] {
                guard let all = bands.first(where: { $0.band == band })?.rmsDecibels else { return [] }
                let first = min(all.count, Int(start / intervalSeconds))
                let last = min(all.count, end.map { Int($0 / intervalSeconds) } ?? all.count)
                return first < last ? Array(all[first..<last]) : []
            }
        }
        let sent: Sent
        let heard: Heard?
        /// Our own camera as sent, every half second.
        struct SentSample: Decodable {
            let at: Date
            let width: Int
            let height: Int
            let framerate: Int?
            /// The size the camera itself gave.
            let cameraWidth: Int?
            let cameraHeight: Int?
            let videoKilobitsPerSecond: Double?
            let targetKilobitsPerSecond: Double?
            let lossFraction: Double?
            let roundTripSeconds: Double?
            let deliveredKilobitsPerSecond: Double?
            let transportSentKilobitsPerSecond: Double?
            let delayGrowthMilliseconds: Double?
        }
        let sentVideo: [SentSample]?
        let joinRequestedAt: Date?
        let inCallAt: Date?
        let connectedAt: Date?
        let microphone: [MicrophoneChange]
        /// The speaker muted and unmuted (`--speaker-off-after`).
        let speaker: [MicrophoneChange]?
        let camera: [CameraChange]?
        let cameraOpenWhenConnected: Bool?
        let devicesSwitchedAt: Date?
        let messages: [String]
        let remote: [RemoteMedia]
        /// Screen sharing (`--screen`): our share, the screens received, who was shown sharing.
        let screenshare: OwnScreenshare?
        let remoteScreens: [ReceivedScreen]?
        let screensharingChanges: [ScreensharingChange]?
    }

    let user: String
    let error: String?
    let participants: [Participant]
    let media: Media?

    /// What this peer received from `user`.
    func received(from user: String) -> RemoteMedia? {
        media?.remote.first { $0.userID == user }
    }
}

/// What one peer received from another.
struct RemoteMedia: Decodable {
    struct Color: Decodable, CustomStringConvertible {
        let red: Int
        let green: Int
        let blue: Int
        var description: String { "(\(red), \(green), \(blue))" }

        /// Every channel within `tolerance` of the RRGGBB `hex`.
        func matches(hex: String, tolerance: Int) -> Bool {
            guard let value = Int(hex, radix: 16) else { return false }
            let expected = [value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF]
            return zip([red, green, blue], expected).allSatisfy { abs($0 - $1) <= tolerance }
        }
    }
    struct Change: Decodable {
        let at: Date
        let hasVideo: Bool
        let hasAudio: Bool
        let isSpeaking: Bool
    }
    struct Sample: Decodable {
        let at: Date
        let framesReceived: Int
        let audioReadings: Int
        /// The video as received then: size, frames and kilobits per second over the last second.
        let width: Int?
        let height: Int?
        let framesPerSecond: Double?
        let videoKilobitsPerSecond: Double?
    }

    let userID: String
    let goneAt: Date?
    let framesReceived: Int
    let firstFrameAt: Date?
    let firstFrameAfterJoinSeconds: Double?
    let averageFPS: Double?
    let centerPixel: Color?
    let audioLevelLast: Double?
    let audioLevelAverage: Double?
    let audioLevelMedian: Double?
    let audioReadings: Int
    let seenSpeaking: Bool
    let firstSpeakingAt: Date?
    let connectionQuality: String
    let changes: [Change]
    let samples: [Sample]
    /// Lost video packets asked for again (NACK), keyframes asked for (PLI/FIR).
    let videoNacksSent: Int?
    let videoKeyframeRequestsSent: Int?

    /// Audio readings counted by `date` (from the half-second samples).
    func audioReadings(at date: Date) -> Int? {
        samples.last { $0.at <= date }?.audioReadings
    }

    /// Video frames decoded by `date` (from the half-second samples).
    func frames(at date: Date) -> Int? {
        samples.last { $0.at <= date }?.framesReceived
    }
}
