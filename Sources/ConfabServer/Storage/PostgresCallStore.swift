import ConfabProtocol
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// `CallStore` on a PostgreSQL database through postgres-nio, for `--db postgres://…`.
///
/// `CallStore` is synchronous on purpose: the coordinator actor reads and saves calls in the
/// middle of a request, and an `await` there would let another request interleave (an accept and
/// a cancel of one ring must never). So, as GRDB does with SQLite's disk I/O, each method blocks
/// its caller until PostgreSQL has answered. The waiting is on NIO futures that complete on this
/// store's own event-loop thread, never on the caller's, so it cannot deadlock Swift's
/// cooperative pool or an event loop.
///
/// One connection, used by one operation at a time (a lock), reopened after it drops: the
/// coordinator is serial anyway, and a transaction (`BEGIN` … `COMMIT`) needs all its statements
/// on one connection.
///
/// Every wait is bounded (`answerLimit`): a statement that gets no answer fails, and its
/// connection is closed and replaced. postgres-nio never completes a statement written to a
/// connection that closed a moment before (it writes with no promise), so a statement sent just
/// as PostgreSQL ended the connection waited for ever: seen once in a test that ends the
/// store's backend, with the waiting thread blocked for good. A database behind a silent
/// network or a lock held elsewhere would do the same, and the coordinator waits on the store.
final class PostgresCallStore: CallStore {
    let location: PostgresLocation
    private let eventLoops: MultiThreadedEventLoopGroup
    private let logger: Logger
    /// The open connection (nil before the first use and after it dropped), guarded with the
    /// lock that also keeps a whole operation (a transaction) to itself.
    private let connection = NIOLockedValueBox<PostgresConnection?>(nil)
    /// Set by `close`, after which nothing connects again.
    private let isClosed = NIOLockedValueBox(false)
    private static let connectTimeout = TimeAmount.seconds(5)
    /// How long a statement (or a connection's start-up) may go unanswered before it fails.
    private let answerLimit: TimeAmount
    /// Any number of servers may start on one database at once: the first to take this
    /// transaction-scoped lock migrates, the others then see the schema up to date.
    private static let migrationLockKey: Int64 = 0x636F_6E66_6162  // "confab"

