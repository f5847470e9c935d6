import FoundationEssentials

/// What the call view model needs from the call coordinator. ConfabClient implements it over
/// the coordinator's WebSocket (`CoordinatorClient`); ConfabCore's tests use fakes.
///
/// Every method throws `CallError` with a sentence for the user when the coordinator refuses
/// or cannot be reached. Events arrive on the main actor through the handler set with
/// `setEventHandler`, in the order the coordinator sent them.
@MainActor
public protocol CallService: AnyObject {
    /// The user this service is signed in as.
    var currentUserID: String { get }

    /// Receives ring, answer, participant and connection events.
    func setEventHandler(_ handler: @escaping @MainActor (CallServiceEvent) -> Void)
    /// The system's network changed: a connection made on the old one is checked, and one
    /// being made again is tried at once.
    func networkChanged()

    /// Creates the call if needed (with `memberIDs` as members) and optionally rings them.
    func getOrCreateCall(_ call: CallID, memberIDs: [String], ring: Bool, video: Bool) async throws -> CallSnapshot
    /// Reads a call and subscribes to its events (the lobby shows who is in it).
    func getCall(_ call: CallID) async throws -> CallSnapshot
    /// Joins the call's session with the given media settings.
    func joinCall(_ call: CallID, settings: CallSettings) async throws -> CallSnapshot
    /// Joins, or knocks when the call asks to join and a host has not let us in yet (then
    /// `.joinAnswered` tells the answer); a refusal of another kind throws as `joinCall` does.
    func joinOrKnock(_ call: CallID, settings: CallSettings) async throws -> JoinAttempt
    func leaveCall(_ call: CallID) async throws
    /// A new media endpoint for our session in `call`, whose endpoint stopped working (the
    /// media server restarted); the session stays the same.
    func renewMedia(in call: CallID) async throws -> CallSnapshot
    func acceptCall(_ call: CallID) async throws
    func rejectCall(_ call: CallID, reason: RejectionReason) async throws
    func endCall(_ call: CallID) async throws

    // Moderation (the coordinator checks ownCapabilities: muteUsers, blockUsers, kickUser, pinForEveryone).
    func muteUser(_ userID: String, in call: CallID) async throws
    func blockUser(_ userID: String, in call: CallID) async throws
    func unblockUser(_ userID: String, in call: CallID) async throws
    func kickUser(_ userID: String, in call: CallID) async throws
    func pinForEveryone(_ participant: CallParticipant, in call: CallID) async throws
    func unpinForEveryone(_ participant: CallParticipant, in call: CallID) async throws
    /// Makes `userID` a member of `call` with `role` (needs `updateCallMember`): a host lets a
    /// listener of an audio room speak (`speaker`), or makes them a listener again (`user`).
    func setRole(_ role: CallRole, of userID: String, in call: CallID) async throws

    // Recording, backstage and broadcasting (capabilities startRecording, stopRecording, goLive,
    // stopLive, startBroadcasting, stopBroadcasting).
    func startRecording(in call: CallID) async throws
    func stopRecording(in call: CallID) async throws
    func goLive(in call: CallID) async throws
    func stopLive(in call: CallID) async throws
    func startBroadcasting(in call: CallID) async throws
    func stopBroadcasting(in call: CallID) async throws

    /// Gives the call a new link secret (the old link stops working; needs `updateCall`) and
    /// returns the call with it.
    func resetCallLink(in call: CallID) async throws -> CallSnapshot

    // Talking beside the video (issue 18; capabilities sendChat, sendReaction, raiseHand, and
    // muteUsers to lower someone else's hand).
    /// Sends a chat message (at most `ChatMessage.maxTextBytes` bytes) and returns it as stored.
    func sendChatMessage(_ text: String, in call: CallID) async throws -> ChatMessage
    /// The call's stored chat, oldest first (what a late joiner sees).
    func chatMessages(in call: CallID) async throws -> [ChatMessage]
    func sendReaction(_ reaction: Reaction, in call: CallID) async throws
    func raiseHand(in call: CallID) async throws -> CallSnapshot
    /// Lowers our own hand (`userID` nil) or, for hosts, someone else's.
    func lowerHand(in call: CallID, of userID: String?) async throws -> CallSnapshot
    // The waiting room (capabilities admitParticipants, and updateCall to switch it on or off).
    func admitParticipant(_ userID: String, to call: CallID) async throws -> CallSnapshot
    func denyParticipant(_ userID: String, from call: CallID) async throws -> CallSnapshot
    func setAskToJoin(_ askToJoin: Bool, in call: CallID) async throws -> CallSnapshot

