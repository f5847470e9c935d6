/// How large one device shows another participant's camera: the pixel size of its largest view
/// of it (a tile, the minimized window). The camera's sender needs to send no more than the
/// largest of these (the Stream SFU's subscription "dimension", which it turns into a publish
/// quality for the sender: our coordinator only relays it, each sender decides).
public struct VideoView: Codable, Sendable, Hashable {
    /// Whose camera is shown: a participant session of the call.
    public var sessionId: String
    /// Device pixels, each `1...maxSide`.
    public var width: Int
    public var height: Int

    /// Larger than any screen: a size past it is a mistake, not a view.
    public static let maxSide = 16_384
    /// A call never shows more cameras than this at once.
    public static let maxViews = 64

    public init(sessionId: String, width: Int, height: Int) {
        self.sessionId = sessionId
        self.width = width
        self.height = height
    }

    /// Why `views` cannot be a device's views, or nil when they can.
    public static func problem(with views: [VideoView]) -> String? {
        if views.count > maxViews { return "at most \(maxViews) views, not \(views.count)" }
        if Set(views.map(\.sessionId)).count != views.count { return "one view per session" }
        for view in views {
            if view.sessionId.isEmpty || view.sessionId.utf8.count > 128 { return "a view's sessionId must be 1–128 bytes" }
            if !(1...maxSide).contains(view.width) || !(1...maxSide).contains(view.height) {
                return "a view's width and height must be 1–\(maxSide), not \(view.width)x\(view.height)"
            }
        }
        return nil
    }
}
