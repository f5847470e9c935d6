import ArgumentParser
import ConfabClient
import ConfabCore
import FoundationEssentials

/// `confab-peer … ring TYPE:ID --members a,b`: rings and waits for the outcome; when someone
/// accepts, joins for `--duration` seconds.
struct RingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ring", abstract: "Ring members of a call (created if needed) and wait for the outcome.")

    @OptionGroup var options: PeerOptions
    @Argument(help: "The call, TYPE:ID.") var call: String
    @Option(help: "Members to ring, comma-separated.") var members: String
    @Option(help: "Seconds to wait for an answer; then the ring is rejected with reason timeout, as the caller's ring timer does.")
    var timeout: Double = 60
    @Option(name: .customLong("cancel-after"), help: "Hang up after this many seconds if nobody has answered (reason cancel).")
    var cancelAfter: Double?
    @Option(help: "Seconds to stay in the call once someone accepts.") var duration: Double = 0
    @Flag(name: .customLong("audio-only"), help: "Ring for an audio call (default: video).") var audioOnly = false

    func validate() throws {
        guard !parseMembers(members).isEmpty else { throw ValidationError("--members needs at least one user id") }
    }

    func run() async throws {
        let plan = RingPlan(
            call: try parseCallID(call), members: parseMembers(members), video: !audioOnly, giveUpAfter: seconds(cancelAfter ?? timeout),
            giveUpReason: cancelAfter == nil ? .timeout : .cancel, duration: seconds(duration))
        try await runPeer(try options.settings(), command: "ring", call: plan.call) { session in
            try await plan.perform(in: session)
        }
    }
}

/// What the ring command was asked to do, as plain values.
private struct RingPlan: Sendable {
    let call: CallID
    let members: [String]
    let video: Bool
    let giveUpAfter: Duration
    let giveUpReason: RejectionReason
    let duration: Duration

    @MainActor
    func perform(in session: PeerSession) async throws {
        let created = try await session.client.getOrCreateCall(call, memberIDs: members, ring: true, video: video)
        session.record(created)
        session.enter("outgoing")
        let giveUp = ContinuousClock.now + giveUpAfter
        var rejections: [String] = []
        while true {
            guard let event = await session.nextEvent(until: giveUp) else {
                // Stopped or out of patience: hang up the ring as the caller's timer would.
                let reason = session.isStopping ? .cancel : giveUpReason
                try await session.client.rejectCall(call, reason: reason)
                session.conclude(session.isStopping ? "stopped while ringing" :
                    reason == .cancel ? "cancelled" : "timeout: nobody answered within \(giveUpAfter)")
                session.enter("idle")
                // The coordinator ends the call in answer; keep its event in the report.
                _ = await session.stay(in: call, until: .now + .seconds(2))
                return
            }
            switch event {
            case .accepted(let cid, let userID, _) where cid == call && userID != session.user:
                session.conclude("accepted by \(userID)")
                try await session.spend(duration, in: call, create: false)
                return
            case .rejected(let cid, let userID, let reason, _, _) where cid == call && userID != session.user:
                rejections.append("\(reason.rawValue) by \(userID)")
            case .missed(let cid) where cid == call:
                session.conclude("missed")
            case .ended(let cid, let reason) where cid == call:
                session.conclude(rejections.isEmpty ? "ended: \(reason ?? "")" : "rejected: \(rejections.joined(separator: ", "))")
                session.enter("idle")
                return
            default:
                continue
            }
        }
    }
}
