import ConfabCore

/// What ICE gathered for our media connection to be made on.
enum LocalCandidates: Sendable, Equatable {
    /// Not gathered yet, or still gathering: nothing to tell.
    case gathering
    /// Gathering ended without a single candidate: there was no usable address when the
    /// connection was made (the network was away). It can never carry anything, and
    /// GStreamer 1.22's ICE neither gathers again nor restarts.
    case noAddress
    /// At least one candidate: the connection has an address to be made on.
    case found

    init(gathered: Int, isGatheringComplete: Bool) {
        self = gathered > 0 ? .found : isGatheringComplete ? .noAddress : .gathering
    }
}

/// Why the media connection is given up (the call then makes a new one, see `ActiveCall`).
enum MediaConnectionLoss: Sendable, Equatable {
    /// The path stayed down, or never came up.
    case pathDown
    /// The network changed and the path went down (or fell silent) soon after.
    case networkChanged
    /// The connection was made while the network was away, and the network has changed since.
    case madeWithoutAddress
}

/// Decides when our media connection is lost for good, from what the publisher tells of its path
/// (Janus's receiver reports), what ICE gathered for it, and the system's network changes.
/// GStreamer 1.22's ICE cannot restart: a new connection is the way back, and it should come
/// soon after the network does — but not for a first connection that is merely slow to come up.
struct MediaConnectionWatch {
    /// A path down this long is not coming back by itself (a lost address, a failed ICE pair).
    static let newConnectionAfterPathDown: Duration = .seconds(6)
    /// After a network change the path is given up as soon as it goes down (which the reports
    /// tell ~3 s after the change).
    static let networkChangeCounts: Duration = .seconds(5)
    /// No report for this long just after a network change gives the connection up.
    static let silenceAfterNetworkChange: Duration = .milliseconds(1500)
    /// Changes seen this early are ignored: GIO reports the network once as it starts watching.
    static let connectingGrace: Duration = .seconds(1)
    /// A connection that carried nothing for this long will not: the backstop for one whose ICE
    /// checks gave up (`madeWithoutAddress` catches the common case sooner).
    static let connectingLimit: Duration = .seconds(8)
    /// A connection on which Janus sent nothing at all for this long after it was published never
    /// came up: ICE over a working path takes well under a second, and Janus starts DTLS the
    /// moment it is up. One made while the network is still away (a try during an outage
    /// without a network change: UDP dropped, a Wi-Fi gone for a while) is such a connection,
    /// and its ICE did not come up when the network came back: it waited out `connectingLimit`,
    /// then the next try, and media came back 6–7.7 s after the network (UI `MediaPathLost`,
    /// e2e `LongNetworkOutage`). Given up sooner, the next try, made a second later, finds the
    /// network back: 2–3.4 s.
    static let silentConnectionLimit: Duration = .seconds(4)

    /// When the connection was up on Janus (published); nil while it is being made.
    private var connectedAt: ContinuousClock.Instant?
    private var networkChangedAt: ContinuousClock.Instant?
    /// Whether the network changed since watching began (before `connected` too): a connection
    /// made without an address is replaced on the first change, whenever it came.
    private var hasNetworkChanged = false
    private var pathDownSince: ContinuousClock.Instant?

    /// The connection is published; the limits count from now.
    mutating func connected(at now: ContinuousClock.Instant = .now) {
        connectedAt = now
    }

    /// The system's addresses or routes changed. Returns why the connection is lost, if it is.
    mutating func networkChanged(path: MediaPath, candidates: LocalCandidates,
                                 now: ContinuousClock.Instant = .now) -> MediaConnectionLoss? {
        hasNetworkChanged = true
        // Still being published: `follow` decides once it is (giving up a connection before the
        // call has it would race its start).
        guard let connectedAt else { return nil }
        // Made while the network was away: it will never come up, and this change may well be
        // the network coming back. (A connection that gathered candidates is not replaced
        // here: a change while a first connection is made is often the very network it is
        // made on — the interop test's browser starting up was one.)
        if candidates == .noAddress { return .madeWithoutAddress }
        guard now - connectedAt > Self.connectingGrace else { return nil }
        networkChangedAt = now
        // A path that was up and went down will not recover on the addresses it was made on.
        return path == .down ? .networkChanged : nil
    }

    /// Whether the network changed within `networkChangeCounts` of `now` (after the connection
    /// was published): a receiving connection silent then is given up sooner (`ReceiverWatch`).
    func changedLately(now: ContinuousClock.Instant = .now) -> Bool {
        networkChangedAt.map { now - $0 < Self.networkChangeCounts } ?? false
    }

