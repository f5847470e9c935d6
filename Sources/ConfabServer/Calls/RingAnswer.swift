import ConfabProtocol
import Foundation

/// A callee's answer to the latest ring of a call. One value per callee, so an accept replaces
/// an earlier reject and the other way round (they used to be two maps cleared by hand).
enum RingAnswer: Codable, Sendable, Equatable {
    case accepted(at: Date)
    case rejected(RejectReason)
}
