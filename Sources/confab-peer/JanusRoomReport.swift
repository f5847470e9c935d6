import ConfabProtocol
import FoundationEssentials

/// What `confab-peer janus` writes: the room it joined and the same `media` section as a
/// coordinator call's report (per remote feed: frames, size, frame rate and bitrate over time).
struct JanusRoomReport: Encodable {
    let command = "janus"
    let url: String
    let room: UInt64
    let display: String
    /// Why the run failed, when it did.
    var error: String?
    var media: MediaReport

    func json() throws -> Data {
        let encoder = ConfabJSON.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        return try encoder.encode(self)
    }
}
