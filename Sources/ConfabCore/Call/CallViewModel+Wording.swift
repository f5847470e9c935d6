/// The sentences the call view model shows when something fails or a call ends.
extension CallViewModel {
    /// A sentence for the user. The coordinator client already words its errors that way
    /// ("Couldn’t join the call: …. Check the call id."); anything else gets the action in front.
    static func explain(_ error: Error, whileTrying action: String) -> String {
        if let callError = error as? CallError, callError.message.hasPrefix("Couldn’t") { return callError.message }
        return "Couldn’t \(action): \(error)"
    }

    /// "Bob declined", "Bob is busy", "Bob didn't answer", "Nobody answered", "Everyone declined".
    static func describeRejections(_ rejections: [String: RejectionReason], members: [Member]) -> String {
        if members.count == 1, let member = members.first, let reason = rejections[member.user.id] {
            switch reason {
            case .busy: return "\(member.user.name) is busy"
            case .timeout: return "\(member.user.name) didn’t answer"
            case .decline, .cancel: return "\(member.user.name) declined"
            }
        }
        if rejections.values.allSatisfy({ $0 == .decline }) { return "Everyone declined" }
        return "Nobody answered"
    }
}
