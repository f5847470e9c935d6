import FoundationEssentials
import Observation

/// The one owner of everything that lives as long as one call: who is in it and what we receive
/// from them, our media connection and its recovery, recording/broadcast/backstage, moderation,
/// our shared screen, typed capabilities, local pins, the dominant speaker and the call's
/// duration. `CallViewModel` holds it from ringing or joining until the call ends; leaving is
/// `end()` and dropping it, so nothing of one call can leak into the next.
@Observable
@MainActor
public final class ActiveCall {
    public let id: CallID
    /// Everyone in the call's session, by session id (a user on two devices appears twice).
    public private(set) var participants: [String: CallParticipant] = [:] {
        didSet { tellMediaWhoseMicrophoneIsOn() }
    }
    public private(set) var blockedUsers: [User] = []
    /// What the current user may do in this call, as the coordinator computed it.
    public private(set) var ownCapabilities: Set<OwnCapability> = []
    /// The members' roles, by user id (the call's state carries them): who in an audio room a
    /// host has let speak.
    public private(set) var memberRoles: [String: CallRole] = [:]
    /// The participant speaking now (kept while they go on speaking, so the spotlight does not flicker).
    public private(set) var dominantSpeaker: CallParticipant?
    /// The call is being recorded: the call window shows it to everyone.
    public private(set) var isRecording = false
    public private(set) var recordingState: RecordingState = .noRecording
    /// The call's finished recordings, one file per participant, and conversions that failed.
    public private(set) var recordings: [CallRecordingInfo] = []
    public private(set) var recordingErrors: [String] = []
    /// Live to viewers over HLS; the viewer link while it is.
    public private(set) var isBroadcasting = false
    public private(set) var hlsPlaylistUrl: String?
    /// Only hosts may join while in backstage; going live ends it.
    public private(set) var isBackstage = false
    /// The call has a backstage (it started in one): only then are Go live and Back to
    /// backstage offered.
    public private(set) var hasBackstage = false
    /// The secret of the call's link, shown to those who may read the call (the "Copy link"
    /// of the call's menu); nil for everyone else.
    public private(set) var linkSecret: String?
    /// Participants pinned on this device only (tile menu), by session id.
    public private(set) var locallyPinned: Set<String> = []
    /// Whether our media is flowing to and from the media server.
    public private(set) var isMediaConnected = false
    /// Whether the join's media got past its own signalling: the first picture has been asked
    /// for (see `CallMediaEngine.start`'s `onSignalled`), so what is left before it comes is the
    /// network's and takes no main thread; or the first attempt failed, or the call has no
    /// media. Joined from the lobby, the call page waits for it (AppRouter): its first layout and
    /// paint held the signalling back.
    public private(set) var isMediaSignalled = false
    /// The media connection broke and is being made again (the call goes on meanwhile).
    public private(set) var isReconnectingMedia = false
    /// We publish our screen now (the sharing banner).
    public internal(set) var isCurrentUserScreensharing = false
    /// Our screen share is being set up (a "what to share" dialog may be open).
    public private(set) var isStartingScreenshare = false
    @ObservationIgnored private var stopRequestedWhileStarting = false
    /// When we joined the call's session: the call window and the minimized window count from
    /// here, so the duration survives switching between them.
    public private(set) var joinedAt: Date?
    /// Someone other than us has been in the call since we joined (a 1:1 call ends here when
    /// that person leaves; see `CallViewModel`).
    public private(set) var hadOthers = false
    /// The call was rung (outgoing or incoming) rather than joined from a lobby.
    public let isRingCall: Bool
    /// Who this rung call waits for, by name: the one other person in it, whose connection
    /// dropped (`participantLeft`). nil when it waits for nobody.
    public private(set) var awaitedReturn: String?
    /// Told when a rung call is over because everyone else has gone (`CallViewModel` leaves it).
    @ObservationIgnored var onOthersGone: (@MainActor (_ reason: String) -> Void)?
    /// How long a rung call waits for its other person once their connection dropped (a
    /// phone call drops at once; a video call over a flaky Wi-Fi should not). Tests shorten it.
    @ObservationIgnored var returnWaitLimit: Duration = .seconds(60)
    @ObservationIgnored private var returnWait: Task<Void, Never>?
    /// Others whose connection dropped, by user id, and when: back soon, they are told as back.
    @ObservationIgnored private var droppedOut: [String: Date] = [:]

    @ObservationIgnored let currentUserID: String
    @ObservationIgnored private let callService: CallService?
    @ObservationIgnored private let mediaEngine: CallMediaEngine?
    /// The user's microphone, camera and speaker (the call view model owns them; they outlive the call).
    @ObservationIgnored private let localMedia: LocalMedia
    /// A sentence for the user (a toast scoped to this call); one with a topic may grow the
    /// last one of that topic (`PeopleNews`).
    @ObservationIgnored private let tell: @MainActor (_ message: String, _ topic: ToastTopic?, _ grows: Bool) -> Void
    /// Who came and went in the last moments, told as one message each.
    @ObservationIgnored private var arrivals = PeopleNews(.joined)
    @ObservationIgnored private var departures = PeopleNews(.left)
    /// Others who were in the call when we joined it again (a reconnection, the coordinator
    /// restarted) and were not in it then: coming back soon after is not news (`participantJoined`).
    @ObservationIgnored private var awaitedBack: [String: Date] = [:]
    private static let awaitedBackFor: TimeInterval = 60
    /// Media state by session id; kept apart so a media update that arrives before the
    /// coordinator's "participant joined" is not lost.
    @ObservationIgnored private var mediaBySession: [String: ParticipantMedia] = [:]
    /// Whose microphone the media engine was last told is on (`RemoteSenders`).
    @ObservationIgnored private var toldSenders = RemoteSenders()
    /// Our own session, whose entry in what the media engine reports is our uplink.
    @ObservationIgnored private var mediaSessionID: String?
    /// Our own connection to the media server as it sees what we send (loss and round trip),
    /// shown on the self-view when it is poor.
    public private(set) var ownConnectionQuality: ConnectionQuality = .unknown
    /// The network path to the media server carries nothing now (see `ParticipantMedia.isPathDown`):
    /// the call says it is reconnecting until it is back.
    public private(set) var isMediaPathDown = false
    /// Media has been asked to start (set until `end()`).
    @ObservationIgnored private var isMediaStarted = false
    /// Counts media connection attempts, so a late answer from an older one is ignored.
    @ObservationIgnored private var mediaAttempt = 0
    @ObservationIgnored private var mediaRecovery: Task<Void, Never>?
    /// The recovery is waiting out its back-off (not in the middle of a try).
    @ObservationIgnored private var isWaitingToRetryMedia = false
    /// Media was connected again after it was lost; "back" is said once what we send is
    /// reported received (a connection made while the network is still down carries nothing).
    @ObservationIgnored private var isAwaitingMediaPath = false
    /// What to say when someone we removed or blocked leaves ("You removed dave"), by user id.
    @ObservationIgnored private var removedByUs: [String: String] = [:]
    /// Our own session in the call (from the join answer): whose hand is ours.
    @ObservationIgnored private var ownSessionID: String?
    /// How large we show the others' cameras, and they ours (nil without a media engine).
    @ObservationIgnored private let videoViews: VideoViewsExchange?

