import ConfabProtocol
import Foundation
import XCTest

/// `GET /ready` and `GET /metrics` of a running server (no managed Janus here; see
/// `ManagedJanusTests` and `PostgresServerTests` for Janus and a database that goes away).
final class OperationsTests: ServerTestCase {
    func test_metrics_countTheTestsRingsJoinsAndErrors_andShowWhoIsConnectedAndInCalls() async throws {
        // Given a server that has already answered other clients (the counters are cumulative)
        let before = try await Metrics.fetch(port: server.port)
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        let cid = cid("default:metrics")

        // When alice rings bob, bob answers and both join, and bob asks for a call that does not exist
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid, members: [MemberRequest(userId: "bob")], ring: true))
        _ = try await bob.nextEvent(.callRing)
        _ = try await alice.send(RingCallRequest(cid: cid, memberIds: ["bob"]))
        _ = try await bob.send(AcceptCallRequest(cid: cid))
        _ = try await alice.send(JoinCallRequest(cid: cid))
        _ = try await bob.send(JoinCallRequest(cid: cid))
        _ = try await alice.send(JoinCallRequest(cid: cid))  // the same connection again: not a new join
        let refused = try await bob.sendExpectingError(GetCallRequest(cid: self.cid("default:nowhere")))
        XCTAssertEqual(refused.code, .callNotFound)

        // Then the metrics count two rings, two joins and one callNotFound, and see the call in use
        let after = try await Metrics.fetch(port: server.port)
        XCTAssertEqual(after["confab_rings_total"], (before["confab_rings_total"] ?? 0) + 2)
        XCTAssertEqual(after["confab_joins_total"], (before["confab_joins_total"] ?? 0) + 2)
        XCTAssertEqual(
            after[#"confab_errors_total{code="callNotFound"}"#], (before[#"confab_errors_total{code="callNotFound"}"#] ?? 0) + 1)
        XCTAssertEqual(after["confab_connections"], 2)
        XCTAssertEqual(after["confab_calls_active"], 1)
        XCTAssertEqual(after["confab_participants"], 2)
        XCTAssertEqual(after["confab_database_up"], 1)
        XCTAssertNil(after["confab_janus_up"], "no managed Janus, so no claim about one")
    }

    func test_ready_withItsDatabaseAndNoManagedJanus_is200_andSaysWhatWasChecked() async throws {
        let (status, body) = try await HTTPGet.fetch("http://127.0.0.1:\(server.port)/ready")
        XCTAssertEqual(status, 200)
        let readiness = try ConfabJSON.decoder().decode(ReadinessStatus.self, from: body)
        XCTAssertEqual(readiness, ReadinessStatus(database: .ok, janus: .notChecked))
        XCTAssertTrue(readiness.ready)
    }
}

/// Prometheus's text format read into `name{labels}` → value (comments and types skipped).
enum Metrics {
    static func fetch(port: Int) async throws -> [String: Double] {
        let (status, body) = try await HTTPGet.fetch("http://127.0.0.1:\(port)/metrics")
        guard status == 200 else { throw TestClient.Failure.unexpected("/metrics answered \(status)") }
        var values: [String: Double] = [:]
        for line in String(decoding: body, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
        return values
    }
}
