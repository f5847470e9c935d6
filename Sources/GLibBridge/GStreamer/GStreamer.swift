import CGLib
import CGStreamer

/// Process-wide GStreamer set-up and element availability.
public enum GStreamer {
    nonisolated(unsafe) private static var initialized = false

    /// Initialises GStreamer once (idempotent; call from the main thread at start-up).
    public static func initialize() {
        guard !initialized else { return }
        gst_init(nil, nil)
        initialized = true
    }

    /// Whether an element factory is installed (e.g. "v4l2src", "level").
    public static func hasElement(_ factoryName: String) -> Bool {
        initialize()
        guard let factory = gst_element_factory_find(factoryName) else { return false }
        gst_object_unref(gpointer(factory))
        return true
    }

    /// Loads the plugin that provides `factoryName`, without making an element (safe on any
    /// thread once GStreamer is initialised; a missing factory is skipped).
    public static func loadPlugin(providing factoryName: String) {
        guard let factory = gst_element_factory_find(factoryName) else { return }
        defer { gst_object_unref(gpointer(factory)) }
        // A factory is a plugin feature (both opaque to Swift).
        if let loaded = gst_plugin_feature_load(factory) { gst_object_unref(gpointer(loaded)) }
    }

    public static var versionString: String { takeString(gst_version_string()) ?? "GStreamer" }
}

/// A pipeline that could not be built or started, with GStreamer's own words.
public struct MediaPipelineError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