    // MARK: Talking beside the video (issue 18)

    /// The call's chat, oldest first: the stored history loaded on joining, then what arrives.
    public private(set) var chatMessages: [ChatMessage] = []
    /// Messages from others that arrived while the chat pane was hidden (the control bar's badge).
    public private(set) var unreadChatCount = 0
    /// The chat pane is on screen: what arrives meanwhile is read.
    public var isChatShown = false {
        didSet { if isChatShown, unreadChatCount != 0 { unreadChatCount = 0 } }
    }
    /// The reaction shown over each participant's tile now, by session id; each goes after
    /// `reactionLifetime`.
    public private(set) var reactions: [String: Reaction] = [:]
    /// How long a reaction stays over a tile (tests shorten it).
    @ObservationIgnored var reactionLifetime: Duration = .seconds(3)
    @ObservationIgnored private var reactionExpiries: [String: Task<Void, Never>] = [:]
    @ObservationIgnored private var chatHistoryLoad: Task<Void, Never>?
    /// The call has a waiting room: people who are not members knock.
    public private(set) var asksToJoin = false
    /// Who waits to be let in, first knock first (we hear of them only if we may admit).
    public private(set) var knocks: [CallKnock] = []
    /// A new knock while the window is not looked at (the app turns it into a notification);
    /// a new chat message from someone else, likewise.
    @ObservationIgnored public var onAttentionNeeded: (@MainActor (AttentionNeeded) -> Void)?

    /// Set by `end()`: late answers and callbacks for this call are ignored from then on.
    @ObservationIgnored public private(set) var isEnded = false

    private func report(_ message: String) { tell(message, nil, false) }

    init(id: CallID, currentUserID: String, isRingCall: Bool, callService: CallService?, mediaEngine: CallMediaEngine?,
         localMedia: LocalMedia, report: @escaping @MainActor (_ message: String, _ topic: ToastTopic?, _ grows: Bool) -> Void) {
        self.id = id
        self.currentUserID = currentUserID
        self.isRingCall = isRingCall
        self.callService = callService
        self.mediaEngine = mediaEngine
        self.localMedia = localMedia
        self.tell = report
        ownMediaState = OwnMediaState(localMedia.effectiveSettings)
        videoViews = mediaEngine.map { VideoViewsExchange(call: id, service: callService, engine: $0) }
    }

    // MARK: Who is in the call

    /// Everyone but ourselves, in join order.
    public var others: [CallParticipant] {
        participants.values.filter { $0.user.id != currentUserID }.sorted { $0.joinedAt < $1.joinedAt }
    }

    /// Everyone but ourselves in the order their tiles are laid out: whoever is pinned here,
    /// then those pinned for everyone, then the rest, each in join order. The SDK's default
    /// sort puts pinned participants first, so a pin brings that person to the top of a grid
    /// rather than only marking their tile.
    public var othersInTileOrder: [CallParticipant] {
        let others = others
        let here = others.filter { locallyPinned.contains($0.sessionID) }
        let forEveryone = others.filter { $0.isPinned && !locallyPinned.contains($0.sessionID) }
        return here + forEveryone + others.filter { !$0.isPinned && !locallyPinned.contains($0.sessionID) }
    }

    public func can(_ capability: OwnCapability) -> Bool { ownCapabilities.contains(capability) }

    /// Whether the coordinator has said what we may do in this call (its answer to our join does).
    public private(set) var knowsCapabilities = false

    /// Whether our microphone (`.sendAudio`) or camera (`.sendVideo`) may go out: in an audio
    /// room only hosts speak and nobody is seen (the coordinator's table), yet the app sent
    /// everyone's camera and every listener's microphone. Until the coordinator has said, what
    /// the call's type lets anyone send (so joining an audio room from its lobby does not turn
    /// the camera on while the join is under way).
    public func maySend(_ capability: OwnCapability) -> Bool {
        knowsCapabilities ? can(capability) : id.type.allowsAnyone(capability)
    }

    private var sendingRights: (audio: Bool, video: Bool) { (maySend(.sendAudio), maySend(.sendVideo)) }

    /// Taken away (joining an audio room) or given (a host let a listener speak): what is sent
    /// follows, the user's own choice kept for the next call.
    private func followSendingRights(from before: (audio: Bool, video: Bool), announcing: Bool = true) {
        guard sendingRights != before else { return }
        setAudioEnabled(localMedia.effectiveSettings.audioOn)
        setVideoEnabled(localMedia.effectiveSettings.videoOn)
        // A host let us speak in an audio room, or made us a listener again: news only after
        // the join's answer (which tells a listener what they may do; that is not news).
        if announcing, knowsCapabilities, id.type == .audioRoom, sendingRights.audio != before.audio {
            report(sendingRights.audio
                ? (localMedia.callSettings.audioOn ? tr("A host let you speak. Your microphone is on.") : tr("A host let you speak. Unmute to be heard."))
                : tr("You are a listener again."))
        }
    }

