import FoundationEssentials
import Observation

/// The app's call state: what screen to show (`callingState`), the user's media choices
/// (`callSettings`), the people in the call, and the actions that move between them.
///
/// The ring rules follow the Stream SDK, with its known bugs fixed (see the tests):
/// a ring whose caller is us is ignored; a ring while busy is rejected as `busy` (and, unlike the
/// SDK, told to the user as a missed call, as every ring we did not take is); an unanswered
/// incoming ring is rejected with reason `timeout` (not silently dismissed); a ring answered on
/// another of our devices stops here; the caller cancelling stops it; everyone declining ends
/// the outgoing call; hanging up while the call is still being created cancels it.
@Observable
@MainActor
public final class CallViewModel {
    /// The single source of truth for routing: one screen per state.
    public var callingState: CallingState = .idle {
        // A lobby's call type already rules out some media (LocalMedia.lobbyCallType).
        didSet {
            let lobbyCallType: CallType? = if case .lobby(let info) = callingState { info.callType } else { nil }
            if localMedia.lobbyCallType != lobbyCallType { localMedia.lobbyCallType = lobbyCallType }
        }
    }
    /// Your microphone, camera and speaker: choices, desktop access, push-to-talk.
    public let localMedia: LocalMedia
    /// Mic/camera/speaker choices (the seed's name; `localMedia` owns them).
    public var callSettings: CallSettings { localMedia.callSettings }
    /// Signed in to the call server, or not (the app's connection loop and the client's
    /// lost/restored events keep it current).
    public var serverConnection: ServerConnection = .connecting
    /// The latest message for the user, if any.
    public private(set) var toast: Toast?
    public let currentUser: User
    /// The call we are ringing, joining or in, and everything that lives as long as it does.
    public private(set) var activeCall: ActiveCall?
    /// Who we are ringing (outgoing page).
    public var outgoingCallMembers: [Member] { outgoingRing?.callees ?? [] }
    /// The ring we are making, while we make one.
    private var outgoingRing: OutgoingRing?
    /// How the call window arranges participants (kept from call to call).
    public private(set) var participantsLayout: ParticipantsLayout = .grid
    /// The call is shown in the small minimized window instead of the full one.
    public var isMinimized = false
    /// The call that just ended and why, until the user goes back (the call-ended page).
    public private(set) var endedCall: EndedCall?
    /// The sound to loop now (ringing in or out), derived from the calling state.
    public var callSound: CallSound? { CallSound.forState(callingState) }

    @ObservationIgnored let callService: CallService?
    @ObservationIgnored let mediaEngine: CallMediaEngine?
    @ObservationIgnored private var toastCounter = 0
    /// The system's network, watched for the app's life (`networkChanged()`).
    @ObservationIgnored private var networkWatch: Subscription?
    /// The last message of each topic: one that grows it replaces it.
    @ObservationIgnored private var lastToastByTopic: [ToastTopic: Int] = [:]
    @ObservationIgnored private var incomingTimeout: Task<Void, Never>?
    /// Rings we did not take, as they are missed: the app leaves a "Missed call" notification
    /// for each (as GNOME Calls does), so that a call is not lost on someone who was away or busy.
    @ObservationIgnored public var onMissedCall: (@MainActor (MissedCall) -> Void)?
    /// Calls whose ring came while we were busy and has been told as missed: a ring sent again
    /// (after the coordinator's reconnect) is rejected again but told once.
    @ObservationIgnored private var toldBusyRings: Set<CallID> = []

    public init(currentUser: User, callSettings: CallSettings = .default, callService: CallService? = nil,
                mediaEngine: CallMediaEngine? = nil) {
        self.currentUser = currentUser
        localMedia = LocalMedia(callSettings: callSettings)
        self.callService = callService
        self.mediaEngine = mediaEngine
        localMedia.report = { [weak self] message in self?.show(message, in: self?.activeCall?.id) }
        callService?.setEventHandler { [weak self] event in self?.handle(event) }
        networkWatch = mediaEngine?.watchNetwork { [weak self] in self?.networkChanged() }
    }

