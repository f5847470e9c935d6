import ConfabProtocol
@testable import ConfabServer
import Foundation
import GRDB
import XCTest

/// A database written before calls had link secrets (schema v2) is migrated: every call gets a
/// secret of its own, so old calls are private and have a link like new ones (issue 16, item 8).
final class LinkSecretMigrationTests: XCTestCase {
    private var directory: URL!

    override func setUp() async throws {
        directory = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func test_callsFromBeforeLinkSecrets_eachGetAFreshSecretOnOpening() throws {
        let path = directory.appendingPathComponent("old.sqlite").path
        try writeVersion2Database(at: path, callIDs: ["default:standup", "default:retro"])

        let store = try SQLiteCallStore(path: path)
        let standup = try XCTUnwrap(store.call(CallID(type: .default, id: "standup")))
        let retro = try XCTUnwrap(store.call(CallID(type: .default, id: "retro")))

        XCTAssertNotNil(CallLinkSecret(stored: standup.linkSecret.text))
        XCTAssertNotEqual(standup.linkSecret, retro.linkSecret)
        XCTAssertEqual(standup.members.map(\.userId), ["alice"])
    }

    /// The v1 and v2 schema as SQLiteCallStore made them, marked as migrated, with calls whose
    /// host is alice.
    private func writeVersion2Database(at path: String, callIDs: [String]) throws {
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1: calls, members, blocked users');
                INSERT INTO grdb_migrations VALUES ('v2: finished recordings and recording errors');
                CREATE TABLE call (
                    cid TEXT PRIMARY KEY NOT NULL, createdBy TEXT NOT NULL, createdAt DOUBLE NOT NULL,
                    updatedAt DOUBLE NOT NULL, startsAt DOUBLE, endedAt DOUBLE, backstage BOOLEAN NOT NULL,
                    broadcasting BOOLEAN NOT NULL, recording BOOLEAN NOT NULL, custom TEXT NOT NULL);
                CREATE TABLE callMember (
                    cid TEXT NOT NULL REFERENCES call(cid) ON DELETE CASCADE, userId TEXT NOT NULL, role TEXT NOT NULL,
                    createdAt DOUBLE NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (cid, userId));
                CREATE TABLE callBlockedUser (
                    cid TEXT NOT NULL REFERENCES call(cid) ON DELETE CASCADE, userId TEXT NOT NULL,
                    position INTEGER NOT NULL, PRIMARY KEY (cid, userId));
                CREATE TABLE callRecording (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, cid TEXT NOT NULL REFERENCES call(cid) ON DELETE CASCADE,
                    fileName TEXT NOT NULL, participant TEXT NOT NULL, start DOUBLE NOT NULL, duration DOUBLE NOT NULL,
                    size INTEGER NOT NULL);
                CREATE TABLE callRecordingError (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, cid TEXT NOT NULL REFERENCES call(cid) ON DELETE CASCADE,
                    message TEXT NOT NULL);
                """)
            for cid in callIDs {
                try db.execute(
                    sql: "INSERT INTO call VALUES (?, 'alice', 1700000000, 1700000000, NULL, NULL, 0, 0, 0, '{}')", arguments: [cid])
                try db.execute(sql: "INSERT INTO callMember VALUES (?, 'alice', 'host', 1700000000, 0)", arguments: [cid])
            }
        }
    }
}
