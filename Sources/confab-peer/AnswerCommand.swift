import ArgumentParser
import ConfabClient
import ConfabCore
import FoundationEssentials

/// `confab-peer … answer`: waits for a ring and answers it; after accepting, stays in the call
/// for `--duration` seconds.
struct AnswerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer", abstract: "Wait for a ring and accept, reject or ignore it.")

    /// What to do with the ring.
    enum Answer: String, EnumerableFlag, Sendable {
        case accept, reject
        /// Let it ring until the coordinator gives up (the ring is then missed).
        case ignore
    }

    @OptionGroup var options: PeerOptions
    @Flag(help: "How to answer.") var answer: Answer = .accept
    @Option(help: "Seconds to wait for a ring before failing.") var timeout: Double = 30
    @Option(name: .customLong("answer-after"), help: "Seconds to let it ring before answering.") var answerAfter: Double = 0
    @Option(help: "Seconds to stay in the call after accepting.") var duration: Double = 0

    func run() async throws {
        let plan = AnswerPlan(answer: answer, waitForRing: seconds(timeout), answerAfter: seconds(answerAfter), duration: seconds(duration))
        try await runPeer(try options.settings(), command: "answer", call: nil) { session in
            try await plan.perform(in: session)
        }
    }
}

/// A failure the peer explains in its own words.
struct PeerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What the answer command was asked to do, as plain values.
private struct AnswerPlan: Sendable {
    let answer: AnswerCommand.Answer
    let waitForRing: Duration
    let answerAfter: Duration
    let duration: Duration

    @MainActor
    func perform(in session: PeerSession) async throws {
        guard let incoming = try await waitForRing(in: session) else {
            session.conclude("stopped before any call rang")
            return
        }
        let call = incoming.cid
        session.enter("incoming")
        // Ignoring means waiting out the coordinator's own ring timeout (plus slack for the clocks).
        let answerAt = ContinuousClock.now + (answer == .ignore ? incoming.timeout + .seconds(5) : answerAfter)
        while let event = await session.nextEvent(until: answerAt) {
            if let ended = ringEnded(by: event, call: call, caller: incoming.caller.id, user: session.user) {
                session.conclude(ended)
                session.enter("idle")
                return
            }
        }
        if session.isStopping {
            session.conclude("stopped while ringing")
            session.enter("idle")
            return
        }
        switch answer {
        case .ignore:
            throw PeerError("the ring from \(incoming.caller.id) was never ended by the call server")
        case .reject:
            try await session.client.rejectCall(call, reason: .decline)
            session.conclude("rejected: decline")
            session.enter("idle")
        case .accept:
            try await session.client.acceptCall(call)
            session.conclude("accepted")
            try await session.spend(duration, in: call, create: false)
        }
    }

    @MainActor
    /// The ring; nil when the peer was stopped first.
    private func waitForRing(in session: PeerSession) async throws -> IncomingCall? {
        let deadline = ContinuousClock.now + waitForRing
        while let event = await session.nextEvent(until: deadline) {
            if case .ringing(let incoming) = event {
                session.noteCall(incoming.cid)
                return incoming
            }
        }
        if session.isStopping { return nil }
        throw PeerError("no call rang \(session.user) within \(waitForRing)")
    }

    /// The ring rules that end a ring before this device answers, as the outcome to report.
    private func ringEnded(by event: CallServiceEvent, call: CallID, caller: String, user: String) -> String? {
        switch event {
        case .accepted(let cid, let userID, let here) where cid == call && userID == user && !here:
            "accepted on another device"
        case .rejected(let cid, let userID, let reason, let here, _) where cid == call && userID == user && !here:
            "rejected on another device: \(reason.rawValue)"
        case .rejected(let cid, let userID, let reason, _, _) where cid == call && userID == caller:
            reason == .cancel ? "cancelled by \(caller)" : "rejected by \(caller): \(reason.rawValue)"
        case .missed(let cid) where cid == call:
            "missed"
        case .ended(let cid, let reason) where cid == call:
            "ended: \(reason ?? "")"
        default:
            nil
        }
    }
}
