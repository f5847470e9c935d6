@testable import ConfabServer
import Foundation
import XCTest

/// A real PostgreSQL server (Debian's `postgresql` package) of the tests' own: a new cluster
/// made with initdb in a temporary folder, listening only on a Unix socket in that folder, run
/// with pg_ctl and stopped by `stop()`. PostgreSQL refuses to run as root (CI runs as root), so
/// then every PostgreSQL program runs as the unprivileged user `nobody`, which owns the folder.
final class TestPostgres: @unchecked Sendable {
    let directory: URL
    /// Socket port: with no TCP listener it only names the socket file, so a fixed one is fine.
    let port = 5432
    /// The cluster's superuser; the socket trusts it (nothing else can reach a 0700 folder).
    let user = "confab"
    private let binaries: URL
    private let runAsUser: String?
    private var databaseCount = 0
    private var stopped = false

    /// Makes and starts a cluster; fails with what to install when PostgreSQL is missing.
    static func start() throws -> TestPostgres {
        guard let binaries = findBinaries() else {
            throw TestPostgresError(
                "PostgreSQL's server programs were not found under /usr/lib/postgresql/*/bin: install Debian's `postgresql` "
                    + "package (`make test-deps` does)")
        }
        // /tmp rather than $TMPDIR: `nobody` must be able to reach the folder.
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("confab-postgres-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let runAsUser: String? = geteuid() == 0 ? "nobody" : nil
        if let runAsUser {
            guard let entry = getpwnam(runAsUser) else { throw TestPostgresError("no user \(runAsUser) to run PostgreSQL as") }
            guard chown(directory.path, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0 else {
                throw TestPostgresError("cannot give \(directory.path) to \(runAsUser): errno \(errno)")
            }
        }
        let postgres = TestPostgres(directory: directory, binaries: binaries, runAsUser: runAsUser)
        do {
            try postgres.run("initdb", ["-D", postgres.dataFolder, "-U", postgres.user, "--auth=trust", "--no-sync",
                                        "--encoding=UTF8", "--locale=C"])
            try postgres.run("pg_ctl", [
                "-D", postgres.dataFolder, "-l", directory.appendingPathComponent("server.log").path, "-w", "-t", "60",
                "-o", "-k \(directory.path) -c listen_addresses= -p \(postgres.port) -c fsync=off -c full_page_writes=off",
                "start",
            ])
        } catch {
            postgres.stop()
            throw error
        }
        return postgres
    }

    private init(directory: URL, binaries: URL, runAsUser: String?) {
        self.directory = directory
        self.binaries = binaries
        self.runAsUser = runAsUser
    }

    private var dataFolder: String { directory.appendingPathComponent("data").path }

    /// A new, empty database of its own for one test: `postgres://confab@/NAME?host=FOLDER`.
    func makeDatabase() throws -> PostgresLocation {
        databaseCount += 1
        let name = "test\(databaseCount)"
        try run("createdb", ["-h", directory.path, "-p", String(port), "-U", user, name])
        return location(database: name)
    }

    func location(database: String) -> PostgresLocation {
        PostgresLocation(endpoint: .unixSocket(directory: directory.path, port: port), user: user, database: database)
    }

    /// Runs SQL with psql (as an administrator would, outside the store under test).
    @discardableResult
    func psql(_ database: String, _ sql: String) throws -> String {
        try run("psql", ["-h", directory.path, "-p", String(port), "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
    }

    /// The postmaster's pid while it runs (its first line of postmaster.pid).
    var serverProcessIdentifier: Int32? {
        guard let text = try? String(contentsOfFile: dataFolder + "/postmaster.pid", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// Stops the server (fast shutdown: open connections are ended) and removes the folder.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if FileManager.default.fileExists(atPath: dataFolder + "/postmaster.pid") {
            _ = try? run("pg_ctl", ["-D", dataFolder, "-m", "fast", "-w", "-t", "30", "stop"])
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    /// Runs a PostgreSQL program to its end and returns its output. Not with Foundation's
    /// `Process`: `pg_ctl start` leaves the server running with the descriptors it inherited,
    /// and `Process` then never saw pg_ctl exit (it hung with pg_ctl already a zombie).
    @discardableResult
    private func run(_ program: String, _ arguments: [String]) throws -> String {
        let executable = binaries.appendingPathComponent(program).path
        let argv = runAsUser.map { ["/usr/sbin/runuser", "-u", $0, "--", executable] } ?? [executable]
        let outputPath = directory.appendingPathComponent("\(program).out").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // PostgreSQL's programs look at their working folder; the test's may not be readable by
        // `nobody`. (glibc's posix_spawn_file_actions_addchdir_np does not import into Swift.)
        let all = ["/bin/sh", "-c", #"cd "$0" && exec "$@""#, directory.path] + argv + arguments
        var cArguments = all.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, all[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw TestPostgresError("cannot start \(all[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let text = ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        try? FileManager.default.removeItem(atPath: outputPath)
        // Exited normally with 0 (WIFEXITED and WEXITSTATUS, which Swift does not import).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw TestPostgresError("\(program) \(arguments.joined(separator: " ")) failed (wait status \(status)): \(text)")
        }
        return text
    }

    /// The newest installed PostgreSQL's server programs.
    private static func findBinaries() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let folder = root.appendingPathComponent("\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("pg_ctl").path) { return folder }
        }
        return nil
    }
}

struct TestPostgresError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A test class with a PostgreSQL cluster of its own, started once for the class (as nobody:
/// PostgreSQL refuses root) and stopped after its last test; each test asks for a new database.
class PostgresTestCase: XCTestCase {
    /// By test class: XCTest runs one class's tests, then the next's.
    private nonisolated(unsafe) static var clusters: [ObjectIdentifier: Result<TestPostgres, any Error>] = [:]

    override class func setUp() {
        super.setUp()
        clusters[ObjectIdentifier(self)] = Result { try TestPostgres.start() }
    }

    override class func tearDown() {
        if case .success(let postgres) = clusters.removeValue(forKey: ObjectIdentifier(self)) { postgres.stop() }
        super.tearDown()
    }

    /// This class's cluster; fails the test when it did not start.
    func cluster() throws -> TestPostgres {
        switch Self.clusters[ObjectIdentifier(Self.self)] {
        case .success(let postgres): return postgres
        case .failure(let error): throw PostgresNotStarted(reason: "\(error)")
        case nil: throw PostgresNotStarted(reason: "not started for this test class")
        }
    }

    /// A new, empty database in this class's cluster.
    func makeDatabase() throws -> PostgresLocation { try cluster().makeDatabase() }
}

private struct PostgresNotStarted: Error, CustomStringConvertible {
    let reason: String
    var description: String { "PostgreSQL did not start: \(reason)" }
}
