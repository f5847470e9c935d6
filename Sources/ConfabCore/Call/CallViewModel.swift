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
    /// The latest message for the user, if any.
    public private(set) var toast: Toast?
    public let currentUser: User
    /// The call we are ringing, joining or in.
    public private(set) var activeCall: CallID?
    /// Who we are ringing (outgoing page).
    public private(set) var outgoingCallMembers: [Member] = []
    /// Everyone in the active call's session, by session id (a user on two devices appears twice).
    public private(set) var callParticipants: [String: CallParticipant] = [:]
    public private(set) var blockedUsers: [User] = []
    /// What the current user may do in the active call ("sendVideo", "muteUsers" …).
    public private(set) var ownCapabilities: Set<String> = []
    /// Why the last call ended, for the call-ended page ("Bob declined", "Connection lost").
    public private(set) var lastCallEndReason: String?
    /// The participant speaking now (kept while they go on speaking, so the spotlight does not flicker).
    public private(set) var dominantSpeaker: CallParticipant?
    /// Whether our media is flowing to and from the media server.
    public private(set) var isMediaConnected = false
    /// The call is being recorded: the call window shows it to everyone.
    public private(set) var isRecording = false
    /// The seed's recordingState: "noRecording", "requested" or "recording".
    public private(set) var recordingState = "noRecording"
    /// The call's finished recordings, one file per participant, and conversions that failed.
    public private(set) var recordings: [CallRecordingInfo] = []
    public private(set) var recordingErrors: [String] = []
    /// Live to viewers over HLS; the viewer link while it is.
    public private(set) var isBroadcasting = false
    public private(set) var hlsPlaylistUrl: String?
    /// Only hosts may join while in backstage; going live ends it.
    public private(set) var isBackstage = false
    /// We publish our screen now (the sharing banner; see CallViewModel+Screensharing).
    public internal(set) var isCurrentUserScreensharing = false
    /// The user is talking into a muted microphone (the call window says so).
    public private(set) var isSpeakingWhileMuted = false
    @ObservationIgnored private var speakingWhileMutedDetector = SpeakingWhileMutedDetector()
    /// How the call window arranges participants.
    public private(set) var participantsLayout: ParticipantsLayout = .grid
    /// The call is shown in the small minimized window instead of the full one.
    public var isMinimized = false
    /// Participants pinned on this device only (tile menu), by session id.
    public private(set) var locallyPinned: Set<String> = []
    /// The call that just ended and why, until the user goes back (the call-ended page).
    public private(set) var endedCall: EndedCall?
    /// The sound to loop now (ringing in or out), derived from the calling state.
    public var callSound: CallSound? { CallSound.forState(callingState) }

    @ObservationIgnored let callService: CallService?
    @ObservationIgnored let mediaEngine: CallMediaEngine?
    /// Media state by session id; kept apart so a media update that arrives before the
    /// coordinator's "participant joined" is not lost.
    @ObservationIgnored private var mediaBySession: [String: ParticipantMedia] = [:]
    /// The call our media runs in, set from the start of the media connection until it stops.
    @ObservationIgnored private(set) var mediaCall: CallID?
    /// Counts media connection attempts, so a late answer from an older one is ignored.
    @ObservationIgnored private var mediaAttempt = 0
    @ObservationIgnored private var mediaRecovery: Task<Void, Never>?
    /// The media connection broke and is being made again (the call goes on meanwhile).
    public private(set) var isReconnectingMedia = false
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
    public func enterLobby(callType: String, callId: String, members: [Member]) {
        endedCall = nil
        callingState = .lobby(LobbyInfo(callId: callId, callType: callType, participants: members))
        guard let callService else { return }
        let call = CallID(type: callType, id: callId)
        // Who is already in the call; getCall also subscribes us to its joins and leaves.
        Task {
            guard let snapshot = try? await callService.getCall(call) else { return }
            updateLobbyParticipants(of: call) { _ in snapshot.participants.map { Member(user: $0.user, role: $0.role) } }
        }
    }

    /// Edits the participants of the lobby on screen, if it is the lobby of `call`.
    private func updateLobbyParticipants(of call: CallID, _ change: ([Member]) -> [Member]) {
        guard case .lobby(var info) = callingState, info.cid == call.description else { return }
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
    public func joinCall(callType: String, callId: String) async {
        guard callService != nil else {
            show(CallError.notConnected.message)
            return
        }
        await join(CallID(type: callType, id: callId), fallback: callingState)
    }

    // MARK: Outgoing

    /// Starts a call with `members`; with `ring` they are rung and we wait on the outgoing page,
    /// without it we join at once.
    public func startCall(callType: String, callId: String, members: [String], ring: Bool = true) async {
        guard let callService else { return show(CallError.notConnected.message) }
        guard callingState == .idle || callingState.name == "lobby" else { return }
        let call = CallID(type: callType, id: callId)
        let callees = members.filter { $0 != currentUser.id }
        endedCall = nil
        activeCall = call
        outgoingRejections = [:]
        outgoingCallMembers = callees.map { Member(user: User(id: $0)) }
        callingState = ring ? .outgoing : .joining
        isCreatingCall = true
        hangUpRequestedDuringCreate = false
        let snapshot: CallSnapshot
        do {
            snapshot = try await callService.getOrCreateCall(call, memberIDs: callees, ring: ring, video: callSettings.videoOn)
        } catch {
            isCreatingCall = false
            guard activeCall == call else { return }
            return finishCall(reason: Self.explain(error, whileTrying: "start the call"))
        }
        isCreatingCall = false
        if hangUpRequestedDuringCreate {
            // The user hung up while the call was being created: cancel the ring it started.
            try? await callService.rejectCall(call, reason: .cancel)
            return
        }
        guard activeCall == call else { return }
        apply(snapshot)
        outgoingCallMembers = snapshot.members.filter { callees.contains($0.user.id) }
        if !ring { await join(call, fallback: .idle) }
    }

    // MARK: Incoming

    /// Accepts the ringing call and joins it; with `video: false` the camera stays off.
    public func acceptCall(callType: String, callId: String, video: Bool = true) async {
        guard let callService, case .incoming(let incoming) = callingState, incoming.cid == CallID(type: callType, id: callId) else { return }
        incomingTimeout?.cancel()
        if !video { callSettings = callSettings.withUpdatedVideoState(false) }
        activeCall = incoming.cid
        callingState = .joining
        do {
            try await callService.acceptCall(incoming.cid)
        } catch {
            return finishCall(reason: Self.explain(error, whileTrying: "answer"))
        }
        await join(incoming.cid, fallback: .idle)
    }

    /// Declines the ringing call.
    public func rejectCall(callType: String, callId: String) async {
        guard case .incoming(let incoming) = callingState, incoming.cid == CallID(type: callType, id: callId) else { return }
        incomingTimeout?.cancel()
        callingState = .idle
        try? await callService?.rejectCall(incoming.cid, reason: .decline)
    }

    // MARK: Leaving

    /// Hangs up whatever is going on: cancels an outgoing ring, declines an incoming one, leaves a call.
    public func hangUp() async {
        let call = activeCall
        switch callingState {
        case .outgoing:
            if isCreatingCall { hangUpRequestedDuringCreate = true }
            finishCall(reason: nil)
            if !isCreatingCall, let call { try? await callService?.rejectCall(call, reason: .cancel) }
        case .joining, .inCall, .reconnecting:
            finishCall(reason: nil)
            if let call { try? await callService?.leaveCall(call) }
        case .incoming(let incoming):
            await rejectCall(callType: incoming.type, callId: incoming.id)
        case .idle, .lobby:
            break
        }
    }

    // MARK: Media toggles (in the lobby they edit callSettings only)

    public func toggleMicrophoneEnabled() {
        callSettings = callSettings.withUpdatedAudioState(!callSettings.audioOn)
        if mediaCall != nil { mediaEngine?.setAudioEnabled(callSettings.audioOn) }
    }

    public func toggleCameraEnabled() {
        callSettings = callSettings.withUpdatedVideoState(!callSettings.videoOn)
        if mediaCall != nil { mediaEngine?.setVideoEnabled(callSettings.videoOn) }
    }
    public func toggleSpeaker() {
        callSettings = callSettings.withUpdatedSpeakerState(!callSettings.speakerOn)
        if mediaCall != nil { mediaEngine?.setSpeakerEnabled(callSettings.speakerOn) }
    }
    public func selectCamera(id: String?) { callSettings = callSettings.withUpdatedCamera(id) }

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

    /// While muted, holding the push-to-talk key opens the microphone until it is released.
    public private(set) var isPushToTalkActive = false

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

    // MARK: Layout and pins

    public func update(participantsLayout: ParticipantsLayout) { self.participantsLayout = participantsLayout }

    /// Pins or unpins a participant on this device only.
    public func toggleLocalPin(sessionID: String) {
        if locallyPinned.contains(sessionID) { locallyPinned.remove(sessionID) } else { locallyPinned = [sessionID] }
    }

    /// The participant to show large: pinned here, else pinned for everyone, else the dominant
    /// speaker, else the first to join.
    public var spotlightParticipant: CallParticipant? {
        let others = callParticipants.values.sorted { $0.joinedAt < $1.joinedAt }
        return others.first { locallyPinned.contains($0.sessionID) } ?? others.first(where: \.isPinned)
            ?? dominantSpeaker.flatMap { callParticipants[$0.sessionID] } ?? others.first
    }

    /// Leaves the call-ended page.
    public func dismissEndedCall() { endedCall = nil }

    // MARK: Messages

    public func show(_ message: String) {
        toastCounter += 1
        toast = Toast(id: toastCounter, message: message)
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
            if call == activeCall || isRinging(call) { finishCall(reason: reason ?? "The call ended") }
        case .participantJoined(let call, var participant):
            if call == activeCall {
                participant.media = mediaBySession[participant.sessionID] ?? participant.media
                let isNew = callParticipants[participant.sessionID] == nil
                callParticipants[participant.sessionID] = participant
                if isNew, callingState == .inCall, participant.user.id != currentUser.id, callParticipants.count < 25 {
                    show("\(participant.name) joined")
                }
            }
            updateLobbyParticipants(of: call) { $0 + [Member(user: participant.user, role: participant.role)] }
        case .participantLeft(let call, let participant):
            if call == activeCall, callParticipants.removeValue(forKey: participant.sessionID) != nil {
                locallyPinned.remove(participant.sessionID)
                if callingState == .inCall, participant.user.id != currentUser.id, callParticipants.count < 25 {
                    show("\(participant.name) left")
                }
            }
            updateLobbyParticipants(of: call) { $0.filter { $0.user.id != participant.user.id } }
        case .callUpdated(let snapshot):
            guard snapshot.id == activeCall else { return }
            apply(snapshot)
            if snapshot.blockedUserIDs.contains(currentUser.id), isInCallSession {
                finishCall(reason: "You were removed from the call")
            }
        case .mutedByModerator(let call, let moderator, let tracks):
            if call == activeCall, isInCallSession { mutedByModerator(moderator, tracks: tracks) }
        case .connectionLost:
            if callingState == .inCall { callingState = .reconnecting }
        case .connectionRestored:
            if callingState == .reconnecting, let call = activeCall {
                Task { await self.join(call, fallback: .idle, rejoining: true) }
            }
        }
    }

    private func ringing(_ incoming: IncomingCall) {
        guard incoming.caller.id != currentUser.id else { return }
        // After a reconnect the coordinator sends rings still waiting again: same call, same ring.
        if case .incoming(let current) = callingState, current.cid == incoming.cid { return }
        guard callingState == .idle else {
            // Already busy (in or starting another call): say so instead of ringing over it.
            if incoming.cid != activeCall {
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
        if callingState == .outgoing, call == activeCall, userID != currentUser.id {
            Task { await join(call, fallback: .idle) }
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
        } else if callingState == .outgoing, call == activeCall, userID != currentUser.id {
            outgoingRejections[userID] = reason
            let callees = Set(outgoingCallMembers.map(\.user.id))
            if !callees.isEmpty, callees.isSubset(of: outgoingRejections.keys) {
                finishCall(reason: Self.describeRejections(outgoingRejections, members: outgoingCallMembers))
            }
        }
    }

    // MARK: Helpers

    private func join(_ call: CallID, fallback: CallingState, rejoining: Bool = false) async {
        guard let callService else { return }
        activeCall = call
        if !rejoining { callingState = .joining }
        do {
            let snapshot = try await callService.joinCall(call, settings: callSettings)
            guard activeCall == call, callingState == .joining || callingState == .reconnecting else { return }
            apply(snapshot)
            callParticipants = Dictionary(snapshot.participants.map { ($0.sessionID, $0) }, uniquingKeysWith: { _, latest in latest })
            callingState = .inCall
            startMedia(call, snapshot: snapshot)
        } catch {
            guard activeCall == call else { return }
            if case .lobby = fallback {
                activeCall = nil
                callingState = fallback
                show(Self.explain(error, whileTrying: "join the call"))
            } else {
                finishCall(reason: Self.explain(error, whileTrying: "join the call"))
            }
        }
    }

    private func apply(_ snapshot: CallSnapshot) {
        isRecording = snapshot.isRecording
        recordingState = snapshot.recordingState
        recordings = snapshot.recordings
        recordingErrors = snapshot.recordingErrors
        isBroadcasting = snapshot.broadcasting
        hlsPlaylistUrl = snapshot.hlsPlaylistUrl
        isBackstage = snapshot.backstage
        // Pins for everyone come with the call state; participants' media stays as measured.
        for participant in snapshot.participants where callParticipants[participant.sessionID]?.isPinned != participant.isPinned {
            callParticipants[participant.sessionID]?.isPinned = participant.isPinned
        }
        blockedUsers = snapshot.blockedUserIDs.map { User(id: $0) }
        ownCapabilities = snapshot.ownCapabilities
    }

    // MARK: Media

    private func startMedia(_ call: CallID, snapshot: CallSnapshot) {
        // After a coordinator reconnect the media connection is still up: keep it.
        guard mediaEngine != nil, mediaCall == nil, snapshot.media != nil, snapshot.ownSessionID != nil else { return }
        mediaCall = call
        Task { await connectMedia(call, snapshot: snapshot, isRecovery: false) }
    }

    /// Starts the media engine on the snapshot's endpoint; true once connected. A first attempt
    /// that fails gives up and says why; recovery attempts stay quiet (the loop tries again).
    @discardableResult
    private func connectMedia(_ call: CallID, snapshot: CallSnapshot, isRecovery: Bool) async -> Bool {
        guard let mediaEngine, let endpoint = snapshot.media, let sessionID = snapshot.ownSessionID else { return false }
        mediaAttempt += 1
        let attempt = mediaAttempt
        do {
            try await mediaEngine.start(call: call, endpoint: endpoint, sessionID: sessionID, settings: callSettings,
                                        onUpdate: { [weak self] media in self?.mediaUpdated(media, in: call) },
                                        onFailure: { [weak self] reason in
                                            guard let self, self.mediaCall == call, self.mediaAttempt == attempt else { return }
                                            self.mediaLost(in: call, reason: reason)
                                        })
            guard mediaCall == call else {
                await mediaEngine.stop()
                return false
            }
            guard mediaAttempt == attempt else { return false }
            isMediaConnected = true
            isReconnectingMedia = false
            // The user may have toggled while media was starting.
            mediaEngine.setAudioEnabled(callSettings.audioOn)
            mediaEngine.setVideoEnabled(callSettings.videoOn)
            mediaEngine.setSpeakerEnabled(callSettings.speakerOn)
            return true
        } catch {
            guard mediaCall == call, mediaAttempt == attempt, !isRecovery else { return false }
            mediaCall = nil
            show("Couldn’t connect audio and video: \(error)")
            return false
        }
    }

    /// The media connection broke during the call (the media server restarted or went away):
    /// ask the coordinator for a new endpoint and connect again, backing off up to 8 s between
    /// tries, until it works or the call ends. The call itself goes on meanwhile.
    private func mediaLost(in call: CallID, reason: String) {
        isMediaConnected = false
        isReconnectingMedia = true
        // A shared screen went with the connection.
        isCurrentUserScreensharing = false
        show("\(reason). Reconnecting audio and video…")
        mediaRecovery?.cancel()
        mediaRecovery = Task { [weak self] in
            var delay: Duration = .seconds(1)
            while !Task.isCancelled {
                try? await Task.sleep(for: delay)
                guard let self, !Task.isCancelled, self.mediaCall == call, self.isInCallSession, let service = self.callService else { return }
                if let snapshot = try? await service.renewMedia(in: call), self.mediaCall == call, !Task.isCancelled {
                    if await self.connectMedia(call, snapshot: snapshot, isRecovery: true) {
                        self.show("Audio and video are back.")
                        return
                    }
                }
                delay = min(delay * 2, .seconds(8))
            }
        }
    }

    private func mediaUpdated(_ media: [String: ParticipantMedia], in call: CallID) {
        guard mediaCall == call else { return }
        mediaBySession = media
        for sessionID in callParticipants.keys {
            let updated = media[sessionID] ?? ParticipantMedia()
            if callParticipants[sessionID]?.media != updated { callParticipants[sessionID]?.media = updated }
        }
        updateDominantSpeaker()
    }

    private func updateDominantSpeaker() {
        if let current = dominantSpeaker, let latest = callParticipants[current.sessionID], latest.isSpeaking {
            if latest != current { dominantSpeaker = latest }
            return
        }
        let speaker = callParticipants.values.filter(\.isSpeaking).sorted { $0.joinedAt < $1.joinedAt }.first
        if speaker != nil || dominantSpeaker.map({ callParticipants[$0.sessionID] == nil }) == true { dominantSpeaker = speaker }
    }

    private func stopMedia() {
        mediaRecovery?.cancel()
        mediaRecovery = nil
        isReconnectingMedia = false
        guard let mediaEngine, mediaCall != nil else { return }
        mediaCall = nil
        mediaBySession = [:]
        isMediaConnected = false
        isCurrentUserScreensharing = false
        Task { await mediaEngine.stop() }
    }

    /// Back to idle, forgetting the call; `reason` is shown to the user.
    private func finishCall(reason: String?) {
        let call = activeCall
        stopMedia()
        dominantSpeaker = nil
        isMinimized = false
        isRecording = false
        recordingState = "noRecording"
        isBroadcasting = false
        hlsPlaylistUrl = nil
        locallyPinned = []
        endedCall = reason.map { EndedCall(call: call, reason: $0) }
        incomingTimeout?.cancel()
        incomingTimeout = nil
        activeCall = nil
        outgoingCallMembers = []
        outgoingRejections = [:]
        callParticipants = [:]
        lastCallEndReason = reason
        callingState = .idle
        if let reason { show(reason) }
    }

    private func isRinging(_ call: CallID) -> Bool {
        if case .incoming(let incoming) = callingState { return incoming.cid == call }
        return callingState == .outgoing && call == activeCall
    }

    private var isInCallSession: Bool {
        [.joining, .inCall, .reconnecting].contains(callingState)
    }

    private func missedCallMessage() -> String {
        if case .incoming(let incoming) = callingState { return "Missed call from \(incoming.caller.name)" }
        return "Missed call"
    }

    /// A sentence for the user. The coordinator client already words its errors that way
    /// ("Couldn’t join the call: …. Check the call id."); anything else gets the action in front.
    static func explain(_ error: Error, whileTrying action: String) -> String {
        if let callError = error as? CallError, callError.message.hasPrefix("Couldn’t") { return callError.message }
        return "Couldn’t \(action): \(error)"
    }

    /// "Bob declined", "Bob is busy", "Bob didn't answer", "Nobody answered", "Everyone declined".
    static func describeRejections(_ rejections: [String: RejectionReason], members: [Member]) -> String {
        if members.count == 1, let member = members.first, let reason = rejections[member.user.id] {
            switch reason {
            case .busy: return "\(member.user.name) is busy"
            case .timeout: return "\(member.user.name) didn’t answer"
            case .decline, .cancel: return "\(member.user.name) declined"
            }
        }
        if rejections.values.allSatisfy({ $0 == .decline }) { return "Everyone declined" }
        return "Nobody answered"
    }
}
