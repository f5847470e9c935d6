import ConfabCore
import ConfabProtocol

// ConfabCore and ConfabProtocol both have a `CallParticipant` (they share one `CallID`): the core's is
// what the app works with, the protocol's what travels. This name keeps the two apart.

/// A session participant as the coordinator sends it (`ConfabProtocol.CallParticipant`).
typealias WireParticipant = ConfabProtocol.CallParticipant