    /// The other participant to show large: pinned here, else pinned for everyone, else the
    /// dominant speaker, else the first to join. Never ourselves: the self-view is apart.
    public var spotlightParticipant: CallParticipant? {
        // The pin order is the tiles' (`othersInTileOrder`): whoever comes first, if pinned.
        let ordered = othersInTileOrder
        if let first = ordered.first, first.isPinned || locallyPinned.contains(first.sessionID) { return first }
        return dominantSpeaker.flatMap { speaker in ordered.first { $0.sessionID == speaker.sessionID } } ?? ordered.first
    }

    /// The participant whose shared screen the call window shows large: the earliest to join
    /// among those sharing (our own share is never shown back to us).
    public var screensharingParticipant: CallParticipant? {
        participants.values.filter(\.isScreensharing).sorted { $0.joinedAt < $1.joinedAt }.first
    }

    /// Someone shares a screen (we or another participant): the call window uses the share layout.
    public var isAnyoneScreensharing: Bool { isCurrentUserScreensharing || screensharingParticipant != nil }

    /// Pins or unpins a participant on this device only.
    public func toggleLocalPin(sessionID: String) {
        if locallyPinned.contains(sessionID) { locallyPinned.remove(sessionID) } else { locallyPinned = [sessionID] }
    }

    /// Seconds since we joined, for the duration shown in the call windows.
    public func duration(at now: Date = Date()) -> TimeInterval? {
        joinedAt.map { max(0, now.timeIntervalSince($0)) }
    }

    // MARK: Coordinator state

    /// We are in the call's session now, with these participants.
    func joined(_ snapshot: CallSnapshot) {
        apply(snapshot)
        // The join's answer says what we may do here (a call fetched before it may not).
        if !knowsCapabilities {
            let couldSend = sendingRights
            knowsCapabilities = true
            followSendingRights(from: couldSend, announcing: false)
        }
        if joinedAt != nil {
            let now = Date()
            let stillIn = Set(snapshot.participants.map(\.user.id))
            let gone = others.filter { !stillIn.contains($0.user.id) }
            for participant in gone { awaitedBack[participant.user.id] = now }
            // Back in a rung call nobody else is in any more: they hung up while we were away,
            // or are on their way back too (a restarted coordinator loses everyone at once).
            let othersIn = snapshot.participants.contains { $0.user.id != currentUserID }
            if isRingCall, hadOthers, let first = gone.first, !othersIn {
                waitForReturn(of: first, over: tr("%@ is no longer in the call", first.name))
            } else if othersIn {
                stopWaitingForReturn()
            }
        }
        participants = Dictionary(snapshot.participants.map { ($0.sessionID, $0) }, uniquingKeysWith: { _, latest in latest })
        for sessionID in participants.keys { participants[sessionID]?.media = mediaBySession[sessionID] ?? ParticipantMedia() }
        if let session = snapshot.ownSessionID, session != ownSessionID {
            ownSessionID = session
            videoViews?.forgetEveryone()
        }
        if joinedAt == nil { joinedAt = Date() }
        noteOthers()
        loadChatHistory()
        videoViews?.retell()
        updateCameraLimit()
    }

    /// The call's state as the coordinator describes it now.
    func apply(_ snapshot: CallSnapshot) {
        isRecording = snapshot.isRecording
        recordingState = snapshot.recordingState
        recordings = snapshot.recordings
        recordingErrors = snapshot.recordingErrors
        isBroadcasting = snapshot.broadcasting
        hlsPlaylistUrl = snapshot.hlsPlaylistUrl
        isBackstage = snapshot.backstage
        if isBackstage { hasBackstage = true }
        // Pins for everyone come with the call state; participants' media stays as measured.
        for participant in snapshot.participants where participants[participant.sessionID]?.isPinned != participant.isPinned {
            participants[participant.sessionID]?.isPinned = participant.isPinned
        }
        // So are raised hands (an answer to raising or lowering one carries the call).
        for participant in snapshot.participants where participants[participant.sessionID]?.raisedHand != participant.raisedHand {
            participants[participant.sessionID]?.raisedHand = participant.raisedHand
        }
        // And what each device said of its microphone and camera.
        for participant in snapshot.participants {
            mediaStateChanged(sessionID: participant.sessionID, microphoneOn: participant.microphoneOn, cameraOn: participant.cameraOn)
        }
        blockedUsers = snapshot.blockedUserIDs.map { User(id: $0) }
        let roles = Dictionary(snapshot.members.compactMap { member in CallRole(rawValue: member.role).map { (member.user.id, $0) } },
                               uniquingKeysWith: { _, last in last })
        if roles != memberRoles { memberRoles = roles }
        let couldSend = sendingRights
        ownCapabilities = snapshot.ownCapabilities
        followSendingRights(from: couldSend)
        linkSecret = snapshot.linkSecret
        asksToJoin = snapshot.askToJoin
        if knocks != snapshot.knocks { knocks = snapshot.knocks }
        updateCameraLimit()
    }

    /// Adds a participant, and once we are in the call tells the user who joined (not in big
    /// calls, where a toast per person is noise).
    func participantJoined(_ participant: CallParticipant) {
        var participant = participant
        participant.media = mediaBySession[participant.sessionID] ?? participant.media
        let isNew = participants[participant.sessionID] == nil
        participants[participant.sessionID] = participant
        noteOthers()
        if isNew {
            // They have not heard how large we show the others; until they say how large they
            // show us, our camera is sent as large as the path allows.
            videoViews?.retell()
            updateCameraLimit()
        }
        // Someone we saw before our own rejoin, coming back after theirs, was never gone for the
        // user: after a restart of the coordinator, "bob joined" was told of bob, in the call all along.
        let isReturning = Self.takeRecent(participant.user.id, from: &awaitedBack)
        let isBack = Self.takeRecent(participant.user.id, from: &droppedOut)
        if participant.user.id != currentUserID { stopWaitingForReturn() }
        if isNew, isBack, participant.user.id != currentUserID {
            report(tr("%@ is back", participant.name))
        } else if isNew, !isReturning, joinedAt != nil, participant.user.id != currentUserID, participants.count < 25 {
            let news = arrivals.add(participant.name)
            tell(news.message, .arrivals, news.grows)
        }
    }

