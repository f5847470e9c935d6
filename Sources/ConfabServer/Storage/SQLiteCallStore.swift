import ConfabProtocol
import Foundation
import GRDB

/// `CallStore` on an SQLite file through GRDB.
final class SQLiteCallStore: CallStore {
    private let database: DatabaseQueue

    /// Opens (creating if needed) the database at `path`, brings its schema up to date and
    /// proves it can write, so that a server that cannot keep anything never says "listening".
    ///
    /// SQLite opens a file it may not write read-only without a word, and a migrated database
    /// needs no write to migrate: before this check the first call request was the first to
    /// find out, with `internalError`.
    init(path: String) throws(DatabaseStartError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            database = try DatabaseQueue(path: path)
            try Self.migrator.migrate(database)
            try database.write { db in
                // A real write in a transaction that leaves nothing behind.
                try db.execute(sql: "CREATE TABLE startupWriteCheck (x INTEGER); DROP TABLE startupWriteCheck;")
            }
        } catch {
            throw DatabaseStartError.notWritable(path: path, reason: "\(error)")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: calls, members, blocked users") { db in
            try db.execute(sql: """
                CREATE TABLE call (
                    cid TEXT PRIMARY KEY NOT NULL,
                    createdBy TEXT NOT NULL,
                    createdAt DOUBLE NOT NULL,
                    updatedAt DOUBLE NOT NULL,
                    startsAt DOUBLE,
                    endedAt DOUBLE,
                    backstage BOOLEAN NOT NULL,
                    broadcasting BOOLEAN NOT NULL,
                    recording BOOLEAN NOT NULL,
                    custom TEXT NOT NULL
                );
                CREATE TABLE callMember (
                    cid TEXT NOT NULL REFERENCES call(cid) ON DELETE CASCADE,
                    userId TEXT NOT NULL,
                    role TEXT NOT NULL,
                    createdAt DOUBLE NOT NULL,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (cid, userId)
                );
                CREATE TABLE callBlockedUser (
                    cid TEXT NOT NULL REFERENCES call(cid) ON DELETE CASCADE,
                    userId TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (cid, userId)
                );
                """)
        }
        migrator.registerMigration("v2: finished recordings and recording errors") { db in
            try db.execute(sql: """
                CREATE TABLE callRecording (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    cid TEXT NOT NULL REFERENCES call(cid) ON DELETE CASCADE,
                    fileName TEXT NOT NULL,
                    participant TEXT NOT NULL,
                    start DOUBLE NOT NULL,
                    duration DOUBLE NOT NULL,
                    size INTEGER NOT NULL
                );
                CREATE INDEX callRecording_cid ON callRecording(cid);
                CREATE TABLE callRecordingError (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    cid TEXT NOT NULL REFERENCES call(cid) ON DELETE CASCADE,
                    message TEXT NOT NULL
                );
                CREATE INDEX callRecordingError_cid ON callRecordingError(cid);
                """)
        }
        migrator.registerMigration("v3: each call's link secret") { db in
            try db.execute(sql: "ALTER TABLE call ADD COLUMN linkSecret TEXT")
            // Calls made before links existed get a secret of their own, from the same source
            // as new ones (SQLite's randomblob() is not documented as fit for secrets).
            for cid in try String.fetchAll(db, sql: "SELECT cid FROM call") {
                try db.execute(
                    sql: "UPDATE call SET linkSecret = ? WHERE cid = ?", arguments: [CallLinkSecret.random().text, cid])
            }
        }
        migrator.registerMigration("v4: ask to join, chat messages") { db in
            try db.execute(sql: """
                ALTER TABLE call ADD COLUMN askToJoin BOOLEAN NOT NULL DEFAULT 0;
                CREATE TABLE callChatMessage (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    cid TEXT NOT NULL REFERENCES call(cid) ON DELETE CASCADE,
                    userId TEXT NOT NULL,
                    sessionId TEXT,
                    text TEXT NOT NULL,
                    createdAt DOUBLE NOT NULL
                );
                CREATE INDEX callChatMessage_cid ON callChatMessage(cid, id);
                """)
        }
        return migrator
    }

    func call(_ cid: CallID) throws -> StoredCall? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM call WHERE cid = ?", arguments: [cid.description]) else {
                return nil
            }
            let customText: String = row["custom"]
            let custom = try ConfabJSON.decoder().decode([String: JSONValue].self, from: Data(customText.utf8))
            let members = try Row.fetchAll(
                db, sql: "SELECT userId, role, createdAt FROM callMember WHERE cid = ? ORDER BY position",
                arguments: [cid.description]
            ).map { member throws(StoredRowError) -> CallMember in
                let roleName: String = member["role"]
                guard let role = CallRole(rawValue: roleName) else { throw .unknownRole(roleName) }
                return CallMember(userId: member["userId"], role: role, createdAt: Self.date(member["createdAt"]))
            }
            let secretText: String? = row["linkSecret"]
            guard let secretText, let linkSecret = CallLinkSecret(stored: secretText) else {
                throw StoredRowError.unreadableLinkSecret(cid: cid.description)
            }
            let blocked = try String.fetchAll(
                db, sql: "SELECT userId FROM callBlockedUser WHERE cid = ? ORDER BY position", arguments: [cid.description])
            return StoredCall(
                cid: cid,
                createdBy: row["createdBy"],
                createdAt: Self.date(row["createdAt"]),
                updatedAt: Self.date(row["updatedAt"]),
                startsAt: (row["startsAt"] as Double?).map(Self.date),
                endedAt: (row["endedAt"] as Double?).map(Self.date),
                backstage: row["backstage"],
                broadcasting: row["broadcasting"],
                recording: row["recording"],
                members: members,
                blockedUsers: blocked,
                custom: custom,
                linkSecret: linkSecret,
                askToJoin: row["askToJoin"]
            )
        }
    }

    func save(_ call: StoredCall) throws {
        let custom = String(decoding: try ConfabJSON.encoder().encode(call.custom), as: UTF8.self)
        try database.write { db in
            let cid = call.cid.description
            try db.execute(
                sql: """
                    INSERT INTO call (cid, createdBy, createdAt, updatedAt, startsAt, endedAt, backstage, broadcasting, recording, custom,
                                      linkSecret, askToJoin)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(cid) DO UPDATE SET
                        updatedAt = excluded.updatedAt, startsAt = excluded.startsAt, endedAt = excluded.endedAt,
                        backstage = excluded.backstage, broadcasting = excluded.broadcasting,
                        recording = excluded.recording, custom = excluded.custom, linkSecret = excluded.linkSecret,
                        askToJoin = excluded.askToJoin
                    """,
                arguments: [
                    cid, call.createdBy, call.createdAt.timeIntervalSince1970, call.updatedAt.timeIntervalSince1970,
                    call.startsAt?.timeIntervalSince1970, call.endedAt?.timeIntervalSince1970, call.backstage,
                    call.broadcasting, call.recording, custom, call.linkSecret.text, call.askToJoin,
                ])
            try db.execute(sql: "DELETE FROM callMember WHERE cid = ?", arguments: [cid])
            for (position, member) in call.members.enumerated() {
                try db.execute(
                    sql: "INSERT INTO callMember (cid, userId, role, createdAt, position) VALUES (?, ?, ?, ?, ?)",
                    arguments: [cid, member.userId, member.role.rawValue, member.createdAt.timeIntervalSince1970, position])
            }
            try db.execute(sql: "DELETE FROM callBlockedUser WHERE cid = ?", arguments: [cid])
            for (position, userId) in call.blockedUsers.enumerated() {
                try db.execute(
                    sql: "INSERT INTO callBlockedUser (cid, userId, position) VALUES (?, ?, ?)",
                    arguments: [cid, userId, position])
            }
        }
    }

    func isReachable() -> Bool {
        (try? database.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) != nil
    }

    /// GRDB closes the file when the queue goes.
    func close() {}

    func recordings(of cid: CallID) throws -> [StoredRecording] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT fileName, participant, start, duration, size FROM callRecording WHERE cid = ? ORDER BY id",
                arguments: [cid.description]
            ).map { row in
                StoredRecording(
                    fileName: row["fileName"], participant: row["participant"], start: Self.date(row["start"]),
                    duration: row["duration"], size: row["size"])
            }
        }
    }

    func recordingErrors(of cid: CallID) throws -> [String] {
        try database.read { db in
            try String.fetchAll(
                db, sql: "SELECT message FROM callRecordingError WHERE cid = ? ORDER BY id", arguments: [cid.description])
        }
    }

    func add(_ recordings: [StoredRecording], errors: [String], to cid: CallID) throws {
        try database.write { db in
            for recording in recordings {
                try db.execute(
                    sql: "INSERT INTO callRecording (cid, fileName, participant, start, duration, size) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        cid.description, recording.fileName, recording.participant, recording.start.timeIntervalSince1970,
                        recording.duration, recording.size,
                    ])
            }
            for message in errors {
                try db.execute(
                    sql: "INSERT INTO callRecordingError (cid, message) VALUES (?, ?)", arguments: [cid.description, message])
            }
        }
    }

    func addChatMessage(to cid: CallID, userId: String, sessionId: String?, text: String, at date: Date) throws -> ChatMessage {
        let seconds = date.timeIntervalSince1970
        let id = try database.write { db in
            try db.execute(
                sql: "INSERT INTO callChatMessage (cid, userId, sessionId, text, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [cid.description, userId, sessionId, text, seconds])
            return db.lastInsertedRowID
        }
        // The time as it reads back, so the answer equals what history gives later.
        return ChatMessage(id: id, cid: cid, userId: userId, sessionId: sessionId, text: text, createdAt: Self.date(seconds))
    }

    func chatMessages(of cid: CallID, before: Int64?, limit: Int) throws -> [ChatMessage] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, userId, sessionId, text, createdAt FROM callChatMessage
                    WHERE cid = ? AND id < ? ORDER BY id DESC LIMIT ?
                    """,
                arguments: [cid.description, before ?? Int64.max, limit]
            ).reversed().map { row in
                ChatMessage(
                    id: row["id"], cid: cid, userId: row["userId"], sessionId: row["sessionId"], text: row["text"],
                    createdAt: Self.date(row["createdAt"]))
            }
        }
    }

    private static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
}

/// Why the server cannot use its database, with what to do about it.
public enum DatabaseStartError: Error, CustomStringConvertible {
    case notWritable(path: String, reason: String)
    /// PostgreSQL could not be reached, refused the login, or would not let this user write.
    case postgresUnusable(location: PostgresLocation, reason: String)

    public var description: String {
        switch self {
        case .notWritable(let path, let reason):
            "cannot open the database \(path) for writing (\(reason)). The server needs to write it and the folder it is in "
                + "(SQLite keeps a journal beside it): make both writable by this user (e.g. `chmod u+w \(path)` and its folder), "
                + "or pass --db with a path on a writable file system."
        case .postgresUnusable(let location, let reason):
            "cannot use the PostgreSQL database \(location.database) at \(location.address) as user \(location.user) (\(reason)). "
                + "Check that PostgreSQL is running there and that the user may log in (pg_hba.conf), own or write "
                + "the database and create tables in it (e.g. `createdb -O \(location.user) \(location.database)`), "
                + "or fix --db (\(location))."
        }
    }
}
