/// The sentences the call view model shows when something fails or a call ends.
extension CallViewModel {
    /// A sentence for the user. The coordinator client already words its errors that way
    /// ("Couldn’t join the call: …. Check the call id."); anything else gets the action in front.
    static func explain(_ error: Error, whileTrying action: String) -> String {
        if let callError = error as? CallError, callError.message.hasPrefix("Couldn’t") { return callError.message }
        return "Couldn’t \(action): \(error)"
    }
}
