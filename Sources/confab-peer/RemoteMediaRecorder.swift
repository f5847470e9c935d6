import ConfabCore
import ConfabMedia
import FoundationEssentials
import GLibBridge

/// Watches what the media engine receives and what the call view model shows, and keeps the
/// `remote` part of the media report: frames and their centre colour as they arrive, and every
/// 100 ms the audio readings, speaking, hasVideo/hasAudio and connection quality.
@MainActor
final class RemoteMediaRecorder {
    private(set) var remote: [String: MediaReport.Remote] = [:]
    /// Sessions in the order first seen, so the report lists them that way.
    private var order: [String] = []
    /// Audio readings already counted, by Janus feed.
    private var audioReadingsSeen: [UInt64: Int] = [:]
    /// Every reading of each session's audio level, dBFS (one per sample at most).
    private var audioLevels: [String: [Double]] = [:]
    /// The level reported for digital silence, dBFS.
    static let silenceFloor = -100.0
    /// Screen feeds by Janus feed id, in the order first seen.
    private var screens: [UInt64: MediaReport.RemoteScreen] = [:]
    private var screenOrder: [UInt64] = []
    private(set) var screensharingChanges: [MediaReport.ScreensharingChange] = []
    private var shownSharing: [String: Bool] = [:]
    private var timer: RepeatingTimer?
    private var frameSubscriptions: [Subscription] = []
    private var ticks = 0
    private(set) var sentVideo: [MediaReport.SentSample] = []
    private let joinRequestedAt: Date
    /// Samples (100 ms each) between progress lines; nil for none.
    private let ticksPerProgressLine: Int?

    init(joinRequestedAt: Date, progressEvery: Duration? = nil) {
        self.joinRequestedAt = joinRequestedAt
        ticksPerProgressLine = progressEvery.map { every in
            let seconds = Double(every.components.seconds) + Double(every.components.attoseconds) / 1e18
            return max(1, Int((seconds * 10).rounded()))
        }
    }

    /// `viewModel` is nil where there is none (`confab-peer janus`): no coordinator participants,
    /// so the report has frames and samples but no `changes` of what the app would show.
    func start(engine: GStreamerCallMediaEngine, viewModel: CallViewModel?) {
        frameSubscriptions = [
            engine.watchAllVideo { [weak self, weak engine] received in
                guard let self, let feed = engine?.session?.remoteFeeds.values.first(where: { $0.sessionID == received.sessionID && !$0.isScreenshare })
                else { return }
                self.received(received.frame, from: feed)
            },
            engine.remoteScreenshareFrames.subscribe { [weak self, weak engine] received in
                guard let self, let feed = engine?.session?.remoteFeeds.values.first(where: { $0.sessionID == received.sessionID && $0.isScreenshare })
                else { return }
                self.receivedScreen(received.frame, from: feed)
            },
        ]
        timer = RepeatingTimer(interval: 0.1) { [weak self, weak engine, weak viewModel] in
            guard let self, let engine else { return }
            self.sample(engine.session?.remoteFeeds.values.map { $0 } ?? [], viewModel?.activeCall?.participants ?? [:])
            if let every = self.ticksPerProgressLine, self.ticks % every == 0 { self.sayProgress() }
            if self.ticks % 5 == 0, let sent = engine.session?.sentVideo {
                self.sentVideo.append(.init(at: Date(), width: sent.size.width, height: sent.size.height, framerate: sent.framerate,
                                            cameraWidth: sent.cameraSize?.width, cameraHeight: sent.cameraSize?.height,
                                            videoKilobitsPerSecond: sent.bitrate.map { ($0 / 100).rounded() / 10 },
                                            targetKilobitsPerSecond: Double(sent.targetBitrate / 100) / 10,
                                            lossFraction: sent.lossFraction, roundTripSeconds: sent.roundTripTime,
                                            deliveredKilobitsPerSecond: sent.transport.map { ($0.deliveredBitrate / 100).rounded() / 10 },
                                            transportSentKilobitsPerSecond: sent.transport.map { ($0.sentBitrate / 100).rounded() / 10 },
                                            delayGrowthMilliseconds: sent.transport.map { ($0.delayGrowth * 10_000).rounded() / 10 }))
            }
        }
    }

