import ConfabProtocol

/// What each device says of its media: its microphone and camera, and how large it shows the others' cameras, so that each sender can send no larger a
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

    /// Keeps what the device says of its microphone and camera, and tells the call when it
    /// changed. A device that toggles faster than `SessionRateLimits.mediaState` allows is
    /// refused: each change is an event to every device in the call.
    func updateMediaState(_ request: UpdateMediaStateRequest, by user: RequestSender) throws -> EmptyResponse {
        let call = try loadCall(request.cid)
        try require(.readCall, of: user.userId, in: call)
        let device = try participantOnThisDevice(in: call.cid, user, toDo: "turning the microphone or camera on or off")
        guard device.participant.mediaState(after: request.microphoneOn, request.cameraOn) != device.participant.mediaState else {
            return EmptyResponse()
        }
        guard rateLimits.mediaState.allow(session: device.participant.sessionId) else {
            throw ProtocolError(.rateLimited, rateLimits.mediaState.refusal(of: "microphone and camera changes"))
        }
        setMediaState(microphoneOn: request.microphoneOn, cameraOn: request.cameraOn, of: device.participant, in: call.cid)
        return EmptyResponse()
    }

    /// Keeps the participant's microphone and camera state (nil: as it was) and tells the
    /// call, when it changed.
    func setMediaState(microphoneOn: Bool?, cameraOn: Bool?, of participant: CallParticipant, in cid: CallID) {
        let (microphone, camera) = participant.mediaState(after: microphoneOn, cameraOn)
        guard (microphone, camera) != participant.mediaState else { return }
        sessions.setMediaState(microphoneOn: microphone, cameraOn: camera, session: participant.sessionId, in: cid)
        let event = MediaStateEvent(cid: cid, userId: participant.userId, sessionId: participant.sessionId,
                                    microphoneOn: microphone, cameraOn: camera)
        tell(.audience, in: cid, .mediaStateChanged(event))
    }
}

private extension CallParticipant {
    var mediaState: (Bool?, Bool?) { (microphoneOn, cameraOn) }

    /// The state with what a device said; what it left out stays.
    func mediaState(after microphone: Bool?, _ camera: Bool?) -> (Bool?, Bool?) {
        (microphone ?? microphoneOn, camera ?? cameraOn)
    }
}
