/// Every open connection, and which user each one signed in as (after `hello`).
///
/// Owned by the `CallCoordinator`; a connection is added when its socket opens, signed in by
/// `hello`, and removed when the socket closes.
struct ConnectionRegistry {
    struct Client {
        var connection: ClientConnection
        /// Nil until the connection's `hello` succeeds.
        var userId: String?
    }

    private var clients: [String: Client] = [:]
    private var connectionsByUser: [String: Set<String>] = [:]

    var count: Int { clients.count }

    mutating func add(_ connection: ClientConnection) {
        clients[connection.id] = Client(connection: connection)
    }

    /// Forgets the connection; returns what it was, nil when it was not known.
    mutating func remove(_ connectionId: String) -> Client? {
        guard let client = clients.removeValue(forKey: connectionId) else { return nil }
        if let userId = client.userId {
            connectionsByUser[userId]?.remove(connectionId)
            if connectionsByUser[userId]?.isEmpty == true { connectionsByUser[userId] = nil }
        }
        return client
    }

    /// Records that the connection is `userId`'s; false when it closed meanwhile.
    mutating func signIn(_ connectionId: String, as userId: String) -> Bool {
        guard clients[connectionId] != nil else { return false }
        clients[connectionId]?.userId = userId
        connectionsByUser[userId, default: []].insert(connectionId)
        return true
    }

    func isOpen(_ connectionId: String) -> Bool { clients[connectionId] != nil }

    /// The user the connection signed in as; nil before `hello` or once closed.
    func userId(of connectionId: String) -> String? { clients[connectionId]?.userId }

    /// The connection, when it is open and signed in.
    func signedIn(_ connectionId: String) -> (connection: ClientConnection, userId: String)? {
        guard let client = clients[connectionId], let userId = client.userId else { return nil }
        return (client.connection, userId)
    }

    /// Every device the user is signed in on.
    func connections(ofUser userId: String) -> Set<String> {
        connectionsByUser[userId] ?? []
    }

    /// Every signed-in connection, for the heartbeat.
    var everySignedIn: [(id: String, connection: ClientConnection)] {
        clients.compactMap { id, client in client.userId == nil ? nil : (id, client.connection) }
    }
}