    /// The system's network changed (an address or a route came or went: another Wi-Fi, the
    /// cable back in): the coordinator's connection proves itself or is made anew, and media
    /// lost meanwhile is tried again now — a call comes back seconds after the network does,
    /// not after the heartbeat's 30 s or the media's back-off.
    public func networkChanged() {
        callService?.networkChanged()
        activeCall?.networkChanged()
    }

    // MARK: Lobby

    /// Opens the lobby of a call so the user can check their devices before joining.
    public func enterLobby(_ call: CallID, members: [Member]) {
        endedCall = nil
        // A message about an earlier call does not belong over this call's Join button.
        toast = nil
        callingState = .lobby(LobbyInfo(callId: call.id, callType: call.type, participants: members))
        guard let callService else { return }
        // Who is already in the call; getCall also subscribes us to its joins and leaves.
        Task {
            guard let snapshot = try? await callService.getCall(call) else { return }
            updateLobbyParticipants(of: call) { _ in snapshot.participants.map { Member(user: $0.user, role: $0.role) } }
            if case .lobby(var info) = callingState, info.call == call, info.linkSecret != snapshot.linkSecret {
                info.linkSecret = snapshot.linkSecret
                callingState = .lobby(info)
            }
        }
    }

    /// Edits the participants of the lobby on screen, if it is the lobby of `call`.
    private func updateLobbyParticipants(of call: CallID, _ change: ([Member]) -> [Member]) {
        guard case .lobby(var info) = callingState, info.call == call else { return }
        var seen = Set<String>()
        info.participants = change(info.participants).filter { seen.insert($0.user.id).inserted }
        callingState = .lobby(info)
    }

    /// Leaves the lobby without joining (a knock still waiting is withdrawn).
    public func closeLobby() {
        guard case .lobby(let info) = callingState else { return }
        callingState = .idle
        if info.admission == .waitingForHost { withdrawKnock(on: info.call) }
    }

    /// Stops waiting for a host to let us in, staying in the lobby.
    public func stopWaitingForHost() {
        guard case .lobby(var info) = callingState, info.admission == .waitingForHost else { return }
        info.admission = .notAsked
        callingState = .lobby(info)
        withdrawKnock(on: info.call)
    }

    /// Takes our knock off the hosts' list (leaving a call we only knocked on withdraws it).
    private func withdrawKnock(on call: CallID) {
        Task { try? await callService?.leaveCall(call) }
    }

    /// A host answered our knock: admitted, we join at once; denied, the lobby says so.
    private func joinAnswered(_ call: CallID, admitted: Bool) {
        guard case .lobby(var info) = callingState, info.call == call, info.admission == .waitingForHost else { return }
        info.admission = admitted ? .notAsked : .denied
        callingState = .lobby(info)
        if admitted {
            Task { await joinCall(call) }
        } else {
            show(tr("The host didn’t let you in."), in: call)
        }
    }

    /// Joins a call directly (from the lobby), carrying the lobby's settings into it.
    public func joinCall(_ call: CallID) async {
        guard callService != nil else {
            show(CallError.notConnected.message)
            return
        }
        await join(begin(call, isRingCall: false), fallback: callingState)
    }

    // MARK: Outgoing

    /// Rings the caller of a missed call back, in a new call, and says whether the ring went
    /// out. Only from the home or the call-ended page: in the middle of something else the user
    /// is told to call back when it ends.
    @discardableResult public func callBack(_ missed: MissedCall) -> Bool {
        guard callingState == .idle else {
            show(tr("You can call %@ back when this call ends", missed.ring.caller.name), in: activeCall?.id)
            return false
        }
        Task { await startCall(.unnamed(), members: [missed.ring.caller.id]) }
        return true
    }

