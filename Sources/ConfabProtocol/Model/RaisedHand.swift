import FoundationEssentials

/// A participant's raised hand: when, and its place in the call's raising order (1 for the
/// first hand raised in the session, growing; lowered hands leave gaps). Sort by `order`:
/// two hands raised in the same millisecond still have different orders.
public struct RaisedHand: Codable, Sendable, Hashable {
    public var raisedAt: Date
    public var order: Int

    public init(raisedAt: Date, order: Int) {
        self.raisedAt = raisedAt
        self.order = order
    }
}
