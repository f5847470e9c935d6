/// Sends the size that is shown (issue 15), for one call: tells the call how large this device
/// shows the others' cameras, and keeps our own camera no larger than anyone in the call shows
/// it. A 430x242 tile then gets a 480x270 picture instead of 640x360: less to encode, send,
/// decode and scale on every side. `ActiveCall` owns it; it ends with the call.
@MainActor
final class VideoViewsExchange {
    /// What the others said about how large they show each camera.
    private(set) var audience = CameraAudience()
    /// What our camera is limited to now.
    private(set) var limit: ShownSize = .unknown
    /// The views last told to the call; nil before the first, or when they must be told again.
    private var toldViews: [String: VideoSize]?
    private var pendingTell: Task<Void, Never>?
    private var viewsWatch: Subscription?
    private let call: CallID
    private let service: CallService?
    private let engine: CallMediaEngine
    /// A window being resized changes the views many times a second: the call hears the last
    /// of them, at most this often.
    var tellingInterval: Duration = .milliseconds(250)

    init(call: CallID, service: CallService?, engine: CallMediaEngine) {
        self.call = call
        self.service = service
        self.engine = engine
    }

    /// Starts telling the call what we show (we are in its session now), and from then on
    /// every change.
    func start() {
        guard viewsWatch == nil else { return }
        viewsWatch = engine.watchShownVideo { [weak self] in self?.viewsChanged() }
        viewsChanged()
    }

    /// Tells the call our views again, changed or not: someone joined (they have not heard
    /// them), or we joined its session again.
    func retell() {
        guard viewsWatch != nil else { return }
        toldViews = nil
        viewsChanged()
    }

    /// `viewer` now shows these cameras, and no others.
    func viewer(_ viewer: String, shows views: [String: VideoSize]) {
        audience.viewer(viewer, shows: views)
    }

    /// We are in the call's session under a new id (joined again after a lost connection):
    /// what the others said was about the old one. They say it again as they hear we joined.
    func forgetEveryone() {
        audience = CameraAudience()
    }

    /// `viewer` left: what it said counts no more.
    func forget(viewer: String) {
        audience.forget(viewer: viewer)
    }

    /// Limits our camera to how large the call's other devices show it. A recorded or
    /// broadcast call is watched by more than its devices (a recording wants the full picture):
    /// no limit then.
    func updateLimit(ownSession: String?, viewers: some Sequence<String>, isWatchedBeyondTheCall: Bool) {
        let shown: ShownSize = if let ownSession, !isWatchedBeyondTheCall {
            audience.size(of: ownSession, amongViewers: viewers)
        } else {
            .unknown
        }
        guard shown != limit else { return }
        limit = shown
        engine.limitCamera(to: shown)
    }

    func end() {
        viewsWatch?.cancel()
        viewsWatch = nil
        pendingTell?.cancel()
        pendingTell = nil
        // The engine outlives the call (the app keeps one for all) and keeps the limit for its
        // next session: the next call's camera must start unlimited, not at this call's size.
        if limit != .unknown {
            limit = .unknown
            engine.limitCamera(to: .unknown)
        }
    }

    private func viewsChanged() {
        guard pendingTell == nil else { return }
        pendingTell = Task { [weak self, tellingInterval] in
            try? await Task.sleep(for: tellingInterval)
            guard !Task.isCancelled else { return }
            await self?.tell()
        }
    }

    private func tell() async {
        pendingTell = nil
        guard viewsWatch != nil, let service, let views = engine.shownVideo, views != toldViews else { return }
        toldViews = views
        do {
            try await service.updateVideoViews(views, in: call)
        } catch {
            // Told again with the next change; meanwhile the senders only send larger than needed.
            if toldViews == views { toldViews = nil }
        }
    }
}