    /// Whether `userID` was noted in `noted` within `awaitedBackFor`; the note goes either way.
    private static func takeRecent(_ userID: String, from noted: inout [String: Date]) -> Bool {
        noted.removeValue(forKey: userID).map { Date().timeIntervalSince($0) < awaitedBackFor } ?? false
    }

    /// Removes a participant. Returns why the call is over for us when it is: a rung call (1:1
    /// or a small group) ends once everyone else has gone — staying alone in "Waiting for
    /// others" is not what a phone-like call does (the Stream SDK ends ringing calls the same way).
    /// Someone whose connection dropped may be back in a moment (a Wi-Fi that came back): the
    /// call says so, and a rung call waits for them (`returnWaitLimit`) before it is over.
    func participantLeft(_ participant: CallParticipant, departure: Departure = .left) -> String? {
        guard participants.removeValue(forKey: participant.sessionID) != nil else { return nil }
        locallyPinned.remove(participant.sessionID)
        reactionExpiries.removeValue(forKey: participant.sessionID)?.cancel()
        reactions.removeValue(forKey: participant.sessionID)
        videoViews?.forget(viewer: participant.sessionID)
        updateCameraLimit()
        updateDominantSpeaker()
        guard joinedAt != nil, participant.user.id != currentUserID else { return nil }
        // Someone we removed or blocked is announced as what we did, not as "dave left".
        let done = removedByUs.removeValue(forKey: participant.user.id)
        if done == nil, departure == .connectionLost {
            droppedOut[participant.user.id] = Date()
            // (The call window also says whom a rung call waits for: `awaitedReturn`.)
            if participants.count < 25 { report(tr("%@’s connection dropped", participant.name)) }
            if isRingCall, hadOthers, others.isEmpty { waitForReturn(of: participant, over: tr("%@’s connection was lost", participant.name)) }
            return nil
        }
        if isRingCall, hadOthers, others.isEmpty { return done ?? tr("%@ hung up", participant.name) }
        if let done {
            report(done)
        } else if participants.count < 25 {
            let news = departures.add(participant.name)
            tell(news.message, .departures, news.grows)
        }
        return nil
    }

    /// The one other person of a rung call lost their connection (or was gone when we came
    /// back from losing ours): the call goes on without them for `returnWaitLimit`, and is over
    /// if nobody is back by then, for `reason`.
    private func waitForReturn(of participant: CallParticipant, over reason: String) {
        awaitedReturn = participant.name
        returnWait?.cancel()
        returnWait = Task { [weak self, limit = returnWaitLimit] in
            try? await Task.sleep(for: limit)
            guard let self, !Task.isCancelled, !self.isEnded, self.others.isEmpty else { return }
            self.stopWaitingForReturn()
            self.onOthersGone?(reason)
        }
    }

    private func stopWaitingForReturn() {
        if awaitedReturn != nil { awaitedReturn = nil }
        returnWait?.cancel()
        returnWait = nil
    }

    private func noteOthers() {
        if !hadOthers, participants.values.contains(where: { $0.user.id != currentUserID }) { hadOthers = true }
    }

    /// A moderator turned off our microphone, camera and/or screen share (the coordinator only
    /// relays the request; each device mutes itself): say who did. The user may turn them on
    /// again, as in the Stream SDK.
    func mutedByModerator(_ moderatorID: String, tracks: ModeratedTracks) {
        let turnedOff = localMedia.turnOff(tracks)
        guard let last = turnedOff.last else { return }
        let moderator = participants.values.first { $0.user.id == moderatorID }?.name ?? moderatorID
        let list = turnedOff.count == 1 ? last : tr("%@ and %@", turnedOff.dropLast().joined(separator: tr(", ")), last)
        report(tr("%@ turned off your %@", moderator, list))
    }

    // MARK: Media

    /// Connects our media to the endpoint the join answer gave (once per call: after a
    /// coordinator reconnect the media connection is still up and is kept).
    func startMedia(_ snapshot: CallSnapshot) {
        guard mediaEngine != nil, snapshot.media != nil, snapshot.ownSessionID != nil else {
            // No media to wait for (a coordinator without a media server): nothing to signal.
            isMediaSignalled = true
            return
        }
        guard !isMediaStarted, !isEnded else {
            // Joined again after the coordinator's connection came back: the network is back,
            // so media lost meanwhile is tried again now, not after the rest of its back-off
            // (up to 8 s after a long outage).
            if isMediaStarted { retryWaitingMedia(after: .zero) }
            return
        }
        isMediaStarted = true
        videoViews?.start()
        Task { await connectMedia(snapshot, isRecovery: false) }
    }

    // MARK: Sending the size that is shown (issue 15)

    /// `viewer` (a participant session) now shows these cameras at these sizes, and no others.
    func videoViewsArrived(from viewer: String, views: [String: VideoSize]) {
        guard participants[viewer] != nil, viewer != ownSessionID else { return }
        videoViews?.viewer(viewer, shows: views)
        updateCameraLimit()
    }

    /// How large the call shows our camera now (what the media engine sends at most).
    var cameraLimit: ShownSize { videoViews?.limit ?? .unknown }

    private func updateCameraLimit() {
        videoViews?.updateLimit(ownSession: ownSessionID, viewers: participants.keys,
                                isWatchedBeyondTheCall: isRecording || isBroadcasting)
    }

    /// Our microphone opened or closed: the media engine sends or stops, and the call hears of it.
    func setAudioEnabled(_ enabled: Bool) {
        if isMediaStarted { mediaEngine?.setAudioEnabled(enabled) }
        ownMediaState.microphoneOn = enabled
    }
    func setVideoEnabled(_ enabled: Bool) {
        if isMediaStarted { mediaEngine?.setVideoEnabled(enabled) }
        ownMediaState.cameraOn = enabled
    }

    /// Told to the call as it changes. The service keeps it for every join of this call and
    /// tells it once joined; the telling starts at once (`Task.immediate`), so that quick
    /// toggles reach the call in their order. (Push-to-talk opens the microphone without
    /// changing the user's choice: this follows what is sent, not the choice.)
    @ObservationIgnored private var ownMediaState: OwnMediaState {
        didSet {
            guard ownMediaState != oldValue, !isEnded, let callService else { return }
            Task.immediate { [id, ownMediaState] in try? await callService.setMediaState(ownMediaState, in: id) }
        }
    }

