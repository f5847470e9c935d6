/// What the media server told us, in its receiver reports (RTCP), about the video we sent over
/// the last second, with what we sent.
public struct SendFeedback: Sendable, Equatable {
    /// The share of our video packets lost on the way, 0…1, from the latest report; nil when no
    /// new report came since the last feedback (nothing is known about the path).
    public var lossFraction: Double?
    /// Round trip to the media server and back, seconds (from the report's timestamps).
    public var roundTripTime: Double?
    /// Video bits per second we sent over the last second.
    public var sentBitrate: Double

    public init(lossFraction: Double?, roundTripTime: Double?, sentBitrate: Double) {
        self.lossFraction = lossFraction
        self.roundTripTime = roundTripTime
        self.sentBitrate = sentBitrate
    }
}

/// A size and frame rate our camera is sent at, and the bitrate it needs to look right.
public struct VideoQualityStep: Sendable, Equatable, CustomStringConvertible {
    public let size: VideoSize
    public let framerate: Int
    /// Below this target bitrate the next smaller step looks better.
    public let minimumBitrate: Int

    public init(size: VideoSize, framerate: Int, minimumBitrate: Int) {
        self.size = size
        self.framerate = framerate
        self.minimumBitrate = minimumBitrate
    }

    public var description: String { "\(size.width)x\(size.height)@\(framerate)" }
}

/// Decides the bitrate, size and frame rate our camera is sent at from what the path to the
/// media server carries, once a second. GStreamer 1.22's webrtcbin has no congestion control
/// and Janus only relays a fixed cap (its REMB), so this is ours: a loss- and delay-based
/// AIMD in the spirit of Google Congestion Control's loss controller.
///
/// - Congestion (over 10 % lost, or the round trip grown by more than `queueingLimit` over the
///   best seen lately: a queue filling in front of a bottleneck) cuts the target to 85 % of
///   what got through.
/// - A clear path (under 5 % lost, no queue) raises it by 25 % a second, after a pause of
///   `holdAfterCongestion` once it was cut: from 150 kbit/s to 720p's rate takes ~8 s. Near
///   the rate that last congested the link it grows by 5 % a second instead, so that probing
///   for more does not overrun a link that is still capped.
/// - Loss between the two (a lossy radio link) holds the rate: cutting would not help.
///
/// The step follows the target: the largest one whose `minimumBitrate` it reaches, never above
/// `maximumSize` (the user's choice, or what the machine can encode).
public struct SendRateController: Sendable {
    /// From 180p at 15 fps (still moving at ~100 kbit/s) to 720p at 30.
    public static let ladder: [VideoQualityStep] = [
        VideoQualityStep(size: VideoSize(width: 320, height: 180), framerate: 15, minimumBitrate: 0),
        VideoQualityStep(size: VideoSize(width: 480, height: 270), framerate: 15, minimumBitrate: 160_000),
        VideoQualityStep(size: VideoSize(width: 640, height: 360), framerate: 30, minimumBitrate: 330_000),
        VideoQualityStep(size: VideoSize(width: 960, height: 540), framerate: 30, minimumBitrate: 600_000),
        VideoQualityStep(size: VideoSize(width: 1280, height: 720), framerate: 30, minimumBitrate: 900_000),
    ]
    /// Never below this: video keeps moving (~10 fps of 180p) and audio keeps its share.
    public static let minimumBitrate = 100_000
    /// What the largest step gets on a clear path (more adds little to a 720p camera picture).
    public static let maximumBitrate = 1_500_000
    static let lossToCut = 0.10
    static let lossToGrow = 0.05
    static let lossToCutAgain = 0.3
    /// A queue of 100 ms already freezes the receivers' picture: their jitterbuffers (50 ms)
    /// drop what comes later, and the decoder waits for a keyframe (measured at 2–3 % loss).
    static let queueingLimit = 0.1
    static let holdAfterCongestion = 1
    static let growth = 1.25
    static let gentleGrowth = 1.05
    static let gentleSecondsAtMost = 3
    static let cut = 0.85

    public private(set) var targetBitrate: Int
    public private(set) var step: VideoQualityStep
    /// Whether the last update found the path congested.
    public private(set) var isCongested = false
    private let steps: ArraySlice<VideoQualityStep>
    private let ceiling: Int
    /// The best round trip seen over the last `roundTripMemory` updates: the path's own delay.
    private var recentRoundTrips: [Double] = []
    private static let roundTripMemory = 30
    private var secondsSinceCut = Int.max / 2
    /// What got through when the link was last congested: probing slows down near it.
    private var congestedAt: Int?
    private var gentleSeconds = 0

    /// - Parameters:
    ///   - maximumSize: the largest size to send (a step of the ladder or smaller).
    ///   - startBitrate: where to begin before anything is known: 360p's rate, so a call starts
    ///     looking right on most links and grows from there.
    public init(maximumSize: VideoSize = VideoSize(width: 1280, height: 720), startBitrate: Int = 500_000) {
        let allowed = Self.ladder.prefix { $0.size.width <= maximumSize.width && $0.size.height <= maximumSize.height }
        steps = allowed.isEmpty ? Self.ladder.prefix(1) : allowed
        // The largest step's rate, with room to look its best.
        let top = steps.last?.minimumBitrate ?? 0
        ceiling = steps.count == Self.ladder.count ? Self.maximumBitrate : max(Self.minimumBitrate, Self.nextMinimum(after: top) ?? Self.maximumBitrate)
        targetBitrate = min(max(startBitrate, Self.minimumBitrate), ceiling)
        step = Self.step(for: targetBitrate, in: steps)
    }

