import ConfabServer
import XCTest

/// `--db`: an SQLite path as before, or a PostgreSQL URL read as libpq reads it.
final class DatabaseLocationTests: XCTestCase {
    func test_pathsThatWorkedBefore_stayPathsToSQLite() throws {
        XCTAssertEqual(try DatabaseLocation(parsing: "/var/lib/confab/server.sqlite"), .sqlite(path: "/var/lib/confab/server.sqlite"))
        XCTAssertEqual(try DatabaseLocation(parsing: "server.sqlite"), .sqlite(path: "server.sqlite"))
    }

    func test_tcpURL_withEverything() throws {
        let location = try postgres("postgres://confab:s%40cret@db.example.org:6543/calls?sslmode=verify-full")
        XCTAssertEqual(location.endpoint, .tcp(host: "db.example.org", port: 6543))
        XCTAssertEqual(location.user, "confab")
        XCTAssertEqual(location.password, "s@cret")
        XCTAssertEqual(location.database, "calls")
        XCTAssertEqual(location.tls, .verifyFull)
        XCTAssertEqual(location.address, "db.example.org:6543")
    }

    func test_socketFolderInHost_isAUnixSocket_andThePortNamesTheSocketFile() throws {
        let location = try postgres("postgresql://confab@/calls?host=/run/postgresql&port=5433")
        XCTAssertEqual(location.endpoint, .unixSocket(directory: "/run/postgresql", port: 5433))
        XCTAssertEqual(location.socketPath, "/run/postgresql/.s.PGSQL.5433")
    }

    func test_defaults_areLibpqs_port5432_databaseNamedAfterTheUser_tlsPreferred() throws {
        let location = try postgres("postgres://alice@localhost")
        XCTAssertEqual(location.endpoint, .tcp(host: "localhost", port: 5432))
        XCTAssertEqual(location.database, "alice")
        XCTAssertEqual(location.tls, .prefer)
        XCTAssertFalse(try postgres("postgres://localhost/db").user.isEmpty, "the user running the server, as libpq does")
    }

    func test_description_neverShowsThePassword() throws {
        let location = try postgres("postgres://confab:hunter2@db:5432/calls")
        XCTAssertFalse(location.description.contains("hunter2"))
        XCTAssertEqual(location.description, "postgres://confab@db:5432/calls")
    }

    func test_badURLs_sayWhatIsWrong_withoutThePassword() {
        assertRefused("postgres://confab:hunter2@db/calls?sslmode=sometimes", saying: "sslmode 'sometimes'")
        assertRefused("postgres://confab:hunter2@db:99999/calls", saying: "port")
        assertRefused("postgres://confab:hunter2@db/calls?application=x", saying: "unknown parameter application")
        assertRefused("postgres://confab:hunter2@/calls", saying: "no host")
        assertRefused("postgres://confab:hunter2@db/calls/more", saying: "just the database name")
        assertRefused("mysql://confab:hunter2@db/calls", saying: "only postgres://")
        assertRefused("postgres://confab:hunter2@db:notaport/calls", saying: "postgres://confab:***@db:notaport/calls: it is not a URL")
        assertRefused("postgres://confab@db/calls?password=hunter2&sslmode=maybe", saying: "password=***")
    }

    private func postgres(_ text: String) throws -> PostgresLocation {
        guard case .postgres(let location) = try DatabaseLocation(parsing: text) else {
            throw TestPostgresError("\(text) was read as an SQLite path")
        }
        return location
    }

    private func assertRefused(_ text: String, saying part: String, line: UInt = #line) {
        XCTAssertThrowsError(try DatabaseLocation(parsing: text), line: line) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains(part), message, line: line)
            XCTAssertFalse(message.contains("hunter2"), message, line: line)
        }
    }
}