    func setSpeakerEnabled(_ enabled: Bool) { if isMediaStarted { mediaEngine?.setSpeakerEnabled(enabled) } }

    /// Starts the media engine on the snapshot's endpoint; true once connected. A first attempt
    /// that fails says why and goes on trying as a lost connection does (a media server that
    /// is down when we join may be back in seconds); recovery attempts stay quiet.
    @discardableResult
    private func connectMedia(_ snapshot: CallSnapshot, isRecovery: Bool) async -> Bool {
        guard let mediaEngine, let endpoint = snapshot.media, let sessionID = snapshot.ownSessionID else { return false }
        mediaSessionID = sessionID
        mediaAttempt += 1
        let attempt = mediaAttempt
        do {
            try await mediaEngine.start(call: id, endpoint: endpoint, sessionID: sessionID, settings: localMedia.effectiveSettings,
                                        onUpdate: { [weak self] media in self?.mediaUpdated(media) },
                                        onSignalled: { [weak self] in self?.isMediaSignalled = true },
                                        onFailure: { [weak self] reason in
                                            guard let self, !self.isEnded, self.mediaAttempt == attempt else { return }
                                            self.mediaLost(reason: reason)
                                        })
            guard !isEnded else {
                await mediaEngine.stop()
                return false
            }
            guard mediaAttempt == attempt else { return false }
            // (Not signalled here: `start` returns once we are published, which can come before
            // our answer to someone already in, whose picture the call page waits for; the
            // engine says when, and the page waits at most a second — CI had the page 33 ms
            // before the answer, UI CallPageAfterTheMediaSignals.)
            isMediaConnected = true
            // A recovered connection is still "reconnecting" until it carries media: one made
            // while the network is still down connects to the media server and sends nothing.
            isReconnectingMedia = isRecovery
            isAwaitingMediaPath = isRecovery
            // The user may have toggled while media was starting.
            mediaEngine.setAudioEnabled(localMedia.effectiveSettings.audioOn)
            mediaEngine.setVideoEnabled(localMedia.effectiveSettings.videoOn)
            mediaEngine.setSpeakerEnabled(localMedia.effectiveSettings.speakerOn)
            return true
        } catch {
            guard !isEnded, mediaAttempt == attempt, !isRecovery else { return false }
            isMediaSignalled = true
            report(tr("Couldn’t connect audio and video: %@", "\(error)"))
            recoverMedia()
            return false
        }
    }

    /// The media connection broke during the call (the media server restarted or went away, or
    /// the network dropped or changed under it): ask the coordinator for a new endpoint and
    /// connect again, backing off up to 8 s between tries, until it works or the call ends. The
    /// call itself goes on meanwhile, and says "back" once media flows again.
    private func mediaLost(reason: String) {
        isMediaConnected = false
        // A shared screen went with the connection.
        isCurrentUserScreensharing = false
        // Lost again before it was back (the network still down): said once is enough.
        if !isAwaitingMediaPath { report(tr("%@. Reconnecting audio and video…", reason)) }
        isAwaitingMediaPath = false
        recoverMedia()
    }

    /// Asks for a new endpoint and connects again, backing off, until it works or the call ends.
    private func recoverMedia(after firstDelay: Duration = .seconds(1)) {
        isReconnectingMedia = true
        mediaRecovery?.cancel()
        mediaRecovery = Task { [weak self] in
            var delay = firstDelay
            while !Task.isCancelled {
                self?.isWaitingToRetryMedia = true
                try? await Task.sleep(for: delay)
                guard let self, !Task.isCancelled, !self.isEnded, let service = self.callService else { return }
                self.isWaitingToRetryMedia = false
                if let snapshot = try? await service.renewMedia(in: self.id), !self.isEnded, !Task.isCancelled {
                    if await self.connectMedia(snapshot, isRecovery: true) { return }
                }
                delay = min(max(delay * 2, .seconds(1)), .seconds(8))
            }
        }
    }

    /// The system's network changed. A try waiting out its back-off (up to 8 s) is made now,
    /// the back-off starting anew: the change is often the network coming back (an address or
    /// a route added), and a network that keeps changing is tried no more often than right
    /// after a loss.
    func networkChanged() { retryWaitingMedia(after: Self.retryAfterNetworkChange) }

    /// A media retry waiting out its back-off is made after `delay` instead, the back-off
    /// starting anew; nothing happens while a try is under way or media is connected.
    private func retryWaitingMedia(after delay: Duration) {
        guard !isEnded, isWaitingToRetryMedia else { return }
        recoverMedia(after: delay)
    }

    /// How soon a network change tries media again: a moment for the new address's routes.
    static let retryAfterNetworkChange: Duration = .milliseconds(300)

    /// Whether a media recovery loop is running (tests check it ends with the call).
    var isRecoveringMedia: Bool { mediaRecovery != nil && !(mediaRecovery?.isCancelled ?? true) }

    private func mediaUpdated(_ media: [String: ParticipantMedia]) {
        guard !isEnded else { return }
        mediaBySession = media
        let own = mediaSessionID.flatMap { media[$0] }
        if (own?.connectionQuality ?? .unknown) != ownConnectionQuality { ownConnectionQuality = own?.connectionQuality ?? .unknown }
        if (own?.isPathDown ?? false) != isMediaPathDown { isMediaPathDown = own?.isPathDown ?? false }
        if isAwaitingMediaPath, own?.mediaPath == .up {
            isAwaitingMediaPath = false
            isReconnectingMedia = false
            report(tr("Audio and video are back."))
        }
        for sessionID in participants.keys {
            var updated = media[sessionID] ?? ParticipantMedia()
            // A picture that came while their camera is on is remembered across a reconnect: the
            // new connection has had none yet, and its picture not arriving is still an
            // interruption (`CallParticipant.isVideoInterrupted`), not a camera turned off.
            if let participant = participants[sessionID], participant.cameraOn == true, participant.media.hadVideo { updated.hadVideo = true }
            if participants[sessionID]?.media != updated { participants[sessionID]?.media = updated }
        }
        updateDominantSpeaker()
    }

