@testable import ConfabServer
import Foundation
import XCTest

/// `CallStoreContract` on an SQLite file.
final class SQLiteCallStoreTests: XCTestCase {
    private var directory: URL!

    override func setUp() async throws {
        directory = try TestServer.makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func open() throws -> any CallStore {
        try SQLiteCallStore(path: directory.appendingPathComponent("store.sqlite").path)
    }

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
}
