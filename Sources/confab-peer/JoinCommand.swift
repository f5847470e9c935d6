import ArgumentParser
import ConfabClient
import ConfabCore
import ConfabProtocol
import FoundationEssentials

/// `confab-peer … join TYPE:ID`: joins (optionally creating the call and ringing its members),
/// stays for `--duration` seconds, then leaves. Calls are private: join one you are a member
/// of, create it with `--members`, or give the secret from its link with `--link-secret`.
/// A call that asks to join makes a peer that is not a member knock and wait for a host
/// (`--knock-timeout`). While in the call it can chat, react and raise its hand; as a host it
/// can let knockers in (`--admit`) or turn them away (`--deny`).
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
    @Flag(name: .customLong("ask-to-join"), help: "Create the call with a waiting room: non-members knock and wait for a host.")
    var askToJoin = false
    @Option(name: .customLong("knock-timeout"), help: "Seconds to wait for a host to let us in when the call asks to join.")
    var knockTimeout: Double = 60
    @Option(name: .customLong("admit"), help: "As a host, let this user in when they knock (repeatable).") var admit: [String] = []
    @Option(name: .customLong("deny"), help: "As a host, turn this user away when they knock (repeatable).") var deny: [String] = []
    @Option(name: .customLong("answer-after"), help: "Seconds between a knock and the --admit or --deny answer.") var answerAfter: Double = 0
    @Option(name: .customLong("chat"), help: "A chat message to send once in the call (repeatable, sent in order).")
    var chat: [String] = []
    @Option(name: .customLong("chat-after"), help: "Seconds in the call before sending the --chat messages and the --react reactions.") var chatAfter: Double = 0
    @Option(name: .customLong("react"), help: "A reaction to send once in the call: 👍 ❤️ 😂 🎉 👏 😮 or its name (repeatable).")
    var react: [String] = []
    @Flag(name: .customLong("raise-hand"), help: "Raise the hand once in the call.") var raiseHand = false

    func validate() throws {
        if let linkSecret, linkSecret.isEmpty { throw ValidationError("--link-secret needs the secret from the call's link") }
        for text in react where Self.reaction(text) == nil {
            throw ValidationError("--react '\(text)' is not one of \(Reaction.allCases.map { "\($0.rawValue) (\($0))" }.joined(separator: ", "))")
        }
        if knockTimeout <= 0 { throw ValidationError("--knock-timeout needs a number of seconds above 0") }
        if answerAfter < 0 { throw ValidationError("--answer-after needs a number of seconds, 0 or more") }
    }

    /// An emoji of the fixed set, by itself or by name ("thumbsUp"); a heart without its
    /// variation selector (as some keyboards type it) counts too.
    static func reaction(_ text: String) -> Reaction? {
        Reaction(rawValue: text) ?? Reaction.allCases.first { "\($0)" == text } ?? (text == "❤" ? .heart : nil)
    }

    func run() async throws {
        let plan = JoinPlan(
            call: try parseCallID(call), create: create, members: parseMembers(members), ring: ring, video: !audioOnly,
            duration: seconds(duration), linkSecret: linkSecret, askToJoin: askToJoin, knockTimeout: seconds(knockTimeout),
            admit: Set(admit), deny: Set(deny), answerAfter: seconds(answerAfter), chat: chat, chatAfter: seconds(chatAfter),
            reactions: react.compactMap(Self.reaction), raiseHand: raiseHand)
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
    let askToJoin: Bool
    let knockTimeout: Duration
    let admit: Set<String>
    let deny: Set<String>
    let answerAfter: Duration
    let chat: [String]
    let chatAfter: Duration
    let reactions: [Reaction]
    let raiseHand: Bool

    @MainActor
    func perform(in session: PeerSession) async throws {
        if let linkSecret { session.client.useLink(secret: linkSecret, for: call) }
        session.knockTimeout = knockTimeout
        session.usersToAdmit = admit
        session.usersToDeny = deny
        session.answerDelay = answerAfter
        if create || ring || !members.isEmpty || askToJoin {
            session.record(try await session.client.getOrCreateCall(
                call, memberIDs: members, ring: ring, video: video, askToJoin: askToJoin))
            if ring { session.enter("outgoing") }
        }
        let endedEarly: String?
        do {
            endedEarly = try await session.spend(duration, in: call, create: create) { await act(in: session) }
        } catch is PeerDenied {
            // Turned away is an answer, not a failure: the report says so.
            session.enter("idle")
            session.conclude("denied")
            return
        }
        session.conclude(endedEarly.map { "ended: \($0)" } ?? "left")
    }

    /// Once in the call: reads the chat so far, raises the hand, reacts, then chats.
    @MainActor
    private func act(in session: PeerSession) async {
        let client = session.client
        do {
            session.recordChatHistory(try await client.chatHistory(in: call).messages)
        } catch {
            session.noteActivityError(error)
        }
        if raiseHand {
            do { _ = try await client.raiseHand(in: call) } catch { session.noteActivityError(error) }
        }
        guard !chat.isEmpty || !reactions.isEmpty else { return }
        do {
            try await Task.sleep(for: chatAfter)
        } catch {
            return  // left before it was time
        }
        for reaction in reactions {
            do { try await client.sendReaction(reaction, in: call) } catch { session.noteActivityError(error) }
        }
        for text in chat {
            do { session.recordSent(try await client.sendChatMessage(text, in: call)) } catch { session.noteActivityError(error) }
        }
    }
}
