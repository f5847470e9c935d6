import FoundationEssentials

/// What is wrong with a call's name as the user typed it (the home page's field), in their
/// words and with what to type instead. `CallID.parse(userInput:)` decides; its own reasons
/// speak of the wire's rules ("call id '…' must be 1-64 characters of A-Z a-z 0-9 _ - .") and
/// were shown beside the app's sentence, cut off in a toast.
public enum CallNameProblem: Equatable, Sendable {
    /// Nothing typed where a name (or a link) is needed.
    case empty
    /// The part before ":" is not a call type.
    case unknownType(String)
    case tooLong(characters: Int)
    /// Characters a name cannot have, each once in the order typed, and the name with them
    /// made into "-" (nil when nothing allowed is left).
    case characters([Character], suggestion: String?)

    /// Nil when `typed` names a call.
    public init?(typed: String) {
        do {
            _ = try CallID.parse(userInput: typed)
            return nil
        } catch {
            switch error {
            case .unknownCallType(let type): self = .unknownType(type)
            case .missingColon, .invalidID: self = Self.idProblem(in: typed.trimmingSpaces())
            }
        }
    }

    private static func idProblem(in typed: String) -> CallNameProblem {
        let colon = typed.firstIndex(of: ":")
        let type = colon.map { String(typed[..<$0]) }
        let id = colon.map { String(typed[typed.index(after: $0)...]) } ?? typed
        guard !id.isEmpty else { return .empty }
        var notAllowed: [Character] = []
        for character in id where !isAllowed(character) && !notAllowed.contains(character) { notAllowed.append(character) }
        guard !notAllowed.isEmpty else { return .tooLong(characters: id.count) }
        let words = id.split(whereSeparator: { !isAllowed($0) }).joined(separator: "-")
        let suggestion = words.isEmpty ? nil : (type.map { "\($0):" } ?? "") + String(words.prefix(64))
        return .characters(notAllowed, suggestion: suggestion)
    }

    /// The characters `CallID` takes in a name (one scalar each: an emoji with a joiner is not).
    private static func isAllowed(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1 && character.unicodeScalars.allSatisfy(CallID.isAllowedInID)
    }

    /// What the user is told, under the field.
    public var message: String {
        switch self {
        case .empty:
            return tr("Enter the call’s name, or paste its link.")
        case .unknownType(let type):
            return tr("“%@” is not a type of call; the types are %@.", type, CallType.allCases.map(\.rawValue).joined(separator: ", "))
        case .tooLong(let characters):
            return tr("A call’s name has at most 64 characters; this one has %@.", "\(characters)")
        case .characters(let characters, let suggestion):
            // Each character in the language's own quotation marks.
            let named = characters.map { $0.isWhitespace ? tr("spaces") : tr("“%@”", String($0)) }.joined(separator: ", ")
            guard let suggestion else { return tr("A call’s name has only letters, digits, “.”, “-” and “_”, not %@.", named) }
            return tr("A call’s name has only letters, digits, “.”, “-” and “_”, not %@. “%@” would do.", named, suggestion)
        }
    }
}
