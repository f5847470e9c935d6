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
    /// When each of our packets arrived (TWCC), over the latest feedback; nil when the server
    /// sends none, or none came since the last feedback.
    public var transport: TransportFeedback?
    /// Audio bits per second we sent over the last second: the feedback counts audio too.
    public var audioBitrate: Double

    public init(lossFraction: Double?, roundTripTime: Double?, sentBitrate: Double, transport: TransportFeedback? = nil, audioBitrate: Double = 0) {
        self.lossFraction = lossFraction
        self.roundTripTime = roundTripTime
        self.sentBitrate = sentBitrate
        self.transport = transport
        self.audioBitrate = audioBitrate
    }

    /// What the path delivered of our video (all it delivered but the audio), when the
    /// transport feedback shows the path overused: we sent clearly more than arrived, over
    /// what random loss explains. Nil on a path that kept up, or without the feedback.
    var videoDeliveredOverAnOverusedPath: Double? {
        guard let transport, transport.sentBitrate >= TransportFeedback.leastToJudge,
              transport.deliveredBitrate < transport.sentBitrate * TransportFeedback.deliveredShareOfAnOverusedPath else { return nil }
        return max(0, transport.deliveredBitrate - audioBitrate)
    }
}

/// What the media server's transport-wide feedback (TWCC: the arrival time of every packet,
/// every 200 ms) says about the packets of ours it covers, as GStreamer's rtpsession sums it
/// up. Unlike a receiver report it tells what the path *delivered*: a sender over the link's
/// rate sees `deliveredBitrate` stay at the link's rate while `sentBitrate` goes past it (the
/// rest waits in a queue, or is dropped from it), within a fraction of a second.
public struct TransportFeedback: Sendable, Equatable {
    /// Bits per second of the covered packets, as they left us and as they arrived.
    public var sentBitrate: Double
    public var deliveredBitrate: Double
    /// The share of the covered packets that never arrived, 0…1.
    public var lossFraction: Double
    /// How much later than sent, on average, each packet arrived than the one before it
    /// (seconds; "delta of delta"): above zero while a queue fills.
    public var delayGrowth: Double

    /// Under this share of what we sent arriving, the path is overused: the rest queues in
    /// front of the bottleneck or is dropped there. (Random loss of a few per cent, and the
    /// feedback's short window, read as 0.9–1 on a path that keeps up: measured here.)
    static let deliveredShareOfAnOverusedPath = 0.9
    /// Below this rate (a still picture, muted audio) a few packets decide the share.
    static let leastToJudge = 60_000.0