    /// Tells the call how large this device shows each other participant's camera (by session;
    /// a camera left out is not shown), so that its sender sends no larger a picture.
    func updateVideoViews(_ views: [String: VideoSize], in call: CallID) async throws

    /// Tells the call whether this device's microphone and camera are on now (once joined; a
    /// join says it too), so that the others show it at once: a silent microphone is not taken
    /// for off, and a camera turned off does not leave its last picture standing.
    func setMediaState(_ state: OwnMediaState, in call: CallID) async throws
}

extension CallService {
    /// Services without a connection of their own to keep (test fakes) have nothing to check.
    public func networkChanged() {}
    // Services that cannot record or broadcast (test fakes, older peers) say so.
    public func startRecording(in call: CallID) async throws { throw CallError(tr("This call service cannot record.")) }
    public func stopRecording(in call: CallID) async throws { throw CallError(tr("This call service cannot record.")) }
    public func goLive(in call: CallID) async throws { throw CallError(tr("This call service cannot go live.")) }
    public func stopLive(in call: CallID) async throws { throw CallError(tr("This call service cannot go live.")) }
    public func startBroadcasting(in call: CallID) async throws { throw CallError(tr("This call service cannot broadcast.")) }
    public func stopBroadcasting(in call: CallID) async throws { throw CallError(tr("This call service cannot broadcast.")) }
    public func renewMedia(in call: CallID) async throws -> CallSnapshot { throw CallError(tr("This call service has no media.")) }
    public func resetCallLink(in call: CallID) async throws -> CallSnapshot { throw CallError(tr("This call service has no call links.")) }
    public func setRole(_ role: CallRole, of userID: String, in call: CallID) async throws {
        throw CallError(tr("This call service cannot change roles."))
    }
    public func sendChatMessage(_ text: String, in call: CallID) async throws -> ChatMessage { throw CallError(tr("This call service has no chat.")) }
    public func chatMessages(in call: CallID) async throws -> [ChatMessage] { [] }
    public func sendReaction(_ reaction: Reaction, in call: CallID) async throws { throw CallError(tr("This call service has no reactions.")) }
    public func raiseHand(in call: CallID) async throws -> CallSnapshot { throw CallError(tr("This call service cannot raise a hand.")) }
    public func lowerHand(in call: CallID, of userID: String?) async throws -> CallSnapshot {
        throw CallError(tr("This call service cannot raise a hand."))
    }
    /// A service without a waiting room only joins.
    public func joinOrKnock(_ call: CallID, settings: CallSettings) async throws -> JoinAttempt {
        .joined(try await joinCall(call, settings: settings))
    }
    public func admitParticipant(_ userID: String, to call: CallID) async throws -> CallSnapshot {
        throw CallError(tr("This call service has no waiting room."))
    }
    public func denyParticipant(_ userID: String, from call: CallID) async throws -> CallSnapshot {
        throw CallError(tr("This call service has no waiting room."))
    }
    public func setAskToJoin(_ askToJoin: Bool, in call: CallID) async throws -> CallSnapshot {
        throw CallError(tr("This call service has no waiting room."))
    }
    /// A service that relays no views: every camera is sent as the path allows.
    public func updateVideoViews(_ views: [String: VideoSize], in call: CallID) async throws {}
    /// A service that relays no media state: the others judge by what arrives.
    public func setMediaState(_ state: OwnMediaState, in call: CallID) async throws {}
}

/// Whether this device's microphone and camera are on: what it tells the call.
public struct OwnMediaState: Sendable, Equatable {
    public var microphoneOn: Bool
    public var cameraOn: Bool

    public init(microphoneOn: Bool, cameraOn: Bool) {
        self.microphoneOn = microphoneOn
        self.cameraOn = cameraOn
    }

    /// What a join with these settings says.
    public init(_ settings: CallSettings) {
        self.init(microphoneOn: settings.audioOn, cameraOn: settings.videoOn)
    }
}

