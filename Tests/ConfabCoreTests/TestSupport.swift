import ConfabCore
@_exported import ConfabTestSupport
import Foundation
import XCTest

// MARK: Fakes for process boundaries (devices, GStreamer, the network)

@MainActor
final class FakeDeviceSource: DeviceSource {
    var devices: [MediaDevice]
    private(set) var isMonitoring = false
    private var onChange: (@MainActor ([MediaDevice]) -> Void)?

    init(_ devices: [MediaDevice]) { self.devices = devices }

    func startMonitoring(onChange: @escaping @MainActor ([MediaDevice]) -> Void) {
        isMonitoring = true
        self.onChange = onChange
        onChange(devices)
    }

    func stopMonitoring() { isMonitoring = false; onChange = nil }

    /// Simulates a plug or unplug.
    func replug(_ devices: [MediaDevice]) {
        self.devices = devices
        onChange?(devices)
    }
}

@MainActor
final class FakeCameraPreview: CameraPreviewSource {
    private(set) var running: MediaDevice?
    private(set) var startCount = 0
    private(set) var startedWhileRunning = false
    private var onFailure: (@MainActor (String) -> Void)?

    func startPreview(_ camera: MediaDevice, onFailure: @escaping @MainActor (String) -> Void) {
        if running != nil { startedWhileRunning = true }
        running = camera
        startCount += 1
        self.onFailure = onFailure
    }

    func stopPreview() { running = nil }

    func fail(_ reason: String) { onFailure?(reason) }
}

@MainActor
final class FakeMicrophone: MicrophoneLevelSource {
    private(set) var metering: MediaDevice?
    private(set) var startedWhileRunning = false
    private(set) var startCount = 0
    private var onLevel: (@MainActor (Double) -> Void)?
    private var onFailure: (@MainActor (String) -> Void)?

    func startMetering(_ microphone: MediaDevice, onLevel: @escaping @MainActor (Double) -> Void,
                       onFailure: @escaping @MainActor (String) -> Void) {
        startCount += 1
        if metering != nil { startedWhileRunning = true }
        metering = microphone
        self.onLevel = onLevel
        self.onFailure = onFailure
    }

    func stopMetering() { metering = nil; onLevel = nil }

    func emit(_ decibels: Double, times: Int = 1) { for _ in 0..<times { onLevel?(decibels) } }
    func fail(_ reason: String) { onFailure?(reason) }
}

struct FakeLatencyProbe: LatencyProbe {
    let roundTrip: Duration?
    func measureRoundTrip() async -> Duration? { roundTrip }
}

@MainActor
final class InMemoryDevicePreferences: DevicePreferences {
    var choices: [MediaDevice.Kind: String] = [:]
    func preferredDeviceID(for kind: MediaDevice.Kind) -> String? { choices[kind] }
    func setPreferredDeviceID(_ id: String, for kind: MediaDevice.Kind) { choices[kind] = id }
}

@MainActor
final class FakeCallService: CallService {
    var failure: CallError?
    let currentUserID: String
    private(set) var joined: [(CallID, CallSettings)] = []
    private(set) var requests: [String] = []
    private var handler: (@MainActor (CallServiceEvent) -> Void)?
    /// How often it was told the network changed.
    private(set) var networkChanges = 0
    func networkChanged() { networkChanges += 1 }

    init(currentUserID: String = "ada") { self.currentUserID = currentUserID }

    func setEventHandler(_ handler: @escaping @MainActor (CallServiceEvent) -> Void) { self.handler = handler }
    func send(_ event: CallServiceEvent) { handler?(event) }

    /// When set, getOrCreateCall waits until `releaseCreate()` (a slow server).
    var holdCreate = false
    private var createWaiters: [CheckedContinuation<Void, Never>] = []
    func releaseCreate() { createWaiters.forEach { $0.resume() }; createWaiters = [] }

    func getOrCreateCall(_ call: CallID, memberIDs: [String], ring: Bool, video: Bool) async throws -> CallSnapshot {
        requests.append("getOrCreate \(call) members=\(memberIDs.joined(separator: ",")) ring=\(ring)")
        if holdCreate { await withCheckedContinuation { createWaiters.append($0) } }
        if let failure { throw failure }
        return CallSnapshot(id: call, createdBy: currentUserID,
                            members: ([currentUserID] + memberIDs).map { Member(user: User(id: $0)) },
                            ringingMemberIDs: ring ? memberIDs : [])
    }

