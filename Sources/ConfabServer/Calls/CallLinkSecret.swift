import Foundation

/// The secret in a call's link (issue 16, item 8): whoever presents it may read and join the
/// call without being a member. 128 bits from the system's random source (getrandom(2) on
/// Linux, through `SystemRandomNumberGenerator`), written as 32 lowercase hex digits — never
/// derived from the call's id, so knowing a call's name says nothing about its link.
struct CallLinkSecret: Sendable, Equatable, CustomStringConvertible {
    static let byteCount = 16

    /// The secret as clients send it.
    let text: String

    private init(text: String) {
        self.text = text
    }

    static func random() -> CallLinkSecret {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return CallLinkSecret(text: bytes.map { String(format: "%02x", $0) }.joined())
    }

    /// A secret read back from the store; nil when it is not 32 lowercase hex digits.
    init?(stored text: String) {
        guard text.utf8.count == Self.byteCount * 2,
              text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        self.text = text
    }

    /// True when `presented` is this secret. Compares every byte whatever the first difference,
    /// so the time an answer takes does not tell how much of a guess was right.
    func matches(_ presented: String) -> Bool {
        let expected = Array(text.utf8)
        let given = Array(presented.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }

    /// Never the secret itself, so a logged call does not leak its link.
    var description: String { "CallLinkSecret(…)" }
}
