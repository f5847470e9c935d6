import ConfabProtocol
import FoundationEssentials
import Synchronization

/// The answers one socket is waiting for, by request id, each with the type its payload is read
/// as. Registered by the sender before the request goes out and taken by the socket's decode,
/// so that an answer is read in the one typed decode of its frame (the frame's `kind` and `id`
/// decide which reader; no header pass and no second parse by the requester).
final class ExpectedAnswers: Sendable {
    /// Reads a response frame's payload from the frame's own top-level decoder.
    typealias Reader = @Sendable (any Decoder) throws -> any Sendable
    private let readers = Mutex<[String: Reader]>([:])

    /// Expects the answer to request `id` to carry a `Response`.
    func expect<Response: Codable & Sendable>(_: Response.Type, for id: String) {
        readers.withLock { $0[id] = { decoder in try ResponseEnvelope<Response>(from: decoder).payload } }
    }

    /// Stops waiting for `id` (it timed out, or the connection ended).
    func forget(_ id: String) {
        _ = readers.withLock { $0.removeValue(forKey: id) }
    }

    /// The reader for `id`'s answer, once: a second answer to one request is not awaited.
    func take(_ id: String) -> Reader? {
        readers.withLock { $0.removeValue(forKey: id) }
    }

    /// How many answers are awaited (tests check that none is left behind).
    var count: Int { readers.withLock { $0.count } }

    static let userInfoKey = CodingUserInfoKey(rawValue: "org.confab.expectedAnswers")!
}
