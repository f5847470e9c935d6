import FoundationEssentials
import CGLib
import CGStreamer

/// One value in a WebRTC statistics report.
public enum StatisticValue: Sendable, Equatable {
    case number(Double)
    case text(String)

    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    public var text: String? {
        switch self { case .text(let value): value; case .number(let value): String(value) }
    }
}

/// Reads webrtcbin's get-stats reply: a structure whose fields are one structure per report.
enum WebRTCStatistics {
    static func read(_ promise: UnsafeMutablePointer<GstPromise>) -> [[String: StatisticValue]] {
        guard let reply = gst_promise_get_reply(promise) else { return [] }
        let collector = Collector()
        withExtendedLifetime(collector) {
            gst_structure_foreach(reply, { _, value, data in
                guard let value, let data else { return 1 }
                let collector = Unmanaged<Collector>.fromOpaque(data).takeUnretainedValue()
                if value.pointee.g_type == gst_structure_get_type(), let report = gst_value_get_structure(value) {
                    collector.reports.append(WebRTCStatistics.fields(of: report))
                }
                return 1
            }, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.reports
    }

    private final class Collector {
        var reports: [[String: StatisticValue]] = []
        var fields: [String: StatisticValue] = [:]
    }

    static func fields(of report: UnsafePointer<GstStructure>) -> [String: StatisticValue] {
        let collector = Collector()
        withExtendedLifetime(collector) {
            gst_structure_foreach(report, { fieldID, value, data in
                guard let value, let data, let name = g_quark_to_string(fieldID) else { return 1 }
                let collector = Unmanaged<Collector>.fromOpaque(data).takeUnretainedValue()
                // Serialising covers every numeric and enum type the reports use ("inbound-rtp", 0.02, 1234).
                if let text = takeString(gst_value_serialize(value)) {
                    var unquoted = Substring(text)
                    while unquoted.first == "\"" { unquoted.removeFirst() }
                    while unquoted.last == "\"" { unquoted.removeLast() }
                    collector.fields[String(cString: name)] = Double(unquoted).map(StatisticValue.number) ?? .text(String(unquoted))
                }
                return 1
            }, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.fields
    }
}