/// What a join that may knock came to (`CallService.joinOrKnock`).
public enum JoinAttempt: Sendable, Equatable {
    case joined(CallSnapshot)
    /// The call asks to join: we knocked and wait for a host's answer.
    case waitingForHost
    /// A host turned us away before; the call stays closed to us.
    case denied
}

/// Why a ring was rejected (the SDK's reasons).
public enum RejectionReason: String, Sendable, Equatable, Codable, CaseIterable {
    /// The callee said no.
    case decline
    /// The callee was already in a call.
    case busy
    /// The caller hung up before anyone answered.
    case cancel
    /// Nobody answered in time.
    case timeout
}

/// How someone went from a call, as the coordinator tells it.
public enum Departure: Sendable, Equatable {
    /// They hung up, or a host removed them.
    case left
    /// Their connection closed or stopped answering (a network gone for a while, a laptop
    /// closed): they may well be back in a moment.
    case connectionLost
}

/// Something the coordinator told us.
public enum CallServiceEvent: Sendable, Equatable {
    /// Someone is ringing the current user.
    case ringing(IncomingCall)
    /// `userID` accepted the ring; `byThisDevice` is false when it was another device of ours or another user.
    case accepted(CallID, userID: String, byThisDevice: Bool)
    /// `userID` rejected the ring.
    case rejected(CallID, userID: String, reason: RejectionReason, byThisDevice: Bool, call: CallSnapshot)
    /// The ring timed out on the coordinator before everyone answered.
    case missed(CallID)
    /// A ring for the current user that the coordinator rejected as busy by itself, because
    /// we were in another call: never shown as a ring, only told as missed.
    case ringTurnedAway(IncomingCall)
    /// The call ended (by a host, unanswered, cancelled …); `reason` is for the user.
    case ended(CallID, reason: String?)
    case participantJoined(CallID, CallParticipant)
    /// Someone left, or the coordinator lost their connection (`departure`).
    case participantLeft(CallID, CallParticipant, departure: Departure = .left)
    /// The call's state changed (members, blocked users, capabilities, recording …).
    case callUpdated(CallSnapshot)
    /// A moderator (`byUserID`) turned off the current user's microphone, camera and/or screen
    /// share; this device must turn them off itself.
    case mutedByModerator(CallID, byUserID: String, tracks: ModeratedTracks)
    /// Someone in the call (or we, from any of our devices) sent a chat message.
    case chatMessage(ChatMessage)
    /// A participant's device reacted (shown over its tile for a moment).
    case reaction(CallID, sessionID: String, Reaction)
    /// A participant's hand went up (`hand` set) or down (nil); `byUserID` is who did it.
    case handChanged(CallID, sessionID: String, hand: RaisedHand?, byUserID: String)
    /// The participant session `viewerSessionID` now shows these cameras (by session) at these
    /// pixel sizes, and no others.
    case videoViews(CallID, viewerSessionID: String, views: [String: VideoSize])
    /// A participant's device turned its microphone or camera on or off: its state now.
    case mediaStateChanged(CallID, sessionID: String, microphoneOn: Bool?, cameraOn: Bool?)
    /// Someone who is not a member asks to join (heard by those who may let them in).
    case knocked(CallID, CallKnock)
    /// A knock was answered (`byUserID`: the host who did) or withdrawn.
    case knockResolved(CallID, userID: String, outcome: KnockOutcome, byUserID: String?)
    /// A host answered our knock.
    case joinAnswered(CallID, admitted: Bool)
    /// The connection to the coordinator dropped; the client is reconnecting.
    case connectionLost
    /// The connection is back (the client has signed in again).
    case connectionRestored
}

/// What a moderator turned off.
public struct ModeratedTracks: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let microphone = ModeratedTracks(rawValue: 1)
    public static let camera = ModeratedTracks(rawValue: 2)
    public static let screenshare = ModeratedTracks(rawValue: 4)
}

