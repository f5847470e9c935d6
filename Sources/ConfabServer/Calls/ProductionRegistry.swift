import ConfabProtocol
import Foundation

/// Recording and broadcast of every call in use (see `CallProduction`), owned by the
/// `CallCoordinator`; the requests and their Janus work are in `CallCoordinator+Production`.
struct ProductionRegistry {
    private var productions: [CallID: CallProduction] = [:]

    subscript(cid: CallID) -> CallProduction {
        get { productions[cid] ?? CallProduction() }
        set { productions[cid] = newValue }
    }

    /// The call's production when it has one (a call read back after a restart has none until
    /// something is recorded).
    func existing(_ cid: CallID) -> CallProduction? { productions[cid] }

    /// True when the call has nothing running (it may leave memory).
    func isIdle(_ cid: CallID) -> Bool {
        productions[cid]?.isIdle ?? true
    }

    mutating func forget(_ cid: CallID) {
        productions[cid] = nil
    }

    /// Ends the recording's run, keeping its lists; returns the folder Janus was recording into.
    mutating func stopRecording(of cid: CallID) -> URL? {
        let folder = productions[cid]?.recordingFolder
        self[cid].recording = .off
        return folder
    }

    /// Ends the broadcast's run; returns what was running.
    mutating func stopBroadcast(of cid: CallID) -> CallProduction.Broadcast? {
        guard let broadcast = productions[cid]?.broadcast else { return nil }
        productions[cid]?.broadcast = nil
        return broadcast
    }

    /// Ends every broadcast's run (the server is stopping); returns their pipelines.
    mutating func stopEveryBroadcast() -> [HLSBroadcast] {
        var pipelines: [HLSBroadcast] = []
        for cid in Array(productions.keys) {
            if let broadcast = stopBroadcast(of: cid) { pipelines.append(broadcast.pipeline) }
        }
        return pipelines
    }

    /// The call whose broadcast pipeline is called `name`, with that pipeline.
    func broadcast(named name: String) -> (cid: CallID, pipeline: HLSBroadcast)? {
        for (cid, production) in productions {
            if let pipeline = production.broadcast?.pipeline, pipeline.name == name { return (cid, pipeline) }
        }
        return nil
    }
}
