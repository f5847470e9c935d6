import Foundation
import Observation

/// The app's call state: what screen to show (`callingState`), the user's media choices
/// (`callSettings`), the people in the call, and the actions that move between them.
///
/// The ring rules follow the Stream SDK, with its known bugs fixed (see the tests):
/// a ring whose caller is us is ignored; a ring while busy is rejected as `busy`; an unanswered
/// incoming ring is rejected with reason `timeout` (not silently dismissed); a ring answered on
/// another of our devices stops here; the caller cancelling stops it; everyone declining ends
/// the outgoing call; hanging up while the call is still being created cancels it.
@Observable
@MainActor
public final class CallViewModel {
    /// The single source of truth for routing: one screen per state.
    public var callingState: CallingState = .idle
    /// Mic/camera/speaker choices; in the lobby the toggles edit only this.
    public private(set) var callSettings: CallSettings
    /// What the desktop allows (privacy switches, the camera portal); see `DeviceAccess`.
    public private(set) var deviceAccess = DeviceAccess()
    /// The settings as media must follow them: a toggle that is on does not open a device the
    /// desktop refuses.
    public var effectiveSettings: CallSettings {
        CallSettings(audioOn: callSettings.audioOn && deviceAccess.microphone, videoOn: callSettings.videoOn && deviceAccess.camera,
                     speakerOn: callSettings.speakerOn)
    }
    /// The latest message for the user, if any.
    public private(set) var toast: Toast?
    public let currentUser: User
    /// The call we are ringing, joining or in, and everything that lives as long as it does.
    public private(set) var activeCall: ActiveCall?
    /// Who we are ringing (outgoing page).
    public private(set) var outgoingCallMembers: [Member] = []
    /// Why the last call ended, for the call-ended page ("Bob declined", "Connection lost").
    public private(set) var lastCallEndReason: String?
    /// The user is talking into a muted microphone (the call window says so).
    public private(set) var isSpeakingWhileMuted = false
    @ObservationIgnored private var speakingWhileMutedDetector = SpeakingWhileMutedDetector()
    /// How the call window arranges participants (kept from call to call).
    public private(set) var participantsLayout: ParticipantsLayout = .grid
    /// The call is shown in the small minimized window instead of the full one.
    public var isMinimized = false
    /// The call that just ended and why, until the user goes back (the call-ended page).
    public private(set) var endedCall: EndedCall?
    /// The sound to loop now (ringing in or out), derived from the calling state.
    public var callSound: CallSound? { CallSound.forState(callingState) }
    /// While muted, holding the push-to-talk key opens the microphone until it is released.
    public private(set) var isPushToTalkActive = false

    @ObservationIgnored let callService: CallService?
    @ObservationIgnored let mediaEngine: CallMediaEngine?
    @ObservationIgnored private var toastCounter = 0
    @ObservationIgnored private var incomingTimeout: Task<Void, Never>?
    /// Set while getOrCreateCall is in flight, so a hang-up then can cancel the ring when it returns.
    @ObservationIgnored private var isCreatingCall = false
    @ObservationIgnored private var hangUpRequestedDuringCreate = false
    @ObservationIgnored private var outgoingRejections: [String: RejectionReason] = [:]

