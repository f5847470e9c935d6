@testable import ConfabServer
import XCTest

final class ClientConnectionTests: XCTestCase {
    func test_clientFallingBehind_outboxOverflows_connectionIsMarkedTooSlowAndOutboxEnds() async {
        let (outbox, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(2))
        let connection = ClientConnection(id: "c", outbox: continuation)
        connection.send("1")
        connection.send("2")
        XCTAssertFalse(connection.isTooSlow)
        connection.send("3")
        XCTAssertTrue(connection.isTooSlow)
        var received: [String] = []
        for await text in outbox { received.append(text) }
        XCTAssertEqual(received, ["1", "2"], "the outbox ended instead of growing")
    }
}
