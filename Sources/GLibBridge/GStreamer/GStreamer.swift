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

    /// Readies `factoryName` for the first pipeline that makes one: loads the plugin that
    /// provides it and initialises its element class (pad templates, caps, properties), without
    /// making an element. Safe on any thread once GStreamer is initialised (GObject initialises
    /// a class once, under its own lock); a missing factory is skipped. The class stays
    /// initialised for the process's life, as every element class does once used.
    public static func prepareElement(_ factoryName: String) {
        guard let factory = gst_element_factory_find(factoryName) else { return }
        defer { gst_object_unref(gpointer(factory)) }
        // A factory is a plugin feature (both opaque to Swift).
        guard let loaded = gst_plugin_feature_load(factory) else { return }
        defer { gst_object_unref(gpointer(loaded)) }
        let type = gst_element_factory_get_element_type(loaded)
        if type != 0 { _ = g_type_class_ref(type) }
    }

    /// The element factories whose class is initialised in this process (what a pipeline made
    /// now would not have to set up first).
    public static func preparedElementFactories() -> Set<String> {
        initialize()
        var names = Set<String>()
        let features = gst_registry_get_feature_list(gst_registry_get(), gst_element_factory_get_type())
        defer { gst_plugin_feature_list_free(features) }
        var node = features
        while let current = node {
            if let feature = current.pointee.data {
                let factory = OpaquePointer(feature)
                let type = gst_element_factory_get_element_type(factory)
                if type != 0, g_type_class_peek(type) != nil,
                   let name = takeString(gst_object_get_name(feature.assumingMemoryBound(to: GstObject.self))) {
                    names.insert(name)
                }
            }
            node = current.pointee.next
        }
        return names
    }

    public static var versionString: String { takeString(gst_version_string()) ?? "GStreamer" }
}

/// A pipeline that could not be built or started, with GStreamer's own words.
public struct MediaPipelineError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
