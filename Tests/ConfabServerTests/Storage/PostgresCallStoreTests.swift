@testable import ConfabServer
import Foundation
import Logging
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
}

/// Results collected from several threads.
private final class OpenedStores: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Result<PostgresCallStore, any Error>] = []
    func append(_ result: Result<PostgresCallStore, any Error>) { lock.withLock { stored.append(result) } }
    var results: [Result<PostgresCallStore, any Error>] { lock.withLock { stored } }
}
