import CGLib
import CGStreamer

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
        /// A device found by the device monitor.
        case device(SystemDevice)
    }

    let pipeline: UnsafeMutablePointer<GstElement>
    private var busWatchID: guint = 0
    private var mailboxes: [VideoFrameMailbox] = []
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
        pipeline = element
        MediaPipeline.liveCount += 1
    }

    /// Builds `source ! <processing>`: the source is a device's own element or a description.
    public convenience init(source: Source, processing: String) throws(MediaPipelineError) {
        switch source {
        case .description(let fragment):
            try self.init(description: "\(fragment) ! \(processing)")
        case .device(let device):
            try self.init(description: "bin name=processing ( \(processing) )")
            try attach(device: device, to: "processing")
        }
    }

    isolated deinit {
        tearDown()
        gst_object_unref(gpointer(pipeline))
        MediaPipeline.liveCount -= 1
    }

    private func attach(device: SystemDevice, to binName: String) throws(MediaPipelineError) {
        guard let source = gst_device_create_element(device.device, nil) else {
            throw MediaPipelineError("could not open \(device.displayName)")
        }
        guard let bin = elementPointer(named: binName) else { throw MediaPipelineError("no \(binName) bin") }
        defer { gst_object_unref(gpointer(bin)) }
        // The processing bin's first element has an unlinked sink pad: ghost it so the device can link.
        guard let firstSinkPad = gst_bin_find_unlinked_pad(UnsafeMutableRawPointer(bin).assumingMemoryBound(to: GstBin.self), GST_PAD_SINK) else {
            throw MediaPipelineError("processing has no input")
        }
        let ghost = gst_ghost_pad_new("sink", firstSinkPad)
        gst_object_unref(gpointer(firstSinkPad))
        gst_element_add_pad(bin, ghost)
        gst_bin_add(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), source)
        guard gst_element_link(source, bin) != 0 else {
            throw MediaPipelineError("\(device.displayName) offers no format the pipeline accepts")
        }
    }

    // MARK: Elements

    func elementPointer(named name: String) -> UnsafeMutablePointer<GstElement>? {
        gst_bin_get_by_name(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), name)
    }

    /// Sets a property of a named element from its string form; GStreamer converts the type.
    public func set(_ property: String, _ value: String, onElement name: String) {
        guard let element = elementPointer(named: name) else { return }
        gst_util_set_object_arg(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self), property, value)
        gst_object_unref(gpointer(element))
    }

    /// Delivers frames from the appsink called `name` to `handler` on the main thread, newest first.
    public func receiveVideoFrames(fromAppSink name: String, _ handler: @escaping @MainActor (VideoFrame) -> Void) {
        guard let sink = elementPointer(named: name) else { return }
        defer { gst_object_unref(gpointer(sink)) }
        let mailbox = VideoFrameMailbox(deliver: handler)
        mailbox.attach(to: sink)
        mailboxes.append(mailbox)
    }

    // MARK: State

    /// Starts playing. Errors that come later arrive on the bus as `.error`.
    public func play() throws(MediaPipelineError) {
        if gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            let detail = pendingErrorMessage() ?? "the device may be busy or missing"
            throw MediaPipelineError("could not start: \(detail)")
        }
        isPlaying = true
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
        if case .error(let text, _) = BusMessage(message) { return text }
        return nil
    }
}
