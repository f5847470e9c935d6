import ConfabProtocol
import Foundation
import XCTest

final class HealthTests: ServerTestCase {
    override var healthCheckInterval: Duration { .milliseconds(200) }

    func test_runningServer_whenHealthCheckRequested_answersWithServerTime() async throws {
        let alice = try await connect("alice")
        let before = Date().addingTimeInterval(-1)
        let response = try await alice.send(HealthCheckRequest())
        XCTAssertGreaterThan(response.serverTime, before)
    }

    func test_connectedClient_whenIdle_receivesPeriodicHealthCheckEvents() async throws {
        let alice = try await connect("alice")
        let connectionId = await alice.connectionId
        let first = try await alice.nextEvent(.healthCheck)
        let second = try await alice.nextEvent(.healthCheck)
        guard case .healthCheck(let a) = first, case .healthCheck(let b) = second else { return XCTFail("not health checks") }
        XCTAssertEqual(a.connectionId, connectionId)
        XCTAssertLessThan(a.serverTime, b.serverTime)
    }

    func test_participantWhoseClientFreezes_whenHeartbeatsGoUnanswered_isDroppedAndOthersSeeItLeave() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:frozen"), members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid("default:frozen")))
        _ = try await bob.send(JoinCallRequest(cid: cid("default:frozen")))
        await bob.freeze()
        let left = try await alice.nextEvent(.participantLeft)
        guard case .participantLeft(let event) = left else { return XCTFail("not a left event") }
        XCTAssertEqual(event.participant.userId, "bob")
        XCTAssertEqual(event.reason, .disconnected)
    }

    func test_httpHealthEndpoint_whenFetched_answers200WithJSONStatus() async throws {
        let (status, body) = try await HTTPGet.fetch("http://127.0.0.1:\(server.port)/health")
        XCTAssertEqual(status, 200)
        let health = try ConfabJSON.decoder().decode(HealthStatus.self, from: body)
        XCTAssertEqual(health.status, "ok")
        XCTAssertEqual(health.protocolVersion, ProtocolVersion.current)
    }
}