    /// Starts a call with `members`; with `ring` they are rung and we wait on the outgoing page,
    /// without it we join at once.
    public func startCall(_ id: CallID, members: [String], ring: Bool = true) async {
        guard let callService else { return show(CallError.notConnected.message) }
        switch callingState {
        case .idle, .lobby: break
        default: return
        }
        let callees = members.filter { $0 != currentUser.id }
        endedCall = nil
        // A message about an earlier call ("Missed call from Bob", before calling him back) does
        // not belong over this one (its window, opening now, would show it as recent).
        toast = nil
        let call = begin(id, isRingCall: ring)
        outgoingRing = OutgoingRing(callees: callees.map { Member(user: User(id: $0)) })
        callingState = ring ? .outgoing : .joining
        let snapshot: CallSnapshot
        do {
            snapshot = try await callService.getOrCreateCall(call.id, memberIDs: callees, ring: ring, video: callSettings.videoOn)
        } catch {
            outgoingRing?.isCreatingCall = false
            guard activeCall === call else { return }
            return finishCall(reason: Self.explain(error) { tr("Couldn’t start the call: %@", $0) })
        }
        outgoingRing?.isCreatingCall = false
        if call.isEnded {
            // The user hung up while the call was being created: cancel the ring it started.
            try? await callService.rejectCall(call.id, reason: .cancel)
            return
        }
        guard activeCall === call else { return }
        call.apply(snapshot)
        outgoingRing?.callees = snapshot.members.filter { callees.contains($0.user.id) }
        if !ring { await join(call, fallback: .idle) }
    }

    // MARK: Incoming

    /// Accepts the ringing call and joins it; with `video: false` the camera stays off.
    public func acceptCall(_ call: CallID, video: Bool = true) async {
        guard let callService, case .incoming(let incoming) = callingState, incoming.cid == call else { return }
        incomingTimeout?.cancel()
        if !video { localMedia.turnCameraOff() }
        let active = begin(incoming.cid, isRingCall: true)
        callingState = .joining
        do {
            try await callService.acceptCall(incoming.cid)
        } catch {
            return finishCall(reason: Self.explain(error) { tr("Couldn’t answer: %@", $0) })
        }
        await join(active, fallback: .idle)
    }

    /// Declines the ringing call.
    public func rejectCall(_ call: CallID) async {
        guard case .incoming(let incoming) = callingState, incoming.cid == call else { return }
        incomingTimeout?.cancel()
        callingState = .idle
        try? await callService?.rejectCall(incoming.cid, reason: .decline)
    }

    // MARK: Leaving

    /// Hangs up whatever is going on: cancels an outgoing ring, declines an incoming one, leaves a call.
    public func hangUp() async {
        let call = activeCall?.id
        switch callingState {
        case .outgoing:
            // While the call is still being created, startCall cancels the ring once it exists.
            let isCreating = outgoingRing?.isCreatingCall ?? false
            finishCall(reason: nil)
            if !isCreating, let call { try? await callService?.rejectCall(call, reason: .cancel) }
        case .joining, .inCall, .reconnecting:
            finishCall(reason: nil)
            if let call { try? await callService?.leaveCall(call) }
        case .incoming(let incoming):
            await rejectCall(incoming.cid)
        case .idle, .lobby:
            break
        }
    }

    // MARK: Media toggles (the seed's names; in the lobby they edit callSettings only)

    public func toggleMicrophoneEnabled() { localMedia.toggleMicrophone() }
    public func toggleCameraEnabled() { localMedia.toggleCamera() }
    public func toggleSpeaker() { localMedia.toggleSpeaker() }

    // MARK: Layout

    public func update(participantsLayout: ParticipantsLayout) { self.participantsLayout = participantsLayout }

    /// Leaves the call-ended page.
    public func dismissEndedCall() { endedCall = nil }

    // MARK: Messages

