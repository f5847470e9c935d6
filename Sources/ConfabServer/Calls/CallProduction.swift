import ConfabProtocol
import Foundation

/// A call's recording and broadcast as they run now (lost on restart, like the Janus room), and
/// its finished recordings and errors (also in the store, read back by `restoreProduction`).
struct CallProduction: Sendable {
    /// Where the recording is; the folder is only there while Janus is recording into it.
    enum Recording: Sendable, Equatable {
        case off
        /// Janus was asked to record into `folder` and has not confirmed yet.
        case requested(folder: URL)
        /// Recording; `folder` is nil without a media server (then the flag is all there is).
        case on(folder: URL?)
    }

    /// A broadcast from the moment its pipeline starts until it is stopped.
    enum Broadcast: Sendable {
        /// The pipeline runs; Janus is being asked to forward a publisher to it.
        case starting(HLSBroadcast)
        /// Janus forwards `publisher`'s `streams` to the pipeline.
        case forwarding(ForwardedBroadcast)

        var pipeline: HLSBroadcast {
            switch self {
            case .starting(let pipeline): pipeline
            case .forwarding(let forwarded): forwarded.pipeline
            }
        }
    }

    var recording: Recording = .off
    /// Janus publisher ids seen while recording, with the user each belongs to (their `display`).
    var publisherNames: [UInt64: String] = [:]
    var recordings: [CallRecording] = []
    var recordingErrors: [String] = []
    var broadcast: Broadcast?

    var recordingState: RecordingState {
        switch recording {
        case .off: .noRecording
        case .requested: .requested
        case .on: .recording
        }
    }

    /// The folder Janus records the current session into, if any.
    var recordingFolder: URL? {
        switch recording {
        case .off: nil
        case .requested(let folder): folder
        case .on(let folder): folder
        }
    }

    /// Nothing runs that memory must hold: no Janus recording or broadcast. What is left is in
    /// the store too: finished recordings, and the `recording` flag of a recording made without
    /// a media server (there is nothing else of it), which a call read back shows as recording.
    var isIdle: Bool { recordingFolder == nil && broadcast == nil }
}

/// What Janus forwards to a broadcast's pipeline, so it can be undone.
struct ForwardedBroadcast: Sendable {
    var pipeline: HLSBroadcast
    var publisher: UInt64
    var streams: [UInt64]
}
