import ConfabProtocol
@testable import ConfabServer
import Foundation
import XCTest

/// What every `CallStore` must do, written once and run against each engine
/// (`SQLiteCallStoreTests`, `PostgresCallStoreTests`). `open` gives a store on the engine's test
/// database; calling it again opens the same database anew (as a restarted server would).
enum CallStoreContract {
    typealias Open = () throws -> any CallStore

    static let when = Date(timeIntervalSince1970: 1_800_000_000.25)

    /// A call with every field set, in the shapes that are easy to get wrong: optional dates,
    /// members in an order that is not alphabetical, nested custom JSON, flags on.
    static func fullCall(_ id: String = "standup") -> StoredCall {
        var call = StoredCall(
            cid: CallID(type: .audioRoom, id: id), createdBy: "zoe", createdAt: when, updatedAt: when.addingTimeInterval(60.5))
        call.startsAt = when.addingTimeInterval(3600.125)
        call.endedAt = when.addingTimeInterval(7200)
        call.backstage = true
        call.broadcasting = true
        call.recording = true
        call.askToJoin = true
        call.upsertMember("zoe", role: .host, at: when)
        call.upsertMember("bob", role: .admin, at: when.addingTimeInterval(1))
        call.upsertMember("alice", role: .user, at: when.addingTimeInterval(2))
        call.blockedUsers = ["mallory", "eve"]
        call.custom = [
            "agenda": .array([.string("news"), .number(2.5), .null]),
            "room": .object(["floor": .number(3), "open": .bool(true), "name": .string("Zürich \"A\"")]),
        ]
        return call
    }

    static func savedCall_readsBackEqual_everyField(_ open: Open) throws {
        let store = try open()
        let call = fullCall()
        try store.save(call)
        XCTAssertEqual(try store.call(call.cid), call)
        var plain = StoredCall(cid: CallID(type: .default, id: "plain"), createdBy: "alice", createdAt: when, updatedAt: when)
        try store.save(plain)
        XCTAssertEqual(try store.call(plain.cid), plain, "no start, no end, no members, flags off")
    }

    static func unknownCall_isNil(_ open: Open) throws {
        let store = try open()
        try store.save(fullCall())
        XCTAssertNil(try store.call(CallID(type: .audioRoom, id: "other")))
        XCTAssertNil(try store.call(CallID(type: .default, id: "standup")), "the type is part of the id")
    }

    static func savedTwice_keepsOneCallWithTheLatestMembersAndFlags(_ open: Open) throws {
        let store = try open()
        var call = fullCall()
        try store.save(call)
        call.members.removeAll { $0.userId == "bob" }
        call.upsertMember("alice", role: .admin, at: when)
        call.blockedUsers = ["bob"]
        call.broadcasting = false
        call.askToJoin = false
        call.endedAt = nil
        call.updatedAt = when.addingTimeInterval(999)
        try store.save(call)
        let loaded = try XCTUnwrap(store.call(call.cid))
        XCTAssertEqual(loaded.members.map(\.userId), ["zoe", "alice"])
        XCTAssertEqual(loaded.role(of: "alice"), .admin)
        XCTAssertEqual(loaded.blockedUsers, ["bob"])
        XCTAssertFalse(loaded.broadcasting)
        XCTAssertFalse(loaded.askToJoin)
        XCTAssertNil(loaded.endedAt)
        XCTAssertEqual(loaded, call)
    }

    static func recordingsAndErrors_readBackInOrder_perCall_andSurviveSavingTheCall(_ open: Open) throws {
        let store = try open()
        let one = fullCall("one")
        let two = fullCall("two")
        try store.save(one)
        try store.save(two)
        let first = StoredRecording(fileName: "a.mkv", participant: "zoe", start: when, duration: 1.5, size: 10)
        let second = StoredRecording(fileName: "b.mkv", participant: "bob", start: when.addingTimeInterval(1), duration: 2, size: 5_000_000_000)
        try store.add([first], errors: ["e1"], to: one.cid)
        try store.add([second], errors: ["e2", "e3"], to: one.cid)
        try store.save(one)

        XCTAssertEqual(try store.recordings(of: one.cid), [first, second])
        XCTAssertEqual(try store.recordingErrors(of: one.cid), ["e1", "e2", "e3"])
        XCTAssertEqual(try store.recordings(of: two.cid), [])
        XCTAssertEqual(try store.recordingErrors(of: two.cid), [])
    }

    static func reopened_keepsEverything(_ open: Open) throws {
        let call = fullCall()
        let recording = StoredRecording(fileName: "a.mkv", participant: "zoe", start: when, duration: 1, size: 1)
        do {
            let store = try open()
            try store.save(call)
            try store.add([recording], errors: ["failed once"], to: call.cid)
            store.close()
        }
        let again = try open()
        XCTAssertEqual(try again.call(call.cid), call)
        XCTAssertEqual(try again.recordings(of: call.cid), [recording])
        XCTAssertEqual(try again.recordingErrors(of: call.cid), ["failed once"])
        XCTAssertTrue(again.isReachable())
    }

    static func chatMessages_readBackInOrder_perCall_pagedFromTheNewest_andSurviveReopening(_ open: Open) throws {
        let one = fullCall("one")
        let two = fullCall("two")
        var sent: [ChatMessage] = []
        do {
            let store = try open()
            try store.save(one)
            try store.save(two)
            for (index, text) in ["first", "Zürich \"A\" 👋", "", "fourth\nline"].enumerated() {
                sent.append(try store.addChatMessage(
                    to: one.cid, userId: index.isMultiple(of: 2) ? "zoe" : "bob", sessionId: index == 3 ? nil : "s\(index)",
                    text: text, at: when.addingTimeInterval(Double(index) + 0.125)))
            }
            _ = try store.addChatMessage(to: two.cid, userId: "alice", sessionId: "t", text: "elsewhere", at: when)
            // Saving the call again (members, flags) keeps its messages.
            try store.save(one)
            XCTAssertEqual(try store.chatMessages(of: one.cid, before: nil, limit: 10), sent)
            store.close()
        }
        let store = try open()
        XCTAssertEqual(zip(sent, sent.dropFirst()).allSatisfy { $0.id < $1.id }, true, "ids grow")
        XCTAssertEqual(try store.chatMessages(of: one.cid, before: nil, limit: 10), sent, "kept across a reopen")
        XCTAssertEqual(try store.chatMessages(of: one.cid, before: nil, limit: 2), Array(sent[2...3]), "the newest, oldest first")
        XCTAssertEqual(try store.chatMessages(of: one.cid, before: sent[2].id, limit: 10), Array(sent[0...1]))
        XCTAssertEqual(try store.chatMessages(of: two.cid, before: nil, limit: 10).map(\.text), ["elsewhere"])
        XCTAssertEqual(try store.chatMessages(of: CallID(type: .default, id: "none"), before: nil, limit: 10), [])
    }
}
