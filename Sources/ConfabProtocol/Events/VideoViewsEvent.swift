/// `call.video_views_updated`: the participant session `sessionId` now shows these cameras at
/// these sizes, and no others (see `UpdateVideoViewsRequest`).
public struct VideoViewsEvent: Codable, Sendable, Hashable {
    public var cid: CallID
    public var userId: String
    public var sessionId: String
    public var views: [VideoView]

    public init(cid: CallID, userId: String, sessionId: String, views: [VideoView]) {
        self.cid = cid
        self.userId = userId
        self.sessionId = sessionId
        self.views = views
    }
}
