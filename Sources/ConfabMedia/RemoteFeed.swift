import ConfabCore
import FoundationEssentials

/// What we receive from one other participant's published feed.
public struct RemoteFeed: Sendable, Equatable, Identifiable {
    /// Janus's id for the feed.
    public let id: UInt64
    public let userID: String
    public let sessionID: String
    /// The participant's shared screen rather than their camera and microphone.
    public var isScreenshare = false
    public var framesReceived = 0
    /// Frames received in the last second.
    public var framesPerSecond = 0.0
    public var lastFrameAt: Date?
    /// When the first frame reached the main thread (join → first frame, for benchmarks).
    public var firstFrameAt: Date?
    /// The loudest channel's RMS level of the received audio, dBFS.
    public var audioLevel: Double = -.infinity
    public var audioReadings = 0
    public var lastAudioAt: Date?
    /// Janus's talking events (the audio-level header extension, averaged by Janus).
    public var isSpeaking = false
    public var connectionQuality: ConnectionQuality = .unknown
    /// The size of the last received frame (as scaled for display).
    public var videoSize: VideoSize?
    /// The size the video arrives at, before it is scaled for display.
    public var receivedVideoSize: VideoSize?
    /// Video bits per second received over the last second (RTP payload and headers), from
    /// webrtcbin's statistics.
    public var videoBitrate: Double?
    var videoBytesReceived: Double?
    /// Lost video packets we asked again for (NACK), and keyframes we asked for (PLI/FIR), so far.
    public var videoNacksSent: Int?
    public var videoKeyframeRequestsSent: Int?
    /// Whether the feed's video is paused at Janus (nobody watches it), and if so, whether it
    /// had video when it was paused (what the participant's tile and the list keep showing).
    public var isVideoPaused: Bool { videoWhenPaused != nil }
    public var videoWhenPaused: Bool?

    /// Video is flowing now (a frame within the last 1.5 s; a stopped camera sends nothing).
    public func hasVideo(at now: Date = Date()) -> Bool { lastFrameAt.map { now.timeIntervalSince($0) < 1.5 } ?? false }
    /// Audio packets came since the last once-a-second refresh: the microphone is on, silent or
    /// not (a muted one sends nothing; a silent one a packet every 400 ms, Opus's DTX). A mute
    /// shows within 1–2 s. Not the level readings: from a silent microphone they come only
    /// every 2 s (each needs 100 ms of decoded sound), which read as a mute.
    public var isAudioFlowing = false

    /// The display suffix that marks a screen feed: "user|session|screen".
    static let screenshareMarker = "screen"

    /// Parses our display convention "user|session" (camera and microphone) or
    /// "user|session|screen" (a shared screen); other publishers get their display as user id.
    static func identity(fromDisplay display: String?, feed: UInt64) -> (user: String, session: String, isScreenshare: Bool) {
        let parts = (display ?? "").split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, parts[2] == screenshareMarker, !parts[0].isEmpty, !parts[1].isEmpty { return (parts[0], parts[1], true) }
        if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty { return (parts[0], parts[1], false) }
        return (display.flatMap { $0.isEmpty ? nil : $0 } ?? "feed-\(feed)", "feed-\(feed)", false)
    }
}

/// What we send of our own camera, and what the media server's reports say of the path.
public struct SentVideo: Sendable, Equatable {
    /// The size frames are encoded at, and the frame rate asked of the encoder.
    public var size: VideoSize
    public var framerate: Int
    /// The size the camera itself gives (before any scaling; nil while no camera runs).
    public var cameraSize: VideoSize?
    /// RTP bytes sent so far.
    var bytesSent: Double?
    /// Bits per second sent over the last second.
    public var bitrate: Double?
    /// What the encoder is asked for (see `SendRateController`).
    public var targetBitrate: Int
    /// The share of our video lost on the way to the media server in its latest report, and
    /// the round trip there and back (seconds).
    public var lossFraction: Double?
    public var roundTripTime: Double?
    /// What the media server's transport-wide feedback said last (nil without it).
    public var transport: TransportFeedback?

    /// Our uplink's quality as the media server sees it.
    public var uplinkQuality: ConnectionQuality {
        guard let lossFraction else { return .unknown }
        return ConnectionQuality(lossFraction: lossFraction, jitterSeconds: nil, roundTripTime: roundTripTime)
    }
}
