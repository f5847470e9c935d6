import ConfabProtocol
import Foundation

/// A ring in progress on one call.
struct RingState: Sendable {
    /// Distinguishes this ring from a later one on the same call, so a stale auto-cancel timer
    /// does nothing.
    var ringId: UInt64
    var callerId: String
    /// The caller's device: if it goes before anyone accepted, the ring is cancelled.
    var callerConnectionId: String
    /// Members rung, in the order they were rung.
    var memberIds: [String]
    var video: Bool
    var startedAt: Date
    var autoCancelAt: Date
    /// The auto-cancel timer; cancelled by `RingRegistry` whenever the ring stops.
    var timer: Task<Void, Never>?
    /// The replica that started the ring, when not this one: it decides the ring's end; the
    /// copy here lets callees connected here answer, and decides only if that replica died.
    var origin: String?

    var wireValue: Ringing {
        Ringing(callerId: callerId, memberIds: memberIds, video: video, startedAt: startedAt, autoCancelAt: autoCancelAt)
    }
}
