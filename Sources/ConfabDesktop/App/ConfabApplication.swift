import ConfabClient
import ConfabCore
import ConfabMedia
import Foundation
import GLibBridge

/// The desktop app: one GTK application, one CallViewModel, the router and the media parts.
@MainActor
public final class ConfabApplication {
    public static let applicationID = "org.confab.Confab"

    private let options: AppOptions
    private let application: Application
    private let callViewModel: CallViewModel
    private let coordinator: CoordinatorClient
    private let mediaEngine: GStreamerCallMediaEngine
    private let devices: GStreamerDeviceSource
    private let cameraPreview: CameraPreview
    private let microphoneMeter: MicrophoneMeter
    private let preferences = JSONFileDevicePreferences()
    private var router: AppRouter?
    private let sounds = CallSoundPlayer()
    private var bindings: [ObservationBinding] = []
    private var participantsPanel: ParticipantsPanel?
    private var ringNotificationShown = false
    private static let ringNotificationID = "incoming-call"

    public init(options: AppOptions) {
        self.options = options
        GStreamer.initialize()
        application = Application(id: Self.applicationID)
        coordinator = CoordinatorClient(serverURL: options.serverURL, userID: options.user.id, token: options.token)
        let devices = GStreamerDeviceSource(includeTestDevices: options.useTestDevices)
        self.devices = devices
        let preferences = preferences
        mediaEngine = GStreamerCallMediaEngine(deviceSource: devices, userID: options.user.id, iceAddress: options.mediaAddress) {
            // The call uses what the lobby chose (remembered choices), else the defaults.
            let present = devices.devicesNow()
            let chosen = MediaDevice.Kind.allCases.map { kind in
                DeviceChoice.pick(from: present.filter { $0.kind == kind }, preferredID: preferences.preferredDeviceID(for: kind))
            }
            return CallMediaDevices(camera: chosen[0], microphone: chosen[1], speaker: chosen[2])
        }
        callViewModel = CallViewModel(currentUser: options.user, callService: coordinator, mediaEngine: mediaEngine)
        cameraPreview = CameraPreview(devices: devices, size: .init(width: options.previewWidth, height: options.previewHeight))
        microphoneMeter = MicrophoneMeter(devices: devices)
        application.onActivate { [weak self] in self?.activate() }
    }

    /// Runs until the last window closes; returns the process exit status.
    public func run() -> Int32 { application.run() }

    private func activate() {
        guard router == nil else { return }
        if let css = ResourceLocator.path(of: "confab.css") { Application.loadStyleSheet(path: css) }
        let application = application, callViewModel = callViewModel
        let router = AppRouter(callViewModel: callViewModel, factory: AppRouter.Factory(
            home: { HomeWindow(application: application, callViewModel: callViewModel) },
            lobby: { [unowned self] info in self.makeLobby(info) },
            outgoing: { OutgoingCallWindow(application: application, callViewModel: callViewModel) },
            incoming: { call in IncomingCallWindow(application: application, callViewModel: callViewModel, call: call) },
            call: { [unowned self] call in
                InCallWindow(application: application, callViewModel: callViewModel, call: call, media: self.mediaEngine,
                             showParticipants: { [unowned self] in self.showParticipants() })
            },
            minimized: { [unowned self] call in
                MinimizedCallWindow(application: application, callViewModel: callViewModel, call: call, media: self.mediaEngine)
            },
            ended: { ended in CallEndedWindow(application: application, callViewModel: callViewModel, ended: ended) }))
        self.router = router
        PermissionsPrompt.install(callViewModel: callViewModel, useTestDevices: options.useTestDevices)
        if let call = options.call {
            callViewModel.enterLobby(callType: call.type, callId: call.id, members: [])
        }
        router.start()
        registerActions()
        bindings = [
            ObservationBinding { [weak self] in self?.updateSounds() },
            ObservationBinding { [weak self] in self?.updateRingNotification() },
            ObservationBinding { [weak self] in self?.rememberLayout() },
        ]
        if let saved = preferences.value(forKey: "layout").flatMap(ParticipantsLayout.init(rawValue:)) {
            callViewModel.update(participantsLayout: saved)
        }
        stayConnected()
    }