    public init(currentUser: User, callSettings: CallSettings = .default, callService: CallService? = nil,
                mediaEngine: CallMediaEngine? = nil) {
        self.currentUser = currentUser
        self.callSettings = callSettings
        self.callService = callService
        self.mediaEngine = mediaEngine
        callService?.setEventHandler { [weak self] event in self?.handle(event) }
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
        }
    }

    /// Edits the participants of the lobby on screen, if it is the lobby of `call`.
    private func updateLobbyParticipants(of call: CallID, _ change: ([Member]) -> [Member]) {
        guard case .lobby(var info) = callingState, info.call == call else { return }
        var seen = Set<String>()
        info.participants = change(info.participants).filter { seen.insert($0.user.id).inserted }
        callingState = .lobby(info)
    }

    /// Leaves the lobby without joining.
    public func closeLobby() {
        guard case .lobby = callingState else { return }
        callingState = .idle
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
        let call = begin(id, isRingCall: ring)
        outgoingRejections = [:]
        outgoingCallMembers = callees.map { Member(user: User(id: $0)) }
        callingState = ring ? .outgoing : .joining
        isCreatingCall = true
        hangUpRequestedDuringCreate = false
        let snapshot: CallSnapshot
        do {
            snapshot = try await callService.getOrCreateCall(call.id, memberIDs: callees, ring: ring, video: callSettings.videoOn)
        } catch {
            isCreatingCall = false
            guard activeCall === call else { return }
            return finishCall(reason: Self.explain(error, whileTrying: "start the call"))
        }
        isCreatingCall = false
        if hangUpRequestedDuringCreate {
            // The user hung up while the call was being created: cancel the ring it started.
            try? await callService.rejectCall(call.id, reason: .cancel)
            return
        }
        guard activeCall === call else { return }
        call.apply(snapshot)
        outgoingCallMembers = snapshot.members.filter { callees.contains($0.user.id) }
        if !ring { await join(call, fallback: .idle) }
    }

    // MARK: Incoming

    /// Accepts the ringing call and joins it; with `video: false` the camera stays off.
    public func acceptCall(_ call: CallID, video: Bool = true) async {
        guard let callService, case .incoming(let incoming) = callingState, incoming.cid == call else { return }
        incomingTimeout?.cancel()
        if !video { callSettings = callSettings.withUpdatedVideoState(false) }
        let active = begin(incoming.cid, isRingCall: true)
        callingState = .joining
        do {
            try await callService.acceptCall(incoming.cid)
        } catch {
            return finishCall(reason: Self.explain(error, whileTrying: "answer"))
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
            if isCreatingCall { hangUpRequestedDuringCreate = true }
            finishCall(reason: nil)
            if !isCreatingCall, let call { try? await callService?.rejectCall(call, reason: .cancel) }
        case .joining, .inCall, .reconnecting:
            finishCall(reason: nil)
            if let call { try? await callService?.leaveCall(call) }
        case .incoming(let incoming):
            await rejectCall(incoming.cid)
        case .idle, .lobby:
            break
        }
    }

    // MARK: Media toggles (in the lobby they edit callSettings only)

    public func toggleMicrophoneEnabled() {
        callSettings = callSettings.withUpdatedAudioState(!callSettings.audioOn)
        activeCall?.setAudioEnabled(effectiveSettings.audioOn)
    }

    public func toggleCameraEnabled() {
        callSettings = callSettings.withUpdatedVideoState(!callSettings.videoOn)
        activeCall?.setVideoEnabled(effectiveSettings.videoOn)
    }

    /// The desktop granted or refused the camera or microphone: a refused device closes at
    /// once (in the lobby and in a call), a granted one opens again if its toggle is on.
    public func updateDeviceAccess(_ access: DeviceAccess) {
        guard access != deviceAccess else { return }
        deviceAccess = access
        activeCall?.setAudioEnabled(effectiveSettings.audioOn)
        activeCall?.setVideoEnabled(effectiveSettings.videoOn)
    }

    public func toggleSpeaker() {
        callSettings = callSettings.withUpdatedSpeakerState(!callSettings.speakerOn)
        activeCall?.setSpeakerEnabled(callSettings.speakerOn)
    }

    /// A camera or microphone stopped working in the call. With another device taking over,
    /// the user is told which; without one, the camera or microphone shows as off (turning it
    /// on tries the device again) so nobody believes they are still seen or heard.
    public func mediaDeviceFailed(_ failure: MediaDeviceFailure) {
        guard isInCallSession else { return }
        let what = failure.device.kind == .camera ? "camera" : "microphone"
        if let replacement = failure.replacement {
            show("Your \(what) “\(failure.device.name)” stopped working. Now using “\(replacement.name)”.")
            return
        }
        switch failure.device.kind {
        case .camera where callSettings.videoOn: toggleCameraEnabled()
        case .microphone where callSettings.audioOn: toggleMicrophoneEnabled()
        default: break
        }
        show("Your \(what) “\(failure.device.name)” stopped working. Choose another in Devices, or turn it on to try again.")
    }

    /// One reading of our own microphone during a call (measured before muting).
    public func recordLocalAudioLevel(_ decibels: Double) {
        let speaking = speakingWhileMutedDetector.record(decibels: decibels, microphoneOn: callSettings.audioOn)
        if speaking != isSpeakingWhileMuted { isSpeakingWhileMuted = speaking }
    }

    // MARK: Push to talk

    public func startPushToTalk() {
        guard !callSettings.audioOn, !isPushToTalkActive, isInCallSession else { return }
        isPushToTalkActive = true
        toggleMicrophoneEnabled()
    }

    public func endPushToTalk() {
        guard isPushToTalkActive else { return }
        isPushToTalkActive = false
        if callSettings.audioOn { toggleMicrophoneEnabled() }
    }

    /// A moderator turned off our microphone, camera and/or screen share: turn them off here
    /// (the coordinator only relays the request; each device mutes itself) and say who did.
    /// The user may turn them on again, as in the Stream SDK.
    func mutedByModerator(_ moderatorID: String, tracks: ModeratedTracks, in call: ActiveCall) {
        var turnedOff: [String] = []
        if tracks.contains(.microphone), callSettings.audioOn {
            // Holding push-to-talk does not keep the microphone open against a moderator.
            if isPushToTalkActive { endPushToTalk() } else { toggleMicrophoneEnabled() }
            turnedOff.append("microphone")
        }
        if tracks.contains(.camera), callSettings.videoOn {
            toggleCameraEnabled()
            turnedOff.append("camera")
        }
        if tracks.contains(.screenshare), call.isCurrentUserScreensharing {
            Task { await call.stopScreensharing() }
            turnedOff.append("screen sharing")
        }
        guard let last = turnedOff.last else { return }
        let moderator = call.participants.values.first { $0.user.id == moderatorID }?.name ?? moderatorID
        let list = turnedOff.count == 1 ? last : turnedOff.dropLast().joined(separator: ", ") + " and " + last
        show("\(moderator) turned off your \(list)", in: call.id)
    }

    // MARK: Layout

    public func update(participantsLayout: ParticipantsLayout) { self.participantsLayout = participantsLayout }

    /// Leaves the call-ended page.
    public func dismissEndedCall() { endedCall = nil }

    // MARK: Messages

    /// Shows a message; one about a call (`in:`) is shown only in that call's windows.
    public func show(_ message: String, in call: CallID? = nil) {
        toastCounter += 1
        toast = Toast(id: toastCounter, message: message, call: call)
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
        case .missed(let call):
            if isRinging(call) { finishCall(reason: callingState == .outgoing ? "No answer" : missedCallMessage()) }
        case .ended(let call, let reason):
            if call == activeCall?.id || isRinging(call) { finishCall(reason: reason ?? "The call ended") }
        case .participantJoined(let call, let participant):
            if let active = activeCall, active.id == call, active.participantJoined(participant),
               callingState == .inCall, participant.user.id != currentUser.id, active.participants.count < 25 {
                show("\(participant.name) joined", in: call)
            }
            updateLobbyParticipants(of: call) { $0 + [Member(user: participant.user, role: participant.role)] }
        case .participantLeft(let call, let participant):
            if let active = activeCall, active.id == call, active.participantLeft(participant) {
                participantLeft(participant, in: active)
            }
            updateLobbyParticipants(of: call) { $0.filter { $0.user.id != participant.user.id } }
        case .callUpdated(let snapshot):
            guard let active = activeCall, snapshot.id == active.id else { return }
            active.apply(snapshot)
            if snapshot.blockedUserIDs.contains(currentUser.id), isInCallSession {
                finishCall(reason: "You were removed from the call")
            }
        case .mutedByModerator(let call, let moderator, let tracks):
            if let active = activeCall, active.id == call, isInCallSession { mutedByModerator(moderator, tracks: tracks, in: active) }
        case .connectionLost:
            if callingState == .inCall { callingState = .reconnecting }
        case .connectionRestored:
            if callingState == .reconnecting, let call = activeCall {
                Task { await self.join(call, fallback: .idle, rejoining: true) }
            }
        }
    }

    /// Someone left the call we are in. A rung call (1:1 or a small group) is over for us once
    /// everyone else has hung up: staying alone in "Waiting for others" is not what a phone-like
    /// call does (the Stream SDK ends ringing calls the same way).
    private func participantLeft(_ participant: CallParticipant, in call: ActiveCall) {
        guard callingState == .inCall, participant.user.id != currentUser.id else { return }
        if call.isRingCall, call.hadOthers, call.others.isEmpty {
            finishCall(reason: "\(participant.name) hung up")
            Task { try? await callService?.leaveCall(call.id) }
        } else if call.participants.count < 25 {
            show("\(participant.name) left", in: call.id)
        }
    }

    private func ringing(_ incoming: IncomingCall) {
        guard incoming.caller.id != currentUser.id else { return }
        // After a reconnect the coordinator sends rings still waiting again: same call, same ring.
        if case .incoming(let current) = callingState, current.cid == incoming.cid { return }
        guard callingState == .idle else {
            // Already busy (in or starting another call): say so instead of ringing over it.
            if incoming.cid != activeCall?.id {
                Task { try? await callService?.rejectCall(incoming.cid, reason: .busy) }
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
            self.finishCall(reason: "Missed call from \(incoming.caller.name)")
            try? await self.callService?.rejectCall(incoming.cid, reason: .timeout)
        }
    }

    private func accepted(_ call: CallID, by userID: String, byThisDevice: Bool) {
        if callingState == .outgoing, let active = activeCall, active.id == call, userID != currentUser.id {
            Task { await join(active, fallback: .idle) }
        } else if case .incoming(let incoming) = callingState, incoming.cid == call, userID == currentUser.id, !byThisDevice {
            finishCall(reason: "Answered on another device")
        }
    }

    private func rejected(_ call: CallID, by userID: String, reason: RejectionReason, byThisDevice: Bool) {
        if case .incoming(let incoming) = callingState, incoming.cid == call {
            if userID == incoming.caller.id {
                finishCall(reason: missedCallMessage())
            } else if userID == currentUser.id, !byThisDevice {
                finishCall(reason: "Declined on another device")
            }
            // A rejection by another callee keeps our ring going.
        } else if callingState == .outgoing, call == activeCall?.id, userID != currentUser.id {
            outgoingRejections[userID] = reason
            let callees = Set(outgoingCallMembers.map(\.user.id))
            if !callees.isEmpty, callees.isSubset(of: outgoingRejections.keys) {
                finishCall(reason: Self.describeRejections(outgoingRejections, members: outgoingCallMembers))
            }
        }
    }

    // MARK: Helpers

    /// Makes `call` the active call, ending whatever call was active before.
    private func begin(_ id: CallID, isRingCall: Bool) -> ActiveCall {
        activeCall?.end()
        let call = ActiveCall(id: id, currentUserID: currentUser.id, isRingCall: isRingCall, callService: callService,
                              mediaEngine: mediaEngine, settings: { [unowned self] in self.effectiveSettings },
                              report: { [weak self] message in self?.show(message, in: id) })
        activeCall = call
        return call
    }

    private func join(_ call: ActiveCall, fallback: CallingState, rejoining: Bool = false) async {
        guard let callService else { return }
        if !rejoining { callingState = .joining }
        do {
            let snapshot = try await callService.joinCall(call.id, settings: effectiveSettings)
            guard activeCall === call, callingState == .joining || callingState == .reconnecting else { return }
            call.joined(snapshot)
            callingState = .inCall
            call.startMedia(snapshot)
        } catch {
            guard activeCall === call else { return }
            if case .lobby = fallback {
                call.end()
                activeCall = nil
                callingState = fallback
                show(Self.explain(error, whileTrying: "join the call"))
            } else {
                finishCall(reason: Self.explain(error, whileTrying: "join the call"))
            }
        }
    }

    /// Back to idle, dropping the call and everything it owned; `reason` is shown to the user.
    private func finishCall(reason: String?) {
        let call = activeCall?.id
        activeCall?.end()
        activeCall = nil
        if isPushToTalkActive { isPushToTalkActive = false }
        if isSpeakingWhileMuted { isSpeakingWhileMuted = false }
        speakingWhileMutedDetector = SpeakingWhileMutedDetector()
        isMinimized = false
        endedCall = reason.map { EndedCall(call: call, reason: $0) }
        incomingTimeout?.cancel()
        incomingTimeout = nil
        outgoingCallMembers = []
        outgoingRejections = [:]
        lastCallEndReason = reason
        callingState = .idle
        if let reason { show(reason) }
    }

    private func isRinging(_ call: CallID) -> Bool {
        if case .incoming(let incoming) = callingState { return incoming.cid == call }
        return callingState == .outgoing && call == activeCall?.id
    }

    var isInCallSession: Bool {
        [.joining, .inCall, .reconnecting].contains(callingState)
    }

    private func missedCallMessage() -> String {
        if case .incoming(let incoming) = callingState { return "Missed call from \(incoming.caller.name)" }
        return "Missed call"
    }
}
