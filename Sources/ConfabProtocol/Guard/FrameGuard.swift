/// The check every untrusted JSON frame passes before a `JSONDecoder` sees it: frames from
/// clients (confab-server), from the coordinator and from Janus (the apps).
///
/// Foundation's JSON parser traps (SIGILL, the whole process) on some deeply nested input — a
/// frame of 513 `[` is enough — and decoding nested values costs time that grows with the
/// square of the depth. One linear scan over the bytes, with no allocation, refuses both
/// before any parsing: it counts `[`/`{` outside strings and stops at the first byte past the
/// limit. It does not validate JSON; the decoder does that afterwards, on bounded input.
public enum FrameGuard {
    /// How large and how deeply nested a frame may be.
    public struct Limits: Sendable, Equatable {
        public var maxBytes: Int
        public var maxDepth: Int

        public init(maxBytes: Int, maxDepth: Int) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
        }

        /// The coordinator protocol: 64 KiB messages. Its deepest real frames (an event with a
        /// call state, its session, participants) nest about 6 levels, plus a call's `custom`
        /// data; 32 leaves room for reasonable custom data and is far below the parser's trap.
        public static let coordinator = Limits(maxBytes: 64 * 1024, maxDepth: 32)

        /// Janus signalling: SDP offers with many candidates can exceed 64 KiB; nesting stays shallow.
        public static let janus = Limits(maxBytes: 1 << 20, maxDepth: 32)
    }

    /// Why a frame was refused before parsing.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case tooLarge(size: Int, limit: Int)
        /// Nesting went past `limit` at byte `offset`.
        case tooDeep(limit: Int, offset: Int)

        public var description: String {
            switch self {
            case .tooLarge(let size, let limit): "message of \(size) bytes exceeds the \(limit)-byte limit"
            case .tooDeep(let limit, let offset): "JSON nested deeper than \(limit) levels (at byte \(offset))"
            }
        }

        /// The error a server answers the frame with.
        public var protocolError: ProtocolError {
            switch self {
            case .tooLarge: ProtocolError(.messageTooLarge, description)
            case .tooDeep: ProtocolError(.nestingTooDeep, description)
            }
        }
    }

    /// Throws when `bytes` is over the size limit or nests deeper than the depth limit.
    public static func check(_ bytes: some Collection<UInt8>, limits: Limits) throws(Refusal) {
        let size = bytes.count
        guard size <= limits.maxBytes else { throw .tooLarge(size: size, limit: limits.maxBytes) }
        // Contiguous storage (Data, [UInt8], String.UTF8View) is scanned through a buffer pointer:
        // the generic iterator would cost several times more per byte.
        let result = bytes.withContiguousStorageIfAvailable { scan($0, maxDepth: limits.maxDepth) }
            ?? scan(bytes, maxDepth: limits.maxDepth)
        if let offset = result { throw .tooDeep(limit: limits.maxDepth, offset: offset) }
    }

    /// The same for text (a frame already decoded as UTF-8).
    public static func check(_ text: String, limits: Limits) throws(Refusal) {
        var text = text
        // makeContiguousUTF8 is free for native strings; it lets the scan use a buffer pointer.
        text.makeContiguousUTF8()
        try check(text.utf8, limits: limits)
    }

    /// The offset of the first byte that nests deeper than `maxDepth`, or nil.
    private static func scan(_ bytes: some Sequence<UInt8>, maxDepth: Int) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        var offset = 0
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > maxDepth { return offset }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    // Unbalanced closers are the parser's to report; never let depth go negative,
                    // or "]]]][[[[" would hide four levels.
                    depth = max(0, depth - 1)
                default:
                    break
                }
            }
            offset += 1
        }
        return nil
    }
}