    /// Tells the media engine whose microphone is on, when that changed: a receiving
    /// connection that hears nothing after one of them turned it on is dead (ConfabMedia's
    /// `ReceiverWatch`). Run at every change of `participants`, media readings included: one
    /// pass over a call's participants, and the engine is told only when the set changed.
    private func tellMediaWhoseMicrophoneIsOn() {
        let senders = RemoteSenders(participants.values)
        guard senders != toldSenders else { return }
        toldSenders = senders
        mediaEngine?.expectMedia(from: senders)
    }

    private func updateDominantSpeaker() {
        if let current = dominantSpeaker, let latest = participants[current.sessionID], latest.isSpeaking {
            if latest != current { dominantSpeaker = latest }
            return
        }
        let speaker = participants.values.filter(\.isSpeaking).sorted { $0.joinedAt < $1.joinedAt }.first
        if speaker != nil || dominantSpeaker.map({ participants[$0.sessionID] == nil }) == true { dominantSpeaker = speaker }
    }

    /// Ends everything this call owns: the media connection, its recovery, a shared screen.
    /// Idempotent; late callbacks for this call are ignored afterwards.
    func end() {
        guard !isEnded else { return }
        isEnded = true
        stopWaitingForReturn()
        mediaRecovery?.cancel()
        mediaRecovery = nil
        chatHistoryLoad?.cancel()
        chatHistoryLoad = nil
        reactionExpiries.values.forEach { $0.cancel() }
        reactionExpiries = [:]
        reactions = [:]
        isReconnectingMedia = false
        isMediaConnected = false
        isCurrentUserScreensharing = false
        mediaBySession = [:]
        videoViews?.end()
        guard isMediaStarted, let mediaEngine else { return }
        isMediaStarted = false
        Task { await mediaEngine.stop() }
    }

    // MARK: Screen sharing (capability `screenshare`)

    /// Starts publishing our screen; refusals and capture failures are shown to the user. We
    /// show as sharing only once the screen really goes out: the desktop's picker (or our
    /// "share your whole screen?" question) may still be open meanwhile.
    public func startScreensharing(source: ScreenshareSource = .automatic) async {
        guard !isCurrentUserScreensharing, !isStartingScreenshare else { return }
        guard can(.screenshare) else { return report(tr("You don’t have permission to share your screen in this call.")) }
        guard let mediaEngine, isMediaConnected, !isEnded else {
            return report(tr("Screen sharing needs the call’s audio and video connection. Wait until it is connected and try again."))
        }
        isStartingScreenshare = true
        defer { isStartingScreenshare = false }
        do {
            try await mediaEngine.startScreenshare(source: source) { [weak self] reason in self?.screenshareEnded(reason: reason) }
            // The call may have ended (or the user asked to stop) while the capture started.
            if isEnded || stopRequestedWhileStarting {
                stopRequestedWhileStarting = false
                await mediaEngine.stopScreenshare()
                return
            }
            isCurrentUserScreensharing = true
        } catch is ScreenshareCancelled {
            // The user closed the desktop's dialog or said no to ours: they know, no message.
        } catch {
            guard !isEnded else { return }
            report(tr("Couldn’t share your screen: %@", "\(error)"))
        }
    }

    /// The share ended without us asking (the desktop's stop button, a capture failure): show
    /// that we no longer share, and why.
    private func screenshareEnded(reason: String) {
        guard !isEnded, isCurrentUserScreensharing else { return }
        isCurrentUserScreensharing = false
        report(reason)
        Task { await mediaEngine?.stopScreenshare() }
    }

    /// Stops publishing our screen (or, while it is starting, makes sure it does not go out).
    public func stopScreensharing() async {
        if isStartingScreenshare { stopRequestedWhileStarting = true }
        guard isCurrentUserScreensharing else { return }
        isCurrentUserScreensharing = false
        await mediaEngine?.stopScreenshare()
    }

    // MARK: Moderation (offered by capability; the coordinator checks again)

    public func mute(_ participant: CallParticipant) async {
        await request({ tr("Couldn’t mute %@: %@", participant.name, $0) }) { try await $0.muteUser(participant.user.id, in: $1) }
    }

    public func block(_ participant: CallParticipant) async {
        removedByUs[participant.user.id] = tr("You blocked %@", participant.name)
        await request({ tr("Couldn’t block %@: %@", participant.name, $0) }) { try await $0.blockUser(participant.user.id, in: $1) }
    }

    public func unblock(_ user: User) async {
        await request({ tr("Couldn’t unblock %@: %@", user.name, $0) }) { try await $0.unblockUser(user.id, in: $1) }
    }

    /// In an audio room, whether a host may let `participant` speak (`true`), make them a
    /// listener again (`false`), or neither (nil: not a host, not an audio room, or one of
    /// its hosts). Raising a hand is how a listener asks.
    public func speakingRight(of participant: CallParticipant) -> Bool? {
        guard id.type == .audioRoom, can(.updateCallMember) else { return nil }
        if isListening(participant) { return true }
        return memberRoles[participant.user.id] == .speaker ? false : nil
    }

    /// In an audio room, whether `participant` only listens: not one of its hosts, and not let
    /// speak (someone let in by link or an open call is no member, so a listener too).
    public func isListening(_ participant: CallParticipant) -> Bool {
        id.type == .audioRoom && (memberRoles[participant.user.id] ?? .user) == .user
    }

    /// Lets `participant` speak in an audio room, or (`false`) makes them a listener again.
    /// A raised hand was the asking: it goes down as they are let speak, first, so that what
    /// they are told last (and keep on screen) is that they may speak.
    public func letSpeak(_ participant: CallParticipant, _ allowed: Bool) async {
        if allowed, canLowerOthersHands, participants[participant.sessionID]?.isHandRaised == true {
            await lowerHand(of: participant)
        }
        let failure: (String) -> String = allowed
            ? { tr("Couldn’t let %@ speak: %@", participant.name, $0) } : { tr("Couldn’t make %@ a listener: %@", participant.name, $0) }
        await request(failure) { service, call in
            try await service.setRole(allowed ? .speaker : .user, of: participant.user.id, in: call)
        }
    }