    /// Shows a message; one about a call (`in:`) is shown only in that call's windows. One
    /// that `grows` the last message of its `topic` is shown in that one's place.
    public func show(_ message: String, in call: CallID? = nil, topic: ToastTopic? = nil, grows: Bool = false) {
        toastCounter += 1
        toast = Toast(id: toastCounter, message: message, call: call, replaces: grows ? topic.flatMap { lastToastByTopic[$0] } : nil)
        if let topic { lastToastByTopic[topic] = toastCounter }
    }

    // MARK: Coordinator events

    private func handle(_ event: CallServiceEvent) {
        switch event {
        case .ringing(let incoming):
            ringing(incoming)
        case .accepted(let call, let userID, let byThisDevice):
            accepted(call, by: userID, byThisDevice: byThisDevice)
        case .rejected(let call, let userID, let reason, let byThisDevice, _):
            rejected(call, by: userID, reason: reason, byThisDevice: byThisDevice)
        case .ringTurnedAway(let ring):
            missedWhileBusy(ring)
        case .missed(let call):
            if isRinging(call) {
                if let ring = ringingHere { ringMissed(ring, reason: missedCallMessage()) } else { finishCall(reason: tr("No answer")) }
            }
        case .ended(let call, let reason):
            if call == activeCall?.id || isRinging(call) {
                if let ring = ringingHere, ring.cid == call {
                    ringMissed(ring, reason: reason ?? tr("The call ended"))
                } else {
                    finishCall(reason: reason ?? tr("The call ended"))
                }
            }
        case .participantJoined(let call, let participant):
            if let active = activeCall, active.id == call { active.participantJoined(participant) }
            updateLobbyParticipants(of: call) { $0 + [Member(user: participant.user, role: participant.role)] }
        case .participantLeft(let call, let participant, let departure):
            if let active = activeCall, active.id == call, let ending = active.participantLeft(participant, departure: departure) {
                othersGone(from: active, reason: ending)
            }
            updateLobbyParticipants(of: call) { $0.filter { $0.user.id != participant.user.id } }
        case .callUpdated(let snapshot):
            guard let active = activeCall, snapshot.id == active.id else { return }
            active.apply(snapshot)
            if snapshot.blockedUserIDs.contains(currentUser.id), isInCallSession {
                finishCall(reason: tr("You were removed from the call"))
            }
        case .mutedByModerator(let call, let moderator, let tracks):
            if let active = activeCall, active.id == call, isInCallSession { active.mutedByModerator(moderator, tracks: tracks) }
        case .chatMessage(let message):
            if let active = activeCall, active.id == message.cid, isInCallSession { active.chatMessageArrived(message) }
        case .reaction(let call, let sessionID, let reaction):
            if let active = activeCall, active.id == call, isInCallSession { active.reactionArrived(reaction, from: sessionID) }
        case .handChanged(let call, let sessionID, let hand, let userID):
            if let active = activeCall, active.id == call { active.handChanged(sessionID: sessionID, hand: hand, by: userID) }
        case .videoViews(let call, let viewer, let views):
            if let active = activeCall, active.id == call, isInCallSession { active.videoViewsArrived(from: viewer, views: views) }
        case .mediaStateChanged(let call, let sessionID, let microphoneOn, let cameraOn):
            if let active = activeCall, active.id == call { active.mediaStateChanged(sessionID: sessionID, microphoneOn: microphoneOn, cameraOn: cameraOn) }
        case .knocked(let call, let knock):
            if let active = activeCall, active.id == call, isInCallSession { active.knocked(knock) }
        case .knockResolved(let call, let userID, let outcome, let hostID):
            if let active = activeCall, active.id == call { active.knockResolved(userID: userID, outcome: outcome, by: hostID) }
        case .joinAnswered(let call, let admitted):
            joinAnswered(call, admitted: admitted)
        case .connectionLost:
            serverConnection = .unreachable
            if callingState == .inCall { callingState = .reconnecting }
        case .connectionRestored:
            serverConnection = .signedIn
            if callingState == .reconnecting, let call = activeCall {
                Task { await self.join(call, fallback: .idle, rejoining: true) }
            }
            // A knock lives as long as the connection it came from: knock again on the new one.
            if case .lobby(var info) = callingState, info.admission == .waitingForHost {
                info.admission = .notAsked
                callingState = .lobby(info)
                Task { await joinCall(info.call) }
            }
        }
    }

