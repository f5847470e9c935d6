import CGLib
import CGStreamer

/// The bus messages Confab acts on, decoded into Swift values.
public enum BusMessage: Sendable {
    /// `source` is the path of the element that failed
    /// ("/GstPipeline:pipeline0/GstBin:camera-input/GstV4l2Src:camera-source"),
    /// so an owner can tell which of its inputs broke; `stop`, why its stream stopped when the
    /// error is a streaming thread giving up (GStreamer's flow return, in the error's details).
    case error(String, debug: String?, source: String?, stop: StreamStop?)
    case warning(String)
    case endOfStream
    /// A `level` element's reading: RMS and peak per channel, in dB (0 = full scale).
    case level(LevelReading)
    case other

    init(_ message: UnsafeMutablePointer<GstMessage>) {
        switch confab_message_type(message) {
        case GST_MESSAGE_ERROR:
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            gst_message_parse_error(message, &error, &debug)
            let text = string(from: error?.pointee.message) ?? "unknown error"
            if let error { g_error_free(error) }
            let source = confab_message_source(message).flatMap { takeString(gst_object_get_path_string($0)) }
            self = .error(text, debug: takeString(debug), source: source, stop: StreamStop(detailsOf: message))
        case GST_MESSAGE_WARNING:
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            gst_message_parse_warning(message, &error, &debug)
            let text = string(from: error?.pointee.message) ?? "unknown warning"
            if let error { g_error_free(error) }
            g_free(debug)
            self = .warning(text)
        case GST_MESSAGE_EOS:
            self = .endOfStream
        case GST_MESSAGE_ELEMENT:
            if let structure = gst_message_get_structure(message),
               gst_structure_has_name(structure, "level") != 0,
               var reading = LevelReading(structure) {
                reading.elementName = confab_message_source_name(message).map { String(cString: $0) }
                self = .level(reading)
            } else {
                self = .other
            }
        default:
            self = .other
        }
    }
}

/// Why a streaming thread stopped (GStreamer's flow return), for the errors that say.
public enum StreamStop: Sendable, Equatable {
    /// Caps could not be agreed along the way: nothing is wrong with the device, the format
    /// changed under it (a filter changed while it renegotiated).
    case notNegotiated
    /// Any other reason, by its flow return.
    case other(Int32)

    /// GStreamer's own flow errors carry `flow-return` in their details (GST_ELEMENT_FLOW_ERROR).
    init?(detailsOf message: UnsafeMutablePointer<GstMessage>) {
        var details: UnsafePointer<GstStructure>?
        gst_message_parse_error_details(message, &details)
        var flow: gint = 0
        guard let details, gst_structure_get_int(details, "flow-return", &flow) != 0 else { return nil }
        self = flow == GST_FLOW_NOT_NEGOTIATED.rawValue ? .notNegotiated : .other(flow)
    }
}

/// One measurement from GStreamer's `level` element.
public struct LevelReading: Sendable, Equatable {
    public let rmsDecibels: [Double]
    public let peakDecibels: [Double]
    /// The name of the `level` element that measured, for pipelines with several.
    public var elementName: String?

    public init(rmsDecibels: [Double], peakDecibels: [Double], elementName: String? = nil) {
        self.rmsDecibels = rmsDecibels
        self.peakDecibels = peakDecibels
        self.elementName = elementName
    }

    /// The loudest channel's RMS level: a voice on one channel of a stereo mic still counts.
    public var loudestRMS: Double { rmsDecibels.max() ?? -.infinity }

    init?(_ structure: UnsafePointer<GstStructure>) {
        guard let rms = LevelReading.doubles(structure, "rms"), let peak = LevelReading.doubles(structure, "peak") else { return nil }
        self.init(rmsDecibels: rms, peakDecibels: peak)
    }

    /// `rms` and `peak` are GValueArrays of doubles, one per channel.
    private static func doubles(_ structure: UnsafePointer<GstStructure>, _ field: String) -> [Double]? {
        guard let value = gst_structure_get_value(structure, field),
              let boxed = g_value_get_boxed(value) else { return nil }
        let array = boxed.assumingMemoryBound(to: GValueArray.self).pointee
        guard let values = array.values else { return [] }
        return (0..<Int(array.n_values)).map { g_value_get_double(values + $0) }
    }
}
