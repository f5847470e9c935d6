import ConfabProtocol
import Foundation

/// One frame from the coordinator, decoded as far as it can be without knowing which request
/// it answers. Responses keep their JSON: only the request's sender knows the payload type.
enum InboundFrame: Sendable {
    case response(id: String, json: Data)
    /// `id` is nil when the server could not read our frame far enough to find its id.
    case error(id: String?, ProtocolError)
    case event(ServerEvent)

    /// Decodes a text frame; anything malformed is an `UnreadableFrame`, never a crash.
    /// A server is not trusted further than a client: `FrameGuard` runs before any parser, so a
    /// hostile or broken server cannot crash the app with a deeply nested frame.
    static func decode(_ text: String) throws(UnreadableFrame) -> InboundFrame {
        do {
            try FrameGuard.check(text, limits: .coordinator)
        } catch {
            throw UnreadableFrame(reason: "refused before parsing: \(error)", text: text)
        }
        let json = Data(text.utf8)
        let decoder = ConfabJSON.decoder()
        let header: MessageHeader
        do {
            header = try decoder.decode(MessageHeader.self, from: json)
        } catch {
            throw UnreadableFrame(reason: "not a confab message: \(error)", text: text)
        }
        switch header.kind {
        case .response:
            guard let id = header.id else { throw UnreadableFrame(reason: "a response without an id", text: text) }
            return .response(id: id, json: json)
        case .error:
            do {
                let envelope = try decoder.decode(ErrorEnvelope.self, from: json)
                return .error(id: envelope.id, envelope.error)
            } catch {
                throw UnreadableFrame(reason: "an unreadable error: \(error)", text: text)
            }
        case .event:
            do {
                // Events carry calls' `custom` data: parsed once, not by trial decodes.
                return .event(try ConfabJSON.decoder(preparsing: json).decode(EventEnvelope.self, from: json).event)
            } catch {
                throw UnreadableFrame(reason: "an unreadable \(header.type ?? "untyped") event: \(error)", text: text)
            }
        case .request:
            throw UnreadableFrame(reason: "servers do not send requests", text: text)
        }
    }
}

/// A frame the client could not use; logged and dropped.
struct UnreadableFrame: Error, CustomStringConvertible {
    let reason: String
    /// The start of the frame, for the log (frames can be 64 KiB).
    let excerpt: String

    init(reason: String, text: String) {
        self.reason = reason
        self.excerpt = String(text.prefix(200))
    }

    var description: String { "\(reason) — \(excerpt)" }
}
