import ConfabClient
import XCTest

/// The list `--server a,b` gives and the choice of the next address after a failure.
final class ServerEndpoints_Tests: XCTestCase {
    func test_commaSeparatedList_parsing_keepsTheOrderAndStartsWithTheFirst() throws {
        let servers = try ServerEndpoints(parsing: "ws://a:8630, wss://b.example.org ,ws://127.0.0.1:9")
        XCTAssertEqual(servers.urls, ["ws://a:8630", "wss://b.example.org", "ws://127.0.0.1:9"])
        XCTAssertEqual(servers.current, "ws://a:8630")
    }

    func test_emptyEntries_parsing_areDropped() throws {
        XCTAssertEqual(try ServerEndpoints(parsing: ",ws://a,,").urls, ["ws://a"])
    }

    func test_nothingOrANonWebSocketAddress_parsing_isRefusedNamingIt() {
        XCTAssertThrowsError(try ServerEndpoints(parsing: " , ")) { XCTAssertEqual($0 as? ServerEndpointsError, .empty) }
        XCTAssertThrowsError(try ServerEndpoints(parsing: "ws://a,http://b")) {
            XCTAssertEqual($0 as? ServerEndpointsError, .notAWebSocketAddress("http://b"))
        }
        XCTAssertThrowsError(try ServerEndpoints(parsing: "a:8630")) {
            XCTAssertEqual($0 as? ServerEndpointsError, .notAWebSocketAddress("a:8630"))
        }
    }

    func test_threeServers_moveToNext_goesRoundRobin() throws {
        var servers = try ServerEndpoints(parsing: "ws://a,ws://b,ws://c")
        var visited: [String] = []
        for _ in 0..<4 {
            servers.moveToNext()
            visited.append(servers.current)
        }
        XCTAssertEqual(visited, ["ws://b", "ws://c", "ws://a", "ws://b"])
    }

    func test_oneServer_moveToNext_staysOnIt() {
        var servers = ServerEndpoints("ws://only")
        servers.moveToNext()
        XCTAssertEqual(servers.current, "ws://only")
    }

    func test_map_changesEveryAddressAndKeepsTheOneInUse() throws {
        var servers = try ServerEndpoints(parsing: "ws://a,ws://b")
        servers.moveToNext()
        let mapped = servers.map { $0 + "/ws" }
        XCTAssertEqual(mapped.urls, ["ws://a/ws", "ws://b/ws"])
        XCTAssertEqual(mapped.current, "ws://b/ws")
    }
}
