/// A Janus id (session, handle, room, feed, private id, forwarder) read from JSON: a whole
/// number from 0 to 2^64 - 1, exactly. Foundation's JSONDecoder reports a number that does not
/// fit UInt64 (-1, 1.5, 2^64) as "not valid JSON" without saying where; read through this, it
/// is a type mismatch at the field's path (`JanusReplyError.wrongType`).
struct JanusID: Decodable {
    let value: UInt64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let value = try? container.decode(UInt64.self) else {
            throw DecodingError.typeMismatch(
                UInt64.self, DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a whole number from 0 to 2^64 - 1"))
        }
        self.value = value
    }
}

extension KeyedDecodingContainer {
    func decodeID(_ key: Key) throws -> UInt64 {
        try decode(JanusID.self, forKey: key).value
    }

    func decodeIDIfPresent(_ key: Key) throws -> UInt64? {
        try decodeIfPresent(JanusID.self, forKey: key)?.value
    }
}
