import ConfabProtocol
import FoundationEssentials

/// One frame from the coordinator, decoded in one typed pass: its `kind` decides the shape, and
/// an answer's payload is read as the type its request expects (`ExpectedAnswers`).
enum InboundFrame: Sendable {
    case response(id: String, Answer)
    /// `id` is nil when the server could not read our frame far enough to find its id.
    case error(id: String?, ProtocolError)
    case event(ServerEvent)

    /// A response's payload, as far as it could be read.
    enum Answer: Sendable {
        /// The payload, of the type the request expects.
        case read(any Sendable)
        /// The payload did not decode as the request's answer (a newer or broken server).
        case unreadable(reason: String)
        /// No request with this id is waiting (it timed out, or the server answered twice).
        case notAwaited
    }

    /// Decodes a text frame; anything malformed is an `UnreadableFrame`, never a crash.
    /// A server is not trusted further than a client: `FrameGuard` runs before any parser, so a
    /// hostile or broken server cannot crash the app with a deeply nested frame.
    static func decode(_ text: String, expecting answers: ExpectedAnswers = ExpectedAnswers()) throws(UnreadableFrame) -> InboundFrame {
        do {
            try FrameGuard.check(text, limits: .coordinator)
        } catch {
            throw UnreadableFrame(reason: "refused before parsing: \(error)", text: text)
        }
        let json = Data(text.utf8)
        // Frames with calls' `custom` data have it looked up in the frame parsed once, on demand.
        let decoder = ConfabJSON.decoder(parsingOnDemand: json)
        decoder.userInfo[ExpectedAnswers.userInfoKey] = answers
        do {
            return try decoder.decode(Wire.self, from: json).frame
        } catch let error as UnreadableFrame.Reason {
            throw UnreadableFrame(reason: error.text, text: text)
        } catch {
            throw UnreadableFrame(reason: "not a confab message: \(error)", text: text)
        }
    }

    /// The frame as the decoder meets it: the envelope's fields first, then the rest of the
    /// same container read as `kind` says.
    private struct Wire: Decodable {
        let frame: InboundFrame
        private enum CodingKeys: String, CodingKey { case kind, id, type }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let kind = try container.decode(MessageKind.self, forKey: .kind)
            switch kind {
            case .response:
                guard let id = try container.decodeIfPresent(String.self, forKey: .id) else {
                    throw UnreadableFrame.Reason(text: "a response without an id")
                }
                guard let answers = decoder.userInfo[ExpectedAnswers.userInfoKey] as? ExpectedAnswers,
                      let read = answers.take(id) else {
                    frame = .response(id: id, .notAwaited)
                    return
                }
                do {
                    frame = .response(id: id, .read(try read(decoder)))
                } catch {
                    frame = .response(id: id, .unreadable(reason: "\(error)"))
                }
            case .error:
                do {
                    let envelope = try ErrorEnvelope(from: decoder)
                    frame = .error(id: envelope.id, envelope.error)
                } catch {
                    throw UnreadableFrame.Reason(text: "an unreadable error: \(error)")
                }
            case .event:
                do {
                    frame = .event(try EventEnvelope(from: decoder).event)
                } catch {
                    let type = (try? container.decodeIfPresent(String.self, forKey: .type)) ?? nil
                    throw UnreadableFrame.Reason(text: "an unreadable \(type ?? "untyped") event: \(error)")
                }
            case .request:
                throw UnreadableFrame.Reason(text: "servers do not send requests")
            }
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

    /// Why, thrown from inside the decode (which does not have the frame's text).
    struct Reason: Error { let text: String }
}