    /// Once a second, with the publisher's path, how long since Janus last reported on what we
    /// send (nil before its first report), what ICE gathered, and whether Janus sent anything
    /// at all on the connection yet.
    mutating func follow(path: MediaPath, silence: Duration?, candidates: LocalCandidates, heardFromJanus: Bool,
                         now: ContinuousClock.Instant = .now) -> MediaConnectionLoss? {
        guard let connectedAt else { return nil }
        // A change came while the connection was being made (or gathering): now that gathering
        // is known to have found nothing, the change is acted on.
        if candidates == .noAddress, hasNetworkChanged { return .madeWithoutAddress }
        if path == .connecting, !heardFromJanus, now - connectedAt > Self.silentConnectionLimit { return .pathDown }
        if path == .connecting, now - connectedAt > Self.connectingLimit { return .pathDown }
        let changedLately = changedLately(now: now)
        // Right after a network change, a report missing for 1.5 s (they come about once a
        // second) is enough: the addresses under the connection may be gone.
        if changedLately, let silence, silence > Self.silenceAfterNetworkChange { return .networkChanged }
        pathDownSince = path == .down ? pathDownSince ?? now : nil
        guard let since = pathDownSince else { return nil }
        if changedLately || now - since >= Self.newConnectionAfterPathDown { return .pathDown }
        return nil
    }
}

/// Decides when one receiving connection (a `Subscriber`) is dead while our sending one is not.
/// Each participant we receive comes over a connection of its own, and one can die alone: a
/// mapping a NAT or firewall forgot, or (CI, NetworkChange) a network that came back under the
/// sending connection while a receiving one stayed deaf until the next change, 17 s later. The
/// publisher's watch (`MediaConnectionWatch`) sees only what we send; this one has that
/// participant received anew.
///
/// What it hears is every packet the connection receives (`Subscriber.packetsFromJanus`): the
/// media, and Janus's sender report on each stream once a second, which keeps coming after its
/// sender mutes or turns the camera off (webrtcbin's statistics drop such a stream ~10 s after
/// its last packet, so they cannot tell). Before any media was forwarded on it Janus sends
/// nothing to hear, and silence then says nothing — unless the participant turned their
/// microphone on while this connection was watched: one that died while they were muted with
/// the camera off stayed deaf for good once they spoke. (Only a change seen here counts: a
/// participant whose microphone was on from the start may simply not reach Janus yet, their own
/// connection still coming up under load, and a connection made anew then would be no
/// better.) A connection that never received a single packet (Janus starts the DTLS handshake
/// at once) never came up.
struct ReceiverWatch {
    /// Silent this long while our sending path is up, after media came: made anew. Reports
    /// come once a second; a few missed ones are a congested moment, not a dead connection.
    static let giveUpAfter: Duration = .seconds(4)
    /// The same, soon after a network change: the addresses under it may be gone, and a
    /// receiving connection that works hears packets at once when the network is back (the
    /// sending one's watch gives up a path silent 1.5 s then, too).
    static let giveUpAfterNetworkChange: Duration = .milliseconds(1500)
    /// Nothing at all received this long while our sending path is up: it never came up.
    static let connectingLimit: Duration = .seconds(8)

    private var firstLook: ContinuousClock.Instant?
    private var lastReceived = 0
    /// Since when nothing was heard while our own path was up; nil while heard, or while the
    /// path is down (then the whole connection is the publisher's watch's to judge, and a
    /// receiver is not counted silent for what was everyone's outage).
    private var silentSince: ContinuousClock.Instant?
    /// Whether the participant was seen turning their microphone on while watched (and has not
    /// turned it off since), and what they said at the last look.
    private var sawMicrophoneTurnedOn = false
    private var microphoneOnAtLastLook: Bool?

    /// Once a second: the packets received so far, whether media ever came on this connection,
    /// whether its participant's microphone is on (their device's word), our sending path, and
    /// whether the network changed lately. Returns true when the connection should be made anew.
    mutating func follow(received: Int, carriedMedia: Bool, microphoneOn: Bool = false, sendingPath: MediaPath,
                         networkChangedLately: Bool = false, now: ContinuousClock.Instant = .now) -> Bool {
        let firstLook = self.firstLook ?? now
        self.firstLook = firstLook
        if microphoneOnAtLastLook == false, microphoneOn { sawMicrophoneTurnedOn = true }
        if !microphoneOn { sawMicrophoneTurnedOn = false }
        microphoneOnAtLastLook = microphoneOn
        defer { lastReceived = received }
        guard received == lastReceived, sendingPath == .up else {
            silentSince = nil
            return false
        }
        if received == 0 { return now - firstLook >= Self.connectingLimit }
        // Nothing came yet and nothing is sent: silence is all there is to hear. The count
        // starts when they turn their microphone on.
        guard carriedMedia || sawMicrophoneTurnedOn else {
            silentSince = nil
            return false
        }
        let since = silentSince ?? now
        silentSince = since
        return now - since >= (networkChangedLately ? Self.giveUpAfterNetworkChange : Self.giveUpAfter)
    }
}
