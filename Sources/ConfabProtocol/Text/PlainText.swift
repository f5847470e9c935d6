// What the client modules need of text beyond the standard library, written here so that the
// apps link FoundationEssentials alone: Foundation proper and its ICU data cost each process
// 6.5 MiB of footprint and 7 ms of start on their own (a program that encodes JSON and reads a
// file, with one import or the other; issue 15).

extension StringProtocol {
    /// The text without the spaces and tabs around it (what `CharacterSet.whitespaces` trims:
    /// line breaks stay).
    public func trimmingSpaces() -> String { trimming { $0.isWhitespace && !$0.isNewline } }

    /// The text without the spaces, tabs and line breaks around it.
    public func trimmingWhitespace() -> String { trimming(\.isWhitespace) }

    private func trimming(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension BinaryFloatingPoint {
    /// The number with exactly `digits` decimals ("0.250", "1795795776.123"): what
    /// `String(format: "%.3f")` gives, without Foundation, but for ties: they are rounded away
    /// from zero here (printf rounds the binary number's exact value; these are diagnostics).
    public func text(decimals digits: Int) -> String {
        precondition((0...9).contains(digits), "decimals must be 0...9")
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        guard isFinite, let scaled = Int64(exactly: (Double(self) * Double(scale)).rounded()) else { return "\(Double(self))" }
        let magnitude = scaled.magnitude
        let whole = magnitude / UInt64(scale), fraction = magnitude % UInt64(scale)
        let sign = scaled < 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(whole)" }
        let fractionText = String(fraction)
        return "\(sign)\(whole).\(String(repeating: "0", count: digits - fractionText.count))\(fractionText)"
    }
}

extension BinaryInteger {
    /// The number in upper-case hexadecimal with at least `digits` digits ("0A"):
    /// `String(format: "%02X")` without Foundation.
    public func hexText(digits: Int) -> String {
        let text = String(self, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