    /// Takes a last sample and stops watching.
    func stop(engine: GStreamerCallMediaEngine, viewModel: CallViewModel?) {
        guard let timer else { return }
        timer.cancel()
        self.timer = nil
        frameSubscriptions = []
        sample(engine.session?.remoteFeeds.values.map { $0 } ?? [], viewModel?.activeCall?.participants ?? [:], final: true)
    }

    var report: [MediaReport.Remote] {
        order.compactMap { session in
            guard var record = remote[session] else { return nil }
            // Summed and sorted once, here: a peer in a long call has tens of thousands of readings.
            if let levels = audioLevels[session], !levels.isEmpty {
                record.audioLevelAverage = levels.reduce(0, +) / Double(levels.count)
                record.audioLevelMedian = levels.sorted()[levels.count / 2]
            }
            return record
        }
    }
    var screenReport: [MediaReport.RemoteScreen] { screenOrder.compactMap { screens[$0] } }

    private func receivedScreen(_ frame: VideoFrame, from feed: RemoteFeed) {
        let now = Date()
        var record = screenRecord(for: feed, at: now)
        if record.record(frame, at: now) {
            PeerSession.say("first screen frame from \(feed.userID): \(frame.width)x\(frame.height)")
        }
        screens[feed.id] = record
    }

    private func screenRecord(for feed: RemoteFeed, at now: Date) -> MediaReport.RemoteScreen {
        if let record = screens[feed.id] { return record }
        screenOrder.append(feed.id)
        PeerSession.say("receiving \(feed.userID)'s screen (session \(feed.sessionID))")
        return MediaReport.RemoteScreen(userID: feed.userID, sessionID: feed.sessionID, feedID: feed.id, firstSeenAt: now)
    }

    /// Screen feeds seen and gone, and who the call view model shows sharing.
    private func sampleScreens(_ feeds: [RemoteFeed], _ participants: [String: CallParticipant], at now: Date) {
        for feed in feeds { screens[feed.id] = screenRecord(for: feed, at: now) }
        let present = Set(feeds.map(\.id))
        for feedID in screenOrder where !present.contains(feedID) && screens[feedID]?.goneAt == nil {
            screens[feedID]?.goneAt = now
            PeerSession.say("screen from \(screens[feedID]?.userID ?? "\(feedID)") gone")
        }
        for participant in participants.values.sorted(by: { $0.joinedAt < $1.joinedAt })
        where participant.isScreensharing != (shownSharing[participant.sessionID] ?? false) {
            shownSharing[participant.sessionID] = participant.isScreensharing
            let size = participant.screenshareTrackSize.map { MediaReport.Size(width: $0.width, height: $0.height) }
            screensharingChanges.append(.init(at: now, userID: participant.user.id, sessionID: participant.sessionID,
                                              isScreensharing: participant.isScreensharing, screenshareTrackSize: size))
            // Printed too, so a test can wait for what the call told us (the report comes at the end).
            PeerSession.say("\(participant.user.id) shares a screen: \(participant.isScreensharing ? "yes" : "no")")
        }
        // A size known only after the first frame: note it once on the latest "sharing" entry.
        for (index, change) in screensharingChanges.enumerated().reversed() where change.isScreensharing && change.screenshareTrackSize == nil {
            guard shownSharing[change.sessionID] == true, let size = participants[change.sessionID]?.screenshareTrackSize else { continue }
            screensharingChanges[index] = .init(at: change.at, userID: change.userID, sessionID: change.sessionID, isScreensharing: true,
                                                screenshareTrackSize: MediaReport.Size(width: size.width, height: size.height))
        }
    }

    private func received(_ frame: VideoFrame, from feed: RemoteFeed) {
        let now = Date()
        var record = self.record(for: feed, at: now)
        if record.record(frame, decodedSize: feed.receivedVideoSize, at: now) {
            record.firstFrameAfterJoinSeconds = now.timeIntervalSince(joinRequestedAt)
            PeerSession.say("first frame from \(feed.userID) after \(now.timeIntervalSince(joinRequestedAt).text(decimals: 3)) s")
        }
        remote[feed.sessionID] = record
    }

