/// The ring we are making: who is rung, who turned it down and why, and whether the call is
/// still being created (a hang-up then cancels the ring only once the server has started it).
struct OutgoingRing {
    /// The people rung (the outgoing page shows them).
    var callees: [Member]
    private var rejections: [String: RejectionReason] = [:]
    /// getOrCreateCall is in flight.
    var isCreatingCall = true

    init(callees: [Member]) {
        self.callees = callees
    }

    /// Notes that `userID` turned the ring down; once every callee has, returns why the call
    /// ends ("Bob declined", "Nobody answered").
    mutating func reject(by userID: String, reason: RejectionReason) -> String? {
        rejections[userID] = reason
        let ids = Set(callees.map(\.user.id))
        guard !ids.isEmpty, ids.isSubset(of: rejections.keys) else { return nil }
        return Self.describe(rejections, members: callees)
    }

    /// "Bob declined", "Bob is busy", "Bob didn't answer", "Nobody answered", "Everyone declined".
    static func describe(_ rejections: [String: RejectionReason], members: [Member]) -> String {
        if members.count == 1, let member = members.first, let reason = rejections[member.user.id] {
            switch reason {
            case .busy: return tr("%@ is busy", member.user.name)
            case .timeout: return tr("%@ didn’t answer", member.user.name)
            case .decline, .cancel: return tr("%@ declined", member.user.name)
            }
        }
        if rejections.values.allSatisfy({ $0 == .decline }) { return tr("Everyone declined") }
        return tr("Nobody answered")
    }
}