    private func ringing(_ incoming: IncomingCall) {
        guard incoming.caller.id != currentUser.id else { return }
        // After a reconnect the coordinator sends rings still waiting again: same call, same ring.
        if case .incoming(let current) = callingState, current.cid == incoming.cid { return }
        guard callingState == .idle else {
            // Already busy (in or starting another call): say so instead of ringing over it, and
            // tell the user who called (the SDK rejects it unseen: the call was simply lost).
            if incoming.cid != activeCall?.id {
                Task { try? await callService?.rejectCall(incoming.cid, reason: .busy) }
                missedWhileBusy(incoming)
            }
            return
        }
        endedCall = nil
        callingState = .incoming(incoming)
        incomingTimeout?.cancel()
        incomingTimeout = Task { [weak self] in
            try? await Task.sleep(for: incoming.timeout)
            guard !Task.isCancelled, let self, case .incoming(let current) = self.callingState, current == incoming else { return }
            // Tell the caller we did not answer, rather than only hiding the ring (SDK bug on iOS).
            self.ringMissed(incoming, reason: tr("Missed call from %@", incoming.caller.name))
            try? await self.callService?.rejectCall(incoming.cid, reason: .timeout)
        }
    }

    private func accepted(_ call: CallID, by userID: String, byThisDevice: Bool) {
        if callingState == .outgoing, let active = activeCall, active.id == call, userID != currentUser.id {
            Task { await join(active, fallback: .idle) }
        } else if case .incoming(let incoming) = callingState, incoming.cid == call, userID == currentUser.id, !byThisDevice {
            finishCall(reason: tr("Answered on another device"))
        }
    }

    private func rejected(_ call: CallID, by userID: String, reason: RejectionReason, byThisDevice: Bool) {
        if case .incoming(let incoming) = callingState, incoming.cid == call {
            if userID == incoming.caller.id {
                ringMissed(incoming, reason: missedCallMessage())
            } else if userID == currentUser.id, !byThisDevice {
                finishCall(reason: tr("Declined on another device"))
            }
            // A rejection by another callee keeps our ring going.
        } else if callingState == .outgoing, call == activeCall?.id, userID != currentUser.id,
                  let ending = outgoingRing?.reject(by: userID, reason: reason) {
            finishCall(reason: ending)
        }
    }

    // MARK: Helpers

    /// Makes `call` the active call, ending whatever call was active before.
    private func begin(_ id: CallID, isRingCall: Bool) -> ActiveCall {
        activeCall?.end()
        let call = ActiveCall(id: id, currentUserID: currentUser.id, isRingCall: isRingCall, callService: callService,
                              mediaEngine: mediaEngine, localMedia: localMedia,
                              report: { [weak self] message, topic, grows in self?.show(message, in: id, topic: topic, grows: grows) })
        call.onOthersGone = { [weak self, weak call] reason in
            guard let self, let call else { return }
            self.othersGone(from: call, reason: reason)
        }
        activeCall = call
        localMedia.call = call
        return call
    }

    /// A rung call everyone else has gone from is over for us too: we leave it.
    private func othersGone(from call: ActiveCall, reason: String) {
        guard activeCall === call else { return }
        finishCall(reason: reason)
        Task { try? await callService?.leaveCall(call.id) }
    }

