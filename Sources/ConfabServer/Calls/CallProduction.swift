import ConfabProtocol
import Foundation

/// A call's recording and broadcast as they run now (lost on restart, like the Janus room), and
/// its finished recordings and errors (also in the store, read back by `restoreProduction`).
struct CallProduction: Sendable {
    var recordingState: RecordingState = .noRecording
    /// The folder Janus records the current session into.
    var recordingFolder: URL?
    /// Janus publisher ids seen while recording, with the user each belongs to (their `display`).
    var publisherNames: [UInt64: String] = [:]
    var recordings: [CallRecording] = []
    var recordingErrors: [String] = []
    var broadcast: Broadcast?
    /// `http://host:port/live/` while broadcasting; each reader's playlist is below it (`hlsPlaylistURL`).
    var hlsPlaylistUrl: String?

    struct Broadcast: Sendable {
        var pipeline: HLSBroadcast
        var publisher: UInt64
        var streams: [UInt64]
    }
}