    public func kick(_ participant: CallParticipant) async {
        removedByUs[participant.user.id] = tr("You removed %@", participant.name)
        await request({ tr("Couldn’t remove %@: %@", participant.name, $0) }) { try await $0.kickUser(participant.user.id, in: $1) }
    }

    /// Pins for everyone, or unpins if pinned already.
    public func togglePinForEveryone(_ participant: CallParticipant) async {
        if participant.isPinned {
            await request({ tr("Couldn’t unpin %@: %@", participant.name, $0) }) { try await $0.unpinForEveryone(participant, in: $1) }
        } else {
            await request({ tr("Couldn’t pin %@: %@", participant.name, $0) }) { try await $0.pinForEveryone(participant, in: $1) }
        }
    }

    // MARK: Chat (capability `sendChat`)

    public var canChat: Bool { can(.sendChat) }

    /// The name to show for a message's sender: their name in the call if they are in it.
    public func senderName(of message: ChatMessage) -> String {
        participants.values.first { $0.user.id == message.userId }?.name ?? User(id: message.userId).name
    }

    public func isOwn(_ message: ChatMessage) -> Bool { message.userId == currentUserID }

    /// Whether `text` can be sent: not blank and within the server's limit. The reason when not,
    /// for the user; checked before sending so a long message is not lost to a refusal.
    public static func chatRefusal(for text: String) -> String? {
        let bytes = text.utf8.count
        guard bytes <= ChatMessage.maxTextBytes else {
            return tr("Your message is too long (%@ of at most %@ bytes). Shorten it or split it into several messages.",
                      "\(bytes)", "\(ChatMessage.maxTextBytes)")
        }
        return nil
    }

