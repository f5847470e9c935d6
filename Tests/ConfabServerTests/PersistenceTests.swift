import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// What survives a restart: calls, members, blocked users. What does not: sessions.
final class PersistenceTests: XCTestCase {
    private var directory: URL!

    override func setUp() async throws {
        directory = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func test_serverRestart_keepsCallsMembersBlockedUsersAndCustomButNotSessions() async throws {
        let cid = CallID(type: .audioRoom, id: "townhall")
        let startsAt = Date(timeIntervalSince1970: 1_900_000_123.5)
        let first = try await TestServer.start(directory: directory)
        let alice = try await first.client("alice")
        _ = try await alice.send(GetOrCreateCallRequest(
            cid: cid, members: [MemberRequest(userId: "bob", role: .admin), MemberRequest(userId: "carol")],
            custom: ["agenda": .array([.string("news"), .number(2)]), "open": .bool(true)], startsAt: startsAt))
        _ = try await alice.send(BlockUserRequest(cid: cid, userId: "mallory"))
        _ = try await alice.send(StartRecordingRequest(cid: cid))
        _ = try await alice.send(JoinCallRequest(cid: cid))
        let before = try await alice.send(GetCallRequest(cid: cid)).call
        await alice.close()
        await first.stop()

        let second = try await TestServer.start(directory: directory)
        let aliceAgain = try await second.client("alice")
        let after = try await aliceAgain.send(GetCallRequest(cid: cid)).call
        XCTAssertEqual(after.members, before.members)
        XCTAssertEqual(after.members.map(\.role), [.host, .admin, .user])
        XCTAssertEqual(after.blockedUsers, ["mallory"])
        XCTAssertEqual(after.custom, before.custom)
        XCTAssertEqual(after.createdBy, "alice")
        XCTAssertEqual(after.createdAt.timeIntervalSince1970, before.createdAt.timeIntervalSince1970, accuracy: 0.001)
        XCTAssertEqual(after.startsAt, startsAt)
        XCTAssertTrue(after.recording)
        XCTAssertEqual(after.session.participants, [], "sessions are runtime state")
        XCTAssertEqual(before.session.participants.count, 1)
        let mallory = try await second.client("mallory")
        let refused = try await mallory.sendExpectingError(JoinCallRequest(cid: cid))
        XCTAssertEqual(refused.code, .blockedFromCall)
        await aliceAgain.close()
        await mallory.close()
        await second.stop()
    }

    func test_endedCall_afterRestart_isStillEnded() async throws {
        let cid = CallID(type: .default, id: "done")
        let first = try await TestServer.start(directory: directory)
        let alice = try await first.client("alice")
        _ = try await alice.send(JoinCallRequest(cid: cid, create: true))
        _ = try await alice.send(EndCallRequest(cid: cid))
        await alice.close()
        await first.stop()

        let second = try await TestServer.start(directory: directory)
        let bob = try await second.client("bob")
        let error = try await bob.sendExpectingError(JoinCallRequest(cid: cid))
        XCTAssertEqual(error.code, .callEnded)
        await bob.close()
        await second.stop()
    }

    func test_sqliteStore_savedTwice_keepsOneRowWithTheLatestMembers() throws {
        let store = try SQLiteCallStore(path: directory.appendingPathComponent("store.sqlite").path)
        let now = Date()
        var call = StoredCall(cid: CallID(type: .default, id: "x"), createdBy: "alice", createdAt: now, updatedAt: now)
        call.upsertMember("alice", role: .host, at: now)
        call.upsertMember("bob", role: .user, at: now)
        try store.save(call)
        call.members.removeAll { $0.userId == "bob" }
        call.blockedUsers = ["bob"]
        try store.save(call)
        let loaded = try XCTUnwrap(store.call(call.cid))
        XCTAssertEqual(loaded.members.map(\.userId), ["alice"])
        XCTAssertEqual(loaded.blockedUsers, ["bob"])
        XCTAssertNil(try store.call(CallID(type: .default, id: "other")))
    }
}
