import CGLib
import CGStreamer
import CGStreamerSDP
import CGStreamerWebRTC
import Synchronization

/// One WebRTC peer connection: GStreamer's `webrtcbin`, driven with Swift values (SDP text,
/// candidate strings) and async calls instead of promises and action signals.
///
/// Signals from webrtcbin arrive on GStreamer's threads; ICE candidates and new incoming
/// streams are handed to the main loop. Incoming RTP pads are linked on the streaming thread
/// itself (GStreamer needs the link before data flows), to a branch built from the
/// description given for that media kind.
@MainActor
public final class WebRTCBin {
    public enum SDPType: Sendable { case offer, answer }

    /// An incoming audio or video stream that was linked to its branch.
    public struct IncomingStream: Sendable {
        public let media: String
        /// The name of the bin built for it (its elements are found by name from the pipeline).
        public let branchName: String
    }

    /// Where gathering our local ICE candidates stands (webrtcbin's `ice-gathering-state`).
    public enum ICEGatheringState: Sendable, Equatable { case new, gathering, complete }

    let element: UnsafeMutablePointer<GstElement>
    private let incoming: IncomingStreamLinker
    private let candidates = CandidateCount()

    init(element: UnsafeMutablePointer<GstElement>, pipeline: UnsafeMutablePointer<GstElement>) {
        self.element = element
        incoming = IncomingStreamLinker(pipeline: pipeline)
        // Counted on webrtcbin's own thread as each candidate is emitted, before the gathering
        // state can read "complete" (webrtcbin runs both in order on that thread): counted on
        // the main loop instead, a candidate still waiting there would make a connection that
        // has an address look like one without.
        g_signal_connect_data(gpointer(element), "on-ice-candidate", unsafeBitCast(iceCandidateCounted, to: GCallback.self),
                              Unmanaged.passRetained(candidates).toOpaque(), { data, _ in
                                  guard let data else { return }
                                  Unmanaged<CandidateCount>.fromOpaque(data).release()
                              }, GConnectFlags(rawValue: 0))
    }

    isolated deinit {
        incoming.close()
        gst_object_unref(gpointer(element))
    }

    // MARK: Configuration

    /// Restricts ICE gathering to `address` (see ARCHITECTURE.md: Janus in a test namespace).
    @discardableResult
    public func restrictICE(to address: String) -> Bool {
        confab_webrtc_add_local_ip_address(element, address) != 0
    }

    /// Received packets are passed on as soon as `packets` in a row have come at the start of a
    /// stream, instead of after the jitterbuffer's whole latency: the first frame and the first
    /// sound come that much sooner. Later packets wait for their gaps as before. Call before
    /// any stream arrives.
    @discardableResult
    public func startJitterbuffersEarly(afterPackets packets: Int) -> Bool {
        confab_webrtc_start_jitterbuffers_early(element, guint(packets)) != 0
    }

    /// Sets a property on transceiver `index` from its string form ("direction" = "sendonly", "do-nack" = "true").
    public func setTransceiverProperty(index: Int, _ property: String, _ value: String) {
        guard let transceiver = confab_webrtc_get_transceiver(element, gint(index)) else { return }
        gst_util_set_object_arg(UnsafeMutableRawPointer(transceiver).assumingMemoryBound(to: GObject.self), property, value)
        gst_object_unref(gpointer(transceiver))
    }

    /// gst-launch descriptions of the branches incoming RTP is linked to, per media kind
    /// ("video"/"audio"). `{n}` in a description is replaced by a number unique to the stream.
    public func setIncomingBranches(_ branches: [String: String]) { incoming.branches = branches }

    // MARK: Events

    /// Each local ICE candidate (m-line index, candidate line), on the main loop.
    public func onICECandidate(_ handler: @escaping @MainActor (Int, String) -> Void) {
        let box = CallbackBox(handler)
        g_signal_connect_data(gpointer(element), "on-ice-candidate", unsafeBitCast(iceCandidateFound, to: GCallback.self),
                              box.retainedPointer(), { data, _ in CallbackBox<@MainActor (Int, String) -> Void>.release(data) },
                              GConnectFlags(rawValue: 0))
    }

    /// Each incoming stream once it is linked to its branch, on the main loop.
    public func onIncomingStream(_ handler: @escaping @MainActor (IncomingStream) -> Void) {
        incoming.onLinked = handler
        incoming.connect(to: element)
    }

