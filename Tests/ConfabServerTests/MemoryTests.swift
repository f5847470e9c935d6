import ConfabProtocol
import Foundation
import XCTest

/// Memory that returns to its baseline (issue 16, item 7): calls nobody uses any more leave the
/// coordinator's maps; the database keeps them. Counted with `GET /health`'s in-memory figures.
final class MemoryTests: ServerTestCase {
    private func inMemory() async throws -> (calls: Int, sessions: Int) {
        let (status, body) = try await HTTPGet.fetch("http://127.0.0.1:\(server.port)/health")
        XCTAssertEqual(status, 200)
        let health = try ConfabJSON.decoder().decode(HealthStatus.self, from: body)
        return (try XCTUnwrap(health.callsInMemory), try XCTUnwrap(health.sessionsInMemory))
    }

    func test_200CallsCreatedJoinedAndEnded_leaveNoCallOrSessionInMemory() async throws {
        let alice = try await connect("alice")
        for index in 0..<200 {
            let call = cid("default:cycle-\(index)")
            _ = try await alice.send(GetOrCreateCallRequest(cid: call, members: [MemberRequest(userId: "bob")]))
            _ = try await alice.send(JoinCallRequest(cid: call))
            _ = try await alice.send(EndCallRequest(cid: call))
        }
        try await alice.barrier()
        let counts = try await inMemory()
        XCTAssertEqual(counts.calls, 0)
        XCTAssertEqual(counts.sessions, 0)
    }

    func test_idleCalls_leaveMemoryWhenTheirLastWatcherDisconnects_andAreStillThereToRead() async throws {
        let alice = try await connect("alice")
        for index in 0..<50 {
            _ = try await alice.send(GetOrCreateCallRequest(
                cid: cid("default:idle-\(index)"), members: [MemberRequest(userId: "bob")], custom: ["n": .number(Double(index))]))
        }
        let whileWatched = try await inMemory()
        XCTAssertEqual(whileWatched.calls, 50)
        await alice.close()

        let bob = try await connect("bob")
        // alice's disconnect is handled on the server's own time: poll with a deadline.
        let deadline = ContinuousClock.now + .seconds(5)
        var counts = try await inMemory()
        while counts.calls > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            counts = try await inMemory()
        }
        XCTAssertEqual(counts.calls, 0)
        XCTAssertEqual(counts.sessions, 0)
        // Out of memory is not gone: the store has it.
        let read = try await bob.send(GetCallRequest(cid: cid("default:idle-7")))
        XCTAssertEqual(read.call.custom["n"], .number(7))
        XCTAssertEqual(read.call.createdBy, "alice")
    }

    func test_callRecordedWithoutAMediaServer_leavesMemoryWhenNobodyUsesIt_andStillSaysRecording() async throws {
        // Without Janus a recording is only the stored flag: nothing runs that memory must hold.
        // Found by fuzz-coordinator (seed 1): such calls stayed in memory for good.
        let alice = try await connect("alice")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid("default:flagged")))
        _ = try await alice.send(StartRecordingRequest(cid: cid("default:flagged")))
        await alice.close()

        let deadline = ContinuousClock.now + .seconds(5)
        var counts = try await inMemory()
        while counts.calls > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            counts = try await inMemory()
        }

        XCTAssertEqual(counts.calls, 0)
        let again = try await connect("alice")
        let read = try await again.send(GetCallRequest(cid: cid("default:flagged")))
        XCTAssertTrue(read.call.recording)
        XCTAssertEqual(read.call.recordingState, .recording)
    }

    func test_callWithAParticipant_staysInMemory() async throws {
        let alice = try await connect("alice")
        _ = try await alice.send(JoinCallRequest(cid: cid("default:busy"), create: true))
        let counts = try await inMemory()
        XCTAssertEqual(counts.calls, 1)
        XCTAssertEqual(counts.sessions, 1)
    }
}
