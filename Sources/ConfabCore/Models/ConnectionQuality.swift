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
        case .unknown: tr("Connection unknown")
        case .poor: tr("Connection poor")
        case .good: tr("Connection good")
        case .excellent: tr("Connection excellent")
        }
    }
}

extension ConnectionQuality {
    /// Quality of a media stream from what its receiver measured: packet loss and jitter.
    /// Nothing received yet is unknown.
    public init(packetsReceived: Double, packetsLost: Double, jitterSeconds: Double?) {
        guard packetsReceived > 0 else { self = .unknown; return }
        let loss = packetsLost / (packetsReceived + packetsLost)
        let jitter = jitterSeconds ?? 0
        if loss < 0.01 && jitter < 0.03 { self = .excellent }
        else if loss < 0.05 && jitter < 0.1 { self = .good }
        else { self = .poor }
    }
}
