import JanusProtocol

/// A handle attached to the VideoRoom plugin: plugin requests (with an optional SDP), trickled
/// candidates, and the plugin's unsolicited events.
@MainActor
public final class JanusHandle {
    public let id: UInt64
    private weak var session: JanusSession?
    /// Unsolicited events for this handle, in order.
    public var onEvent: (@MainActor (JanusHandleEvent) -> Void)?

    init(id: UInt64, session: JanusSession) {
        self.id = id
        self.session = session
    }

    /// Sends a VideoRoom request and returns the plugin's answer and the SDP beside it; a
    /// refusal (`error_code`) throws `JanusError.pluginRefused`.
    public func request(_ body: VideoRoomRequest, jsep: JSEP? = nil,
                        timeout: Duration = .seconds(10)) async throws -> (data: VideoRoomResponse, jsep: JSEP?) {
        guard let session else { throw JanusError.disconnected(reason: "the media session is gone") }
        let command = JanusCommand.message(session: try session.currentSession(), handle: id, body: body, jsep: jsep)
        return try await session.send(command, timeout: timeout).pluginAnswer()
    }

    public func trickle(mlineIndex: Int, candidate: String) {
        guard let session, let sessionID = try? session.currentSession() else { return }
        session.post(.trickle(session: sessionID, handle: id, candidate: .candidate(mlineIndex: mlineIndex, sdp: candidate)))
    }

    public func detach() async { await session?.detach(self) }

    func deliver(_ event: JanusHandleEvent) { onEvent?(event) }
}