    /// Connects, brings the schema up to date and proves it can write, so that a server that
    /// cannot keep anything never says "listening".
    init(location: PostgresLocation, logger: Logger, answerLimit: TimeAmount = .seconds(10)) throws(DatabaseStartError) {
        self.location = location
        self.logger = logger
        self.answerLimit = answerLimit
        eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            try migrate()
            try transaction { run in
                // Fails in a read-only transaction or without the privilege, and changes nothing.
                try run("UPDATE calls SET updated_at = updated_at WHERE false")
            }
        } catch {
            close()
            throw DatabaseStartError.postgresUnusable(location: location, reason: Self.explain(error))
        }
    }

    deinit {
        close()
    }

    /// Closes the connection and stops the event-loop thread; the store is unusable after.
    func close() {
        let alreadyClosed = isClosed.withLockedValue { closed in
            defer { closed = true }
            return closed
        }
        guard !alreadyClosed else { return }
        connection.withLockedValue { open in
            if let open { _ = try? open.close().wait() }
            open = nil
        }
        try? eventLoops.syncShutdownGracefully()
    }

    func isReachable() -> Bool {
        (try? withConnection { run in try run("SELECT 1") }) != nil
    }

    // MARK: Schema

    /// Named steps, applied once each in order and recorded in `confab_migrations`; a new schema
    /// change is a new step at the end. (The SQLite store's steps v1–v3 were written before this
    /// store existed; here the first step creates what they add up to.)
    private static let migrations: [(name: String, sql: [PostgresQuery])] = [
        (
            "v1: calls, members, blocked users, recordings, recording errors, link secrets",
            [
                """
                CREATE TABLE calls (
                    cid TEXT PRIMARY KEY,
                    created_by TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL,
                    starts_at DOUBLE PRECISION,
                    ended_at DOUBLE PRECISION,
                    backstage BOOLEAN NOT NULL,
                    broadcasting BOOLEAN NOT NULL,
                    recording BOOLEAN NOT NULL,
                    custom TEXT NOT NULL,
                    link_secret TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE call_members (
                    cid TEXT NOT NULL REFERENCES calls(cid) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    role TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    position BIGINT NOT NULL,
                    PRIMARY KEY (cid, user_id)
                )
                """,
                """
                CREATE TABLE call_blocked_users (
                    cid TEXT NOT NULL REFERENCES calls(cid) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    position BIGINT NOT NULL,
                    PRIMARY KEY (cid, user_id)
                )
                """,
                """
                CREATE TABLE call_recordings (
                    id BIGSERIAL PRIMARY KEY,
                    cid TEXT NOT NULL REFERENCES calls(cid) ON DELETE CASCADE,
                    file_name TEXT NOT NULL,
                    participant TEXT NOT NULL,
                    start DOUBLE PRECISION NOT NULL,
                    duration DOUBLE PRECISION NOT NULL,
                    size BIGINT NOT NULL
                )
                """,
                "CREATE INDEX call_recordings_cid ON call_recordings(cid)",
                """
                CREATE TABLE call_recording_errors (
                    id BIGSERIAL PRIMARY KEY,
                    cid TEXT NOT NULL REFERENCES calls(cid) ON DELETE CASCADE,
                    message TEXT NOT NULL
                )
                """,
                "CREATE INDEX call_recording_errors_cid ON call_recording_errors(cid)",
            ]
        ),
        (
            "v2: ask to join, chat messages",
            [
                "ALTER TABLE calls ADD COLUMN ask_to_join BOOLEAN NOT NULL DEFAULT false",
                """
                CREATE TABLE call_chat_messages (
                    id BIGSERIAL PRIMARY KEY,
                    cid TEXT NOT NULL REFERENCES calls(cid) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    session_id TEXT,
                    text TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX call_chat_messages_cid ON call_chat_messages(cid, id)",
            ]
        ),
    ]

    /// The names of the steps applied so far, in order (tests check that each runs once).
    func appliedMigrations() throws -> [String] {
        try withConnection { run in
            try run("SELECT name FROM confab_migrations ORDER BY applied_order").map { try $0.decode(String.self) }
        }
    }

    private func migrate() throws {
        try transaction { run in
            try run("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))")
            try run("""
                CREATE TABLE IF NOT EXISTS confab_migrations (
                    name TEXT PRIMARY KEY,
                    applied_order BIGSERIAL NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """)
            let applied = Set(try run("SELECT name FROM confab_migrations").map { try $0.decode(String.self) })
            for migration in Self.migrations where !applied.contains(migration.name) {
                for statement in migration.sql { try run(statement) }
                try run("INSERT INTO confab_migrations (name) VALUES (\(migration.name))")
                logger.notice("database migrated", metadata: ["step": "\(migration.name)", "db": "\(location)"])
            }
        }
    }

    // MARK: CallStore

    func call(_ cid: CallID) throws -> StoredCall? {
        try withConnection { run in
            let key = cid.description
            guard let row = try run("""
                SELECT created_by, created_at, updated_at, starts_at, ended_at, backstage, broadcasting, recording, custom, link_secret,
                       ask_to_join
                FROM calls WHERE cid = \(key)
                """).first
            else { return nil }
            let (createdBy, createdAt, updatedAt, startsAt, endedAt, backstage, broadcasting, recording, customText, secretText,
                 askToJoin) =
                try row.decode((String, Double, Double, Double?, Double?, Bool, Bool, Bool, String, String, Bool).self)
            let custom = try ConfabJSON.decoder().decode([String: JSONValue].self, from: Data(customText.utf8))
            guard let linkSecret = CallLinkSecret(stored: secretText) else { throw StoredRowError.unreadableLinkSecret(cid: key) }
            let members = try run("SELECT user_id, role, created_at FROM call_members WHERE cid = \(key) ORDER BY position").map {
                row throws -> CallMember in
                let (userId, roleName, memberSince) = try row.decode((String, String, Double).self)
                guard let role = CallRole(rawValue: roleName) else { throw StoredRowError.unknownRole(roleName) }
                return CallMember(userId: userId, role: role, createdAt: Self.date(memberSince))
            }
            let blocked = try run("SELECT user_id FROM call_blocked_users WHERE cid = \(key) ORDER BY position").map {
                try $0.decode(String.self)
            }
            return StoredCall(
                cid: cid, createdBy: createdBy, createdAt: Self.date(createdAt), updatedAt: Self.date(updatedAt),
                startsAt: startsAt.map(Self.date), endedAt: endedAt.map(Self.date), backstage: backstage,
                broadcasting: broadcasting, recording: recording, members: members, blockedUsers: blocked, custom: custom,
                linkSecret: linkSecret, askToJoin: askToJoin)
        }
    }

    func save(_ call: StoredCall) throws {
        let custom = String(decoding: try ConfabJSON.encoder().encode(call.custom), as: UTF8.self)
        let key = call.cid.description
        try transaction { run in
            try run("""
                INSERT INTO calls (cid, created_by, created_at, updated_at, starts_at, ended_at, backstage, broadcasting, recording,
                                   custom, link_secret, ask_to_join)
                VALUES (\(key), \(call.createdBy), \(call.createdAt.timeIntervalSince1970), \(call.updatedAt.timeIntervalSince1970),
                        \(call.startsAt?.timeIntervalSince1970), \(call.endedAt?.timeIntervalSince1970), \(call.backstage),
                        \(call.broadcasting), \(call.recording), \(custom), \(call.linkSecret.text), \(call.askToJoin))
                ON CONFLICT (cid) DO UPDATE SET
                    updated_at = excluded.updated_at, starts_at = excluded.starts_at, ended_at = excluded.ended_at,
                    backstage = excluded.backstage, broadcasting = excluded.broadcasting, recording = excluded.recording,
                    custom = excluded.custom, link_secret = excluded.link_secret, ask_to_join = excluded.ask_to_join
                """)
            try run("DELETE FROM call_members WHERE cid = \(key)")
            for (position, member) in call.members.enumerated() {
                try run("""
                    INSERT INTO call_members (cid, user_id, role, created_at, position)
                    VALUES (\(key), \(member.userId), \(member.role.rawValue), \(member.createdAt.timeIntervalSince1970), \(position))
                    """)
            }
            try run("DELETE FROM call_blocked_users WHERE cid = \(key)")
            for (position, userId) in call.blockedUsers.enumerated() {
                try run("INSERT INTO call_blocked_users (cid, user_id, position) VALUES (\(key), \(userId), \(position))")
            }
        }
    }

    func recordings(of cid: CallID) throws -> [StoredRecording] {
        try withConnection { run in
            try run("""
                SELECT file_name, participant, start, duration, size FROM call_recordings WHERE cid = \(cid.description) ORDER BY id
                """).map { row in
                let (fileName, participant, start, duration, size) = try row.decode((String, String, Double, Double, Int).self)
                return StoredRecording(fileName: fileName, participant: participant, start: Self.date(start), duration: duration, size: size)
            }
        }
    }

    func recordingErrors(of cid: CallID) throws -> [String] {
        try withConnection { run in
            try run("SELECT message FROM call_recording_errors WHERE cid = \(cid.description) ORDER BY id").map { try $0.decode(String.self) }
        }
    }

    func add(_ recordings: [StoredRecording], errors: [String], to cid: CallID) throws {
        let key = cid.description
        try transaction { run in
            for recording in recordings {
                try run("""
                    INSERT INTO call_recordings (cid, file_name, participant, start, duration, size)
                    VALUES (\(key), \(recording.fileName), \(recording.participant), \(recording.start.timeIntervalSince1970),
                            \(recording.duration), \(recording.size))
                    """)
            }
            for message in errors {
                try run("INSERT INTO call_recording_errors (cid, message) VALUES (\(key), \(message))")
            }
        }
    }

    func addChatMessage(to cid: CallID, userId: String, sessionId: String?, text: String, at date: Date) throws -> ChatMessage {
        let seconds = date.timeIntervalSince1970
        let rows = try withConnection { run in
            try run("""
                INSERT INTO call_chat_messages (cid, user_id, session_id, text, created_at)
                VALUES (\(cid.description), \(userId), \(sessionId), \(text), \(seconds))
                RETURNING id
                """)
        }
        guard let id = try rows.first?.decode(Int64.self) else { throw MissingReturnedID() }
        // The time as it reads back, so the answer equals what history gives later.
        return ChatMessage(id: id, cid: cid, userId: userId, sessionId: sessionId, text: text, createdAt: Self.date(seconds))
    }

    func chatMessages(of cid: CallID, before: Int64?, limit: Int) throws -> [ChatMessage] {
        try withConnection { run in
            try run("""
                SELECT id, user_id, session_id, text, created_at FROM call_chat_messages
                WHERE cid = \(cid.description) AND id < \(before ?? Int64.max) ORDER BY id DESC LIMIT \(limit)
                """).reversed().map { row in
                let (id, userId, sessionId, text, createdAt) = try row.decode((Int64, String, String?, String, Double).self)
                return ChatMessage(id: id, cid: cid, userId: userId, sessionId: sessionId, text: text, createdAt: Self.date(createdAt))
            }
        }
    }

    /// An INSERT … RETURNING that returned no row (PostgreSQL always returns one).
    struct MissingReturnedID: Error, CustomStringConvertible {
        var description: String { "PostgreSQL stored a chat message without returning its id" }
    }

    // MARK: Running statements

    /// Runs statements on the store's connection: `try run("SELECT …")` returns all the rows.
    struct Run {
        let connection: PostgresConnection
        let logger: Logger
        let answerLimit: TimeAmount

        @discardableResult
        func callAsFunction(_ query: PostgresQuery) throws -> [PostgresRow] {
            // Not on a connection known to be closed: postgres-nio would never answer it.
            if connection.isClosed { throw ConnectionClosed() }
            return try PostgresCallStore.wait(for: connection.query(query, logger: logger), within: answerLimit).rows
        }
    }

    /// `future`'s result, or `NoAnswer` once `limit` has passed without one.
    static func wait<Value: Sendable>(for future: EventLoopFuture<Value>, within limit: TimeAmount) throws -> Value {
        let bounded = future.eventLoop.makePromise(of: Value.self)
        let deadline = future.eventLoop.scheduleTask(in: limit) { bounded.fail(NoAnswer(limit: limit)) }
        future.whenComplete { result in
            deadline.cancel()
            bounded.completeWith(result)
        }
        return try bounded.futureResult.wait()
    }

    /// A statement not sent: its connection had closed (PostgreSQL restarted, a proxy cut it).
    struct ConnectionClosed: Error, CustomStringConvertible {
        var description: String { "the connection to PostgreSQL closed (the next operation opens a new one)" }
    }

    /// PostgreSQL (or the way to it) did not answer within the store's limit.
    struct NoAnswer: Error, CustomStringConvertible {
        let limit: TimeAmount
        var description: String {
            "PostgreSQL did not answer within \(limit.nanoseconds / 1_000_000_000) s (the connection is closed; the next operation opens a new one)"
        }
    }

    /// Runs `body` with the connection to itself, opening one if there is none. A connection
    /// that failed is dropped so that the next operation opens a new one (PostgreSQL restarted,
    /// a proxy cut it); the operation that saw the failure fails.
    private func withConnection<Result>(_ body: (Run) throws -> Result) throws -> Result {
        try connection.withLockedValue { open in
            let current: PostgresConnection
            if isClosed.withLockedValue({ $0 }) { throw StoreClosed() }
            if let open, !open.isClosed {
                current = open
            } else {
                current = try connect()
                open = current
            }
            do {
                return try body(Run(connection: current, logger: logger, answerLimit: answerLimit))
            } catch {
                if error is NoAnswer {
                    // Its statement may still be running or queued: nothing else may share it.
                    Self.close(current)
                    open = nil
                } else if current.isClosed {
                    open = nil
                }
                throw error
            }
        }
    }

    /// `body` in one transaction: committed when it returns, rolled back when it throws.
    private func transaction<Result>(_ body: (Run) throws -> Result) throws -> Result {
        try withConnection { run in
            try run("BEGIN")
            do {
                let result = try body(run)
                try run("COMMIT")
                return result
            } catch {
                // An unanswered statement's connection is closed, which rolls the transaction
                // back; a ROLLBACK sent after it would wait as long again.
                if !(error is NoAnswer) { _ = try? run("ROLLBACK") }
                throw error
            }
        }
    }

    /// Sends a notification to every connection LISTENing on `channel` (`ReplicaBus`).
    func notify(channel: String, payload: String) throws {
        try withConnection { run in try run("SELECT pg_notify(\(channel), \(payload))") }
    }

    private func connect() throws -> PostgresConnection {
        let connecting = PostgresConnection.connect(
            on: eventLoops.next(), configuration: try Self.connectionConfiguration(location), id: 1, logger: logger)
        do {
            return try Self.wait(for: connecting, within: answerLimit)
        } catch let error as NoAnswer {
            // Started but never ready (the start-up exchange unanswered): close it when it comes.
            connecting.whenSuccess { Self.close($0) }
            throw error
        }
    }

    /// Closes `connection` without waiting, keeping it until it is closed: postgres-nio asserts
    /// (debug builds) that a connection is closed when it goes, and the close happens on its
    /// event loop, after the last reference could go (seen in CI: the test process crashed).
    private static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// How to reach `location`, shared with the replica bus's listening connection.
    static func connectionConfiguration(_ location: PostgresLocation) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch location.endpoint {
        case .unixSocket:
            configuration = .init(
                unixSocketPath: location.socketPath ?? "", username: location.user, password: location.password,
                database: location.database)
        case .tcp(let host, let port):
            configuration = .init(
                host: host, port: port, username: location.user, password: location.password, database: location.database,
                tls: try Self.tls(location.tls))
        }
        configuration.options.connectTimeout = Self.connectTimeout
        return configuration
    }

    private static func tls(_ mode: PostgresLocation.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        switch mode {
        case .disable:
            return .disable
        case .prefer, .require:
            // As libpq: encrypted, but the certificate is not checked (use verify-full for that).
            var unchecked = TLSConfiguration.makeClientConfiguration()
            unchecked.certificateVerification = .none
            let context = try NIOSSLContext(configuration: unchecked)
            return mode == .prefer ? .prefer(context) : .require(context)
        case .verifyFull:
            return .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }

    private static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    /// An operation after `close` (the server is stopping).
    struct StoreClosed: Error, CustomStringConvertible {
        var description: String { "the PostgreSQL store was closed (the server is stopping)" }
    }

    /// What went wrong, in words: postgres-nio's own description of a server error is a generic
    /// "Database error" (it hides details from end users); an operator needs PostgreSQL's message.
    static func explain(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + code
            }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
