/// Tells the other side of an offer how our Opus is sent: with in-band forward error correction
/// (a lost packet's sound is rebuilt from a low-bitrate copy in the next one) and with
/// discontinuous transmission (almost nothing is sent while we are silent).
///
/// webrtcbin writes the offer's `a=fmtp` from the payloader's caps, which carry neither
/// parameter, so they are added to the text of the offer before it is set and sent.
enum OpusOffer {
    static let parameters = ["useinbandfec=1", "usedtx=1"]

    /// `sdp` with `useinbandfec=1;usedtx=1` on the Opus payload type `payloadType`: added to its
    /// `a=fmtp` line, or a new line after its `a=rtpmap`. Other lines are left as they are.
    static func addingParameters(to sdp: String, payloadType: Int) -> String {
        let separator = sdp.contains("\r\n") ? "\r\n" : "\n"
        var lines = sdp.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        if let index = lines.firstIndex(where: { $0.hasPrefix("a=fmtp:\(payloadType) ") }) {
            let existing = lines[index].split(separator: " ", maxSplits: 1).last.map { $0.split(separator: ";").map(String.init) } ?? []
            let missing = parameters.filter { parameter in
                !existing.contains { $0.split(separator: "=").first == parameter.split(separator: "=").first }
            }
            if !missing.isEmpty { lines[index] += ";" + missing.joined(separator: ";") }
        } else if let index = lines.firstIndex(where: { $0.hasPrefix("a=rtpmap:\(payloadType) ") }) {
            lines.insert("a=fmtp:\(payloadType) " + parameters.joined(separator: ";"), at: index + 1)
        }
        return lines.joined(separator: separator)
    }
}
