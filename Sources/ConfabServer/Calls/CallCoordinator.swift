import ConfabProtocol
import Foundation
import Logging

/// Routes every request to the owner of what it is about, and sends the answers and events.
///
/// Who may do what in a call is decided in one place, `+Access`. The state has one owner per
/// concern, each a value type held here:
/// - `connections` (`ConnectionRegistry`): open connections and who they signed in as;
/// - `calls` (`CallCache`): the durable calls in use, read from and saved to the `CallStore`,
///   and who opened each with its link secret;
/// - `sessions` (`SessionRegistry`): each call's participants and watchers;
/// - `rings` (`RingRegistry`): rings in progress and the answers to them;
/// - `productions` (`ProductionRegistry`): recordings and broadcasts;
/// - `mediaQueues` (`MediaWorkQueues`): Janus work in the order it was decided.
/// - `waitingRoom` (`WaitingRoomRegistry`): knocks on calls that ask to join;
/// - `rateLimits` (`SessionRateLimits`): how fast each device reacts, tells its video views and toggles its microphone or camera.
/// The requests are in extensions by concern: `+Calls` (lifecycle and membership), `+Ringing`,
/// `+Moderation`, `+Production`, `+Media`, `+Conversation` (chat, reactions, hands),
/// `+MediaState` (each device's microphone and camera, how large it shows the others' cameras), `+WaitingRoom`.
///
/// Requests from all connections are handled one at a time on this actor, which keeps the ring
/// rules free of races (an accept and a cancel can never interleave) — which is why the owners
/// are values inside one actor, not actors of their own. Each request's response is queued
/// before the events it caused.
actor CallCoordinator {
    struct Settings: Sendable {
        var devAuth: Bool
        /// Strangers count as plain users (see `ServerConfiguration.openCalls`).
        var openCalls = false
        var ringAutoCancelTimeout: Duration
        var healthCheckInterval: Duration
        /// Holds `recordings/` (Janus's raw files and the converted ones) and `live/` (HLS).
        var dataFolder: URL = FileManager.default.temporaryDirectory
        /// Where Janus forwards a broadcast's RTP to (the pipeline listens there).
        var forwardHost = "127.0.0.1"
    }

    let store: any CallStore
    let tokens: TokenAuthority
    let settings: Settings
    /// Janus rooms for calls' media; nil when media is disabled.
    let media: JanusRooms?
    /// Counts rings, joins and error answers for `GET /metrics`.
    let metrics: ServerMetrics
    /// The other coordinators on the same PostgreSQL; nil on SQLite (one server per database).
    private(set) var replicas: ReplicaBus?
    let logger: Logger

    var connections = ConnectionRegistry()
    var calls = CallCache()
    var sessions = SessionRegistry()
    var rings = RingRegistry()
    /// Recording and broadcast per call; in memory, like the Janus rooms they run in, except the
    /// finished recordings and errors, which the store keeps too (see `restoreProduction`).
    var productions = ProductionRegistry()
    var mediaQueues = MediaWorkQueues()
    /// Knocks on calls that ask to join, and the hosts' answers.
    var waitingRoom = WaitingRoomRegistry()
    /// Recent reactions and video views per session.
    var rateLimits = SessionRateLimits()
    /// Broadcast pipelines and recording converters, stopped with the server (`stopProductions`).
    let children = ChildGroup()
    /// `http://host:port` of this server, for download and playlist URLs; set once listening.
    var publicBaseURL = ""
    /// Events queued while a request is handled, sent after its response.
    private var outgoing: [(ClientConnection, String)] = []
    private let encoder = ConfabJSON.encoder()
    private var heartbeat: Task<Void, Never>?

    init(
        store: any CallStore, tokens: TokenAuthority, settings: Settings, media: JanusRooms? = nil,
        metrics: ServerMetrics = ServerMetrics(managesJanus: false), logger: Logger
    ) {
        self.store = store
        self.tokens = tokens
        self.settings = settings
        self.media = media
        self.metrics = metrics
        self.logger = logger
    }

    func connectReplicas(_ bus: ReplicaBus) {
        replicas = bus
    }

    /// When each other replica was last heard from (`CallCoordinator+Replicas`).
    var replicasHeard: [String: ContinuousClock.Instant] = [:]
    var replicaHeartbeat: Task<Void, Never>?

    // MARK: Connections

    var connectionCount: Int { connections.count }

    /// What the coordinator holds in memory (`GET /health` reports it).
    var inMemoryCounts: (calls: Int, sessions: Int) { (calls.count, sessions.count) }

    /// Calls with someone in them, and how many people that is (`GET /metrics`).
    var participation: (activeCalls: Int, participants: Int) { (sessions.callsWithParticipants, sessions.participantCount) }

    func connected(_ connection: ClientConnection) {
        connections.add(connection)
    }

    func disconnected(_ connection: ClientConnection) {
        guard let client = connections.remove(connection.id), let userId = client.userId else { return }
        for cid in sessions.callIDs {
            if sessions.stopWatching(cid, from: connection.id) { calls.touch(cid) }
            if let participant = sessions[cid]?.participant(onConnection: connection.id) {
                removeParticipant(participant, from: cid, reason: .disconnected)
            }
        }
        // A knocker who went away is no longer waiting: hosts see the entry go.
        for (cid, knocker) in waitingRoom.withdraw(connection: connection.id) {
            knockResolved(cid, userId: knocker, outcome: .withdrawn, by: nil)
            calls.touch(cid)
        }
        // A caller whose app went away cannot be answered: stop ringing the others.
        for cid in rings.rings(startedFrom: connection.id) where !rings.anyoneAccepted(cid) {
            try? cancelRing(cid, by: userId, connectionId: connection.id, reason: .cancel)
        }
        flush()
    }

    /// Sends `health.check` to every authenticated connection until cancelled.
    func startHeartbeat() {
        heartbeat?.cancel()
        let interval = settings.healthCheckInterval
        heartbeat = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                await self?.sendHealthChecks()
            }
        }
    }

    func stopHeartbeat() {
        heartbeat?.cancel()
        replicaHeartbeat?.cancel()
        rings.cancelTimers()
    }

    private func sendHealthChecks() {
        let now = Date()
        for (id, connection) in connections.everySignedIn {
            send(.healthCheck(HealthCheckEvent(connectionId: id, serverTime: now)), to: connection)
        }
    }

    // MARK: Requests

    /// Answers one frame, decoded by the connection's loop (or its decoding error).
    func receive(_ decoded: Result<IncomingRequest, ErrorEnvelope>, from connection: ClientConnection) async {
        let request: IncomingRequest
        switch decoded {
        case .failure(let error):
            metrics.errorAnswered(error.error.code)
            send(error, to: connection)
            return
        case .success(let incoming):
            request = incoming
        }
        do {
            let response: String
            if request.type == .hello {
                response = try await answerHello(request, from: connection)
            } else {
                let userId = try authenticatedUser(of: connection)
                response = try await answer(request, userId: userId, connection: connection)
            }
            connection.send(response)
        } catch {
            // Validation happens before any change, so events queued by a failed request are
            // only ever from a store failure mid-way: drop them with the request. Except a
            // knock: the join is refused (`waitingForHost`), but the hosts must hear of it.
            if (error as? ProtocolError)?.code != .waitingForHost { outgoing.removeAll() }
            let protocolError = (error as? ProtocolError) ?? {
                logger.error("request failed", metadata: ["type": "\(request.type.rawValue)", "error": "\(error)"])
                return ProtocolError(.internalError, "the server could not complete \(request.type.rawValue)")
            }()
            metrics.errorAnswered(protocolError.code)
            send(ErrorEnvelope(id: request.id, type: request.type.rawValue, error: protocolError), to: connection)
        }
        flush()
    }

    /// Answers a frame the connection loop refused before decoding (too large).
    func reject(_ error: ProtocolError, to connection: ClientConnection) {
        metrics.errorAnswered(error.code)
        send(ErrorEnvelope(id: nil, type: nil, error: error), to: connection)
    }

    private func answer(_ request: IncomingRequest, userId: String, connection: ClientConnection) async throws -> String {
        let user = RequestSender(userId: userId, connection: connection)
        switch request.type {
        case .hello: throw ProtocolError(.alreadyAuthenticated, "this connection is already authenticated as \(userId)")
        case .healthCheck: return try respond(request, HealthCheckRequest.self) { _ in HealthCheckResponse(serverTime: Date()) }
        case .getOrCreateCall: return try respond(request, GetOrCreateCallRequest.self) { try getOrCreateCall($0, by: user) }
        case .getCall: return try respond(request, GetCallRequest.self) { try getCall($0, by: user) }
        case .joinCall:
            // Waits for Janus; see `joinCall` for what that means for ordering.
            let join = try RequestDecoder.payload(JoinCallRequest.self, of: request)
            let response = try await joinCall(join, by: user)
            return try encode(ResponseEnvelope(id: request.id, type: JoinCallRequest.type, payload: response))
        case .leaveCall: return try respond(request, LeaveCallRequest.self) { try leaveCall($0, by: user) }
        case .ringCall: return try respond(request, RingCallRequest.self) { try ringCall($0, by: user) }
        case .acceptCall: return try respond(request, AcceptCallRequest.self) { try acceptCall($0, by: user) }
        case .rejectCall: return try respond(request, RejectCallRequest.self) { try rejectCall($0, by: user) }
        case .endCall: return try respond(request, EndCallRequest.self) { try endCall($0, by: user) }
        case .updateCall: return try respond(request, UpdateCallRequest.self) { try updateCall($0, by: user) }
        case .addMembers: return try respond(request, AddMembersRequest.self) { try addMembers($0, by: user) }
        case .removeMembers: return try respond(request, RemoveMembersRequest.self) { try removeMembers($0, by: user) }
        case .resetCallLink: return try respond(request, ResetCallLinkRequest.self) { try resetCallLink($0, by: user) }
        case .blockUser: return try respond(request, BlockUserRequest.self) { try blockUser($0, by: user) }
        case .unblockUser: return try respond(request, UnblockUserRequest.self) { try unblockUser($0, by: user) }
        case .muteUsers: return try respond(request, MuteUsersRequest.self) { try muteUsers($0, by: user) }
        case .kickUser: return try respond(request, KickUserRequest.self) { try kickUser($0, by: user) }
        case .pinForEveryone: return try respond(request, PinForEveryoneRequest.self) { try pin($0, by: user) }
        case .unpinForEveryone: return try respond(request, UnpinForEveryoneRequest.self) { try unpin($0, by: user) }
        case .startRecording: return try respond(request, StartRecordingRequest.self) { try startRecording($0, by: user) }
        case .stopRecording: return try respond(request, StopRecordingRequest.self) { try stopRecording($0, by: user) }
        case .goLive: return try respond(request, GoLiveRequest.self) { try setLive($0.cid, true, by: user) }
        case .stopLive: return try respond(request, StopLiveRequest.self) { try setLive($0.cid, false, by: user) }
        case .startBroadcasting:
            // Waits for Janus too, so that a broadcast that cannot start is this request's error.
            let start = try RequestDecoder.payload(StartBroadcastingRequest.self, of: request)
            let response = try await startBroadcasting(start, by: user)
            return try encode(ResponseEnvelope(id: request.id, type: StartBroadcastingRequest.type, payload: response))
        case .stopBroadcasting:
            return try respond(request, StopBroadcastingRequest.self) { try stopBroadcasting($0, by: user) }
        case .sendChatMessage: return try respond(request, SendChatMessageRequest.self) { try sendChatMessage($0, by: user) }
        case .getChatHistory: return try respond(request, GetChatHistoryRequest.self) { try chatHistory($0, by: user) }
        case .sendReaction: return try respond(request, SendReactionRequest.self) { try sendReaction($0, by: user) }
        case .updateVideoViews: return try respond(request, UpdateVideoViewsRequest.self) { try updateVideoViews($0, by: user) }
        case .updateMediaState: return try respond(request, UpdateMediaStateRequest.self) { try updateMediaState($0, by: user) }
        case .raiseHand: return try respond(request, RaiseHandRequest.self) { try raiseHand($0, by: user) }
        case .lowerHand: return try respond(request, LowerHandRequest.self) { try lowerHand($0, by: user) }
        case .admitParticipant: return try respond(request, AdmitParticipantRequest.self) { try admitParticipant($0, by: user) }
        case .denyParticipant: return try respond(request, DenyParticipantRequest.self) { try denyParticipant($0, by: user) }
        }
    }

    private func respond<Request: ConfabRequest>(
        _ request: IncomingRequest, _: Request.Type, _ handle: (Request) throws -> Request.Response
    ) throws -> String {
        let payload = try RequestDecoder.payload(Request.self, of: request)
        let response = try handle(payload)
        return try encode(ResponseEnvelope(id: request.id, type: Request.type, payload: response))
    }

    private func authenticatedUser(of connection: ClientConnection) throws -> String {
        guard let userId = connections.userId(of: connection.id) else {
            throw ProtocolError(.notAuthenticated, "send hello (with a token) before any other request")
        }
        return userId
    }

    // MARK: Hello

    private func answerHello(_ request: IncomingRequest, from connection: ClientConnection) async throws -> String {
        let hello = try RequestDecoder.payload(HelloRequest.self, of: request)
        if let userId = connections.userId(of: connection.id) {
            throw ProtocolError(.alreadyAuthenticated, "this connection is already authenticated as \(userId)")
        }
        guard hello.protocolVersion == ProtocolVersion.current else {
            throw ProtocolError(
                .unsupportedProtocolVersion,
                "server speaks protocol version \(ProtocolVersion.current), client sent \(hello.protocolVersion)")
        }
        let userId: String
        if let token = hello.token {
            let tokenUser: String
            do {
                // The actor may run other requests during this await; nothing here depends on them.
                tokenUser = try await tokens.userId(fromToken: token)
            } catch {
                throw ProtocolError(.invalidToken, "token rejected (\(error)); get one with `confab-server token USER`")
            }
            if let claimed = hello.userId, claimed != tokenUser {
                throw ProtocolError(.invalidToken, "token is for '\(tokenUser)', not '\(claimed)'")
            }
            userId = tokenUser
        } else if settings.devAuth, let claimed = hello.userId {
            userId = claimed
        } else if settings.devAuth {
            throw ProtocolError(.invalidRequest, "hello needs a userId (or a token)")
        } else {
            throw ProtocolError(.notAuthenticated, "this server needs a token: get one with `confab-server token USER`")
        }
        try UserID.validate(userId)
        guard connections.signIn(connection.id, as: userId) else {
            throw ProtocolError(.internalError, "connection closed during hello")
        }
        logger.info("hello", metadata: ["user": "\(userId)", "client": "\(hello.clientName ?? "-")"])
        deliverPendingRings(to: userId, connection: connection)
        return try encode(ResponseEnvelope(
            id: request.id, type: .hello,
            payload: HelloResponse(
                protocolVersion: ProtocolVersion.current, userId: userId, connectionId: connection.id,
                healthCheckIntervalMs: Int(settings.healthCheckInterval.seconds * 1000))))
    }

    // MARK: Calls and state

    /// The call, from memory or the store; nil when it does not exist.
    func existingCall(_ cid: CallID) throws -> StoredCall? {
        calls.touch(cid)
        if let call = calls[cid] { return call }
        guard let stored = try store.call(cid) else { return nil }
        let call = try restoreProduction(of: stored)
        calls.keep(call)
        return call
    }

    func loadCall(_ cid: CallID) throws -> StoredCall {
        guard let call = try existingCall(cid) else {
            throw ProtocolError(.callNotFound, "call \(cid) does not exist")
        }
        return call
    }

    func save(_ call: StoredCall) throws {
        try store.save(call)
        calls.keep(call)
        replicas?.publish(.callSaved(cid: call.cid))
    }

    /// The call as `userId` sees it now: the cached copy (which requests may have changed since
    /// `fallback` was read), else `fallback`.
    func state(of cid: CallID, for userId: String, fallback: StoredCall) -> CallState {
        state(of: calls[cid] ?? fallback, for: userId)
    }

    func state(of call: StoredCall, for userId: String) -> CallState {
        let production = productions.existing(call.cid)
        let session = sessions[call.cid]
        let capabilities = capabilities(of: userId, in: call)
        return CallState(
            cid: call.cid, createdBy: call.createdBy, createdAt: call.createdAt, updatedAt: call.updatedAt,
            startsAt: call.startsAt, endedAt: call.endedAt, backstage: call.backstage, broadcasting: call.broadcasting,
            recording: call.recording, members: call.members, blockedUsers: call.blockedUsers, custom: call.custom,
            session: rings.wireValue(of: call.cid, participants: session?.wireParticipants ?? []),
            ownCapabilities: capabilities.sorted(),
            recordingState: production?.recordingState, recordings: production?.recordings ?? [],
            recordingErrors: production?.recordingErrors ?? [],
            hlsPlaylistUrl: hlsPlaylistURL(of: call.cid, for: userId),
            linkSecret: capabilities.contains(.readCall) ? call.linkSecret.text : nil, askToJoin: call.askToJoin,
            knocks: capabilities.contains(.admitParticipants) ? waitingRoom.knocks(at: call.cid) : [])
    }

    // MARK: Recipients and events

    func connections(ofUser userId: String) -> Set<String> {
        connections.connections(ofUser: userId)
    }

    /// Everyone who hears about a call: its members' devices, its participants and watchers —
    /// of those, only users who may read the call (a blocked member hears nothing more; the
    /// events about their own block or kick are addressed to them explicitly).
    func audience(of cid: CallID) -> Set<String> {
        var ids = Set<String>()
        for member in calls[cid]?.members ?? [] { ids.formUnion(connections(ofUser: member.userId)) }
        if let session = sessions[cid] {
            ids.formUnion(session.participants.values.map(\.connectionId))
            ids.formUnion(session.watchers)
        }
        guard let call = calls[cid] else { return ids }
        return readers(of: call, among: ids)
    }

    /// The audience and `userId`'s own devices (an event about them reaches them even when they
    /// may no longer read the call).
    func audience(of cid: CallID, andUser userId: String) -> Set<String> {
        audience(of: cid).union(connections(ofUser: userId))
    }

    private func readers(of call: StoredCall, among connectionIds: Set<String>) -> Set<String> {
        connectionIds.filter { id in
            guard let userId = connections.userId(of: id) else { return false }
            return mayRead(call, userId)
        }
    }

    /// Queues an event for each connection; `makeEvent` builds it per user, because the call
    /// state inside carries that user's own capabilities.
    func emit(to connectionIds: Set<String>, _ makeEvent: (String) -> ServerEvent) {
        var encodedByUser: [String: String] = [:]
        for id in connectionIds.sorted() {
            guard let (connection, userId) = connections.signedIn(id) else { continue }
            if encodedByUser[userId] == nil {
                encodedByUser[userId] = try? encode(EventEnvelope(event: makeEvent(userId)))
            }
            if let text = encodedByUser[userId] { outgoing.append((connection, text)) }
        }
    }

    /// Queues an event whose payload embeds the call as each recipient sees it; never to a user
    /// who may not read the call (the state carries its members and custom data).
    func emit(to connectionIds: Set<String>, about cid: CallID, _ makeEvent: (CallState) -> ServerEvent) {
        guard let call = calls[cid] else { return }
        emit(to: readers(of: call, among: connectionIds)) { userId in makeEvent(state(of: call, for: userId)) }
    }

    /// Sends everything queued so far, tells the other replicas what changed, then lets go of
    /// the calls that became idle.
    func flush() {
        let batch = outgoing
        outgoing.removeAll()
        for (connection, text) in batch { connection.send(text) }
        publishChangesToReplicas()
        evictIdleCalls()
    }

    /// Takes calls that nobody uses out of memory: no participant, no watcher, no ring, no
    /// recording or broadcast running and no Janus work queued. Their durable part is in the
    /// store (`existingCall` reads it back, with finished recordings); what a session held
    /// (the last ring's answers) is of no use once nobody is connected to see it.
    /// Without this, every call ever used stayed in memory (issue 16: 806 calls, +24 MB).
    func evictIdleCalls() {
        for cid in calls.takeTouched() { evictIfIdle(cid) }
    }

    func evictIfIdle(_ cid: CallID) {
        guard sessions.isIdle(cid), rings.ring(of: cid) == nil, !waitingRoom.hasKnocks(at: cid) else { return }
        endSession(of: cid)
        guard !mediaQueues.hasWork(for: cid), productions.isIdle(cid) else { return }
        calls.forget(cid)
        productions.forget(cid)
        waitingRoom.forget(cid)
    }

    /// Forgets the call's live session and the answers to its last ring.
    func endSession(of cid: CallID) {
        rings.forget(cid)
        sessions.end(cid)
    }

    private func send(_ event: ServerEvent, to connection: ClientConnection) {
        if let text = try? encode(EventEnvelope(event: event)) { connection.send(text) }
    }

    private func send(_ error: ErrorEnvelope, to connection: ClientConnection) {
        if let text = try? encode(error) { connection.send(text) }
    }

    private func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
