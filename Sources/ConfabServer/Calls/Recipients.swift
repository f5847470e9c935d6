import ConfabProtocol

/// Who hears an event about a call, said by rule rather than by connection, so that every
/// replica finds them among its own connections (`CallCoordinator.connectionIds(of:in:)`).
enum Recipients: Codable, Sendable, Equatable {
    /// The call's audience: its members' devices, participants and watchers who may read it.
    case audience
    /// The audience and these users' devices (an event about them reaches them even when they
    /// may no longer read the call: blocked, kicked, removed).
    case audienceAnd(users: [String])
    /// Only these users' devices.
    case users([String])
}
