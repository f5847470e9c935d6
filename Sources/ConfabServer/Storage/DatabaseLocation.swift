import Foundation

/// Which database `confab-server` keeps its calls in, from `--db`: a PostgreSQL URL
/// (`postgres://…` or `postgresql://…`) or else the path of an SQLite file (the default).
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// Reads `--db`. Anything that does not start with a PostgreSQL scheme is an SQLite path, so
    /// every path that worked before still does.
    public init(parsing text: String) throws(DatabaseLocationError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(url: text))
        } else if lowered.contains("://") {
            throw DatabaseLocationError(
                text: PostgresLocation.redacted(text), problem: "only postgres:// and postgresql:// URLs (or an SQLite file path) are understood")
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The SQLite path, or the PostgreSQL URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let location): location.description
        }
    }
}

/// A PostgreSQL database as libpq's URLs name it:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full]`, or on a
/// Unix socket `postgres://USER@/DATABASE?host=/run/postgresql` (the socket folder, as with psql).
/// The user defaults to the one running the server and the database to the user, as in libpq.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// PostgreSQL's socket is the file `.s.PGSQL.PORT` inside `directory`.
        case unixSocket(directory: String, port: Int)
    }

    /// libpq's `sslmode` values that mean something to this client.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, certificate not checked (libpq's default).
        case prefer
        /// TLS or no connection, certificate not checked.
        case require
        /// TLS with the certificate checked against the system's trust store and the host name.
        case verifyFull = "verify-full"
    }

    public var endpoint: Endpoint
    public var user: String
    public var password: String?
    public var database: String
    /// Ignored on a Unix socket (there is nothing to encrypt).
    public var tls: TLSMode

    public init(endpoint: Endpoint, user: String, password: String? = nil, database: String, tls: TLSMode = .prefer) {
        self.endpoint = endpoint
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
    }

    init(url text: String) throws(DatabaseLocationError) {
        func failure(_ problem: String) -> DatabaseLocationError { DatabaseLocationError(text: Self.redacted(text), problem: problem) }
        // URLComponents refuses a port that is not a number as well as unencoded special characters.
        guard let components = URLComponents(string: text) else {
            throw failure("it is not a URL (is the port a number? percent-encode special characters in the user name and password)")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard let value = item.value else { throw failure("query parameter '\(item.name)' has no value") }
            query[item.name] = value
        }
        let unknown = Set(query.keys).subtracting(["host", "port", "sslmode", "user", "password", "dbname"])
        guard unknown.isEmpty else {
            throw failure("unknown parameter \(unknown.sorted().joined(separator: ", ")) (known: host, port, sslmode, user, password, dbname)")
        }
        let port: Int
        if let portText = query["port"] {
            guard let value = Int(portText), (1...65535).contains(value) else { throw failure("port '\(portText)' is not 1-65535") }
            port = value
        } else {
            port = components.port ?? 5432
        }
        guard (1...65535).contains(port) else { throw failure("port \(port) is not 1-65535") }
        let host = query["host"] ?? components.percentEncodedHost.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
        switch host {
        case .some(let host) where host.hasPrefix("/"):
            endpoint = .unixSocket(directory: host, port: port)
        case .some(let host):
            endpoint = .tcp(host: host, port: port)
        case .none:
            throw failure("no host: name one (postgres://USER@HOST/DATABASE) or a socket folder (postgres://USER@/DATABASE?host=/run/postgresql)")
        }
        guard let user = query["user"] ?? components.user.flatMap({ $0.isEmpty ? nil : $0 }) ?? Self.currentUserName() else {
            throw failure("no user name: add one (postgres://USER@…)")
        }
        self.user = user
        password = query["password"] ?? components.password
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw failure("the path must be just the database name, not '\(path)'") }
        database = query["dbname"] ?? (path.isEmpty ? user : path)
        if let mode = query["sslmode"] {
            guard let parsed = TLSMode(rawValue: mode) else {
                throw failure("sslmode '\(mode)' is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            tls = parsed
        } else {
            tls = .prefer
        }
    }

    /// Where the server is: `host:port`, or the socket file.
    public var address: String {
        switch endpoint {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unixSocket: socketPath ?? ""
        }
    }

    /// The socket file PostgreSQL listens on, for a Unix-socket endpoint.
    public var socketPath: String? {
        guard case .unixSocket(let directory, let port) = endpoint else { return nil }
        return (directory.hasSuffix("/") ? directory : directory + "/") + ".s.PGSQL.\(port)"
    }

    /// The URL with the password left out, for logs and error messages.
    public var description: String {
        switch endpoint {
        case .tcp:
            "postgres://\(user)@\(address)/\(database)" + (tls == .prefer ? "" : "?sslmode=\(tls.rawValue)")
        case .unixSocket(let directory, let port):
            "postgres://\(user)@/\(database)?host=\(directory)" + (port == 5432 ? "" : "&port=\(port)")
        }
    }

    /// `text` with any password replaced, so that a typo in `--db` never prints the secret.
    /// By hand rather than with URLComponents: the text may not parse as a URL at all.
    static func redacted(_ text: String) -> String {
        var result = text
        if let scheme = result.range(of: "://"), let at = result[scheme.upperBound...].firstIndex(of: "@"),
           let colon = result[scheme.upperBound..<at].firstIndex(of: ":") {
            result.replaceSubrange(result.index(after: colon)..<at, with: "***")
        }
        if let parameter = result.range(of: "password=") {
            let end = result[parameter.upperBound...].firstIndex(of: "&") ?? result.endIndex
            result.replaceSubrange(parameter.upperBound..<end, with: "***")
        }
        return result
    }

    private static func currentUserName() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}

/// `--db` names something that is not a database this server can use.
public struct DatabaseLocationError: Error, CustomStringConvertible {
    public var text: String
    public var problem: String
    public var description: String { "--db \(text): \(problem)" }
}
