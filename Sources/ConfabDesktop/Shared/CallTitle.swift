import ConfabCore
import GLibBridge

/// What to call a call on screen: its name when someone gave it one ("standup"), otherwise
/// who is in it ("Call with Bob") — never a generated id, and the call type only when it is
/// not the everyday one.
enum CallTitle {
    static func title(of call: CallID, with others: [User]) -> String {
        guard isGenerated(call.id) else {
            return call.type == .default ? call.id : tr("%@ (%@)", "\(call.id)", "\(call.type.rawValue)")
        }
        return withPeople(others)
    }

    /// "Call with Bob", "Call with Bob and Carol", "Call with Bob, Carol and 2 others".
    static func withPeople(_ people: [User]) -> String {
        let names = people.map(\.name)
        switch names.count {
        case 0: return tr("Call")
        case 1: return tr("Call with %@", "\(names[0])")
        case 2: return tr("Call with %@ and %@", "\(names[0])", "\(names[1])")
        default: return trn("Call with %2$@, %3$@ and %1$@ other", "Call with %2$@, %3$@ and %1$@ others", names.count - 2,
                            names[0], names[1])
        }
    }

    /// Ids the app makes up for calls started by ringing people ("call-9289f998"), and ring
    /// calls others' apps name after the people in them ("carol-and-ada").
    static func isGenerated(_ id: String) -> Bool {
        if id.hasPrefix("call-"), id.count == 13, id.dropFirst(5).allSatisfy(\.isHexDigit) { return true }
        return false
    }
}
