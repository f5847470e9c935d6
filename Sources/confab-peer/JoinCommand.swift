import ArgumentParser
import ConfabClient
import ConfabCore
import Foundation

/// `confab-peer … join TYPE:ID`: joins (optionally creating the call and ringing its members),
/// stays for `--duration` seconds, then leaves. Calls are private: join one you are a member
/// of, create it with `--members`, or give the secret from its link with `--link-secret`.
struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join", abstract: "Join a call, stay for --duration seconds, then leave.")

    @OptionGroup var options: PeerOptions
    @Argument(help: "The call, TYPE:ID.") var call: String
    @Flag(help: "Create the call if it does not exist.") var create = false
    @Option(help: "Members of the call when it is created, comma-separated.") var members: String?
    @Flag(help: "Ring the members.") var ring = false
    @Option(help: "Seconds to stay in the call.") var duration: Double = 0
    @Flag(name: .customLong("audio-only"), help: "Ring for an audio call (default: video).") var audioOnly = false
    @Option(name: .customLong("link-secret"), help: "The secret from the call's link, to join a call you are not a member of.")
    var linkSecret: String?

    func validate() throws {
        if let linkSecret, linkSecret.isEmpty { throw ValidationError("--link-secret needs the secret from the call's link") }
    }

    func run() async throws {
        let plan = JoinPlan(
            call: try parseCallID(call), create: create, members: parseMembers(members), ring: ring, video: !audioOnly,
            duration: seconds(duration), linkSecret: linkSecret)
        try await runPeer(try options.settings(), command: "join", call: plan.call) { session in
            try await plan.perform(in: session)
        }
    }
}

/// What the join command was asked to do, as plain values.
private struct JoinPlan: Sendable {
    let call: CallID
    let create: Bool
    let members: [String]
    let ring: Bool
    let video: Bool
    let duration: Duration
    let linkSecret: String?

    @MainActor
    func perform(in session: PeerSession) async throws {
        if let linkSecret { session.client.useLink(secret: linkSecret, for: call) }
        if create || ring || !members.isEmpty {
            session.record(try await session.client.getOrCreateCall(call, memberIDs: members, ring: ring, video: video))
            if ring { session.enter("outgoing") }
        }
        let endedEarly = try await session.spend(duration, in: call, create: create)
        session.conclude(endedEarly.map { "ended: \($0)" } ?? "left")
    }
}