    /// The largest step we may send.
    public var largestStep: VideoQualityStep { steps.last ?? Self.ladder[0] }

    /// Takes one second's feedback; returns whether the step changed (the encoder then gets a
    /// new size or frame rate; the bitrate is set every time).
    @discardableResult
    public mutating func update(with feedback: SendFeedback) -> Bool {
        secondsSinceCut += 1
        var queueing = 0.0
        if let roundTrip = feedback.roundTripTime, roundTrip >= 0 {
            recentRoundTrips.append(roundTrip)
            if recentRoundTrips.count > Self.roundTripMemory { recentRoundTrips.removeFirst() }
            queueing = roundTrip - (recentRoundTrips.min() ?? roundTrip)
        }
        let loss = feedback.lossFraction.map { min(max($0, 0), 1) }
        isCongested = (loss ?? 0) > Self.lossToCut || queueing > Self.queueingLimit
        // A report covers the second before it: the one right after a cut still describes the
        // old rate, and cutting on it again would cut twice for one congestion — unless most
        // of what we send is lost: then every second over the link is a second of frozen
        // video, and landing too low costs only a few seconds of growth.
        if isCongested, secondsSinceCut >= 2 || (loss ?? 0) > Self.lossToCutAgain {
            // What got through, a little under: the queue drains and the loss stops.
            let delivered = feedback.sentBitrate * (1 - (loss ?? 0))
            let reference = delivered > 0 ? min(Double(targetBitrate), delivered) : Double(targetBitrate)
            // The first cut of a congestion says what the link carried; the cuts that follow
            // within it see the link flooded by what was queued, and would underrate it.
            congestedAt = secondsSinceCut >= 2 ? Int(reference) : max(congestedAt ?? 0, Int(reference))
            targetBitrate = max(Self.minimumBitrate, Int(reference * Self.cut))
            secondsSinceCut = 0
        } else if let loss, loss < Self.lossToGrow, queueing < Self.queueingLimit / 2,
                  secondsSinceCut > Self.holdAfterCongestion {
            // Only when we really sent near the target: an encoder sending far less (a still
            // picture) proves nothing about the path.
            if feedback.sentBitrate > Double(targetBitrate) * 0.4 || targetBitrate < 600_000 {
                // Near the rate that last congested the link, probe gently: a jump past it
                // fills the queue and costs a freeze; well away from it, grow fast.
                // Past the old limit with a clear path: the link got better; forget it.
                if let limit = congestedAt, Double(targetBitrate) >= Double(limit) * 1.3 { congestedAt = nil }
                // A limit at the floor was measured on a flooded link (most of what we sent was
                // lost or queued): it says nothing about what the link carries, and creeping
                // from the floor cost 3 s of a recovery (seen at 20 s instead of 15).
                if let limit = congestedAt, Double(limit) <= Double(Self.minimumBitrate) * 1.2 { congestedAt = nil }
                var nearTheLimit = congestedAt.map { Double(targetBitrate) > Double($0) * 0.8 && Double(targetBitrate) < Double($0) * 1.3 } ?? false
                // A few clear seconds at the old limit: the link got better; stop creeping.
                gentleSeconds = nearTheLimit ? gentleSeconds + 1 : 0
                if gentleSeconds > Self.gentleSecondsAtMost { nearTheLimit = false }
                targetBitrate = min(ceiling, Int(Double(targetBitrate) * (nearTheLimit ? Self.gentleGrowth : Self.growth)))
            }
        }
        let next = Self.step(for: targetBitrate, in: steps)
        guard next != step else { return false }
        step = next
        return true
    }

    /// The largest step whose minimum the target reaches.
    static func step(for bitrate: Int, in steps: ArraySlice<VideoQualityStep>) -> VideoQualityStep {
        steps.last { $0.minimumBitrate <= bitrate } ?? steps.first ?? ladder[0]
    }

    private static func nextMinimum(after minimum: Int) -> Int? {
        ladder.first { $0.minimumBitrate > minimum }?.minimumBitrate
    }
}

/// The share of our packets lost, from the media server's receiver reports, over enough
/// packets to mean something: one report covers a second, which at 100 kbit/s is some 15
/// packets, where one random loss reads as 6 % and two as 13 % — over the line where the
/// rate is cut. So reports are pooled until they cover `minimumPackets` (at most
/// `maximumReports` of them).
public struct ReportedLoss: Sendable {
    static let minimumPackets = 60
    static let maximumReports = 4
    private var last: (highestSequence: Int, lost: Int)?
    private var recent: [(expected: Int, lost: Int)] = []

    public init() {}

    /// Forgets the pooled reports (after the rate was cut: what they said is answered, and a
    /// heavy loss kept in the pool would block growth for seconds after the link cleared).
    public mutating func reset() { recent = [] }

    /// Takes a report's extended highest sequence number and cumulative packets lost; returns
    /// the loss over the pooled reports, or nil for the first report or one seen before.
    public mutating func add(highestSequence: Int, cumulativeLost: Int) -> Double? {
        defer { last = (highestSequence, cumulativeLost) }
        guard let last, highestSequence > last.highestSequence else { return nil }
        recent.append((highestSequence - last.highestSequence, max(0, cumulativeLost - last.lost)))
        // Keep the newest reports that together reach the minimum.
        while recent.count > Self.maximumReports || (recent.count > 1 && recent.dropFirst().reduce(0, { $0 + $1.expected }) >= Self.minimumPackets) {
            recent.removeFirst()
        }
        let expected = recent.reduce(0) { $0 + $1.expected }
        return expected > 0 ? min(1, Double(recent.reduce(0) { $0 + $1.lost }) / Double(expected)) : nil
    }
}