    /// How many local ICE candidates with a socket of their own (UDP, or passive TCP) were
    /// gathered so far. Active TCP candidates are not counted: libnice offers one for every
    /// address it is given, there or not (port 9, a socket is opened only to connect out), so
    /// they tell nothing of a usable address.
    public var localCandidatesGathered: Int { candidates.value.withLock { $0 } }

    /// webrtcbin's `ice-gathering-state`. Complete with no candidate gathered means ICE found
    /// no usable local address when the description was set (GStreamer 1.22 never gathers again).
    public var iceGatheringState: ICEGatheringState {
        let state = confab_webrtc_ice_gathering_state(element)
        if state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE { return .complete }
        if state == GST_WEBRTC_ICE_GATHERING_STATE_GATHERING { return .gathering }
        return .new
    }

    // MARK: Negotiation

    public func createOffer() async throws(MediaPipelineError) -> String {
        try await description(field: "offer") { confab_webrtc_create_offer(self.element, $0) }
    }

    public func setRemoteDescription(_ type: SDPType, sdp: String) async throws(MediaPipelineError) {
        let description = try Self.makeDescription(type, sdp: sdp)
        defer { gst_webrtc_session_description_free(description) }
        try await awaitPromise { confab_webrtc_set_remote_description(self.element, description, $0) }
    }

    /// Answers `offer` in one pass on webrtcbin's own thread: sets it as the remote description,
    /// creates the answer, `adjust`s it and sets that as the local description; returns the
    /// answer as set.
    ///
    /// One step at a time from the main actor, each of the three waited for the main thread
    /// to take webrtcbin's reply and go on — behind the call page's first layout and paints,
    /// at the moment of the join when every millisecond is the first frame's (bench-media's
    /// join timeline: offer → answer 21 ms at N = 2, 53–157 ms for the fourth app at N = 4,
    /// where confab-peer, whose main thread is idle, took 7–11 ms). Measured against the
    /// step-by-step build, the join was no faster beyond the runs' spread (PERFORMANCE.md,
    /// twentieth round): the steps after it wait for the main thread instead. It is kept for
    /// the waits it takes off, with nothing added to the path.
    public func answer(_ offer: String, adjusting adjust: @escaping @Sendable (String) -> String) async throws(MediaPipelineError) -> String {
        let remote = try Self.makeDescription(.offer, sdp: offer)
        let connection = Negotiation(element)
        let result: Result<String, MediaPipelineError> = await withCheckedContinuation { continuation in
            let afterRemote = PromiseBox { promise in
                if let reason = takeString(confab_promise_error_text(promise)) {
                    return continuation.resume(returning: .failure(MediaPipelineError("set-remote-description failed: \(reason)")))
                }
                connection.createAndSetLocal(.answer, adjusting: adjust) { continuation.resume(returning: $0) }
            }
            connection.emit(afterRemote) { confab_webrtc_set_remote_description($0, remote, $1) }
        }
        gst_webrtc_session_description_free(remote)
        return try result.get()
    }