    /// One line a script can read while the peer runs (the report only comes at the end):
    /// `frames received 1234 alice=600 bob=634`.
    private func sayProgress() {
        let perSender = order.compactMap { remote[$0] }.map { "\($0.userID)=\($0.framesReceived)" }
        let total = remote.values.reduce(0) { $0 + $1.framesReceived }
        PeerSession.say((["frames received \(total)"] + perSender).joined(separator: " "))
    }

    private func sample(_ allFeeds: [RemoteFeed], _ participants: [String: CallParticipant], final: Bool = false) {
        let now = Date()
        ticks += 1
        sampleScreens(allFeeds.filter(\.isScreenshare), participants, at: now)
        let feeds = allFeeds.filter { !$0.isScreenshare }
        let present = Set(feeds.map(\.sessionID))
        for feed in feeds {
            var record = self.record(for: feed, at: now)
            record.goneAt = nil
            // Counted per feed and added up: after a reconnection the participant's new feed
            // (or our new receiver of the same feed) counts from zero again — taking the larger
            // count hid seconds of audio after every reconnection.
            let seen = audioReadingsSeen[feed.id].map { $0 <= feed.audioReadings ? $0 : 0 } ?? 0
            let newReadings = feed.audioReadings - seen
            if newReadings > 0 {
                audioReadingsSeen[feed.id] = feed.audioReadings
                record.audioReadings += newReadings
                record.lastAudioAt = feed.lastAudioAt
                // Digital silence reads −∞ dB (which JSON cannot hold): it counts as the floor.
                let level = feed.audioLevel.isNaN ? nil : max(feed.audioLevel, Self.silenceFloor)
                if let level {
                    record.audioLevelLast = level
                    audioLevels[feed.sessionID, default: []].append(level)
                }
            }
            // What the call view model shows is what the app would show on the tile.
            if let participant = participants[feed.sessionID] {
                let media = participant.media
                let change = MediaReport.Change(at: now, hasVideo: participant.hasVideo, hasAudio: participant.hasAudio,
                                                isSpeaking: participant.isSpeaking)
                if let last = record.changes.last {
                    if (last.hasVideo, last.hasAudio, last.isSpeaking) != (change.hasVideo, change.hasAudio, change.isSpeaking) {
                        record.changes.append(change)
                    }
                } else {
                    record.changes.append(change)
                }
                if participant.isSpeaking, !record.seenSpeaking {
                    record.seenSpeaking = true
                    record.firstSpeakingAt = now
                    // A test waits for this line before it changes what the far end sends.
                    PeerSession.say("hearing \(feed.userID) speak")
                }
                record.connectionQuality = media.connectionQuality.rawValue
            }
            record.videoNacksSent = feed.videoNacksSent ?? record.videoNacksSent
            record.videoKeyframeRequestsSent = feed.videoKeyframeRequestsSent ?? record.videoKeyframeRequestsSent
            if ticks % 5 == 0 || final {
                record.samples.append(.init(at: now, framesReceived: record.framesReceived, audioReadings: record.audioReadings,
                                            width: feed.receivedVideoSize?.width, height: feed.receivedVideoSize?.height,
                                            framesPerSecond: feed.framesPerSecond,
                                            videoKilobitsPerSecond: feed.videoBitrate.map { ($0 / 100).rounded() / 10 }))
            }
            remote[feed.sessionID] = record
        }
        for sessionID in order where !present.contains(sessionID) && remote[sessionID]?.goneAt == nil {
            remote[sessionID]?.goneAt = now
            PeerSession.say("media from \(remote[sessionID]?.userID ?? sessionID) gone")
        }
    }

    private func record(for feed: RemoteFeed, at now: Date) -> MediaReport.Remote {
        if let record = remote[feed.sessionID] { return record }
        order.append(feed.sessionID)
        PeerSession.say("receiving \(feed.userID) (session \(feed.sessionID))")
        return MediaReport.Remote(userID: feed.userID, sessionID: feed.sessionID, feedID: feed.id, firstSeenAt: now)
    }
}
