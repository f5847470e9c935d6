/// Tells the call how large this device now shows the other participants' cameras, so that
/// each sends no larger a picture than anyone shows (needs this device in the call's session).
/// `views` replaces what the device said before; a camera it leaves out it does not show (a
/// hidden tile, a minimized call). At most `VideoView.maxViews`, one per session, each side
/// `1...VideoView.maxSide` (`invalidRequest` otherwise). Relayed to the call as
/// `call.video_views_updated`, not kept.
public struct UpdateVideoViewsRequest: ConfabRequest, Hashable {
    public static let type = RequestType.updateVideoViews
    public typealias Response = EmptyResponse

    public var cid: CallID
    public var views: [VideoView]

    public init(cid: CallID, views: [VideoView]) {
        self.cid = cid
        self.views = views
    }
}