    /// Creates an offer, `adjust`s it and sets it as the local description in one pass on
    /// webrtcbin's thread (see `answer`); returns the offer as set.
    public func offer(adjusting adjust: @escaping @Sendable (String) -> String) async throws(MediaPipelineError) -> String {
        let connection = Negotiation(element)
        let result: Result<String, MediaPipelineError> = await withCheckedContinuation { continuation in
            connection.createAndSetLocal(.offer, adjusting: adjust) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// The local and remote descriptions as webrtcbin holds them (nil while none is set).
    var localDescription: String? { takeString(confab_webrtc_description_text(element, "local-description")) }
    var remoteDescription: String? { takeString(confab_webrtc_description_text(element, "remote-description")) }

    public func addICECandidate(mlineIndex: Int, candidate: String) {
        confab_webrtc_add_ice_candidate(element, guint(mlineIndex), candidate)
    }

    /// The latest summary of the receiver's transport-wide feedback (rtpsession's "twcc-stats":
    /// bitrate-sent, bitrate-recv, packet-loss-pct, avg-delta-of-delta, …), keyed by field
    /// name; nil before the RTP session exists. Cheap: no stats reply is built.
    public func transportFeedbackSummary() -> [String: StatisticValue]? {
        guard let stats = confab_webrtc_twcc_stats(element) else { return nil }
        defer { gst_structure_free(stats) }
        return WebRTCStatistics.fields(of: stats)
    }

    /// The connection statistics, flattened: one dictionary per report, keyed by field name.
    public func statistics() async -> [[String: StatisticValue]] {
        await withCheckedContinuation { continuation in
            let box = PromiseBox { promise in
                continuation.resume(returning: WebRTCStatistics.read(promise))
            }
            box.emit { confab_webrtc_get_stats(element, $0) }
        }
    }

    // MARK: Promises

    private func description(field: String, _ emit: (UnsafeMutablePointer<GstPromise>) -> Void) async throws(MediaPipelineError) -> String {
        let result: Result<String, MediaPipelineError> = await withCheckedContinuation { continuation in
            let box = PromiseBox { promise in
                if let description = confab_promise_take_description(promise, field) {
                    defer { gst_webrtc_session_description_free(description) }
                    let text = takeString(gst_sdp_message_as_text(description.pointee.sdp)) ?? ""
                    continuation.resume(returning: .success(text))
                } else {
                    let reason = takeString(confab_promise_error_text(promise)) ?? "no \(field) was produced"
                    continuation.resume(returning: .failure(MediaPipelineError("create-\(field) failed: \(reason)")))
                }
            }
            box.emit(emit)
        }
        return try result.get()
    }

    private func awaitPromise(_ emit: (UnsafeMutablePointer<GstPromise>) -> Void) async throws(MediaPipelineError) {
        let failure: String? = await withCheckedContinuation { continuation in
            PromiseBox { promise in continuation.resume(returning: takeString(confab_promise_error_text(promise))) }.emit(emit)
        }
        if let failure { throw MediaPipelineError(failure) }
    }

    nonisolated fileprivate static func makeDescription(_ type: SDPType, sdp: String) throws(MediaPipelineError) -> UnsafeMutablePointer<GstWebRTCSessionDescription> {
        var message: UnsafeMutablePointer<GstSDPMessage>?
        guard gst_sdp_message_new_from_text(sdp, &message) == GST_SDP_OK, let message else {
            throw MediaPipelineError("the session description could not be parsed")
        }
        guard let description = gst_webrtc_session_description_new(type == .offer ? GST_WEBRTC_SDP_TYPE_OFFER : GST_WEBRTC_SDP_TYPE_ANSWER, message) else {
            gst_sdp_message_free(message)
            throw MediaPipelineError("the session description could not be made")
        }
        return description
    }
}

/// A webrtcbin driven from the replies to its own promises, on its own thread (`WebRTCBin.answer`,
/// `offer`): holds a reference to it until the last step is done.
private final class Negotiation: @unchecked Sendable {
    private let element: UnsafeMutablePointer<GstElement>

    init(_ element: UnsafeMutablePointer<GstElement>) {
        gst_object_ref(gpointer(element))
        self.element = element
    }

    deinit { gst_object_unref(gpointer(element)) }

    /// Emits an action on the webrtcbin with a promise whose reply goes to `box` (which keeps
    /// this alive until then).
    func emit(_ box: PromiseBox, _ action: (UnsafeMutablePointer<GstElement>, UnsafeMutablePointer<GstPromise>) -> Void) {
        box.emit { action(element, $0) }
    }

    /// Creates our description of `type`, adjusts it and sets it as the local description;
    /// `finish` gets the description as set, or why not.
    func createAndSetLocal(_ type: WebRTCBin.SDPType, adjusting adjust: @escaping @Sendable (String) -> String,
                           finish: @escaping @Sendable (Result<String, MediaPipelineError>) -> Void) {
        let field = type == .offer ? "offer" : "answer"
        let created = PromiseBox { [self] promise in
            guard let description = confab_promise_take_description(promise, field) else {
                let reason = takeString(confab_promise_error_text(promise)) ?? "no \(field) was produced"
                return finish(.failure(MediaPipelineError("create-\(field) failed: \(reason)")))
            }
            let text = adjust(takeString(gst_sdp_message_as_text(description.pointee.sdp)) ?? "")
            gst_webrtc_session_description_free(description)
            let local: UnsafeMutablePointer<GstWebRTCSessionDescription>
            do throws(MediaPipelineError) {
                local = try WebRTCBin.makeDescription(type, sdp: text)
            } catch {
                return finish(.failure(error))
            }
            let set = PromiseBox { promise in
                if let reason = takeString(confab_promise_error_text(promise)) {
                    finish(.failure(MediaPipelineError("set-local-description failed: \(reason)")))
                } else {
                    finish(.success(text))
                }
            }
            // webrtcbin copies the description as the action is emitted.
            emit(set) { confab_webrtc_set_local_description($0, local, $1) }
            gst_webrtc_session_description_free(local)
        }
        emit(created) { type == .offer ? confab_webrtc_create_offer($0, $1) : confab_webrtc_create_answer($0, $1) }
    }
}

/// Completes a GstPromise exactly once, on whatever thread GStreamer replies from.
private final class PromiseBox: @unchecked Sendable {
    private let onReply: @Sendable (UnsafeMutablePointer<GstPromise>) -> Void
    private var done = false
    /// `onReply` is `@Sendable` so it is not main-actor isolated: GStreamer replies on its own threads.
    init(_ onReply: @escaping @Sendable (UnsafeMutablePointer<GstPromise>) -> Void) { self.onReply = onReply }
    /// Runs `action` with a new promise whose reply comes here (the promise holds this until then).
    func emit(_ action: (UnsafeMutablePointer<GstPromise>) -> Void) {
        let promise = gst_promise_new_with_change_func(promiseChanged, Unmanaged.passRetained(self).toOpaque(), releasePromiseBox)
        action(promise!)
        gst_promise_unref(promise)
    }
    func complete(_ promise: UnsafeMutablePointer<GstPromise>?) {
        guard !done, let promise else { return }
        done = true
        onReply(promise)
    }
}

/// Runs `body` on the main loop (from any thread).
func onMainLoop(_ body: @escaping @MainActor () -> Void) {
    let box = CallbackBox(body)
    g_idle_add_full(G_PRIORITY_DEFAULT, { data in
        CallbackBox<@MainActor () -> Void>.borrow(data).call()
        return gboolean(0)
    }, box.retainedPointer(), { data in CallbackBox<@MainActor () -> Void>.release(data) })
}

// C callbacks that GStreamer calls on its own threads. They live at file scope: a closure
// written inside a main-actor method would be main-actor isolated, and Swift checks that
// isolation when C calls it — from a streaming thread, that check aborts the process.

private let promiseChanged: GstPromiseChangeFunc = { promise, data in
    Unmanaged<PromiseBox>.fromOpaque(data!).takeUnretainedValue().complete(promise)
}

private let releasePromiseBox: GDestroyNotify = { data in
    Unmanaged<PromiseBox>.fromOpaque(data!).release()
}

/// Local ICE candidates counted as webrtcbin emits them (`WebRTCBin.localCandidatesGathered`).
private final class CandidateCount: Sendable {
    let value = Mutex(0)
}

private let iceCandidateCounted: @convention(c) (gpointer?, guint, UnsafePointer<gchar>?, gpointer?) -> Void = { _, _, candidate, data in
    guard let data, let candidate, ICECandidateLine(String(cString: candidate)).hasSocket else { return }
    Unmanaged<CandidateCount>.fromOpaque(data).takeUnretainedValue().value.withLock { $0 += 1 }
}

/// A candidate line as webrtcbin emits it: "candidate:1 1 UDP 2015363327 10.98.0.2 41235 typ host"
/// (RFC 8839: foundation, component, transport, priority, address, port, "typ", type, then
/// extensions such as "tcptype active").
struct ICECandidateLine {
    let fields: [Substring]
    init(_ line: String) { fields = line.split(separator: " ") }

    /// Whether the candidate stands on a socket bound to its address: every UDP one and passive
    /// TCP, not active TCP (see `WebRTCBin.localCandidatesGathered`).
    var hasSocket: Bool {
        guard fields.count > 2 else { return false }
        guard fields[2].uppercased() == "TCP" else { return true }
        guard let type = fields.firstIndex(of: "tcptype"), type + 1 < fields.count else { return true }
        return fields[type + 1] != "active"
    }
}

private let iceCandidateFound: @convention(c) (gpointer?, guint, UnsafePointer<gchar>?, gpointer?) -> Void = { _, mline, candidate, data in
    guard let candidate else { return }
    let line = String(cString: candidate)
    let index = Int(mline)
    let box = CallbackBox<@MainActor (Int, String) -> Void>.borrow(data)
    onMainLoop { box.body(index, line) }
}
