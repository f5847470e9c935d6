import ConfabProtocol
import Foundation
import XCTest

/// Recording, backstage and broadcasting requests on a server without media (the Janus side is
/// covered by Production_EndToEndTests): state, events, refusals.
final class ProductionRequestTests: ServerTestCase {
    func test_stopLive_putsCallInBackstage_plainMemberRefusedHostAdmitted_goLiveLetsThemIn() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let call = cid("default:show")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))

        let backstage = try await alice.send(StopLiveRequest(cid: call))
        XCTAssertTrue(backstage.call.backstage)
        let refused = try await bob.sendExpectingError(JoinCallRequest(cid: call))
        XCTAssertEqual(refused.code, .forbidden)
        XCTAssertTrue(refused.message.contains("backstage"), refused.message)
        _ = try await alice.send(JoinCallRequest(cid: call))

        let live = try await alice.send(GoLiveRequest(cid: call))
        XCTAssertFalse(live.call.backstage)
        let event = try await bob.nextEvent(.callUpdated) { $0.changed?.call.backstage == false }
        XCTAssertEqual(event.changed?.call.backstage, false)
        _ = try await bob.send(JoinCallRequest(cid: call))
    }

    func test_startRecording_withoutMedia_setsRecordingStateForEveryone_stopClearsIt() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let call = cid("default:rec")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))

        let started = try await alice.send(StartRecordingRequest(cid: call))
        XCTAssertEqual(started.call.recordingState, .recording)
        let startEvent = try await bob.nextEvent(.recordingStarted)
        XCTAssertEqual(startEvent.changed?.call.recordingState, .recording)
        let again = try await alice.sendExpectingError(StartRecordingRequest(cid: call))
        XCTAssertEqual(again.code, .conflict)

        let stopped = try await alice.send(StopRecordingRequest(cid: call))
        XCTAssertEqual(stopped.call.recordingState, .noRecording)
        XCTAssertFalse(stopped.call.recording)
        let stopEvent = try await bob.nextEvent(.recordingStopped)
        XCTAssertEqual(stopEvent.changed?.call.recordingState, .noRecording)
    }

    func test_startBroadcasting_withoutMedia_isRefusedAndChangesNothing() async throws {
        let alice = try await connect("alice")
        let call = cid("default:cast")
        _ = try await alice.send(GetOrCreateCallRequest(cid: call))
        let error = try await alice.sendExpectingError(StartBroadcastingRequest(cid: call))
        XCTAssertEqual(error.code, .invalidRequest)
        XCTAssertTrue(error.message.contains("broadcast"), error.message)
        let state = try await alice.send(GetCallRequest(cid: call)).call
        XCTAssertFalse(state.broadcasting)
        XCTAssertNil(state.hlsPlaylistUrl)
        let stop = try await alice.sendExpectingError(StopBroadcastingRequest(cid: call))
        XCTAssertEqual(stop.code, .conflict)
    }

    func test_callState_withoutTheNewFields_decodesWithDefaults() throws {
        let json = """
            {"cid":"default:x","createdBy":"a","createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z",
             "backstage":false,"broadcasting":false,"recording":true,"members":[],"blockedUsers":[],"custom":{},
             "session":{"participants":[],"acceptedBy":{},"rejectedBy":{},"missedBy":[]},"ownCapabilities":[]}
            """
        let state = try ConfabJSON.decoder().decode(CallState.self, from: Data(json.utf8))
        XCTAssertEqual(state.recordingState, .recording)
        XCTAssertEqual(state.recordings, [])
        XCTAssertNil(state.hlsPlaylistUrl)
    }

    func test_recordingDownload_withoutAuth_isRefused_unknownBroadcast_isNotFound() async throws {
        let noAuth = try await HTTPGet.fetch("http://127.0.0.1:\(server.port)/recordings/default/rec/x.mkv")
        XCTAssertEqual(noAuth.status, 401)
        let unknown = try await HTTPGet.fetch("http://127.0.0.1:\(server.port)/live/0123456789abcdef0123456789abcdef/playlist.m3u8")
        XCTAssertEqual(unknown.status, 404)
    }
}
