@testable import ConfabServer
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import XCTest

/// `CallStoreContract` on a real PostgreSQL (one cluster for the class, a new database per
/// test), and what only the PostgreSQL store has: migrations shared by servers starting at
/// once, and clear errors when the database cannot be used.
final class PostgresCallStoreTests: PostgresTestCase {
    private var database: PostgresLocation!

    override func setUp() async throws {
        database = try makeDatabase()
    }

    private static var quietLogger: Logger {
        var logger = Logger(label: "postgres-store-test")
        logger.logLevel = .critical
        return logger
    }

    private func open() throws -> any CallStore { try PostgresCallStore(location: database, logger: Self.quietLogger) }

    func test_savedCall_readsBackEqual_everyField() throws { try CallStoreContract.savedCall_readsBackEqual_everyField(open) }
    func test_unknownCall_isNil() throws { try CallStoreContract.unknownCall_isNil(open) }
    func test_savedTwice_keepsOneCallWithTheLatestMembersAndFlags() throws {
        try CallStoreContract.savedTwice_keepsOneCallWithTheLatestMembersAndFlags(open)
    }
    func test_recordingsAndErrors_readBackInOrder_perCall_andSurviveSavingTheCall() throws {
        try CallStoreContract.recordingsAndErrors_readBackInOrder_perCall_andSurviveSavingTheCall(open)
    }
    func test_reopened_keepsEverything() throws { try CallStoreContract.reopened_keepsEverything(open) }
    func test_chatMessages_readBackInOrder_perCall_pagedFromTheNewest_andSurviveReopening() throws {
        try CallStoreContract.chatMessages_readBackInOrder_perCall_pagedFromTheNewest_andSurviveReopening(open)
    }

    func test_serversStartingAtOnceOnANewDatabase_migrateItOnce_andBothWork() throws {
        // Given four stores opened at the same moment on an empty database (replicas starting together)
        let location = database!
        let opened = OpenedStores()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            opened.append(Result<PostgresCallStore, any Error> { try PostgresCallStore(location: location, logger: Self.quietLogger) })
        }
        let stores = try opened.results.map { try $0.get() }
        XCTAssertEqual(stores.count, 4)

        // Then each step was applied once, and every store reads what another wrote
        XCTAssertEqual(
            try stores[0].appliedMigrations(),
            ["v1: calls, members, blocked users, recordings, recording errors, link secrets", "v2: ask to join, chat messages"])
        let call = CallStoreContract.fullCall()
        try stores[1].save(call)
        for store in stores { XCTAssertEqual(try store.call(call.cid), call) }
        for store in stores { store.close() }
    }

    func test_rowWithAnUnknownRole_isAnErrorNamingIt_notADifferentRole() throws {
        let store = try open()
        let call = CallStoreContract.fullCall()
        try store.save(call)
        try cluster().psql(database.database, "UPDATE call_members SET role = 'emperor' WHERE user_id = 'bob'")
        XCTAssertThrowsError(try store.call(call.cid)) { error in
            XCTAssertTrue("\(error)".contains("emperor"), "\(error)")
        }
    }

    func test_missingDatabase_failsAtOpen_namingDatabaseSocketAndFix() throws {
        let missing = try cluster().location(database: "nosuchdb")
        XCTAssertThrowsError(try PostgresCallStore(location: missing, logger: Self.quietLogger)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("nosuchdb"), text)
            XCTAssertTrue(text.contains(missing.socketPath ?? "?"), text)
            XCTAssertTrue(text.contains("does not exist"), "PostgreSQL's own reason: \(text)")
            XCTAssertTrue(text.contains("createdb"), "what to do: \(text)")
        }
    }

    func test_nothingListening_failsAtOpen_namingTheAddress() throws {
        let nowhere = PostgresLocation(
            endpoint: .unixSocket(directory: "/tmp/confab-no-postgres-\(UUID().uuidString.prefix(8))", port: 5432), user: "confab",
            database: "confab")
        XCTAssertThrowsError(try PostgresCallStore(location: nowhere, logger: Self.quietLogger)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(nowhere.socketPath ?? "?"), text)
            XCTAssertTrue(text.contains("running"), text)
        }
    }

    func test_databaseRestarted_storeReconnects_andReadsAgain() throws {
        // Given a store with a call, whose connection PostgreSQL then ends (as a restart would)
        let store = try open()
        let call = CallStoreContract.fullCall()
        try store.save(call)
        try cluster().psql(
            "postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database.database)'")

        // Then the next operation after the failed one works on a new connection
        _ = try? store.call(call.cid)
        XCTAssertEqual(try store.call(call.cid), call)
        XCTAssertTrue(store.isReachable())
    }

    func test_statementUnanswered_failsWithinTheLimit_andTheNextOperationWorks() throws {
        // Given a store whose reads wait on a lock another session holds (as they would on a
        // database behind a silent network: no answer comes)
        let store = try PostgresCallStore(location: database, logger: Self.quietLogger, answerLimit: .seconds(1))
        defer { store.close() }
        let call = CallStoreContract.fullCall()
        try store.save(call)
        let holder = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: PostgresCallStore.connectionConfiguration(database), id: 9,
            logger: Self.quietLogger
        ).wait()
        defer { _ = try? (holder.close() as EventLoopFuture<Void>).wait() }
        _ = try holder.query("BEGIN", logger: Self.quietLogger).wait()
        _ = try holder.query("LOCK TABLE calls IN ACCESS EXCLUSIVE MODE", logger: Self.quietLogger).wait()

        // When the store reads (on another thread: before the limit, this waited for ever)
        let answered = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        let started = Date()
        Thread.detachNewThread {
            outcome.set(Result { try store.call(call.cid) })
            answered.signal()
        }
        let waited = answered.wait(timeout: .now() + 10)
        _ = try holder.query("COMMIT", logger: Self.quietLogger).wait()
        XCTAssertEqual(waited, .success, "the read was still waiting 10 s later")
        if waited != .success { answered.wait() }  // it ends with the lock

        // Then it failed saying PostgreSQL did not answer, about the limit's time after it began
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertThrowsError(try outcome.result?.get()) { error in
            XCTAssertTrue(error is PostgresCallStore.NoAnswer, "\(error)")
            XCTAssertTrue("\(error)".contains("did not answer within 1 s"), "\(error)")
        }
        XCTAssertGreaterThan(elapsed, 0.9)
        // And with the lock gone the store reads again, on a new connection
        XCTAssertEqual(try store.call(call.cid), call)
    }
}

/// One result handed from a thread to the test.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<StoredCall?, any Error>?
    func set(_ result: Result<StoredCall?, any Error>) { lock.withLock { stored = result } }
    var result: Result<StoredCall?, any Error>? { lock.withLock { stored } }
}

/// Results collected from several threads.
private final class OpenedStores: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Result<PostgresCallStore, any Error>] = []
    func append(_ result: Result<PostgresCallStore, any Error>) { lock.withLock { stored.append(result) } }
    var results: [Result<PostgresCallStore, any Error>] { lock.withLock { stored } }
}
