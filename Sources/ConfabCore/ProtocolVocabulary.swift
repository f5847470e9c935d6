// The call's identity and typed vocabulary are the wire's: one definition and one validation, shared by the server, the clients
// and the core, so a capability or recording state cannot mean one thing here and another there.
// Only these types are re-exported: the protocol's wire structs (its CallParticipant, say) stay
// out of the app's namespace.
@_exported import struct ConfabProtocol.CallID
@_exported import enum ConfabProtocol.CallIDError
@_exported import enum ConfabProtocol.CallType
@_exported import enum ConfabProtocol.OwnCapability
// A member's role decides what they may do (a listener a host let speak is a `speaker`).
@_exported import enum ConfabProtocol.CallRole
@_exported import enum ConfabProtocol.RecordingState
// Issue 18: what is said beside the video is the wire's too — the server stamps a chat message's
// id, sender and time, and the reactions are a closed set, so the app shows exactly what was sent.
@_exported import struct ConfabProtocol.ChatMessage
@_exported import enum ConfabProtocol.Reaction
@_exported import struct ConfabProtocol.RaisedHand
// The waiting room's knocks and how they ended are the server's record, shown as they are.
@_exported import struct ConfabProtocol.CallKnock
@_exported import enum ConfabProtocol.KnockOutcome
