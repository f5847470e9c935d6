import Glibc

/// Writes diagnostics to the process's standard error (file descriptor 2) as they come,
/// unbuffered: a line written just before a crash or an exit is not lost in a buffer.
public enum StandardError {
    public static func write(_ text: String) { writeAll(Array(text.utf8), to: 2) }
}

/// The process's standard output (file descriptor 1).
public enum StandardOutput {
    /// Writes `bytes` at once, unbuffered (a report line another program waits for).
    public static func write(_ bytes: some Sequence<UInt8>) { writeAll(Array(bytes), to: 1) }

    /// Writes out what `print` has buffered: a log read while the program runs (the tests
    /// read the app's) sees a line as soon as it is printed.
    public static func flush() { fflush(nil) }
}

private func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    var remaining = bytes[...]
    while !remaining.isEmpty {
        let written = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        // Interrupted: again; any other failure (the descriptor closed): nowhere to say so.
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        remaining = remaining.dropFirst(written)
    }
}
