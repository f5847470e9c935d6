import ConfabCore
import ConfabMedia
import Foundation
import GLibBridge

/// Watches what the media engine receives and what the call view model shows, and keeps the
/// `remote` part of the media report: frames and their centre colour as they arrive, and every
/// 100 ms the audio readings, speaking, hasVideo/hasAudio and connection quality.
@MainActor
final class RemoteMediaRecorder {
    private(set) var remote: [String: MediaReport.Remote] = [:]
    /// Sessions in the order first seen, so the report lists them that way.
    private var order: [String] = []
    private var audioLevelSums: [String: (total: Double, count: Int)] = [:]
    private var timer: RepeatingTimer?
    private var ticks = 0
    private let joinRequestedAt: Date

    init(joinRequestedAt: Date) {
        self.joinRequestedAt = joinRequestedAt
    }

    func start(engine: GStreamerCallMediaEngine, viewModel: CallViewModel) {
        engine.onRemoteFrame = { [weak self, weak engine] sessionID, frame in
            guard let self, let feed = engine?.session?.remoteFeeds.values.first(where: { $0.sessionID == sessionID }) else { return }
            self.received(frame, from: feed)
        }
        timer = RepeatingTimer(interval: 0.1) { [weak self, weak engine, weak viewModel] in
            guard let self, let engine, let viewModel else { return }
            self.sample(engine.session?.remoteFeeds.values.map { $0 } ?? [], viewModel.callParticipants)
        }
    }

    /// Takes a last sample and stops watching.
    func stop(engine: GStreamerCallMediaEngine, viewModel: CallViewModel) {
        guard let timer else { return }
        timer.cancel()
        self.timer = nil
        engine.onRemoteFrame = nil
        sample(engine.session?.remoteFeeds.values.map { $0 } ?? [], viewModel.callParticipants, final: true)
    }

    var report: [MediaReport.Remote] { order.compactMap { remote[$0] } }

    private func received(_ frame: VideoFrame, from feed: RemoteFeed) {
        let now = Date()
        var record = self.record(for: feed, at: now)
        record.framesReceived += 1
        if record.firstFrameAt == nil {
            record.firstFrameAt = now
            record.firstFrameAfterJoinSeconds = now.timeIntervalSince(joinRequestedAt)
            PeerSession.say("first frame from \(feed.userID) after \(String(format: "%.3f", now.timeIntervalSince(joinRequestedAt))) s")
        }
        record.lastFrameAt = now
        if let pixel = frame.pixel(x: frame.width / 2, y: frame.height / 2) {
            record.centerPixel = MediaReport.Color(red: Int(pixel.red), green: Int(pixel.green), blue: Int(pixel.blue))
        }
        record.videoSize = MediaReport.Size(width: frame.width, height: frame.height)
        if let first = record.firstFrameAt, record.framesReceived > 1 {
            let span = now.timeIntervalSince(first)
            if span > 0 { record.averageFPS = Double(record.framesReceived - 1) / span }
        }
        remote[feed.sessionID] = record
    }

    private func sample(_ feeds: [RemoteFeed], _ participants: [String: CallParticipant], final: Bool = false) {
        let now = Date()
        ticks += 1
        let present = Set(feeds.map(\.sessionID))
        for feed in feeds {
            var record = self.record(for: feed, at: now)
            record.goneAt = nil
            if feed.audioReadings > record.audioReadings {
                record.audioReadings = feed.audioReadings
                record.lastAudioAt = feed.lastAudioAt
                if feed.audioLevel.isFinite {
                    record.audioLevelLast = feed.audioLevel
                    let sum = audioLevelSums[feed.sessionID, default: (0, 0)]
                    audioLevelSums[feed.sessionID] = (sum.total + feed.audioLevel, sum.count + 1)
                    record.audioLevelAverage = (sum.total + feed.audioLevel) / Double(sum.count + 1)
                }
            }
            // What the call view model shows is what the app would show on the tile.
            if let media = participants[feed.sessionID]?.media {
                let change = MediaReport.Change(at: now, hasVideo: media.hasVideo, hasAudio: media.hasAudio, isSpeaking: media.isSpeaking)
                if let last = record.changes.last {
                    if (last.hasVideo, last.hasAudio, last.isSpeaking) != (change.hasVideo, change.hasAudio, change.isSpeaking) {
                        record.changes.append(change)
                    }
                } else {
                    record.changes.append(change)
                }
                if media.isSpeaking, !record.seenSpeaking {
                    record.seenSpeaking = true
                    record.firstSpeakingAt = now
                }
                record.connectionQuality = media.connectionQuality.rawValue
            }
            if ticks % 5 == 0 || final {
                record.samples.append(.init(at: now, framesReceived: record.framesReceived, audioReadings: record.audioReadings))
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
