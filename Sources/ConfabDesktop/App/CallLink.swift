import ConfabCore
import FoundationEssentials

/// A `confab:` link, as the desktop hands it over when the user opens one:
/// `confab://join/TYPE/ID` (e.g. `confab://join/default/standup`) opens that call's lobby.
/// `confab:join/TYPE/ID` is accepted too. Anything else is rejected, never guessed at.
/// A shared link carries the call's secret, `?secret=…`: calls are private, and the secret is
/// what lets someone who is not a member in.
public struct CallLink: Equatable {
    public let call: CallID
    /// The call's link secret, when the link has one.
    public let secret: String?

    public init(call: CallID, secret: String?) {
        self.call = call
        self.secret = secret
    }

    /// The link as people share it: `confab://join/TYPE/ID?secret=SECRET`. Call ids and the
    /// server's secrets (hex) are URL-safe as they are.
    public var text: String {
        "confab://join/\(call.type.rawValue)/\(call.id)" + (secret.map { "?secret=\($0)" } ?? "")
    }

    public init?(_ text: String) {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "confab" else { return nil }
        var parts = [components.host].compactMap { $0 } + components.path.split(separator: "/").map(String.init)
        parts = parts.filter { !$0.isEmpty }
        guard parts.count == 3, parts[0] == "join", let call = try? CallID.parse("\(parts[1]):\(parts[2])") else { return nil }
        let secrets = (components.queryItems ?? []).filter { $0.name == "secret" }
        // One non-empty secret, or none; two are a broken link, not a guess to make.
        guard secrets.count <= 1 else { return nil }
        if let secret = secrets.first {
            guard let value = secret.value, !value.isEmpty else { return nil }
            self.secret = value
        } else {
            self.secret = nil
        }
        self.call = call
    }
}
