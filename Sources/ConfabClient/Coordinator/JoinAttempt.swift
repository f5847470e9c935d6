import ConfabCore

/// What a join that may knock came to (`CoordinatorClient.joinOrKnock`).
public enum JoinAttempt: Sendable, Equatable {
    case joined(CallSnapshot)
    /// The call asks to join: this user knocked and waits for a host's answer.
    case waitingForHost
    /// A host turned this user away before; the call stays closed to them.
    case denied
}
