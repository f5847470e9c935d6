import FoundationEssentials

/// The coordinator addresses a client may use (`--server a,b`, `$CONFAB_SERVER`), in the order
/// given, and which one is in use. Replicas that share one database serve the same calls, so
/// any of them will do: the client starts with the first that answers and, when the one in
/// use goes away and cannot be reached again, moves on to the next, round robin (issue 17).
public struct ServerEndpoints: Sendable, Equatable {
    /// Never empty.
    public let urls: [String]
    /// Where `current` is in `urls`.
    public private(set) var currentIndex = 0

    /// The address to connect to now.
    public var current: String { urls[currentIndex] }

    /// One address: nothing to fail over to.
    public init(_ url: String) {
        urls = [url]
    }

    /// Reads a comma-separated list of `ws://` or `wss://` addresses ("ws://a:8630, wss://b").
    public init(parsing text: String) throws(ServerEndpointsError) {
        let urls = text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        guard !urls.isEmpty else { throw .empty }
        for url in urls {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                  ["ws", "wss"].contains(scheme), let host = components.host, !host.isEmpty
            else { throw .notAWebSocketAddress(url) }
        }
        self.urls = urls
    }

    /// The same list with each address changed by `transform` (e.g. a default path added).
    public func map(_ transform: (String) -> String) -> ServerEndpoints {
        ServerEndpoints(urls: urls.map(transform), currentIndex: currentIndex)
    }

    private init(urls: [String], currentIndex: Int) {
        self.urls = urls
        self.currentIndex = currentIndex
    }

    /// Moves to the next address, after the last back to the first. One address stays put.
    public mutating func moveToNext() {
        currentIndex = (currentIndex + 1) % urls.count
    }
}

/// Why a `--server` list could not be used.
public enum ServerEndpointsError: Error, Equatable, CustomStringConvertible {
    case empty
    case notAWebSocketAddress(String)

    public var description: String {
        switch self {
        case .empty: "no server address given"
        case .notAWebSocketAddress(let url): "'\(url)' is not a server address like ws://HOST:PORT or wss://HOST"
        }
    }
}