    private func join(_ call: ActiveCall, fallback: CallingState, rejoining: Bool = false) async {
        guard let callService else { return }
        if !rejoining { callingState = .joining }
        do {
            let attempt = try await callService.joinOrKnock(call.id, settings: localMedia.effectiveSettings)
            guard activeCall === call, callingState == .joining || callingState == .reconnecting else { return }
            switch attempt {
            case .joined(let snapshot):
                call.joined(snapshot)
                callingState = .inCall
                call.startMedia(snapshot)
            case .waitingForHost, .denied:
                let denied = attempt == .denied
                // Only a join from the lobby can knock: the lobby shows the wait (or the answer).
                guard case .lobby(var info) = fallback else {
                    return finishCall(reason: denied ? tr("The host didn’t let you in.") : tr("A host has to let you in."))
                }
                info.admission = denied ? .denied : .waitingForHost
                backToLobby(info, dropping: call)
                if denied { show(tr("The host didn’t let you in."), in: info.call) }
            }
        } catch {
            guard activeCall === call else { return }
            if case .lobby(let info) = fallback {
                backToLobby(info, dropping: call)
                show(Self.explain(error) { tr("Couldn’t join the call: %@", $0) })
            } else {
                finishCall(reason: Self.explain(error) { tr("Couldn’t join the call: %@", $0) })
            }
        }
    }

    /// A join from the lobby did not get in: the call object goes, the lobby stays.
    private func backToLobby(_ info: LobbyInfo, dropping call: ActiveCall) {
        call.end()
        activeCall = nil
        localMedia.callEnded()
        callingState = .lobby(info)
    }

    /// An incoming ring we did not take has ended: the call-ended page says why and offers to
    /// call back, and the app leaves a missed-call notification.
    private func ringMissed(_ ring: IncomingCall, reason: String) {
        let missed = MissedCall(ring: ring, whileBusy: false)
        finishCall(reason: reason, missed: missed)
        onMissedCall?(missed)
    }

    /// Back to idle, dropping the call and everything it owned; `reason` is shown to the user
    /// (on the call-ended page, with Call Back when `missed` says whose ring it was).
    private func finishCall(reason: String?, missed: MissedCall? = nil) {
        let call = activeCall?.id
        activeCall?.end()
        activeCall = nil
        localMedia.callEnded()
        isMinimized = false
        endedCall = reason.map { EndedCall(call: call, reason: $0, missed: missed) }
        incomingTimeout?.cancel()
        incomingTimeout = nil
        outgoingRing = nil
        callingState = .idle
        if let reason { show(reason) }
    }

    private func isRinging(_ call: CallID) -> Bool {
        if case .incoming(let incoming) = callingState { return incoming.cid == call }
        return callingState == .outgoing && call == activeCall?.id
    }

    /// Joining, in the call or getting back into it.
    public var isInCallSession: Bool {
        [.joining, .inCall, .reconnecting].contains(callingState)
    }

    /// Tells the user of a ring rejected as busy, once per call: a toast (in the call's windows
    /// when we are in one) and the missed-call notification.
    private func missedWhileBusy(_ ring: IncomingCall) {
        guard ring.cid != activeCall?.id, toldBusyRings.insert(ring.cid).inserted else { return }
        show(tr("%@ called you and was told you are busy", ring.caller.name), in: activeCall?.id)
        onMissedCall?(MissedCall(ring: ring, whileBusy: true))
    }

    /// The ring ringing here now, if one is.
    private var ringingHere: IncomingCall? {
        if case .incoming(let incoming) = callingState { return incoming }
        return nil
    }

    private func missedCallMessage() -> String {
        if case .incoming(let incoming) = callingState { return tr("Missed call from %@", incoming.caller.name) }
        return tr("Missed call")
    }
}

extension CallID {
    /// A new call nobody named: ringing people without typing a call name, or calling back.
    public static func unnamed() -> CallID {
        CallID(type: .default, id: "call-\(UUID().uuidString.prefix(8).lowercased())")
    }
}
