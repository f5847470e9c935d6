import CGLib
import CGStreamer
import Synchronization

/// Tells whether a GObject has been finalized, without keeping it alive (a GLib weak
/// reference). Tests use it to prove that an owner going away really frees what it held:
/// pipeline elements after `stop()`, widgets after their window closed.
public final class FinalizationWatch: Sendable {
    // Written on whichever thread drops the last reference (GStreamer may finalize elsewhere).
    private let finalized = FinalizedFlag()
    public var isFinalized: Bool { finalized.value.withLock { $0 } }

    init(watching object: gpointer) {
        let context = Unmanaged.passRetained(finalized).toOpaque()
        g_object_weak_ref(object.assumingMemoryBound(to: GObject.self), { data, _ in
            guard let data else { return }
            Unmanaged<FinalizedFlag>.fromOpaque(data).takeRetainedValue().value.withLock { $0 = true }
        }, context)
    }
}

private final class FinalizedFlag: Sendable {
    let value = Mutex(false)
}

extension GObjectReference {
    /// Watches this object's finalization.
    public func watchFinalization() -> FinalizationWatch { FinalizationWatch(watching: raw) }
}

extension MediaPipeline {
    /// Watches the finalization of the element called `name` (nil if there is none).
    public func watchFinalization(ofElement name: String) -> FinalizationWatch? {
        guard let element = elementPointer(named: name) else { return nil }
        defer { gst_object_unref(gpointer(element)) }
        return FinalizationWatch(watching: gpointer(element))
    }
}