    public init(sentBitrate: Double, deliveredBitrate: Double, lossFraction: Double, delayGrowth: Double) {
        self.sentBitrate = sentBitrate
        self.deliveredBitrate = deliveredBitrate
        self.lossFraction = lossFraction
        self.delayGrowth = delayGrowth
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
/// - Where Janus sends transport-wide feedback (`TransportFeedback`), it speaks first: a second
///   in which clearly less arrived than we sent cuts the video to its share of what arrived,
///   which is also taken as the link's limit; receiver reports right after such a cut are
///   about the flood before it and cut nothing.
/// - Congestion (over 10 % lost, or the round trip grown by more than `queueingLimit` over the
///   best seen lately: a queue filling in front of a bottleneck) cuts the target to 85 % of
///   what got through.
/// - A clear path (under 5 % lost, no queue) raises it by 25 % a second, after a pause of
///   `holdAfterCongestion` once it was cut: from 150 kbit/s to 720p's rate takes ~8 s. Near
///   the rate that last congested the link it grows by 5 % a second instead, so that probing
///   for more does not overrun a link that is still capped.
/// - Loss between the two (a lossy radio link) holds the rate: cutting would not help.
/// - A path that goes silent (no report, no feedback: a network gone for seconds) holds the
///   rate, and so do the first `outageEchoSeconds` of feedback after it: they count the packets
///   sent into the dead path as lost, which says nothing about what the path carries now (seen:
///   a 3 s outage cut 640x360 to the floor's 320x180, and the picture took 8 s to come back).
///
/// The step follows the target: the largest one whose `minimumBitrate` it reaches, never above
/// `maximumSize` (the user's choice, or what the machine can encode), and never larger than
/// anyone shows our camera (`limit(to:)`: a 430x242 tile needs 480x270, at the rate's frame rate).
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
    static let sentShareToGrowNearALimit = 0.7
    static let reportsLagFeedbackBy = 2
    /// Seconds without any report or feedback while we send: the path is down.
    static let silenceOfAnOutage = 2
    /// Seconds of feedback after an outage that still describe it (each transport feedback
    /// covers the packets of the 300 ms before it, a second's are averaged).
    static let outageEchoSeconds = 2

    public private(set) var targetBitrate: Int
    public private(set) var step: VideoQualityStep
    /// Whether the last update found the path congested.
    public private(set) var isCongested = false
    /// Whether nothing has been heard about the path for `silenceOfAnOutage` seconds or more: the
    /// receiver reports' loss counted from before the silence would count what was sent into it.
    public private(set) var isPathSilent = false
    private var silentSeconds = 0
    /// Whether any report or feedback came yet: the silence before the first (the connection
    /// being made) is no outage, and what comes first must be heard at once.
    private var hasHeardThePath = false
    /// Updates to come whose feedback still describes an outage (see `outageEchoSeconds`).
    private var outageEchoLeft = 0
    private let steps: ArraySlice<VideoQualityStep>
    /// The target's highest value for the largest step.
    private let ceiling: Int
    /// The smallest step that covers the largest view of our camera anyone shows; nil while
    /// some view is unknown, or when the largest step is needed (see `limit(to:)`).
    public private(set) var shownLimit: VideoQualityStep?
    /// Nobody shows our camera (`ShownSize.hidden`): the smallest step, at its own frame rate.
    private var isHidden = false
    /// The target before a smaller view lowered it, while no congestion came since: a view
    /// that grows again (a tile made large) gets the rate back at once, not over seconds of
    /// growth the path already proved it carries.
    private var targetBeforeLimit: Int?
    /// The best round trip seen over the last `roundTripMemory` updates: the path's own delay.
    private var recentRoundTrips: [Double] = []
    private static let roundTripMemory = 30
    private var secondsSinceCut = Int.max / 2
    /// What got through when the link was last congested: probing slows down near it.
    private var congestedAt: Int?
    private var gentleSeconds = 0
    /// Whether the media server sends transport feedback (then it decides most cuts).
    private var hasTransportFeedback = false
    /// Whether `congestedAt` is what transport feedback saw delivered (not a receiver report's
    /// estimate, which a flooded link underrates).
    private var limitWasMeasured = false
    /// What the encoder sent over the last update's second, for the target it had then.
    private var lastOvershoot = 1.0
    /// The most an overshoot scales a cut by (a keyframe burst in a second of a low rate).
    static let overshootAtMost = 2.0

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

    /// Sends no larger than `shown` needs from now on (the largest view of our camera in the
    /// call: what is not shown needs no pixels, nor the bits to fill them); the target comes
    /// down to what that size looks right at. Returns whether the step changed.
    @discardableResult
    public mutating func limit(to shown: ShownSize) -> Bool {
        let limit = Self.step(showing: shown, in: steps)
        guard limit != shownLimit || (shown == .hidden) != isHidden else { return false }
        shownLimit = limit
        isHidden = shown == .hidden
        let ceiling = limitedCeiling
        if targetBitrate > ceiling {
            targetBeforeLimit = max(targetBeforeLimit ?? 0, targetBitrate)
            targetBitrate = ceiling
        } else if let before = targetBeforeLimit, before > targetBitrate {
            targetBitrate = min(before, ceiling)
            if targetBitrate >= before { targetBeforeLimit = nil }
        }
        let next = stepToSend()
        guard next != step else { return false }
        step = next
        return true
    }

    /// The size to take from the camera: no larger than anyone shows it, neither others
    /// (`shownLimit`) nor our own self-view (`selfView`: its tile's pixels while shown, nil
    /// while nobody shows it). Frames the camera makes larger would be scaled down at once for
    /// sending — each pixel drawn, converted and scaled for nothing. It follows the views, not
    /// the path: a congested path's smaller steps are scaled from it, so the camera is not
    /// renegotiated at every bandwidth step.
    public func cameraSize(selfView: SelfViewSize) -> VideoSize {
        var needed = shownLimit ?? largestStep
        switch selfView {
        case .hidden:
            break
        case .unknown:
            needed = largestStep
        case .shown(let view):
            let forSelfView = Self.step(showing: .largest(view), in: steps) ?? largestStep
            if forSelfView.size.width > needed.size.width || forSelfView.size.height > needed.size.height { needed = forSelfView }
        }
        return needed.size
    }

    /// How large our own camera's picture is shown on this device.
    public enum SelfViewSize: Equatable, Sendable {
        /// Nobody shows it (the call minimized, a layout without our tile, a headless peer).
        case hidden
        /// Shown, at a size not told yet.
        case unknown
        /// Shown in a tile of these pixels.
        case shown(VideoSize)
    }

    /// The smallest of `steps` whose picture covers `shown`'s view (as the tiles crop: see
    /// `VideoViewport.coverSize`); the smallest step for a camera nobody shows; nil when no
    /// step is too large for it.
    static func step(showing shown: ShownSize, in steps: ArraySlice<VideoQualityStep>) -> VideoQualityStep? {
        guard let top = steps.last else { return nil }
        switch shown {
        case .unknown:
            return nil
        case .hidden:
            // Still sent, small and slow: a view that opens gets a picture at once, not after
            // a new keyframe is asked for and made.
            return steps.first == top ? nil : steps.first
        case .largest(let view):
            let needed = VideoViewport.coverSize(of: top.size, in: view, limit: top.size)
            // The cover size keeps the tile's parity (up to 2 px more): a 479x269 tile is 480x270's.
            let covering = steps.first { $0.size.width + 2 >= needed.width && $0.size.height + 2 >= needed.height }
            return covering == top ? nil : covering
        }
    }

    /// The target's highest value under `shownLimit`: just under the next step's minimum
    /// (the limit's size at full frame rate looks its best there).
    private var limitedCeiling: Int {
        guard let limit = shownLimit, let next = Self.nextMinimum(after: limit.minimumBitrate) else { return ceiling }
        return min(ceiling, max(Self.minimumBitrate, next))
    }

    /// The target's step, made no larger than `shownLimit`. At the limit's size the frame rate
    /// follows the target on its own: 480x270 at 30 fps needs only some 190 kbit/s (the next
    /// step's rate for its share of the pixels), where the ladder moves to 30 fps only with
    /// 640x360's 330 (seen: a cut to 220 kbit/s on a busy machine halved a tile's frame rate).
    private func stepToSend() -> VideoQualityStep {
        let step = Self.step(for: targetBitrate, in: steps)
        guard let limit = shownLimit, step.size.width >= limit.size.width, step.size.height >= limit.size.height else { return step }
        let fullRate = !isHidden && targetBitrate >= Self.fullRateMinimum(at: limit, in: steps)
        let framerate = fullRate ? max(step.framerate, steps.last?.framerate ?? step.framerate) : step.framerate
        return VideoQualityStep(size: limit.size, framerate: isHidden ? limit.framerate : framerate, minimumBitrate: limit.minimumBitrate)
    }

    /// The rate `limit`'s size needs at full frame rate: the next step's minimum for the share
    /// of its pixels.
    static func fullRateMinimum(at limit: VideoQualityStep, in steps: ArraySlice<VideoQualityStep>) -> Int {
        guard let next = steps.first(where: { $0.minimumBitrate > limit.minimumBitrate }) else { return limit.minimumBitrate }
        let share = Double(limit.size.width * limit.size.height) / Double(next.size.width * next.size.height)
        return max(limit.minimumBitrate, Int(Double(next.minimumBitrate) * share))
    }

    /// Takes one second's feedback; returns whether the step changed (the encoder then gets a
    /// new size or frame rate; the bitrate is set every time).
    @discardableResult
    public mutating func update(with feedback: SendFeedback) -> Bool {
        secondsSinceCut += 1
        let heardNothing = feedback.lossFraction == nil && feedback.transport == nil
        if heardNothing {
            silentSeconds += 1
        } else {
            if hasHeardThePath, silentSeconds >= Self.silenceOfAnOutage { outageEchoLeft = Self.outageEchoSeconds }
            silentSeconds = 0
            hasHeardThePath = true
        }
        isPathSilent = hasHeardThePath && silentSeconds >= Self.silenceOfAnOutage
        if !heardNothing, outageEchoLeft > 0 {
            // What was lost in the outage, not what the path carries now: neither cut nor grow.
            outageEchoLeft -= 1
            isCongested = false
            return false
        }
        var queueing = 0.0
        if let roundTrip = feedback.roundTripTime, roundTrip >= 0 {
            recentRoundTrips.append(roundTrip)
            if recentRoundTrips.count > Self.roundTripMemory { recentRoundTrips.removeFirst() }
            queueing = roundTrip - (recentRoundTrips.min() ?? roundTrip)
        }
        let loss = feedback.lossFraction.map { min(max($0, 0), 1) }
        let overused = feedback.videoDeliveredOverAnOverusedPath
        if feedback.transport != nil { hasTransportFeedback = true }
        isCongested = (loss ?? 0) > Self.lossToCut || queueing > Self.queueingLimit || overused != nil
        // How far over its target the encoder sent, in the lesser of the last two seconds (the
        // first second after a new target still holds frames made for the old one).
        let overshootNow = feedback.sentBitrate / Double(max(targetBitrate, 1))
        let overshoot = min(Self.overshootAtMost, max(1, min(overshootNow, lastOvershoot)))
        lastOvershoot = overshootNow
        if let delivered = overused {
            // The transport feedback measured what got through, within a fraction of a second
            // of our sending it: settle a little under that. A receiver report would say so only
            // a second or two later, with the link flooded meanwhile (seen: 3–4 s frozen at a
            // sudden cap, and a second cut, on the stale report, down to the floor).
            // The limit is what the latest overuse delivered: the first second of a sudden cap
            // still counts packets from before it (seen: 470 kbit/s "delivered" over a 300 kbit/s
            // cap), which would have had the rate grow fast right back into the cap.
            congestedAt = Int(delivered)
            limitWasMeasured = true
            // What is sent, not the target, must fit: an encoder that keeps sending over its
            // target (keyframes the receivers ask for after losses; small sizes overshoot) held
            // the loss up with a target settled under what arrived (seen: 8 s at 17–44 % lost,
            // 170 kbit/s asked, 175–265 sent into a 300 kbit/s link, bob at 0–4 fps of 480x270).
            let settled = max(Self.minimumBitrate, Int(delivered * Self.cut / overshoot))
            if settled < targetBitrate {
                targetBitrate = settled
                secondsSinceCut = 0
            }
        } else if isCongested, hasTransportFeedback, secondsSinceCut < Self.reportsLagFeedbackBy {
            // With transport feedback, a receiver report in the seconds after a cut describes
            // the rate before it (and the queue it left): the feedback, not the report, says
            // whether the cut was enough. (Seen: a second cut on a report, to the floor, whose
            // limit then counted for nothing and let the rate grow fast back into the cap.)
        } else if isCongested, secondsSinceCut >= 2 || (loss ?? 0) > Self.lossToCutAgain {
            // A report covers the second before it: the one right after a cut still describes the
            // old rate, and cutting on it again would cut twice for one congestion — unless most
            // of what we send is lost: then every second over the link is a second of frozen
            // video, and landing too low costs only a few seconds of growth.
            // What got through, a little under: the queue drains and the loss stops.
            let delivered = feedback.sentBitrate * (1 - (loss ?? 0))
            let reference = delivered > 0 ? min(Double(targetBitrate), delivered) : Double(targetBitrate)
            // The first cut of a congestion says what the link carried; the cuts that follow
            // within it see the link flooded by what was queued, and would underrate it.
            congestedAt = secondsSinceCut >= 2 ? Int(reference) : max(congestedAt ?? 0, Int(reference))
            limitWasMeasured = false
            targetBitrate = max(Self.minimumBitrate, Int(reference * Self.cut))
            secondsSinceCut = 0
        } else if let loss, loss < Self.lossToGrow, queueing < Self.queueingLimit / 2,
                  secondsSinceCut > Self.holdAfterCongestion {
            // Only when we really sent near the target: an encoder sending far less (a still
            // picture) proves nothing about the path.
            // Near a limit the path showed, the encoder must really send near the target first:
            // growing while it lags (it takes a second or two to reach a new rate) had the target
            // far past the limit when it caught up (seen: 450 kbit/s asked, 215 sent, then a
            // freeze as it came).
            // (Away from the limit the encoder may lag: a picture that needs less than the
            // target, or a new size just started, must not hold back a recovery.)
            let nearAMeasuredLimit = limitWasMeasured && isTargetNearTheLimit(from: 0.7)
            let provenRate = !nearAMeasuredLimit || feedback.sentBitrate > Double(targetBitrate) * Self.sentShareToGrowNearALimit
            if provenRate, feedback.sentBitrate > Double(targetBitrate) * 0.4 || targetBitrate < 600_000 {
                // Near the rate that last congested the link, probe gently: a jump past it
                // fills the queue and costs a freeze; well away from it, grow fast.
                // Past the old limit with a clear path: the link got better; forget it.
                if let limit = congestedAt, Double(targetBitrate) >= Double(limit) * 1.3 { congestedAt = nil }
                // A limit at the floor was measured on a flooded link (most of what we sent was
                // lost or queued): it says nothing about what the link carries, and creeping
                // from the floor cost 3 s of a recovery (seen at 20 s instead of 15).
                // (Transport feedback measures a limit even on a flooded link: that one is kept.)
                if !limitWasMeasured, let limit = congestedAt, Double(limit) <= Double(Self.minimumBitrate) * 1.2 { congestedAt = nil }
                var nearTheLimit = isTargetNearTheLimit(from: 0.8)
                // A few clear seconds at the old limit: the link got better; stop creeping.
                gentleSeconds = nearTheLimit ? gentleSeconds + 1 : 0
                if gentleSeconds > Self.gentleSecondsAtMost { nearTheLimit = false }
                targetBitrate = min(limitedCeiling, Int(Double(targetBitrate) * (nearTheLimit ? Self.gentleGrowth : Self.growth)))
            }
        }
        // A congested path is no longer proven to carry what was sent before a view shrank.
        if isCongested { targetBeforeLimit = nil }
        let next = stepToSend()
        guard next != step else { return false }
        step = next
        return true
    }

    /// Whether the target is between `low` times the rate that last congested the link and
    /// 1.3 times it (past that, the link got better: see `update`).
    private func isTargetNearTheLimit(from low: Double) -> Bool {
        guard let limit = congestedAt.map(Double.init) else { return false }
        return Double(targetBitrate) > limit * low && Double(targetBitrate) < limit * 1.3
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

    /// Forgets the pooled reports and the last one too: the next report starts anew rather
    /// than count as lost everything since the last (while the path was silent, an outage's
    /// packets: they say nothing about the path that comes back).
    public mutating func startOver() {
        recent = []
        last = nil
    }

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

/// The transport feedback summaries of one second, pooled: each covers only the last 300 ms of
/// our packets (GStreamer's window), which one burst of a keyframe or of a draining queue can
/// swing either way (measured: 0.85–1.4 delivered for sent on a path that kept up), so the
/// second's summaries are averaged. A summary the same as the one before is no news (no
/// feedback came between the readings).
public struct TransportFeedbackPool: Sendable {
    private var samples: [TransportFeedback] = []
    private var last: TransportFeedback?

    public init() {}

    /// A second's worth at four readings a second, with room; older ones are dropped, so a pool
    /// nobody takes from (video off: nothing adapts) stays small.
    static let samplesAtMost = 8

    public mutating func add(_ summary: TransportFeedback) {
        defer { last = summary }
        guard summary != last else { return }
        samples.append(summary)
        if samples.count > Self.samplesAtMost { samples.removeFirst(samples.count - Self.samplesAtMost) }
    }

    /// The average of what came since the last call, and forgets it; nil when nothing came.
    public mutating func take() -> TransportFeedback? {
        defer { samples = [] }
        guard !samples.isEmpty else { return nil }
        let count = Double(samples.count)
        func mean(_ value: (TransportFeedback) -> Double) -> Double { samples.reduce(0) { $0 + value($1) } / count }
        return TransportFeedback(sentBitrate: mean(\.sentBitrate), deliveredBitrate: mean(\.deliveredBitrate),
                                 lossFraction: mean(\.lossFraction), delayGrowth: mean(\.delayGrowth))
    }
}