    /// Sends a chat message; true once the server has stored it (the entry may be cleared).
    /// A message over the limit is refused here with the reason, and stays in the entry.
    @discardableResult
    public func sendChat(_ text: String) async -> Bool {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return false }
        if let refusal = Self.chatRefusal(for: trimmed) {
            report(refusal)
            return false
        }
        var sent = false
        await request({ tr("Couldn’t send your message: %@", $0) }) { service, call in
            let message = try await service.sendChatMessage(trimmed, in: call)
            receivedChat([message])
            sent = true
        }
        return sent
    }

    /// A chat message arrived (ours from another device is already read).
    func chatMessageArrived(_ message: ChatMessage) {
        guard !isEnded, message.cid == id else { return }
        let isNew = !chatMessages.contains { $0.id == message.id }
        receivedChat([message])
        if isNew, message.userId != currentUserID {
            onAttentionNeeded?(.chatMessage(from: senderName(of: message), text: message.text))
        }
    }

    /// The stored history, fetched once on joining: a late joiner sees what was said before.
    private func loadChatHistory() {
        guard chatHistoryLoad == nil, let callService, !isEnded else { return }
        chatHistoryLoad = Task { [weak self, id] in
            guard let history = try? await callService.chatMessages(in: id), !Task.isCancelled else { return }
            // History is already said: it does not count as unread.
            self?.receivedChat(history, countsAsUnread: false)
        }
    }

    /// Merges messages into the chat by their server id (the answer to our send and its event
    /// both carry our message; history may arrive after the first live message).
    private func receivedChat(_ messages: [ChatMessage], countsAsUnread: Bool = true) {
        let known = Set(chatMessages.map(\.id))
        let new = messages.filter { !known.contains($0.id) && $0.cid == id }
        guard !new.isEmpty else { return }
        chatMessages = (chatMessages + new).sorted { $0.id < $1.id }
        if countsAsUnread, !isChatShown {
            unreadChatCount += new.filter { $0.userId != currentUserID }.count
        }
    }

    // MARK: Reactions (capability `sendReaction`)

    public var canReact: Bool { can(.sendReaction) }

    /// Our own reaction while it shows (over the self-view).
    public var ownReaction: Reaction? { ownSessionID.flatMap { reactions[$0] } }

    public func react(_ reaction: Reaction) async {
        await request({ tr("Couldn’t send your reaction: %@", $0) }) { try await $0.sendReaction(reaction, in: $1) }
    }

    /// Shows a participant's reaction over their tile; a newer one replaces it and restarts the clock.
    func reactionArrived(_ reaction: Reaction, from sessionID: String) {
        guard !isEnded else { return }
        reactions[sessionID] = reaction
        reactionExpiries[sessionID]?.cancel()
        let lifetime = reactionLifetime
        reactionExpiries[sessionID] = Task { [weak self] in
            try? await Task.sleep(for: lifetime)
            guard !Task.isCancelled, let self else { return }
            self.reactions.removeValue(forKey: sessionID)
            self.reactionExpiries.removeValue(forKey: sessionID)
        }
    }

    // MARK: Raised hands (capability `raiseHand`; hosts lower others' with `muteUsers`)

    public var canRaiseHand: Bool { can(.raiseHand) }
    public var canLowerOthersHands: Bool { can(.muteUsers) }

    /// Everyone whose hand is up, in the order they raised it.
    public var raisedHands: [CallParticipant] {
        participants.values.filter(\.isHandRaised).sorted { ($0.raisedHand?.order ?? 0) < ($1.raisedHand?.order ?? 0) }
    }

    /// Our own hand is up (on this device's session).
    public var isOwnHandRaised: Bool { ownSessionID.flatMap { participants[$0]?.isHandRaised } ?? false }

    /// Raises our hand, or lowers it when it is up.
    public func toggleOwnHand() async {
        let lowering = isOwnHandRaised
        await request({ lowering ? tr("Couldn’t lower your hand: %@", $0) : tr("Couldn’t raise your hand: %@", $0) }) { service, call in
            apply(lowering ? try await service.lowerHand(in: call, of: nil) : try await service.raiseHand(in: call))
        }
    }

    /// A host lowers someone else's hand.
    public func lowerHand(of participant: CallParticipant) async {
        await request({ tr("Couldn’t lower %@’s hand: %@", participant.name, $0) }) { service, call in
            apply(try await service.lowerHand(in: call, of: participant.user.id))
        }
    }

    /// A participant's device said its microphone or camera is on or off.
    func mediaStateChanged(sessionID: String, microphoneOn: Bool?, cameraOn: Bool?) {
        guard !isEnded, let participant = participants[sessionID],
              (participant.microphoneOn, participant.cameraOn) != (microphoneOn, cameraOn) else { return }
        participants[sessionID]?.microphoneOn = microphoneOn
        participants[sessionID]?.cameraOn = cameraOn
        if cameraOn == true, participant.cameraOn != true { participants[sessionID]?.cameraOnSince = Date() }
        if cameraOn != true {
            participants[sessionID]?.cameraOnSince = nil
            participants[sessionID]?.media.hadVideo = false
        }
    }

    /// A hand went up or down; a host lowering ours is said.
    func handChanged(sessionID: String, hand: RaisedHand?, by userID: String) {
        guard !isEnded, let participant = participants[sessionID], participant.raisedHand != hand else { return }
        participants[sessionID]?.raisedHand = hand
        if hand == nil, sessionID == ownSessionID, userID != currentUserID {
            let host = participants.values.first { $0.user.id == userID }?.name ?? User(id: userID).name
            report(tr("%@ lowered your hand", host))
        }
    }

    // MARK: The waiting room (capability `admitParticipants`; `updateCall` switches it)

    public var canAdmit: Bool { can(.admitParticipants) }
    public var canSwitchWaitingRoom: Bool { can(.updateCall) }

    /// Someone knocked: listed until a host answers or they stop waiting, and said once.
    func knocked(_ knock: CallKnock) {
        guard !isEnded, !knocks.contains(where: { $0.userId == knock.userId }) else { return }
        knocks.append(knock)
        let name = User(id: knock.userId).name
        report(tr("%@ asks to join", name))
        onAttentionNeeded?(.knock(name: name))
    }

    /// A knock is no longer waiting; another host's answer is said (ours was said already).
    func knockResolved(userID: String, outcome: KnockOutcome, by hostID: String?) {
        guard !isEnded, knocks.contains(where: { $0.userId == userID }) else { return }
        knocks.removeAll { $0.userId == userID }
        guard let hostID, hostID != currentUserID else { return }
        let host = User(id: hostID).name, name = User(id: userID).name
        switch outcome {
        case .admitted: report(tr("%@ let %@ in", host, name))
        case .denied: report(tr("%@ turned %@ away", host, name))
        case .withdrawn: break
        }
    }

    /// Lets a knocker in; they join by themselves (and the call says so then).
    public func admit(_ knock: CallKnock) async {
        let name = User(id: knock.userId).name
        await request({ tr("Couldn’t let %@ in: %@", name, $0) }) { service, call in
            apply(try await service.admitParticipant(knock.userId, to: call))
            knocks.removeAll { $0.userId == knock.userId }
        }
    }

    /// Turns a knocker away: they are told, and can't knock on this call again.
    public func deny(_ knock: CallKnock) async {
        let name = User(id: knock.userId).name
        var denied = false
        await request({ tr("Couldn’t turn %@ away: %@", name, $0) }) { service, call in
            apply(try await service.denyParticipant(knock.userId, from: call))
            knocks.removeAll { $0.userId == knock.userId }
            denied = true
        }
        if denied { report(tr("You didn’t let %@ in", name)) }
    }

    /// Switches the waiting room on (people who are not members knock) or off.
    public func setAsksToJoin(_ on: Bool) async {
        await request({ on ? tr("Couldn’t turn on Ask to join: %@", $0) : tr("Couldn’t turn off Ask to join: %@", $0) }) { service, call in
            apply(try await service.setAskToJoin(on, in: call))
        }
    }

    // MARK: Recording, going live, broadcasting

    public var canRecord: Bool { can(.startRecording) }
    public var canBroadcast: Bool { can(.startBroadcasting) }
    public var canGoLive: Bool { can(.goLive) }

    public func toggleRecording() async {
        let stopping = isRecording || recordingState == .requested
        await request({ stopping ? tr("Couldn’t stop recording: %@", $0) : tr("Couldn’t start recording: %@", $0) }) { service, call in
            if stopping { try await service.stopRecording(in: call) } else { try await service.startRecording(in: call) }
        }
    }

    public func toggleBroadcasting() async {
        let stopping = isBroadcasting
        await request({ stopping ? tr("Couldn’t stop the broadcast: %@", $0) : tr("Couldn’t start the broadcast: %@", $0) }) { service, call in
            if stopping { try await service.stopBroadcasting(in: call) } else { try await service.startBroadcasting(in: call) }
        }
    }

    public func toggleLive() async {
        let goingLive = isBackstage
        await request({ goingLive ? tr("Couldn’t go live: %@", $0) : tr("Couldn’t go back to backstage: %@", $0) }) { service, call in
            if goingLive { try await service.goLive(in: call) } else { try await service.stopLive(in: call) }
        }
    }

    /// Runs a request to the coordinator; a failure is told in `failure`'s words (given why).
    /// Hosts (`updateCall`) may give the call a new link, so that a leaked one stops working.
    public var canResetLink: Bool { ownCapabilities.contains(.updateCall) }

    /// A new link for the call: the old one stops working, and whoever it let in leaves.
    public func resetLink() async {
        var reset = false
        await request({ tr("Couldn’t reset the call’s link: %@", $0) }) { service, call in
            apply(try await service.resetCallLink(in: call))
            reset = true
        }
        if reset { report(tr("The call has a new link. The old one no longer works.")) }
    }

    private func request(_ failure: (String) -> String, _ action: @MainActor (CallService, CallID) async throws -> Void) async {
        guard let callService, !isEnded else { return }
        do {
            try await action(callService, id)
        } catch {
            report(CallViewModel.explain(error, failure))
        }
    }
}

/// Something in the call the user should hear of even when the call window is not in front
/// (the app turns it into a desktop notification then).
public enum AttentionNeeded: Equatable, Sendable {
    case chatMessage(from: String, text: String)
    /// Someone asks to join (heard by those who may let them in).
    case knock(name: String)
}