    // MARK: Sounds, notifications, preferences

    /// Ringing loops while a call rings in or out, on the chosen speaker; it stops otherwise.
    private func updateSounds() {
        let sound = callViewModel.callSound
        let speakers = devices.devicesNow().filter { $0.kind == .speaker }
        sounds.play(sound, speaker: DeviceChoice.pick(from: speakers, preferredID: preferences.preferredDeviceID(for: .speaker)))
    }

    /// While a call rings and none of our windows has the focus, a notification with Accept and
    /// Decline is shown; it is withdrawn as soon as the ring ends.
    private func updateRingNotification() {
        if case .incoming(let call) = callViewModel.callingState {
            guard !ringNotificationShown, !application.hasActiveWindow else { return }
            ringNotificationShown = true
            application.sendNotification(id: Self.ringNotificationID, title: "\(call.caller.name) is calling",
                                         body: call.video ? "Video call · \(call.cid)" : "Call · \(call.cid)", urgent: true,
                                         buttons: [("Decline", "app.decline-call"), ("Accept", "app.accept-call")])
        } else if ringNotificationShown {
            ringNotificationShown = false
            application.withdrawNotification(id: Self.ringNotificationID)
        }
    }

    private func registerActions() {
        let vm = callViewModel
        application.addAction("accept-call") { [weak vm] in
            guard let vm, case .incoming(let call) = vm.callingState else { return }
            Task { await vm.acceptCall(callType: call.type, callId: call.id) }
        }
        application.addAction("decline-call") { [weak vm] in
            guard let vm, case .incoming(let call) = vm.callingState else { return }
            Task { await vm.rejectCall(callType: call.type, callId: call.id) }
        }
    }

    private func rememberLayout() {
        let layout = callViewModel.participantsLayout
        preferences.set(layout.rawValue, forKey: "layout")
    }

    private func showParticipants() {
        let panel = participantsPanel ?? ParticipantsPanel(application: application, callViewModel: callViewModel)
        participantsPanel = panel
        panel.present()
    }

    /// Signs in to the coordinator and keeps trying while it is unreachable: an idle app that is
    /// connected can be rung. Once signed in, the client reconnects by itself.
    private func stayConnected() {
        let coordinator = coordinator, serverURL = options.serverURL
        Task {
            var delay: Duration = .milliseconds(500)
            while true {
                do {
                    try await coordinator.connect()
                    return
                } catch {
                    print("confab: cannot reach the call server at \(serverURL): \(error); retrying in \(delay)")
                    try? await Task.sleep(for: delay)
                    delay = min(delay * 2, .seconds(10))
                }
            }
        }
    }

    private func makeLobby(_ info: LobbyInfo) -> LobbyWindow {
        let lobby = LobbyViewModel(info: info, callViewModel: callViewModel, deviceSource: devices,
                                   microphoneLevels: microphoneMeter, cameraPreview: cameraPreview,
                                   latencyProbe: TCPLatencyProbe(serverURL: options.serverURL),
                                   preferences: preferences)
        return LobbyWindow(application: application, callViewModel: callViewModel, lobby: lobby, cameraPreview: cameraPreview)
    }
}

/// Finds data files (CSS, sounds): installed under share/confab, or in the source tree when
/// run from a checkout (`make run`).
enum ResourceLocator {
    static func path(of name: String) -> String? {
        var candidates: [String] = []
        if let dataDir = ProcessInfo.processInfo.environment["CONFAB_DATA_DIR"] { candidates.append(dataDir) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("../share/confab").path)
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Resources").standardized.path)
        return candidates.map { "\($0)/\(name)" }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