/// A call as the coordinator describes it to the current user.
public struct CallSnapshot: Sendable, Equatable {
    public var id: CallID
    public var createdBy: String
    public var members: [Member]
    public var participants: [CallParticipant]
    public var blockedUserIDs: [String]
    /// What the current user may do (sendAudio, muteUsers …), as the coordinator computed it.
    public var ownCapabilities: Set<OwnCapability>
    /// Members being rung now (empty when no ring is in progress).
    public var ringingMemberIDs: [String]
    public var rejectedBy: [String: RejectionReason]
    public var isEnded: Bool
    /// Set in the answer to a join: where to send media, and our session id in the call.
    public var media: MediaEndpointInfo?
    public var ownSessionID: String?
    /// The call is being recorded (everyone must be able to see it).
    public var isRecording = false
    /// The seed's `recordingState`: asked for (`requested`), confirmed (`recording`) or neither.
    public var recordingState: RecordingState = .noRecording
    /// Finished recordings, one file per participant.
    public var recordings: [CallRecordingInfo] = []
    /// Recordings that could not be made or converted, in words.
    public var recordingErrors: [String] = []
    /// Only hosts may join while the call is in backstage.
    public var backstage = false
    public var broadcasting = false
    /// This user's own viewer link while broadcasting (it stops working if they are blocked).
    public var hlsPlaylistUrl: String?
    /// The secret of the call's link (calls are private: it lets someone who is not a member
    /// in); given to those who may read the call, for sharing it.
    public var linkSecret: String?
    /// The call has a waiting room: people who are not members knock and wait for a host.
    public var askToJoin = false
    /// Who waits to be let in, first knock first (only for those who may admit them).
    public var knocks: [CallKnock] = []

    public init(id: CallID, createdBy: String, members: [Member] = [], participants: [CallParticipant] = [],
                blockedUserIDs: [String] = [], ownCapabilities: Set<OwnCapability> = [], ringingMemberIDs: [String] = [],
                rejectedBy: [String: RejectionReason] = [:], isEnded: Bool = false,
                media: MediaEndpointInfo? = nil, ownSessionID: String? = nil) {
        self.id = id
        self.createdBy = createdBy
        self.members = members
        self.participants = participants
        self.blockedUserIDs = blockedUserIDs
        self.ownCapabilities = ownCapabilities
        self.ringingMemberIDs = ringingMemberIDs
        self.rejectedBy = rejectedBy
        self.isEnded = isEnded
        self.media = media
        self.ownSessionID = ownSessionID
    }
}

/// A participant's recording of a call, as a file to download.
public struct CallRecordingInfo: Sendable, Equatable {
    public var participant: String
    public var start: Date
    public var duration: TimeInterval
    public var size: Int
    public var downloadURL: String

    public init(participant: String, start: Date, duration: TimeInterval, size: Int, downloadURL: String) {
        self.participant = participant
        self.start = start
        self.duration = duration
        self.size = size
        self.downloadURL = downloadURL
    }
}

/// One device in a call's session (a user on two devices is two participants).
public struct CallParticipant: Sendable, Equatable, Identifiable {
    public var user: User
    public var sessionID: String
    public var role: String
    public var joinedAt: Date
    /// Pinned for everyone by a host.
    public var isPinned: Bool
    /// Set while their hand is raised; `order` gives the raising order.
    public var raisedHand: RaisedHand?
    /// What we receive from this participant (from the media engine).
    public var media: ParticipantMedia
    /// Whether their microphone and camera are on, as their device said; nil when it has not
    /// said (a build before this), and then what arrives decides.
    public var microphoneOn: Bool?
    public var cameraOn: Bool?
    /// When their device said its camera went on, while this call was followed here (nil for
    /// one on since before, or off).
    public var cameraOnSince: Date?

