import CGLib
import CGStreamer

/// A capture or playback device that GStreamer's device monitor reported.
public final class SystemDevice: @unchecked Sendable {
    public enum Kind: Sendable { case camera, microphone, speaker }

    public let kind: Kind
    /// Stable across runs and replugs where the system gives us a path or node name.
    public let id: String
    public let displayName: String
    public let isDefault: Bool
    /// Listed by PulseAudio (a GNOME session's PipeWire serves its protocol too): its server
    /// moves a stream opened without naming a device to whichever is the default.
    public let isPulseAudio: Bool
    let device: UnsafeMutablePointer<GstDevice>

    init?(_ device: UnsafeMutablePointer<GstDevice>) {
        let deviceClass = takeString(gst_device_get_device_class(device)) ?? ""
        let properties = gst_device_get_properties(device)
        defer { if let properties { gst_structure_free(properties) } }

        func property(_ key: String) -> String? {
            guard let properties, let value = gst_structure_get_string(properties, key) else { return nil }
            return String(cString: value)
        }

        if deviceClass.contains("Video/Source") { kind = .camera }
        else if deviceClass.contains("Audio/Source") { kind = .microphone }
        else if deviceClass.contains("Audio/Sink") { kind = .speaker }
        else { return nil }
        // PulseAudio lists every output's "monitor" as a microphone; nobody wants to talk through one.
        if kind == .microphone, property("device.class") == "monitor" { return nil }

        displayName = takeString(gst_device_get_display_name(device)) ?? "Unknown device"
        id = property("node.name") ?? property("api.v4l2.path") ?? property("device.path")
            ?? property("udev.id") ?? property("alsa.card_name").map { "alsa:\($0)" } ?? "\(deviceClass):\(displayName)"
        var isDefaultFlag: gboolean = 0
        if let properties, gst_structure_get_boolean(properties, "is-default", &isDefaultFlag) != 0 {
            isDefault = isDefaultFlag != 0
        } else {
            isDefault = false
        }
        isPulseAudio = g_type_name_from_instance(UnsafeMutableRawPointer(device).assumingMemoryBound(to: GTypeInstance.self))
            .map { String(cString: $0) } == "GstPulseDevice"
        gst_object_ref(gpointer(device))
        self.device = device
    }

    deinit { gst_object_unref(gpointer(device)) }

    /// The device as a gst-launch element description ("pulsesink device=alsa_output.usb-…"),
    /// for pipelines built from text on a streaming thread (incoming audio branches).
    /// Nil when the device's element has no property that names the device.
    public lazy var elementDescription: String? = {
        guard let element = gst_device_create_element(device, nil) else { return nil }
        gst_object_ref_sink(gpointer(element))
        defer { gst_object_unref(gpointer(element)) }
        guard let factory = gst_element_get_factory(element),
              let factoryName = takeString(gst_object_get_name(UnsafeMutableRawPointer(factory).assumingMemoryBound(to: GstObject.self))) else { return nil }
        let object = UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self)
        let objectClass = UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
        // Whichever property the provider uses to name the device (PulseAudio, ALSA, PipeWire).
        for property in ["device", "target-object", "path"] {
            guard let spec = g_object_class_find_property(objectClass, property), spec.pointee.value_type == confab_type_string() else { continue }
            if let text = stringProperty(property, of: object), !text.isEmpty {
                let quoted = text.replacing("\"", with: "")
                return "\(factoryName) \(property)=\"\(quoted)\""
            }
        }
        return nil
    }()
}

/// Watches cameras, microphones and speakers coming and going (GstDeviceMonitor).
@MainActor
public final class DeviceMonitor {
    private let monitor: UnsafeMutablePointer<GstDeviceMonitor>
    private var busWatchID: guint = 0
    private var onChange: (@MainActor () -> Void)?
    public private(set) var isRunning = false

    public init() {
        GStreamer.initialize()
        monitor = gst_device_monitor_new()
        for deviceClass in ["Video/Source", "Audio/Source", "Audio/Sink"] {
            gst_device_monitor_add_filter(monitor, deviceClass, nil)
        }
    }

    isolated deinit {
        stop()
        gst_object_unref(gpointer(monitor))
    }

    /// Starts monitoring; `onChange` runs on the main loop after a device is added or removed.
    /// Returns false when no device provider could start (no camera or sound system at all).
    @discardableResult
    public func start(onChange: @escaping @MainActor () -> Void) -> Bool {
        guard !isRunning else { return true }
        self.onChange = onChange
        if let bus = gst_device_monitor_get_bus(monitor) {
            let box = CallbackBox(onChange)
            busWatchID = gst_bus_add_watch_full(bus, G_PRIORITY_DEFAULT, { _, message, data in
                guard let message else { return 1 }
                let type = confab_message_type(message)
                if type == GST_MESSAGE_DEVICE_ADDED || type == GST_MESSAGE_DEVICE_REMOVED || type == GST_MESSAGE_DEVICE_CHANGED {
                    CallbackBox<@MainActor () -> Void>.borrow(data).call()
                }
                return 1
            }, box.retainedPointer(), { data in CallbackBox<@MainActor () -> Void>.release(data) })
            gst_object_unref(gpointer(bus))
        }
        isRunning = gst_device_monitor_start(monitor) != 0
        return isRunning
    }

    public func stop() {
        if busWatchID != 0 { g_source_remove(busWatchID); busWatchID = 0 }
        if isRunning { gst_device_monitor_stop(monitor); isRunning = false }
    }

    /// The devices present now.
    public var devices: [SystemDevice] {
        var result: [SystemDevice] = []
        var node = gst_device_monitor_get_devices(monitor)
        let head = node
        while let current = node {
            if let pointer = current.pointee.data {
                if let device = SystemDevice(pointer.assumingMemoryBound(to: GstDevice.self)) { result.append(device) }
            }
            node = current.pointee.next
        }
        g_list_free_full(head, { gst_object_unref($0) })
        return result
    }
}
