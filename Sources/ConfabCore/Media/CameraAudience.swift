/// What every device in the call said about how large it shows the others' cameras
/// (`CallServiceEvent.videoViews`), so that each sender knows the largest view of its own.
public struct CameraAudience: Sendable, Equatable {
    /// Each viewer's views, by the session showing them, then by the session shown.
    private var viewsByViewer: [String: [String: VideoSize]] = [:]

    public init() {}

    /// `viewer` now shows these cameras, and no others.
    public mutating func viewer(_ viewer: String, shows views: [String: VideoSize]) {
        viewsByViewer[viewer] = views
    }

    /// `viewer` left the call: what it said counts no more.
    public mutating func forget(viewer: String) {
        viewsByViewer[viewer] = nil
    }

    /// How large `viewers` (everyone in the call but `shown` itself) show `shown`'s camera:
    /// unknown while any of them has not said.
    public func size(of shown: String, amongViewers viewers: some Sequence<String>) -> ShownSize {
        var largest: VideoSize?
        for viewer in viewers where viewer != shown {
            guard let views = viewsByViewer[viewer] else { return .unknown }
            guard let view = views[shown] else { continue }
            // Each side on its own: a wide tile and a tall one need a picture that covers both.
            largest = VideoSize(width: max(largest?.width ?? 0, view.width), height: max(largest?.height ?? 0, view.height))
        }
        return largest.map(ShownSize.largest) ?? .hidden
    }
}
