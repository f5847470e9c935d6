import ConfabProtocol
import Foundation

/// A ring in progress on one call.
struct RingState: Sendable {
    /// Distinguishes this ring from a later one on the same call, so a stale auto-cancel timer
    /// does nothing.
    var ringId: UInt64
    var callerId: String
    var callerConnectionId: String
    /// Members rung, in the order they were rung.
    var memberIds: [String]
    var video: Bool
    var startedAt: Date
    var autoCancelAt: Date
    var timer: Task<Void, Never>?

    var wireValue: Ringing {
        Ringing(callerId: callerId, memberIds: memberIds, video: video, startedAt: startedAt, autoCancelAt: autoCancelAt)
    }
}
