import CGLib
import CGStreamer
import CGStreamerRTP
import CGStreamerVideo

/// A running GStreamer pipeline with its bus watched on the GLib main loop.
///
/// The pipeline has one owner; when the owner calls `stop()` or lets go of it, the pipeline
/// goes to NULL (releasing the device) and its bus watch and frame receivers are removed.
@MainActor
public final class MediaPipeline {
    /// Where a pipeline's media comes from.
    public enum Source {
        /// A gst-launch fragment ending in a source, e.g. "videotestsrc is-live=true".
        case description(String)
        /// The test camera's picture (`MovingBall`): a ball moving over `background` (ARGB, as
        /// videotestsrc takes colours), then the elements of `followedBy` if any (" ! identity
        /// error-after=3": a camera that fails).
        case movingBall(background: UInt32, followedBy: String = "")
        /// A device found by the device monitor.
        case device(SystemDevice)

        /// This source in a gst-launch description, as an element called `name`; a device is a
        /// placeholder there, replaced by the device's own element once the pipeline is built.
        public func fragment(named name: String) -> String {
            switch self {
            case .description(let fragment): "\(fragment) name=\(name)"
            case .movingBall(let background, let followedBy):
                // I420, the one format the ball is drawn in (the pipelines convert from it anyway).
                "videotestsrc is-live=true pattern=solid-color foreground-color=0x\(String(background, radix: 16)) name=\(Self.pictureName(name)) "
                    + "! capsfilter caps=video/x-raw,format=I420\(followedBy) name=\(name)"
            case .device: "fakesrc name=\(name)"
            }
        }

        /// The moving ball's solid-colour source, in the fragment named `name`.
        static func pictureName(_ name: String) -> String { "\(name)-picture" }
    }

    let pipeline: UnsafeMutablePointer<GstElement>
    private var busWatchID: guint = 0
    private var mailboxes: [VideoFrameMailbox] = []
    /// Buffers counted at elements' inputs (see `countBuffers`), by element name.
    private var bufferCounts: [String: UnsafeMutablePointer<ConfabBufferCount>] = [:]
    /// `countOutput(ofEvery:)`'s counters, by factory: one per element found.
    private var outputCounts: [String: [UnsafeMutablePointer<ConfabBufferCount>]] = [:]
    /// Elements whose input lets only some buffers through (see `letThrough`), by name.
    private var thinnings: [String: UnsafeMutablePointer<ConfabBufferThinning>] = [:]
    public private(set) var isPlaying = false

    /// Pipelines alive in this process; tests use it to prove owners release theirs.
    public private(set) static var liveCount = 0