    public var id: String { sessionID }
    public var name: String { user.name }
    /// Their camera's picture arrives, and their device has not said it turned the camera off:
    /// a camera turned off stops sending, and its last picture would stand for a second or two.
    public var hasVideo: Bool { cameraOn != false && media.hasVideo }
    /// Their microphone is on. Said by their device when it says so: a silent microphone sends
    /// one packet in 400 ms, so what arrives cannot tell it from one that is off, and a
    /// participant already in the call would show "microphone off" until their first packet.
    public var hasAudio: Bool { microphoneOn ?? media.hasAudio }
    public var isSpeaking: Bool { media.isSpeaking && hasAudio }
    /// Their camera is on (their device said so at least `videoStartAllowance` ago) and its
    /// picture came, but none arrives now: the network, not the camera, which would have said
    /// it went off. Their last picture stays, with a poor connection shown on it; before, the
    /// tile showed their avatar and said "camera off" while the network was down.
    public func isVideoInterrupted(at now: Date = Date()) -> Bool {
        guard cameraOn == true, media.hadVideo, !media.hasVideo else { return false }
        return cameraOnSince.map { now.timeIntervalSince($0) >= Self.videoStartAllowance } ?? true
    }
    /// How long a camera turned on may take before its picture not arriving counts as an
    /// interruption (its first frame comes in well under a second; what is measured of the
    /// media is refreshed once a second).
    public static let videoStartAllowance: TimeInterval = 2
    /// What is measured of what they send, or poor while their video is interrupted (nothing
    /// arrives to measure, and the last measure would stand).
    public var connectionQuality: ConnectionQuality { isVideoInterrupted() ? .poor : media.connectionQuality }
    public var trackSize: VideoSize? { media.trackSize }
    /// Publishes their screen now (the seed's `isScreensharing`).
    public var isScreensharing: Bool { media.isScreensharing }
    /// The size of their shared screen as received.
    public var screenshareTrackSize: VideoSize? { media.screenshareTrackSize }

    public var isHandRaised: Bool { raisedHand != nil }

    public init(user: User, sessionID: String, role: String, joinedAt: Date, isPinned: Bool = false,
                raisedHand: RaisedHand? = nil, microphoneOn: Bool? = nil, cameraOn: Bool? = nil,
                media: ParticipantMedia = ParticipantMedia()) {
        self.raisedHand = raisedHand
        self.microphoneOn = microphoneOn
        self.cameraOn = cameraOn
        self.user = user
        self.sessionID = sessionID
        self.role = role
        self.joinedAt = joinedAt
        self.isPinned = isPinned
        self.media = media
    }
}

/// Why something the user asked for did not happen, in words for them.
public struct CallError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// The message already says what failed ("Couldn’t join the call: …"), so it is shown as
    /// it is rather than after another "Couldn’t …".
    public let saysWhatFailed: Bool
    /// What kind of failure, for callers that act on it rather than show it.
    public let kind: Kind
    public init(_ message: String, saysWhatFailed: Bool = false, kind: Kind = .other) {
        self.message = message
        self.saysWhatFailed = saysWhatFailed
        self.kind = kind
    }
    public var description: String { message }

    /// The failures a caller may act on; everything else is `.other`.
    public enum Kind: Equatable, Sendable {
        case other
        /// The server's TLS certificate was refused (an unknown CA, another name, expired), or
        /// TLS could not even be tried (an unreadable CA file, an IP address in a `wss://` URL):
        /// retrying the same way cannot help; trusting its CA (`--ca-file`), fixing the
        /// certificate or the address can.
        case serverNotTrusted
    }

    public static var notConnected: CallError {
        CallError(tr("Not connected to a call server. Check the server address and try again."), saysWhatFailed: true)
    }
}

/// What a run of messages is about, when a new one may grow the last (`PeopleNews`).
public enum ToastTopic: Hashable, Sendable {
    case arrivals, departures
}

/// A short message for the user (a toast).
public struct Toast: Equatable, Sendable, Identifiable {
    public let id: Int
    public let message: String
    public let createdAt: Date
    /// The call the message is about ("dave left"); nil for the app as a whole.
    public let call: CallID?
    /// The toast this one says again, grown ("bob joined" → "bob and carol joined"): shown in
    /// its place, not after it.
    public let replaces: Int?

    public init(id: Int, message: String, createdAt: Date = Date(), call: CallID? = nil, replaces: Int? = nil) {
        self.id = id
        self.message = message
        self.createdAt = createdAt
        self.call = call
        self.replaces = replaces
    }

    /// Whether a window showing `call` (nil: no call) should show this message: a message
    /// about one call never shows in another call's windows.
    public func belongs(to call: CallID?) -> Bool { self.call == nil || self.call == call }

    /// Still worth showing in a window that opens now (a screen change often follows the message).
    public var isRecent: Bool { Date().timeIntervalSince(createdAt) < 3 }
}
