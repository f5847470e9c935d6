import NIOCore
import WSCore

/// Joins WebSocket frames into messages and enforces the message size limit without closing
/// the connection: an oversized message is read to its end and thrown away, and the caller
/// answers it with `messageTooLarge`.
struct MessageAssembler {
    enum Outcome: Equatable {
        /// `isText`: the message began with a text frame, so it must be UTF-8 (RFC 6455 §8.1).
        case message([UInt8], isText: Bool)
        case tooLarge(size: Int)
    }

    let limit: Int
    private var bytes: [UInt8] = []
    private var size = 0
    private var isText = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds a frame; returns a whole message when the frame ends one.
    mutating func append(_ frame: WebSocketDataFrame) -> Outcome? {
        if frame.opcode != .continuation {
            bytes.removeAll(keepingCapacity: true)
            size = 0
            isText = frame.opcode == .text
        }
        size += frame.data.readableBytes
        if size <= limit {
            bytes.append(contentsOf: frame.data.readableBytesView)
        } else {
            bytes.removeAll()
        }
        guard frame.fin else { return nil }
        defer {
            bytes = []
            size = 0
        }
        return size <= limit ? .message(bytes, isText: isText) : .tooLarge(size: size)
    }
}
