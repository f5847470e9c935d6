import CGLib
import CGStreamer

/// One fixed-size entry of a video source's caps ("image/jpeg, width=1920, height=1080,
/// framerate={ 30/1, 15/1 }"): what a camera lists as a way to open it.
public struct VideoCapsMode: Equatable, Sendable {
    /// "video/x-raw", "image/jpeg", …
    public let mediaType: String
    public let width: Int
    public let height: Int
    /// The highest frame rate listed (0 when none is).
    public let maximumFramerate: Double

    /// The fixed-size entries of `caps` in gst-launch's text form; empty when it does not parse.
    public static func modes(inCaps text: String) -> [VideoCapsMode] {
        GStreamer.initialize()
        guard let caps = gst_caps_from_string(text) else { return [] }
        defer { gst_caps_unref(caps) }
        return modes(in: caps)
    }

    /// Entries whose width or height is a range (a capture card, a virtual camera) are left out:
    /// such a source makes whatever size it is asked for.
    static func modes(in caps: UnsafeMutablePointer<GstCaps>) -> [VideoCapsMode] {
        (0..<gst_caps_get_size(caps)).compactMap { index in
            guard let structure = gst_caps_get_structure(caps, index), let name = gst_structure_get_name(structure) else { return nil }
            var width: gint = 0, height: gint = 0
            guard gst_structure_get_int(structure, "width", &width) != 0, gst_structure_get_int(structure, "height", &height) != 0,
                  width > 0, height > 0 else { return nil }
            let framerate = gst_structure_get_value(structure, "framerate").map(Self.highestFramerate) ?? 0
            return VideoCapsMode(mediaType: String(cString: name), width: Int(width), height: Int(height), maximumFramerate: framerate)
        }
    }

    /// The highest rate in a fraction, a list of them or a range of them.
    private static func highestFramerate(_ value: UnsafePointer<GValue>) -> Double {
        let type = value.pointee.g_type
        if type == gst_fraction_get_type() {
            let denominator = gst_value_get_fraction_denominator(value)
            return denominator > 0 ? Double(gst_value_get_fraction_numerator(value)) / Double(denominator) : 0
        }
        if type == gst_value_list_get_type() {
            return (0..<gst_value_list_get_size(value)).compactMap { gst_value_list_get_value(value, $0).map(highestFramerate) }.max() ?? 0
        }
        if type == gst_fraction_range_get_type(), let maximum = gst_value_get_fraction_range_max(value) {
            return highestFramerate(maximum)
        }
        return 0
    }
}

extension SystemDevice {
    /// The fixed-size ways a camera says it can be opened (empty for other devices).
    public var videoModes: [VideoCapsMode] {
        guard kind == .camera, let caps = gst_device_get_caps(device) else { return [] }
        defer { gst_caps_unref(caps) }
        return VideoCapsMode.modes(in: caps)
    }
}

extension MediaPipeline.Source {
    /// A device's fixed-size modes; none for a description or the moving ball (a test source makes any size).
    public var videoModes: [VideoCapsMode] {
        switch self {
        case .description, .movingBall: []
        case .device(let device): device.videoModes
        }
    }
}
