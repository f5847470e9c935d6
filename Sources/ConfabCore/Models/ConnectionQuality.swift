/// How good the connection to the call server is, in words a user acts on.
public enum ConnectionQuality: String, Equatable, Sendable, CaseIterable {
    case unknown, poor, good, excellent

    /// Round trips below these are excellent / good; slower (or none) is poor.
    public static let excellentBelow: Duration = .milliseconds(100)
    public static let goodBelow: Duration = .milliseconds(300)

    /// Quality from a measured round-trip time; `nil` means the server could not be reached.
    public init(roundTripTime: Duration?) {
        guard let roundTripTime else { self = .poor; return }
        if roundTripTime < Self.excellentBelow { self = .excellent }
        else if roundTripTime < Self.goodBelow { self = .good }
        else { self = .poor }
    }

    /// Whether the user should be told to check their connection.
    public var needsAttention: Bool { self == .poor }

    /// Signal bars to draw, 0…3.
    public var bars: Int {
        switch self { case .unknown: 0; case .poor: 1; case .good: 2; case .excellent: 3 }
    }

    public var label: String {
        switch self {
        case .unknown: "Connection unknown"
        case .poor: "Connection poor"
        case .good: "Connection good"
        case .excellent: "Connection excellent"
        }
    }
}
