import ConfabProtocol

/// What each device says of its media: how large it shows the others' cameras, so that each sender can send no larger a
/// picture than anyone shows (the Stream SFU's subscription dimensions). The coordinator only
/// checks and relays a device's views (at most `SessionRateLimits.videoViews` of them): nothing
/// is kept, a later update replaces an earlier one on the receivers' side, and each sender
/// decides its own quality.
extension CallCoordinator {
    func updateVideoViews(_ request: UpdateVideoViewsRequest, by user: RequestSender) throws -> EmptyResponse {
        let call = try loadCall(request.cid)
        // Kept although a participant may always read the call: every request passes the
        // access check first (see `+Access`), so a stranger hears `privateCall`, as elsewhere.
        try require(.readCall, of: user.userId, in: call)
        let viewer = try participantOnThisDevice(in: call.cid, user, toDo: "showing video")
        if let problem = VideoView.problem(with: request.views) {
            throw ProtocolError(.invalidRequest, "views: \(problem)")
        }
        guard rateLimits.videoViews.allow(session: viewer.participant.sessionId) else {
            throw ProtocolError(.rateLimited, rateLimits.videoViews.refusal(of: "video view updates"))
        }
        let event = VideoViewsEvent(cid: call.cid, userId: user.userId, sessionId: viewer.participant.sessionId, views: request.views)
        tell(.audience, in: call.cid, .videoViewsUpdated(event))
        return EmptyResponse()
    }

    /// Keeps what the device says of its microphone, and tells the call when it changed. A
    /// device that toggles faster than `SessionRateLimits.microphone` allows is refused: each
    /// change is an event to every device in the call.
    func updateMicrophone(_ request: UpdateMicrophoneRequest, by user: RequestSender) throws -> EmptyResponse {
        let call = try loadCall(request.cid)
        try require(.readCall, of: user.userId, in: call)
        let speaker = try participantOnThisDevice(in: call.cid, user, toDo: "turning the microphone on or off")
        guard speaker.participant.microphoneOn != request.on else { return EmptyResponse() }
        guard rateLimits.microphone.allow(session: speaker.participant.sessionId) else {
            throw ProtocolError(.rateLimited, rateLimits.microphone.refusal(of: "microphone changes"))
        }
        setMicrophone(request.on, of: speaker.participant, in: call.cid)
        return EmptyResponse()
    }

    /// Keeps the participant's microphone state and tells the call, when it changed.
    func setMicrophone(_ on: Bool, of participant: CallParticipant, in cid: CallID) {
        guard participant.microphoneOn != on else { return }
        sessions.setMicrophone(on, session: participant.sessionId, in: cid)
        let event = MicrophoneEvent(cid: cid, userId: participant.userId, sessionId: participant.sessionId, on: on)
        tell(.audience, in: cid, .microphoneChanged(event))
    }
}