    func getCall(_ call: CallID) async throws -> CallSnapshot {
        requests.append("get \(call)")
        if let failure { throw failure }
        var snapshot = CallSnapshot(id: call, createdBy: "bob")
        snapshot.linkSecret = linkSecret
        return snapshot
    }

    /// The call's link secret as the coordinator shows it to this user (nil: not shown).
    var linkSecret: String?
    /// The secret a reset gives; nil makes the reset fail as a refusal would.
    var linkSecretAfterReset: String?
    func resetCallLink(in call: CallID) async throws -> CallSnapshot {
        requests.append("reset link \(call)")
        guard let linkSecretAfterReset else { throw CallError("You can’t change this call") }
        linkSecret = linkSecretAfterReset
        var snapshot = CallSnapshot(id: call, createdBy: currentUserID, participants: participantsOnJoin, ownCapabilities: capabilitiesOnJoin)
        snapshot.linkSecret = linkSecret
        return snapshot
    }

    func joinCall(_ call: CallID, settings: CallSettings) async throws -> CallSnapshot {
        requests.append("join \(call)")
        if let failure { throw failure }
        joined.append((call, settings))
        var snapshot = CallSnapshot(id: call, createdBy: currentUserID, participants: participantsOnJoin,
                                    ownCapabilities: capabilitiesOnJoin, media: mediaOnJoin, ownSessionID: mediaOnJoin == nil ? ownSessionOnJoin : "s-self")
        snapshot.linkSecret = linkSecret
        return snapshot
    }

    /// Our session in a call joined without media (raised hands are per session).
    var ownSessionOnJoin: String?

    var participantsOnJoin: [CallParticipant] = []
    /// What a member of a default call may send (a test of moderation or the like adds to it).
    var capabilitiesOnJoin: Set<OwnCapability> = [.sendAudio, .sendVideo]
    var mediaOnJoin: MediaEndpointInfo?

    func leaveCall(_ call: CallID) async throws { requests.append("leave \(call)") }

    /// How many renewals fail (the media server still down) before one gives `renewedMedia`.
    var renewalsFailing = 0
    var renewedMedia: MediaEndpointInfo?
    func renewMedia(in call: CallID) async throws -> CallSnapshot {
        requests.append("renew media \(call)")
        if renewalsFailing > 0 {
            renewalsFailing -= 1
            throw CallError("the media server (Janus) is unavailable")
        }
        return CallSnapshot(id: call, createdBy: currentUserID, participants: participantsOnJoin,
                            ownCapabilities: capabilitiesOnJoin, media: renewedMedia, ownSessionID: "s-self")
    }
    func acceptCall(_ call: CallID) async throws { requests.append("accept \(call)") }
    func rejectCall(_ call: CallID, reason: RejectionReason) async throws { requests.append("reject \(call) \(reason.rawValue)") }
    func endCall(_ call: CallID) async throws { requests.append("end \(call)") }
    func muteUser(_ userID: String, in call: CallID) async throws { requests.append("mute \(userID)") }
    func blockUser(_ userID: String, in call: CallID) async throws { requests.append("block \(userID)") }
    func unblockUser(_ userID: String, in call: CallID) async throws { requests.append("unblock \(userID)") }
    func kickUser(_ userID: String, in call: CallID) async throws { requests.append("kick \(userID)") }
    func setRole(_ role: CallRole, of userID: String, in call: CallID) async throws { requests.append("role \(userID) \(role.rawValue)") }
    func pinForEveryone(_ participant: CallParticipant, in call: CallID) async throws { requests.append("pin \(participant.sessionID)") }
    func unpinForEveryone(_ participant: CallParticipant, in call: CallID) async throws { requests.append("unpin \(participant.sessionID)") }

