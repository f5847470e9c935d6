import FoundationEssentials

/// Where the user is in the life of a call; the app shows exactly one screen per state.
public enum CallingState: Equatable, Sendable {
    /// No call: the home screen.
    case idle
    /// Checking camera and microphone before joining.
    case lobby(LobbyInfo)
    /// Someone is ringing us.
    case incoming(IncomingCall)
    /// Joining a call (talking to the coordinator, then to the media server).
    case joining
    /// We are ringing others and waiting for an answer.
    case outgoing
    /// In a call with media flowing.
    case inCall
    /// In a call whose connection dropped; trying to get it back.
    case reconnecting

    /// A short name for logs and accessibility ("lobby", "inCall").
    public var name: String {
        switch self {
        case .idle: "idle"
        case .lobby: "lobby"
        case .incoming: "incoming"
        case .joining: "joining"
        case .outgoing: "outgoing"
        case .inCall: "inCall"
        case .reconnecting: "reconnecting"
        }
    }
}

/// Whether we are signed in to the call server: the home page and the lobby say so, in
/// different words from a slow network.
public enum ServerConnection: Equatable, Sendable {
    /// Not signed in yet (the app has just started).
    case connecting
    case signedIn
    /// The server can't be reached (or refused us); the app keeps trying.
    case unreachable
    /// The server's TLS certificate was refused (`CallError.Kind.serverNotTrusted`); `message`
    /// says why and what to do. The app keeps trying: the certificate may be fixed meanwhile.
    case notTrusted(message: String)

    /// Not signed in because the server could not be reached or trusted.
    public var isOutOfReach: Bool {
        switch self {
        case .unreachable, .notTrusted: true
        case .connecting, .signedIn: false
        }
    }
}

/// The call a lobby is for.
public struct LobbyInfo: Equatable, Sendable {
    public let callId: String
    public let callType: CallType
    /// People invited to (or already in) the call.
    public var participants: [Member]
    /// The secret of the call's link, once the coordinator has shown it to us (those who may
    /// read the call can copy the link from the lobby).
    public var linkSecret: String?
    /// Whether a host still has to let us in (the call asks to join and we are not a member).
    public var admission: LobbyAdmission = .notAsked

    public init(callId: String, callType: CallType, participants: [Member], linkSecret: String? = nil,
                admission: LobbyAdmission = .notAsked) {
        self.callId = callId
        self.callType = callType
        self.participants = participants
        self.linkSecret = linkSecret
        self.admission = admission
    }

    /// The call's id as the server knows it.
    public var call: CallID { CallID(type: callType, id: callId) }
}

/// Where a lobby stands with a call that asks to join (the waiting room, issue 18).
public enum LobbyAdmission: Equatable, Sendable {
    /// Nothing asked yet: Join joins (or knocks, if the call turns out to ask to join).
    case notAsked
    /// We knocked; a host has not answered yet.
    case waitingForHost
    /// A host turned us away: the call stays closed to us.
    case denied
}

/// A call that is ringing us.
public struct IncomingCall: Equatable, Sendable, Identifiable {
    /// The call's id without its type ("standup"); `cid` has both.
    public let id: String
    public let caller: User
    public let type: CallType
    public let members: [Member]
    /// How long the ring lasts before it is rejected with reason "timeout".
    public let timeout: Duration
    /// Whether the caller asked for a video call.
    public let video: Bool

    public init(id: String, caller: User, type: CallType, members: [Member], timeout: Duration, video: Bool) {
        self.id = id
        self.caller = caller
        self.type = type
        self.members = members
        self.timeout = timeout
        self.video = video
    }

    public var cid: CallID { CallID(type: type, id: id) }
}

/// A ring we did not take: it rang out, the caller gave up, or it came while we were busy with
/// another call (and was rejected as busy). The app leaves a notification for it.
public struct MissedCall: Equatable, Sendable {
    public let ring: IncomingCall
    /// It came while we were in (or ringing, or joining) another call.
    public let whileBusy: Bool

    public init(ring: IncomingCall, whileBusy: Bool) {
        self.ring = ring
        self.whileBusy = whileBusy
    }
}
