import ConfabProtocol

/// How a user stands towards one call. `CallPermissions` turns it into capabilities; the
/// `CallCoordinator` works it out (`access(of:to:)`).
enum CallAccess: Sendable, Equatable {
    /// A host blocked them: nothing, with or without the link.
    case blocked
    case member(CallRole)
    /// Not a member, but presented the call's link secret (remembered while the call is in
    /// memory; the client presents it again after that).
    case linkHolder
    /// None of the above: may not even read the call, unless the server runs with `--open-calls`.
    case stranger
    /// Would be a link holder (or, with `--open-calls`, a stranger let in), but the call asks to
    /// join and no host has let them in yet: nothing of the call until one does.
    case waiting
    /// A host turned them away from the waiting room (while the call is in memory).
    case denied

    /// How errors name them.
    var name: String {
        switch self {
        case .blocked: "blocked"
        case .member(let role): role.rawValue
        case .linkHolder: "link holder"
        case .stranger: "non-member"
        case .waiting: "waiting to be let in"
        case .denied: "turned away"
        }
    }
}