    /// Builds a pipeline from one gst-launch description.
    public init(description: String) throws(MediaPipelineError) {
        GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        let element = gst_parse_launch(description, &error)
        if let error {
            let message = string(from: error.pointee.message) ?? "unknown error"
            g_error_free(error)
            if let element { gst_object_unref(gpointer(element)) }
            throw MediaPipelineError("could not build “\(description)”: \(message)")
        }
        guard let element else { throw MediaPipelineError("could not build “\(description)”") }
        // gst_parse_launch returns a floating reference: sink it so this wrapper owns it.
        if g_object_is_floating(gpointer(element)) != 0 { gst_object_ref_sink(gpointer(element)) }
        if g_type_check_instance_is_a(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GTypeInstance.self), gst_pipeline_get_type()) != 0 {
            pipeline = element
        } else {
            // A one-element description yields that element, not a pipeline: put it in one.
            let wrapper = gst_pipeline_new(nil)!
            gst_object_ref_sink(gpointer(wrapper))
            gst_bin_add(UnsafeMutableRawPointer(wrapper).assumingMemoryBound(to: GstBin.self), element)
            gst_object_unref(gpointer(element))
            pipeline = wrapper
        }
        MediaPipeline.liveCount += 1
    }

    /// Builds `source ! <processing>`: the source is a device's own element or a description.
    public convenience init(source: Source, processing: String) throws(MediaPipelineError) {
        try self.init(description: "\(source.fragment(named: "device-source")) ! \(processing)", sources: ["device-source": source])
    }

    /// Builds a pipeline from a description in which each source is written as
    /// `source.fragment(named:)`; device sources are then put in place of their placeholders.
    public convenience init(description: String, sources: [String: Source]) throws(MediaPipelineError) {
        try self.init(description: description)
        for (name, source) in sources { try complete(source, named: name, in: pipeline) }
    }

    /// Finishes a source written as `source.fragment(named: name)` in `container`: a device
    /// takes its placeholder's place, the moving ball is drawn at its picture's output.
    private func complete(_ source: Source, named name: String, in container: UnsafeMutablePointer<GstElement>) throws(MediaPipelineError) {
        switch source {
        case .description: break
        case .device(let device): try replacePlaceholder(name, with: device, in: container)
        case .movingBall:
            guard let picture = elementPointer(named: Source.pictureName(name), in: container) else { throw MediaPipelineError("no \(name) in the pipeline") }
            MovingBall.draw(atOutputOf: picture)
            gst_object_unref(gpointer(picture))
        }
    }

    isolated deinit {
        tearDown()
        gst_object_unref(gpointer(pipeline))
        bufferCounts.values.forEach { confab_release_buffer_count($0) }
        outputCounts.values.joined().forEach { confab_release_buffer_count($0) }
        thinnings.values.forEach { confab_release_thinning($0) }
        MediaPipeline.liveCount -= 1
    }

    /// Swaps the placeholder element `name` (in `container`, by default the pipeline) for the
    /// device's own source element, keeping its link.
    private func replacePlaceholder(_ name: String, with device: SystemDevice,
                                    in container: UnsafeMutablePointer<GstElement>? = nil) throws(MediaPipelineError) {
        guard let placeholder = elementPointer(named: name, in: container) else { throw MediaPipelineError("no \(name) in the pipeline") }
        defer { gst_object_unref(gpointer(placeholder)) }
        guard let placeholderPad = gst_element_get_static_pad(placeholder, "src") else { throw MediaPipelineError("\(name) has no output") }
        let downstream = gst_pad_get_peer(placeholderPad)
        if let downstream { gst_pad_unlink(placeholderPad, downstream) }
        gst_object_unref(gpointer(placeholderPad))
        defer { if let downstream { gst_object_unref(gpointer(downstream)) } }
        let bin: UnsafeMutablePointer<GstBin> = (gst_object_get_parent(placeholder.c()).map { UnsafeMutableRawPointer($0) } ?? UnsafeMutableRawPointer(pipeline)).c()
        gst_bin_remove(bin, placeholder)
        guard let source = gst_device_create_element(device.device, name) else {
            throw MediaPipelineError("could not open \(device.displayName)")
        }
        gst_bin_add(bin, source)
        guard let downstream, let sourcePad = gst_element_get_static_pad(source, "src") else {
            throw MediaPipelineError("\(device.displayName) cannot be connected")
        }
        defer { gst_object_unref(gpointer(sourcePad)) }
        guard gst_pad_link(sourcePad, downstream) == GST_PAD_LINK_OK else {
            throw MediaPipelineError("\(device.displayName) offers no format the pipeline accepts")
        }
    }

    // MARK: Elements

    /// The element called `name` in `container` (by default the whole pipeline), at any depth;
    /// a new reference, for the caller to drop.
    func elementPointer(named name: String, in container: UnsafeMutablePointer<GstElement>? = nil) -> UnsafeMutablePointer<GstElement>? {
        gst_bin_get_by_name(UnsafeMutableRawPointer(container ?? pipeline).assumingMemoryBound(to: GstBin.self), name)
    }

    /// Makes the queue called `name` answer serialized queries (allocation, drain) at its input
    /// instead of holding them until its contents have gone on. A queue in front of a branch that
    /// may stall for good — webrtcbin holds everything back until DTLS is up, which never comes
    /// on a connection made while the network is away — would otherwise stall the source that
    /// asked, and every other branch of its tee (the self-view); and taking that source out
    /// (`detachInput`) would then wait forever for its streaming thread. The branch behind
    /// gives up its say in the allocation, which a leaky queue's branch can do without.
    public func answerSerializedQueries(atInputOf name: String) {
        guard let element = elementPointer(named: name) else { return }
        defer { gst_object_unref(gpointer(element)) }
        guard let input = gst_element_get_static_pad(element, "sink") else { return }
        confab_answer_serialized_queries(input)
        gst_object_unref(gpointer(input))
    }

    /// Makes the element called `name` answer, at its input, that it takes `caps` (a caps
    /// string) — whatever the elements behind it would say at that moment. For a branch behind
    /// a tee that adapts anything of those caps itself, and whose filters change while it runs:
    /// its answer mid-change can be caps nothing meets, which stops the tee's source (see
    /// `Publisher.separateInputs`). Returns false for caps that do not parse.
    @discardableResult
    public func answerCapsQueries(atInputOf name: String, with caps: String) -> Bool {
        guard let element = elementPointer(named: name) else { return false }
        defer { gst_object_unref(gpointer(element)) }
        guard let input = gst_element_get_static_pad(element, "sink") else { return false }
        defer { gst_object_unref(gpointer(input)) }
        return confab_answer_caps_queries(input, caps) != 0
    }

    /// Sets a property of a named element from its string form; GStreamer converts the type.
    public func set(_ property: String, _ value: String, onElement name: String) {
        guard let element = elementPointer(named: name) else { return }
        gst_util_set_object_arg(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self), property, value)
        gst_object_unref(gpointer(element))
    }

    /// The webrtcbin called `name`, to negotiate and exchange candidates with.
    public func webRTCBin(named name: String) -> WebRTCBin? {
        guard let element = elementPointer(named: name) else { return nil }
        return WebRTCBin(element: element, pipeline: pipeline)
    }

    /// Whether the pad `pad` of the element called `name` has negotiated its format yet.
    public func hasNegotiated(element name: String, pad: String = "src") -> Bool {
        guard let element = elementPointer(named: name) else { return false }
        defer { gst_object_unref(gpointer(element)) }
        guard let staticPad = gst_element_get_static_pad(element, pad) else { return false }
        defer { gst_object_unref(gpointer(staticPad)) }
        return gst_pad_has_current_caps(staticPad) != 0
    }

    /// Makes the RTP payloader called `name` send `headerExtension` with `id` (false when this
    /// GStreamer has no element for it).
    @discardableResult
    public func addHeaderExtension(_ headerExtension: RTPHeaderExtension, toPayloader name: String, id: Int) -> Bool {
        guard let element = elementPointer(named: name) else { return false }
        defer { gst_object_unref(gpointer(element)) }
        return confab_add_header_extension(element, headerExtension.rawValue, guint(id)) != 0
    }

    /// Asks the encoder upstream of the element called `name` (its payloader) for a keyframe.
    public func requestKeyframe(upstreamOf name: String) {
        guard let element = elementPointer(named: name) else { return }
        confab_request_keyframe(element)
        gst_object_unref(gpointer(element))
    }

    /// Delivers frames from the appsink called `name` to `handler` on the main thread, newest
    /// first: BGRA samples as they are, or, with a `scaler`, I420 samples made into its size.
    public func receiveVideoFrames(fromAppSink name: String, scaledBy scaler: VideoFrameScaler? = nil,
                                   _ handler: @escaping @MainActor (VideoFrame) -> Void) {
        guard let sink = elementPointer(named: name) else { return }
        defer { gst_object_unref(gpointer(sink)) }
        let mailbox = VideoFrameMailbox(scaler: scaler, deliver: handler)
        mailbox.attach(to: sink)
        mailboxes.append(mailbox)
    }

    // MARK: State

    /// Runs the pipeline on the system clock whatever its elements offer. A pipeline takes the
    /// clock of one of its elements when it starts playing (a PulseAudio source or sink offers
    /// its own); when that element is taken out while it plays (another microphone chosen, a
    /// headset pulled out) the clock stops with it, and everything timed by it (the camera,
    /// what is sent) stood still until the pipeline was restarted. Devices slave to the system
    /// clock instead (resampling as needed).
    public func useSystemClock() {
        guard let clock = gst_system_clock_obtain() else { return }
        gst_pipeline_use_clock(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstPipeline.self), clock)
        gst_object_unref(gpointer(clock))
    }

    /// Whether the pipeline runs on the system clock now (while it plays).
    public var runsOnTheSystemClock: Bool {
        guard let clock = gst_pipeline_get_clock(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstPipeline.self)) else { return false }
        defer { gst_object_unref(gpointer(clock)) }
        guard let system = gst_system_clock_obtain() else { return false }
        defer { gst_object_unref(gpointer(system)) }
        return clock == system
    }

    /// Starts playing. Errors that come later arrive on the bus as `.error`.
    public func play() throws(MediaPipelineError) {
        if gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            let detail = pendingErrorMessage() ?? "the device may be busy or missing"
            throw MediaPipelineError("could not start: \(detail)")
        }
        isPlaying = true
    }

    // MARK: Inputs that come and go

    /// Adds an input while the pipeline runs: `description` (ending in the input's output, e.g.
    /// "v4l2src ! videoconvert") becomes a bin called `name` whose output feeds the element
    /// called `target`. Device sources are written as in `init(description:sources:)`. Being
    /// added to the running pipeline, the bin takes its clock and base time: its timestamps
    /// continue the stream's. Replaces an input of the same name.
    public func attachInput(named name: String, description: String, sources: [String: Source] = [:],
                            to target: String) throws(MediaPipelineError) {
        detachInput(named: name)
        // Kept alive (an owned reference) while devices are put in place.
        let element = try namedBin(description, name: name)
        defer { gst_object_unref(gpointer(element)) }
        for (sourceName, source) in sources { try complete(source, named: sourceName, in: element) }
        guard let targetElement = elementPointer(named: target) else { throw MediaPipelineError("no \(target) in the pipeline") }
        defer { gst_object_unref(gpointer(targetElement)) }
        // A failing input ends its stream (EOS); that must not end what it feeds, which
        // outlives it (the next input, the other inputs sharing a connection).
        if let output = gst_element_get_static_pad(element, "src") {
            confab_keep_end_of_stream_inside(output)
            gst_object_unref(gpointer(output))
        }
        gst_bin_add(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), element)
        guard gst_element_link(element, targetElement) != 0 else {
            gst_bin_remove(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), element)
            throw MediaPipelineError("“\(description)” offers no format \(target) accepts")
        }
        if isPlaying, gst_element_sync_state_with_parent(element) == 0 {
            detachInput(named: name)
            throw MediaPipelineError("could not start: the device may be busy or missing")
        }
    }

    /// A bin built from a gst-launch description and named `name`, as an owned reference (the
    /// caller unrefs it once it is added). Unlinked pads become ghost pads: the bin's "src" is
    /// its output, its "sink" its input.
    func namedBin(_ description: String, name: String) throws(MediaPipelineError) -> UnsafeMutablePointer<GstElement> {
        var error: UnsafeMutablePointer<GError>?
        guard let bin = gst_parse_bin_from_description(description, 1, &error) else {
            let message = takeErrorMessage(error) ?? "unknown error"
            throw MediaPipelineError("could not build “\(description)”: \(message)")
        }
        let element: UnsafeMutablePointer<GstElement> = UnsafeMutableRawPointer(bin).assumingMemoryBound(to: GstElement.self)
        gst_object_set_name(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self), name)
        gst_object_ref_sink(gpointer(element))
        return element
    }

    /// Stops the input called `name` (releasing its device: a camera's light goes off) and
    /// takes it out of the pipeline; the rest keeps running. Nothing happens if there is none.
    public func detachInput(named name: String) {
        guard let element = elementPointer(named: name) else { return }
        defer { gst_object_unref(gpointer(element)) }
        // A source stops its own streaming thread on the way to NULL; then it can go.
        // Locked first: the pipeline may still be on its way to PLAYING (a live pipeline's
        // state change finishes in the background), and would take the element back up with it
        // after we stopped it — then it is freed while running (seen in CI: "Trying to dispose
        // element capsfilter7, but it is in PLAYING", and the peer crashed).
        gst_element_set_locked_state(element, 1)
        gst_element_set_state(element, GST_STATE_NULL)
        if let output = gst_element_get_static_pad(element, "src") {
            if let peer = gst_pad_get_peer(output) {
                gst_pad_unlink(output, peer)
                releaseIfRequested(peer)
                gst_object_unref(gpointer(peer))
            }
            gst_object_unref(gpointer(output))
        }
        gst_bin_remove(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), element)
    }

    /// Whether the pipeline has an element called `name` (an attached input, for instance).
    public func hasElement(named name: String) -> Bool {
        guard let element = elementPointer(named: name) else { return false }
        gst_object_unref(gpointer(element))
        return true
    }

    /// Counts from now on the buffers that reach the element called `name` (its sink pad), on
    /// the streaming thread: whether a source runs, whatever its branches do with its frames.
    public func countBuffers(atInputOf name: String) {
        guard bufferCounts[name] == nil, let element = elementPointer(named: name) else { return }
        defer { gst_object_unref(gpointer(element)) }
        guard let input = gst_element_get_static_pad(element, "sink") else { return }
        bufferCounts[name] = confab_count_buffers(input, /* lists too */ 0)
        gst_object_unref(gpointer(input))
    }

    /// Counts from now on what every element made by `factory` gives out (its "src" pad),
    /// anywhere in the pipeline, inside bins too: for `nicesrc`, inside webrtcbin, everything a
    /// connection receives — media, reports and the DTLS handshake alike, which its statistics
    /// do not show (a stream that sends nothing drops out of them). Elements made later are not
    /// counted. Returns how many there were.
    @discardableResult
    public func countOutput(ofEvery factory: String) -> Int {
        guard outputCounts[factory] == nil else { return 0 }
        var counts: [UnsafeMutablePointer<ConfabBufferCount>] = []
        forEachElement { element, made in
            guard made == factory, let output = gst_element_get_static_pad(element, "src") else { return }
            counts.append(confab_count_buffers(output, /* lists too */ 1))
            gst_object_unref(gpointer(output))
        }
        if !counts.isEmpty { outputCounts[factory] = counts }
        return counts.count
    }

    /// What the elements counted by `countOutput(ofEvery:)` gave out since, together; nil if
    /// they are not counted.
    public func outputCount(ofEvery factory: String) -> Int? {
        outputCounts[factory]?.reduce(0) { $0 + Int(confab_buffer_count($1)) }
    }

    /// From now on only one buffer in `step` reaches the element called `name` (its sink pad);
    /// the others are dropped before it, on the streaming thread. 1 lets all through. No caps
    /// change and nothing renegotiates: the branch's timestamps simply have gaps.
    public func letThrough(oneBufferIn step: Int, atInputOf name: String) {
        if thinnings[name] == nil {
            guard let element = elementPointer(named: name) else { return }
            defer { gst_object_unref(gpointer(element)) }
            guard let input = gst_element_get_static_pad(element, "sink") else { return }
            thinnings[name] = confab_thin_buffers(input)
            gst_object_unref(gpointer(input))
        }
        if let thinning = thinnings[name] { confab_set_thinning_step(thinning, gint(max(1, step))) }
    }

    /// How many buffers reached the element called `name` since `countBuffers(atInputOf:)`; nil
    /// if they are not counted.
    public func buffersArrived(atInputOf name: String) -> Int? { bufferCounts[name].map { Int(confab_buffer_count($0)) } }

    /// Which of those buffers (1 the first, as `buffersArrived` counts them) was the last that
    /// needs no earlier one to decode: after an encoder, its last keyframe. 0 before any.
    public func lastKeyframe(atInputOf name: String) -> Int? { bufferCounts[name].map { Int(confab_last_keyframe($0)) } }

    /// Starts again from the beginning (looping a sound at its end).
    public func seekToStart() {
        gst_element_seek_simple(pipeline, GST_FORMAT_TIME, GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_KEY_UNIT.rawValue), 0)
    }

    /// Stops the pipeline and releases its devices. Safe to call more than once.
    public func stop() {
        tearDown()
    }

    private func tearDown() {
        mailboxes.forEach { $0.close() }
        if busWatchID != 0 { g_source_remove(busWatchID); busWatchID = 0 }
        // Always go to NULL, even if play() failed half-way: elements may hold a device open.
        gst_element_set_state(pipeline, GST_STATE_NULL)
        isPlaying = false
    }

    // MARK: Bus

    /// Delivers bus messages on the main loop until the pipeline stops.
    public func watchBus(_ handler: @escaping @MainActor (BusMessage) -> Void) {
        guard busWatchID == 0, let bus = gst_element_get_bus(pipeline) else { return }
        defer { gst_object_unref(gpointer(bus)) }
        let box = CallbackBox(handler)
        busWatchID = gst_bus_add_watch_full(bus, G_PRIORITY_DEFAULT, { _, message, data in
            guard let message else { return 1 }
            let box = CallbackBox<@MainActor (BusMessage) -> Void>.borrow(data)
            let parsed = BusMessage(message)
            MainActor.assumeIsolated { box.body(parsed) }
            return 1
        }, box.retainedPointer(), { data in CallbackBox<@MainActor (BusMessage) -> Void>.release(data) })
    }

    private func pendingErrorMessage() -> String? {
        guard let bus = gst_element_get_bus(pipeline) else { return nil }
        defer { gst_object_unref(gpointer(bus)) }
        guard let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) else { return nil }
        defer { gst_message_unref(message) }
        if case .error(let text, _, _, _) = BusMessage(message) { return text }
        return nil
    }
}

/// The RTP header extensions our payloaders send, by the URI the SDP names them with.
public enum RTPHeaderExtension: String, Sendable {
    /// RFC 6464: how loud each audio packet is (Janus's talking events come from it).
    case audioLevel = "urn:ietf:params:rtp-hdrext:ssrc-audio-level"
    /// A sequence number across all our packets: the receiver's feedback (TWCC) then says when
    /// each arrived, which tells what the path delivers (see `TransportFeedback`).
    case transportWideCC = "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
}
