/// The sentences the call view model shows when something fails.
extension CallViewModel {
    /// A sentence for the user: a `CallError` that already says what failed (the coordinator
    /// client words its errors that way: "Couldn’t join the call: …. Check the call id.") as it
    /// is; anything else in `failure`'s words, given the error.
    static func explain(_ error: Error, _ failure: (String) -> String) -> String {
        if let callError = error as? CallError, callError.saysWhatFailed { return callError.message }
        return failure("\(error)")
    }
}
