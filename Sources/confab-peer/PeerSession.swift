import ConfabClient
import ConfabCore
import ConfabProtocol
import Dispatch
import FoundationEssentials
import GLibBridge
import Glibc
import ProcessSignals

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
    /// SIGINT or SIGTERM arrived: the command winds down (leaves, cancels) and writes its report.
    private(set) var isStopping = false

    /// Set when the peer sends media: joins and leaves then go through the call view model.
    let media: PeerMedia?

    var user: String { client.currentUserID }

    /// How long a knock waits for a host's answer before the peer gives up.
    var knockTimeout: Duration = .seconds(60)
    /// Users this peer, as a host, lets in (or turns away) when they knock.
    var usersToAdmit: Set<String> = []
    var usersToDeny: Set<String> = []
    /// How long a knock waits for that answer (a test watches the knocker wait).
    var answerDelay: Duration = .zero
    /// Hosts' answers to our knocks (true: admitted), until a join takes them.
    private var admissionAnswers: [CallID: Bool] = [:]
    private var admissionWaiter: (id: Int, call: CallID, continuation: CheckedContinuation<Bool?, Never>)?

    init(client: CoordinatorClient, command: String, call: CallID?, media: PeerMedia? = nil) {
        self.client = client
        self.media = media
        self.report = PeerReport(command: command, user: client.currentUserID, server: client.serverURL, call: call?.description)
        media?.service.onJoined = { [weak self] snapshot in self?.joined(snapshot) }
        // Through the view model too, so a peer sending media knocks and waits the same way.
        media?.service.knockingJoin = { [weak self] call, create in
            guard let self else { throw PeerError("the peer stopped while joining \(call)") }
            return try await self.joinKnockingIfAsked(call, create: create)
        }
    }

    /// Connects and signs in; progress lines go to standard error so scripts can wait for them.
    func start() async throws {
        client.setEventHandler { [weak self] event in self?.received(event) }
        client.setServerEventObserver { [weak self] event in self?.observed(event) }
        enter("idle")
        try await client.connect()
        report.connectionId = client.connectionID
        Self.say("connected as \(user) (connection \(client.connectionID ?? "?"))")
    }

    /// SIGINT/SIGTERM stop waiting instead of killing the process, so the peer leaves its call
    /// and still writes its report (tests and bots stop peers this way).
    /// (One sent before this, while the peer started, is kept for it: `StopSignals`.)
    func stopOnSignals() {
        StopSignals.process.whenStopAsked { [weak self] _ in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.stop() } }
        }
    }

    private func stop() {
        guard !isStopping else { return }
        isStopping = true
        Self.say("stopping")
        if let admissionWaiter {
            self.admissionWaiter = nil
            admissionWaiter.continuation.resume(returning: nil)
        }
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
            record(try await joinKnockingIfAsked(call, create: create))
        }
        enterCall(call)
    }

    /// Joins; when the call asks to join, knocks and waits (up to `knockTimeout`) for a host:
    /// admitted, joins; turned away, throws `PeerDenied`.
    func joinKnockingIfAsked(_ call: CallID, create: Bool) async throws -> CallSnapshot {
        var knocked = false
        while true {
            switch try await client.joinOrKnock(call, create: create) {
            case .joined(let snapshot):
                if knocked { report.admission = "admitted" }
                return snapshot
            case .denied:
                report.admission = "denied"
                throw PeerDenied(call: call)
            case .waitingForHost:
                // Admitted already and still refused would loop forever: say so instead.
                guard !knocked else { throw PeerError("a host let us into \(call), yet the join was refused again") }
                knocked = true
                report.admission = "waiting"
                let previousState = callingState
                enter("waitingForHost")
                switch await admissionAnswer(for: call, until: .now + knockTimeout) {
                case true?:
                    enter(previousState)
                case false?:
                    report.admission = "denied"
                    throw PeerDenied(call: call)
                case nil:
                    report.admission = "timedOut"
                    throw PeerError("no host let us into \(call) within \(knockTimeout)")
                }
            }
        }
    }

    /// A host's answer to our knock on `call` (true: admitted), nil if none came by `deadline`.
    private func admissionAnswer(for call: CallID, until deadline: ContinuousClock.Instant) async -> Bool? {
        if let answer = admissionAnswers.removeValue(forKey: call) { return answer }
        guard !isStopping else { return nil }
        nextWaiterID += 1
        let id = nextWaiterID
        return await withCheckedContinuation { continuation in
            admissionWaiter = (id, call, continuation)
            Task { [weak self] in
                try? await Task.sleep(until: deadline)
                guard let self, let waiter = self.admissionWaiter, waiter.id == id else { return }
                self.admissionWaiter = nil
                waiter.continuation.resume(returning: nil)
            }
        }
    }

    /// Events the client's translator has no `CallServiceEvent` for (issue 18's).
    private func observed(_ event: ServerEvent) {
        report.record(event)
        switch event {
        case .joinAdmitted(let answer): answered(answer.cid, admitted: true)
        case .joinDenied(let answer): answered(answer.cid, admitted: false)
        case .participantKnocked(let knocked): answerKnock(of: knocked.knock.userId, at: knocked.cid)
        default: break
        }
    }

    private func answered(_ call: CallID, admitted: Bool) {
        Self.say(admitted ? "admitted to \(call)" : "denied entry to \(call)")
        if let waiter = admissionWaiter, waiter.call == call {
            admissionWaiter = nil
            waiter.continuation.resume(returning: admitted)
        } else {
            admissionAnswers[call] = admitted
        }
    }

    /// `--admit` / `--deny`: answers a knock `answerDelay` after it comes.
    private func answerKnock(of userId: String, at call: CallID) {
        let admit = usersToAdmit.contains(userId)
        guard admit || usersToDeny.contains(userId) else { return }
        Task { [answerDelay] in
            do {
                if answerDelay > .zero { try await Task.sleep(for: answerDelay) }
                if admit {
                    _ = try await client.admitParticipant(userId, to: call)
                } else {
                    _ = try await client.denyParticipant(userId, from: call)
                }
                Self.say("\(admit ? "admitted" : "denied") \(userId)")
            } catch {
                noteActivityError(error)
            }
        }
    }

    /// A refused request of the peer's own activity; the run goes on.
    func noteActivityError(_ error: any Error) {
        report.activityErrors.append("\(error)")
        Self.say("refused: \(error)")
    }

    func recordChatHistory(_ messages: [ChatMessage]) {
        report.chatHistory = messages.map(PeerReport.ChatEntry.init)
    }

    func recordSent(_ message: ChatMessage) {
        report.chatSent.append(PeerReport.ChatEntry(message))
        Self.say("sent chat message \(message.id)")
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
        case .connectionLost:
            if callingState == "inCall" { enter("reconnecting") }
        case .connectionRestored:
            // Given several servers, which one it is now on (scripts wait for this line).
            Self.say("reconnected to \(client.serverURL)")
            if callingState == "reconnecting" { rejoin() }
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
    /// `whileIn` runs once joined, beside the stay (chat, reactions, hands), and is cancelled
    /// when the peer leaves.
    @discardableResult
    func spend(_ duration: Duration, in call: CallID, create: Bool,
               whileIn activity: (@MainActor () async -> Void)? = nil) async throws -> String? {
        enter("joining")
        try await join(call, create: create)
        let running = activity.map { body in Task { @MainActor in await body() } }
        defer { running?.cancel() }
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
            StandardOutput.write(json + Data("\n".utf8))
        } else {
            try json.write(to: URL(fileURLWithPath: destination), options: .atomic)
        }
    }

    /// A progress line on standard error, e.g. "confab-peer: state inCall".
    nonisolated static func say(_ message: String) {
        StandardError.write("confab-peer: \(message)\n")
    }
}

/// A host turned this peer away from the call's waiting room.
struct PeerDenied: Error, CustomStringConvertible {
    let call: CallID
    var description: String { "a host of \(call) did not let us in" }
}
