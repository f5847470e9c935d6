import ConfabClient
import ConfabCore
import Foundation

/// One peer run: the coordinator client, the events it delivered (kept in order until the
/// command takes them), the calling state the peer is in, and the report of it all.
@MainActor
final class PeerSession {
    let client: CoordinatorClient
    private(set) var report: PeerReport
    private(set) var callingState = "idle"
    private var inbox: [CallServiceEvent] = []
    private var waiter: (id: Int, continuation: CheckedContinuation<CallServiceEvent?, Never>)?
    private var nextWaiterID = 0
    private var stopSignals: [any DispatchSourceSignal] = []
    /// SIGINT or SIGTERM arrived: the command winds down (leaves, cancels) and writes its report.
    private(set) var isStopping = false

    /// Set when the peer sends media: joins and leaves then go through the call view model.
    let media: PeerMedia?

    var user: String { client.currentUserID }

    init(client: CoordinatorClient, command: String, call: CallID?, media: PeerMedia? = nil) {
        self.client = client
        self.media = media
        self.report = PeerReport(command: command, user: client.currentUserID, server: client.serverURL, call: call?.description)
        media?.service.onJoined = { [weak self] snapshot in self?.joined(snapshot) }
    }

    /// Connects and signs in; progress lines go to standard error so scripts can wait for them.
    func start() async throws {
        client.setEventHandler { [weak self] event in self?.received(event) }
        enter("idle")
        try await client.connect()
        report.connectionId = client.connectionID
        Self.say("connected as \(user) (connection \(client.connectionID ?? "?"))")
    }

    /// SIGINT/SIGTERM stop waiting instead of killing the process, so the peer leaves its call
    /// and still writes its report (tests and bots stop peers this way).
    func stopOnSignals() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.stop() }
            }
            source.resume()
            stopSignals.append(source)
        }
    }

    private func stop() {
        guard !isStopping else { return }
        isStopping = true
        Self.say("stopping")
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: nil)
        }
    }

    /// The call this peer is in (inCall or reconnecting).
    private var activeCall: CallID?

    /// Now in `call`; a dropped connection will rejoin it.
    func enterCall(_ call: CallID) {
        activeCall = call
        enter("inCall")
    }

    /// The coordinator dropped our session with the connection; join again as the app does.
    /// With media the view model rejoins by itself (`joined` then records it).
    private func rejoin() {
        guard media == nil, let call = activeCall else { return }
        Task {
            do {
                record(try await client.joinCall(call, create: false))
                if callingState == "reconnecting" { enter("inCall") }
            } catch {
                Self.say("could not rejoin \(call): \(error)")
            }
        }
    }

    /// Moves to a calling state (named as `CallingState` names them) and records it.
    func enter(_ state: String) {
        callingState = state
        report.states.append(.init(state: state, at: Date()))
        Self.say("state \(state)")
    }

    func record(_ call: CallSnapshot) {
        report.record(call)
    }

    /// Joins `call` (creating it if asked): through the call view model when sending media,
    /// so the media starts as in the app; else with the client alone.
    func join(_ call: CallID, create: Bool) async throws {
        if let media {
            try await media.join(call, create: create)
        } else {
            record(try await client.joinCall(call, create: create))
        }
        enterCall(call)
    }

    /// A join the view model made (the first, or a rejoin after a reconnect).
    private func joined(_ snapshot: CallSnapshot) {
        record(snapshot)
        if callingState == "reconnecting" { enter("inCall") }
    }

    /// The call this run is about, once known (the answer command learns it from the ring).
    func noteCall(_ call: CallID) {
        report.call = call.description
    }

    func conclude(_ outcome: String) {
        guard report.outcome == nil else { return }
        report.outcome = outcome
        Self.say("outcome \(outcome)")
    }

    func fail(_ error: any Error) {
        report.error = "\(error)"
    }

    /// Releases the media (however the call ended) and closes the report.
    func finish() async {
        if let media {
            await media.shutdown()
            report.media = media.report
        }
        report.finishedAt = Date()
    }

    // MARK: Events

    private func received(_ event: CallServiceEvent) {
        report.record(event)
        media?.service.deliver(event)
        switch event {
        case .connectionLost: if callingState == "inCall" { enter("reconnecting") }
        case .connectionRestored: if callingState == "reconnecting" { rejoin() }
        default: break
        }
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: event)
        } else {
            inbox.append(event)
        }
    }

    /// The next event not yet taken, waiting until `deadline`; nil if none came by then.
    func nextEvent(until deadline: ContinuousClock.Instant) async -> CallServiceEvent? {
        if !inbox.isEmpty { return inbox.removeFirst() }
        guard deadline > .now, !isStopping else { return nil }
        nextWaiterID += 1
        let id = nextWaiterID
        return await withCheckedContinuation { continuation in
            waiter = (id, continuation)
            Task { [weak self] in
                try? await Task.sleep(until: deadline)
                guard let self, let waiter = self.waiter, waiter.id == id else { return }
                self.waiter = nil
                waiter.continuation.resume(returning: nil)
            }
        }
    }

    /// Stays in `call` until `deadline`, taking events as they come; returns early with the
    /// reason if the call ends or this device is removed from it.
    func stay(in call: CallID, until deadline: ContinuousClock.Instant) async -> String? {
        while let event = await nextEvent(until: deadline) {
            if case .ended(let cid, let reason) = event, cid == call { return reason ?? "ended" }
        }
        return nil
    }

    /// Joins `call`, stays `duration` (or until the call ends for this device), then leaves;
    /// returns why the call ended first, nil when the peer left at the end of `duration`.
    @discardableResult
    func spend(_ duration: Duration, in call: CallID, create: Bool) async throws -> String? {
        enter("joining")
        try await join(call, create: create)
        if let reason = await stay(in: call, until: .now + duration) {
            enter("idle")
            return reason
        }
        try await leave(call)
        return nil
    }

    /// Leaves the call; a call that already ended needs no leave.
    func leave(_ call: CallID) async throws {
        let ownSession = client.sessionID(in: call)
        activeCall = nil
        if let media {
            await media.leave()
        } else {
            try await client.leaveCall(call)
        }
        // The coordinator tells the others, not us, that we left.
        if let ownSession { report.left(session: ownSession) }
        enter("idle")
    }

    // MARK: Output

    func writeReport(to destination: String?) throws {
        guard let destination else { return }
        let json = try report.json()
        if destination == "-" {
            FileHandle.standardOutput.write(json + Data("\n".utf8))
        } else {
            try json.write(to: URL(fileURLWithPath: destination), options: .atomic)
        }
    }

    /// A progress line on standard error, e.g. "confab-peer: state inCall".
    nonisolated static func say(_ message: String) {
        FileHandle.standardError.write(Data("confab-peer: \(message)\n".utf8))
    }
}
