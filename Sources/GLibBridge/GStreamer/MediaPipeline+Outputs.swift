import CGStreamer

/// Outputs that come and go: a speaker replaced while the sound keeps flowing to it.
extension MediaPipeline {
    /// Replaces the output called `name` (a sink, described as in gst-launch) fed by the element
    /// called `source`, while the pipeline runs; what is upstream of `source` keeps running.
    public func attachOutput(named name: String, description: String, from source: String) throws(MediaPipelineError) {
        detachOutput(named: name)
        let element = try namedBin(description, name: name)
        defer { gst_object_unref(gpointer(element)) }
        guard let sourceElement = elementPointer(named: source) else { throw MediaPipelineError("no \(source) in the pipeline") }
        defer { gst_object_unref(gpointer(sourceElement)) }
        gst_bin_add(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), element)
        guard gst_element_link(sourceElement, element) != 0 else {
            gst_bin_remove(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), element)
            throw MediaPipelineError("“\(description)” accepts no format \(source) gives")
        }
        if isPlaying {
            gst_element_sync_state_with_parent(element)
            // A new sink may add latency; elements that align on it (the echo probe) hear of it.
            _ = gst_bin_recalculate_latency(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self))
        }
    }

    /// Gives back a request pad (a tee's output, a mixer's input) once nothing is linked to it:
    /// a mixer would otherwise go on waiting for data on it.
    func releaseIfRequested(_ pad: UnsafeMutablePointer<GstPad>) {
        guard let template = gst_pad_get_pad_template(pad) else { return }
        defer { gst_object_unref(gpointer(template)) }
        guard template.pointee.presence == GST_PAD_REQUEST, let owner = gst_pad_get_parent_element(pad) else { return }
        gst_element_release_request_pad(owner, pad)
        gst_object_unref(gpointer(owner))
    }

    /// Stops and removes the output called `name`; nothing happens if there is none.
    public func detachOutput(named name: String) {
        guard let element = elementPointer(named: name) else { return }
        defer { gst_object_unref(gpointer(element)) }
        if let input = gst_element_get_static_pad(element, "sink") {
            if let peer = gst_pad_get_peer(input) {
                gst_pad_unlink(peer, input)
                releaseIfRequested(peer)
                gst_object_unref(gpointer(peer))
            }
            gst_object_unref(gpointer(input))
        }
        // Locked first: the pipeline may still be on its way to PLAYING (a live pipeline's
        // state change finishes in the background), and would take the element back up with it
        // after we stopped it — then it is freed while running (seen in CI: "Trying to dispose
        // element capsfilter7, but it is in PLAYING", and the peer crashed).
        gst_element_set_locked_state(element, 1)
        gst_element_set_state(element, GST_STATE_NULL)
        gst_bin_remove(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), element)
    }
}

extension MediaPipeline {
    /// The picture size negotiated on the `pad` of the element called `name` (e.g. a decoder's
    /// output: the size received, before any scaling for display), or nil before negotiation.
    public func videoSize(ofElement name: String, pad: String = "src") -> (width: Int, height: Int)? {
        guard let element = elementPointer(named: name) else { return nil }
        defer { gst_object_unref(gpointer(element)) }
        guard let staticPad = gst_element_get_static_pad(element, pad) else { return nil }
        defer { gst_object_unref(gpointer(staticPad)) }
        guard let caps = gst_pad_get_current_caps(staticPad) else { return nil }
        defer { gst_caps_unref(caps) }
        guard gst_caps_get_size(caps) > 0, let structure = gst_caps_get_structure(caps, 0) else { return nil }
        var width: gint = 0, height: gint = 0
        guard gst_structure_get_int(structure, "width", &width) != 0, gst_structure_get_int(structure, "height", &height) != 0 else { return nil }
        return (Int(width), Int(height))
    }
}

extension MediaPipeline {
    /// Sets `property` on every element made by `factory` anywhere in the pipeline, inside bins
    /// too (elements webrtcbin makes for itself, which it names and configures on its own);
    /// returns how many there were.
    @discardableResult
    public func set(_ property: String, _ value: String, onEveryElementOf factory: String) -> Int {
        var count = 0
        forEachElement { element, made in
            guard made == factory else { return }
            gst_util_set_object_arg(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self), property, value)
            count += 1
        }
        return count
    }

    /// The factory of every element in the pipeline, inside bins too (what building it made).
    public var elementFactoryNames: Set<String> {
        var names = Set<String>()
        forEachElement { _, made in if let made { names.insert(made) } }
        return names
    }

    /// Every element anywhere in the pipeline, inside bins too, with its factory's name.
    func forEachElement(_ body: (UnsafeMutablePointer<GstElement>, String?) -> Void) {
        let bin: UnsafeMutablePointer<GstBin> = UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self)
        guard let iterator = gst_bin_iterate_recurse(bin) else { return }
        defer { gst_iterator_free(iterator) }
        var item = GValue()
        while gst_iterator_next(iterator, &item) == GST_ITERATOR_OK {
            if let object = g_value_get_object(&item) {
                let element = object.assumingMemoryBound(to: GstElement.self)
                let factory = gst_element_get_factory(element).flatMap {
                    takeString(gst_object_get_name(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GstObject.self)))
                }
                body(element, factory)
            }
            g_value_reset(&item)
        }
        g_value_unset(&item)
    }
}