    // Chat, reactions and hands: the coordinator stores messages and numbers them.
    var chatStored: [ChatMessage] = []
    func sendChatMessage(_ text: String, in call: CallID) async throws -> ChatMessage {
        requests.append("chat \(text)")
        if let failure { throw failure }
        let message = ChatMessage(id: Int64(chatStored.count + 1), cid: call, userId: currentUserID, sessionId: ownSessionOnJoin,
                                  text: text, createdAt: Date())
        chatStored.append(message)
        return message
    }
    func chatMessages(in call: CallID) async throws -> [ChatMessage] {
        requests.append("chat history \(call)")
        return chatStored.filter { $0.cid == call }
    }
    func sendReaction(_ reaction: Reaction, in call: CallID) async throws { requests.append("react \(reaction.rawValue)") }
    /// Hands as the coordinator keeps them, by session id.
    var handsRaised: [String: RaisedHand] = [:]
    func raiseHand(in call: CallID) async throws -> CallSnapshot {
        requests.append("raise hand")
        if let session = ownSessionOnJoin { handsRaised[session] = RaisedHand(raisedAt: Date(), order: handsRaised.count + 1) }
        return handSnapshot(call)
    }
    func lowerHand(in call: CallID, of userID: String?) async throws -> CallSnapshot {
        requests.append("lower hand \(userID ?? "own")")
        if let failure { throw failure }
        let session = userID.map { "s-\($0)" } ?? ownSessionOnJoin
        if let session { handsRaised[session] = nil }
        return handSnapshot(call)
    }
    // The waiting room: answers to joins, in order, before any join gets in.
    var knockAnswers: [JoinAttempt] = []
    func joinOrKnock(_ call: CallID, settings: CallSettings) async throws -> JoinAttempt {
        guard knockAnswers.isEmpty else {
            requests.append("knock \(call)")
            return knockAnswers.removeFirst()
        }
        return .joined(try await joinCall(call, settings: settings))
    }
    /// Who waits, as the coordinator lists them to hosts (an answer takes one off).
    var knocksWaiting: [CallKnock] = []
    func admitParticipant(_ userID: String, to call: CallID) async throws -> CallSnapshot {
        requests.append("admit \(userID)")
        return try answered(userID, in: call)
    }
    func denyParticipant(_ userID: String, from call: CallID) async throws -> CallSnapshot {
        requests.append("deny \(userID)")
        return try answered(userID, in: call)
    }
    private func answered(_ userID: String, in call: CallID) throws -> CallSnapshot {
        if let failure { throw failure }
        knocksWaiting.removeAll { $0.userId == userID }
        var snapshot = CallSnapshot(id: call, createdBy: currentUserID, participants: participantsOnJoin, ownCapabilities: capabilitiesOnJoin)
        snapshot.knocks = knocksWaiting
        return snapshot
    }
    func setAskToJoin(_ askToJoin: Bool, in call: CallID) async throws -> CallSnapshot {
        requests.append("ask to join \(askToJoin)")
        var snapshot = CallSnapshot(id: call, createdBy: currentUserID, participants: participantsOnJoin, ownCapabilities: capabilitiesOnJoin)
        snapshot.askToJoin = askToJoin
        return snapshot
    }

    private func handSnapshot(_ call: CallID) -> CallSnapshot {
        let participants = participantsOnJoin.map { participant in
            var participant = participant
            participant.raisedHand = handsRaised[participant.sessionID]
            return participant
        }
        return CallSnapshot(id: call, createdBy: currentUserID, participants: participants, ownCapabilities: capabilitiesOnJoin)
    }

    /// The video views told to the call, in order (issue 15).
    private(set) var videoViewsTold: [[String: VideoSize]] = []
    func updateVideoViews(_ views: [String: VideoSize], in call: CallID) async throws { videoViewsTold.append(views) }

    /// What our microphone and camera were told to be, in order.
    private(set) var mediaStatesTold: [OwnMediaState] = []
    func setMediaState(_ state: OwnMediaState, in call: CallID) async throws { mediaStatesTold.append(state) }
}

enum Devices {
    static let builtInCamera = MediaDevice(id: "/dev/video0", name: "Built-in Camera", kind: .camera, isDefault: true)
    static let usbCamera = MediaDevice(id: "/dev/video2", name: "USB Camera", kind: .camera)
    static let headsetMic = MediaDevice(id: "alsa:headset", name: "Headset Microphone", kind: .microphone)
    static let builtInMic = MediaDevice(id: "alsa:builtin", name: "Built-in Microphone", kind: .microphone, isDefault: true)
    static let speakers = MediaDevice(id: "alsa:speakers", name: "Speakers", kind: .speaker, isDefault: true)
    static let all = [builtInCamera, usbCamera, headsetMic, builtInMic, speakers]
}

