import ArgumentParser
import ConfabClient
import ConfabCore
import ConfabMedia
import Dispatch
import FoundationEssentials
import GLibBridge
import Glibc
import JanusProtocol
import Logging
import ProcessSignals

/// One `confab-peer janus` run: the app's media engine pointed at a plain VideoRoom, with no
/// coordinator and no call view model. Everything the engine receives is recorded as a
/// coordinator call's peer records it.
@MainActor
final class JanusRoomPeer {
    private let plan: JanusRoomPlan
    private let engine: GStreamerCallMediaEngine
    private let recorder: RemoteMediaRecorder
    private var report: JanusRoomReport
    private var stopReason: String?
    private var failure: String?

    /// Joins, stays, leaves and writes the report; throws an exit code when something failed.
    static func run(_ plan: JanusRoomPlan, media settings: PeerMediaSettings) async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = plan.verbose ? .debug : .warning
            return handler
        }
        let peer = JanusRoomPeer(plan: plan, settings: settings)
        peer.stopOnSignals()
        await peer.run(joiningWithVideo: !settings.joinCameraOff)
        do {
            try peer.writeReport()
        } catch {
            PeerSession.say("could not write the report: \(error)")
            throw ExitCode(2)
        }
        if let failure = peer.failure {
            PeerSession.say("error: \(failure)")
            throw ExitCode(1)
        }
    }

    private init(plan: JanusRoomPlan, settings: PeerMediaSettings) {
        GStreamer.initialize()
        CallMediaWarmUp.start(joiningAtOnce: true)
        self.plan = plan
        let devices = PeerTestDevices(settings: settings)
        let joining = devices.joining(withoutDevices: settings.joinWithoutDevices)
        engine = GStreamerCallMediaEngine(deviceSource: devices.source, userID: plan.display, iceAddress: settings.mediaAddress) { _ in joining }
        engine.plainDisplay = plan.display
        engine.configure(for: settings)
        let requestedAt = Date()
        recorder = RemoteMediaRecorder(joinRequestedAt: requestedAt)
        let hex = settings.color.red.hexText(digits: 2) + settings.color.green.hexText(digits: 2) + settings.color.blue.hexText(digits: 2)
        var media = MediaReport(sent: .init(color: hex, tone: settings.tone, volume: settings.volume, mediaAddress: settings.mediaAddress))
        media.joinRequestedAt = requestedAt
        report = JanusRoomReport(url: plan.url, room: plan.room, display: plan.display, media: media)
    }

    private func run(joiningWithVideo video: Bool) async {
        do {
            if plan.createRoom { try await createRoomIfMissing() }
            recorder.start(engine: engine, viewModel: nil)
            // The engine is the app's, made for coordinator calls: it wants a call id (used only
            // in its logs) and our coordinator session (to skip our own feeds; none here).
            let placeholder = CallID(type: .default, id: "janus-room-\(plan.room)")
            try await engine.start(call: placeholder, endpoint: MediaEndpointInfo(url: plan.url, room: plan.room, token: ""),
                                   sessionID: "janus-peer-\(getpid())", settings: CallSettings(audioOn: true, videoOn: video),
                                   onUpdate: { _ in }, onFailure: { [weak self] reason in self?.fail(reason) })
            report.media.connectedAt = Date()
            PeerSession.say("published in room \(plan.room) as \(plan.display)")
            let deadline = plan.duration.map { ContinuousClock.now + $0 }
            while stopReason == nil, failure == nil, deadline.map({ ContinuousClock.now < $0 }) ?? true {
                try? await Task.sleep(for: .milliseconds(50))
            }
        } catch {
            fail("\(error)")
        }
        recorder.stop(engine: engine, viewModel: nil)
        await engine.stop()
        report.media.remote = recorder.report
        report.media.sentVideo = recorder.sentVideo
        PeerSession.say(stopReason ?? "left room \(plan.room)")
    }

    /// `exists`, then `create` when it does not: a plain room anyone can join (no token, no
    /// secret), VP8 and Opus as Confab sends them. Another peer creating it meanwhile is fine.
    private func createRoomIfMissing() async throws {
        let janus = JanusSession(url: plan.url)
        defer { Task { await janus.close() } }
        try await janus.connect()
        let handle = try await janus.attachVideoRoom()
        guard try await handle.request(.exists(room: plan.room)).data.exists != true else { return }
        let options = VideoRoomOptions(description: "confab-peer \(plan.display)", publishers: 16, audioCodec: "opus", videoCodec: "vp8")
        do {
            _ = try await handle.request(.create(room: plan.room, options: options))
            PeerSession.say("created room \(plan.room)")
        } catch let error as JanusError where error.pluginErrorCode == JanusError.roomExists {
            // Created by someone else between our two requests.
        }
    }

    private func fail(_ reason: String) {
        if failure == nil { failure = reason }
    }

    /// SIGINT/SIGTERM end the stay: the peer still leaves the room and writes its report.
    private func stopOnSignals() {
        StopSignals.process.whenStopAsked { [weak self] _ in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.stopReason = "stopping" } }
        }
    }

    private func writeReport() throws {
        guard let destination = plan.report else { return }
        if failure != nil { report.error = failure }
        let json = try report.json()
        if destination == "-" {
            StandardOutput.write(json + Data("\n".utf8))
        } else {
            try json.write(to: URL(fileURLWithPath: destination), options: .atomic)
        }
    }
}
