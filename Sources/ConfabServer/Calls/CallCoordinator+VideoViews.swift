import ConfabProtocol

/// How large each device shows the others' cameras, so that each sender can send no larger a
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
}
