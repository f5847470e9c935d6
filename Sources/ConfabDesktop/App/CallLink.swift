import ConfabCore
import Foundation

/// A `confab:` link, as the desktop hands it over when the user opens one:
/// `confab://join/TYPE/ID` (e.g. `confab://join/default/standup`) opens that call's lobby.
/// `confab:join/TYPE/ID` is accepted too. Anything else is rejected, never guessed at.
public struct CallLink: Equatable {
    public let call: CallID

    public init?(_ text: String) {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "confab" else { return nil }
        var parts = [components.host].compactMap { $0 } + components.path.split(separator: "/").map(String.init)
        parts = parts.filter { !$0.isEmpty }
        guard parts.count == 3, parts[0] == "join", let call = try? CallID.parse("\(parts[1]):\(parts[2])") else { return nil }
        self.call = call
    }
}
