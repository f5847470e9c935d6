import ConfabCore
import ConfabProtocol

// ConfabCore and ConfabProtocol both have a `CallID` and a `CallParticipant`: the core's are
// what the app works with, the protocol's are what travels. These names keep the two apart.

/// A call id as written on the wire (`ConfabProtocol.CallID`).
typealias WireCallID = ConfabProtocol.CallID
/// A session participant as the coordinator sends it (`ConfabProtocol.CallParticipant`).
typealias WireParticipant = ConfabProtocol.CallParticipant
