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
    public init(packetsReceived: Double, packetsLost: Double, jitterSeconds: Double?, roundTripTime: Double? = nil) {
        guard packetsReceived > 0 else { self = .unknown; return }
        self.init(lossFraction: max(0, packetsLost) / (packetsReceived + max(0, packetsLost)), jitterSeconds: jitterSeconds,
                  roundTripTime: roundTripTime)
    }

    /// Quality from the share of packets lost (0…1), jitter and round trip (seconds): Meet and
    /// Jitsi call a call poor from about 5 % loss or 400 ms round trips, where speech starts to
    /// break up or people talk over each other.
    public init(lossFraction: Double, jitterSeconds: Double?, roundTripTime: Double?) {
        let jitter = jitterSeconds ?? 0
        let roundTrip = roundTripTime ?? 0
        if lossFraction < 0.01 && jitter < 0.03 && roundTrip < 0.15 { self = .excellent }
        else if lossFraction < 0.05 && jitter < 0.1 && roundTrip < 0.4 { self = .good }
        else { self = .poor }
    }
}
