import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// What survives a restart: calls, members, blocked users, finished recordings and recording
/// errors. What does not: sessions and broadcasts.
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

    func test_serverRestart_keepsChatHistoryAndTheWaitingRoomSetting_butNotHands() async throws {
        let cid = CallID(type: .default, id: "chatty")
        let first = try await TestServer.start(directory: directory)
        let alice = try await first.client("alice")
        let bob = try await first.client("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid, members: [MemberRequest(userId: "bob")], askToJoin: true))
        _ = try await alice.send(JoinCallRequest(cid: cid))
        _ = try await bob.send(JoinCallRequest(cid: cid))
        let sent = [
            try await alice.send(SendChatMessageRequest(cid: cid, text: "agenda: 1. news")).message,
            try await bob.send(SendChatMessageRequest(cid: cid, text: "👍 sounds good")).message,
        ]
        _ = try await bob.send(RaiseHandRequest(cid: cid))
        await alice.close()
        await bob.close()
        await first.stop()

        let second = try await TestServer.start(directory: directory)
        let bobAgain = try await second.client("bob")
        let history = try await bobAgain.send(GetChatHistoryRequest(cid: cid))
        let rejoined = try await bobAgain.send(JoinCallRequest(cid: cid)).call
        let next = try await bobAgain.send(SendChatMessageRequest(cid: cid, text: "back")).message
        await bobAgain.close()
        await second.stop()

        XCTAssertEqual(history.messages, sent)
        XCTAssertTrue(rejoined.askToJoin)
        XCTAssertEqual(rejoined.session.participants.compactMap(\.raisedHand), [], "hands are live state")
        XCTAssertGreaterThan(next.id, sent[1].id, "ids keep growing after a restart")
    }

    func test_endedCall_afterRestart_isStillEnded() async throws {
        let cid = CallID(type: .default, id: "done")
        let first = try await TestServer.start(directory: directory)
        let alice = try await first.client("alice")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid, members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: cid))
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

    func test_finishedRecording_afterRestart_isListedAndItsFileDownloads() async throws {
        // Given a call with a converted recording on disk, entered while the server was down
        let cid = CallID(type: .default, id: "rec")
        let first = try await TestServer.start(directory: directory)
        let alice = try await first.client("alice")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid))
        await alice.close()
        await first.stop()
        let fileName = "alice-20240101T120000-beef.mkv"
        let contents = Data("not really matroska".utf8)
        let callFolder = directory.appendingPathComponent("recordings").appendingPathComponent("default_rec")
        try FileManager.default.createDirectory(at: callFolder, withIntermediateDirectories: true)
        try contents.write(to: callFolder.appendingPathComponent(fileName))
        let start = Date(timeIntervalSince1970: 1_704_110_400)
        try storeOnDisk().add(
            [StoredRecording(fileName: fileName, participant: "alice", start: start, duration: 12.5, size: contents.count)],
            errors: [], to: cid)

        // When the server starts again
        let second = try await TestServer.start(directory: directory)
        let aliceAgain = try await second.client("alice")
        let call = try await aliceAgain.send(GetCallRequest(cid: cid)).call

        // Then the call lists the recording with a URL on this server that serves the file
        let recording = try XCTUnwrap(call.recordings.first)
        XCTAssertEqual(call.recordings.count, 1)
        XCTAssertEqual(recording.participant, "alice")
        XCTAssertEqual(recording.start, start)
        XCTAssertEqual(recording.duration, 12.5)
        XCTAssertEqual(recording.size, contents.count)
        XCTAssertEqual(recording.downloadURL, "http://127.0.0.1:\(second.port)/recordings/default/rec/\(fileName)")
        let download = try await HTTPGet.fetch(recording.downloadURL + "?user=alice")
        XCTAssertEqual(download.status, 200)
        XCTAssertEqual(download.body, contents)
        await aliceAgain.close()
        await second.stop()
    }

    func test_recordingErrors_afterRestart_areListed() async throws {
        let cid = CallID(type: .default, id: "broken")
        let first = try await TestServer.start(directory: directory)
        let alice = try await first.client("alice")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid))
        await alice.close()
        await first.stop()
        try storeOnDisk().add([], errors: ["Janus could not start recording: gone"], to: cid)
        try storeOnDisk().add([], errors: ["conversion failed for publisher 7"], to: cid)

        let second = try await TestServer.start(directory: directory)
        let aliceAgain = try await second.client("alice")
        let call = try await aliceAgain.send(GetCallRequest(cid: cid)).call

        XCTAssertEqual(call.recordingErrors, ["Janus could not start recording: gone", "conversion failed for publisher 7"])
        XCTAssertEqual(call.recordings, [])
        await aliceAgain.close()
        await second.stop()
    }

    func test_broadcastingCall_afterRestart_isNotBroadcastingAndHasNoPlaylist() async throws {
        // Given a call the store says is broadcasting (the server stopped mid-broadcast)
        let cid = CallID(type: .default, id: "show")
        let first = try await TestServer.start(directory: directory)
        let alice = try await first.client("alice")
        _ = try await alice.send(GetOrCreateCallRequest(cid: cid))
        await alice.close()
        await first.stop()
        let store = try storeOnDisk()
        var stored = try XCTUnwrap(store.call(cid))
        stored.broadcasting = true
        try store.save(stored)

        // When the server starts again
        let second = try await TestServer.start(directory: directory)
        let aliceAgain = try await second.client("alice")
        let call = try await aliceAgain.send(GetCallRequest(cid: cid)).call

        // Then nothing claims a broadcast whose pipeline went with the old process
        XCTAssertFalse(call.broadcasting)
        XCTAssertNil(call.hlsPlaylistUrl)
        XCTAssertEqual(try store.call(cid)?.broadcasting, false, "the cleared flag is saved too")
        await aliceAgain.close()
        await second.stop()
    }

    /// The store the test servers use, opened beside them (as a second process would).
    private func storeOnDisk() throws -> SQLiteCallStore {
        try SQLiteCallStore(path: directory.appendingPathComponent("server.sqlite").path)
    }
}