@MainActor
final class FakeMediaEngine: CallMediaEngine {
    var failure: Error?
    private(set) var started: [(CallID, MediaEndpointInfo, String, CallSettings)] = []
    private(set) var audioEnabled: [Bool] = []
    private(set) var videoEnabled: [Bool] = []
    private(set) var stopCount = 0
    private var onUpdate: (@MainActor ([String: ParticipantMedia]) -> Void)?
    private var onFailure: (@MainActor (String) -> Void)?
    private var onSignalled: (@MainActor () -> Void)?
    /// Whether `start` says at once that its connections are signalled (a real engine says so
    /// partway through; false: only `signal()` says it).
    var signalsAtStart = true
    /// Whether `start` waits for `finishStart()` before it returns (a connection coming up).
    var holdsStart = false
    private var startGate: CheckedContinuation<Void, Never>?
    func finishStart() {
        startGate?.resume()
        startGate = nil
    }

    func start(call: CallID, endpoint: MediaEndpointInfo, sessionID: String, settings: CallSettings,
               onUpdate: @escaping @MainActor ([String: ParticipantMedia]) -> Void,
               onSignalled: @escaping @MainActor () -> Void,
               onFailure: @escaping @MainActor (String) -> Void) async throws {
        if let failure { throw failure }
        started.append((call, endpoint, sessionID, settings))
        self.onUpdate = onUpdate
        self.onSignalled = onSignalled
        if signalsAtStart { onSignalled() }
        if holdsStart { await withCheckedContinuation { startGate = $0 } }
        self.onFailure = onFailure
    }

    func setAudioEnabled(_ enabled: Bool) { audioEnabled.append(enabled) }
    func setVideoEnabled(_ enabled: Bool) { videoEnabled.append(enabled) }
    private(set) var speakerEnabled: [Bool] = []
    func setSpeakerEnabled(_ enabled: Bool) { speakerEnabled.append(enabled) }
    var screenshareFailure: Error?
    private(set) var screenshareStarts: [ScreenshareSource] = []
    private(set) var screenshareStopCount = 0
    private var onScreenshareEnded: (@MainActor (String) -> Void)?
    func startScreenshare(source: ScreenshareSource, onEnded: @escaping @MainActor (String) -> Void) async throws {
        if let screenshareFailure { throw screenshareFailure }
        screenshareStarts.append(source)
        onScreenshareEnded = onEnded
    }
    /// The share ends by itself (the desktop stopped it, the capture failed).
    func endScreenshare(_ reason: String) { onScreenshareEnded?(reason) }
    func stopScreenshare() async { screenshareStopCount += 1 }
    func stop() async { stopCount += 1 }

    /// Who the call said sends, each time it changed (`expectMedia(from:)`).
    private(set) var toldSenders: [RemoteSenders] = []
    func expectMedia(from senders: RemoteSenders) { toldSenders.append(senders) }

    func update(_ media: [String: ParticipantMedia]) { onUpdate?(media) }
    func signal() { onSignalled?() }
    func fail(_ reason: String) { onFailure?(reason) }

    // Sending the size that is shown (issue 15).
    /// How large the tiles show each remote camera; setting it tells the watchers, as a resize does.
    var shownVideo: [String: VideoSize]? { didSet { shownVideoWatchers.send(()) } }
    private let shownVideoWatchers = Listeners<Void>()
    /// Who watches `shownVideo` now (its owner lets go when the call ends).
    var shownVideoWatcherCount: Int { shownVideoWatchers.count }
    func watchShownVideo(_ handler: @escaping @MainActor () -> Void) -> Subscription {
        shownVideoWatchers.subscribe { _ in handler() }
    }
    /// Each limit the call put on our camera, in order.
    private(set) var cameraLimits: [ShownSize] = []
    func limitCamera(to shown: ShownSize) { cameraLimits.append(shown) }

    private let networkWatchers = Listeners<Void>()
    /// Who watches the network now (the view model, for as long as it lives).
    var networkWatcherCount: Int { networkWatchers.count }
    func watchNetwork(_ handler: @escaping @MainActor () -> Void) -> Subscription { networkWatchers.subscribe { _ in handler() } }
    /// The system's network changed (an address or a route came or went).
    func changeNetwork() { networkWatchers.send(()) }
}
