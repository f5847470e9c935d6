// The call's typed vocabulary is the wire's: one definition, shared by the server, the clients
// and the core, so a capability or recording state cannot mean one thing here and another there.
// Only these types are re-exported: the protocol's wire structs (its CallParticipant, say) stay
// out of the app's namespace.
@_exported import enum ConfabProtocol.OwnCapability
@_exported import enum ConfabProtocol.RecordingState
