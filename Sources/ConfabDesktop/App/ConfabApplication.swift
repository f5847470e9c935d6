import ConfabClient
import ConfabCore
import ConfabMedia
import FoundationEssentials
import GLibBridge
import GtkBridge

/// The desktop app: one GTK application, one CallViewModel, the router and the media parts.
@MainActor
public final class ConfabApplication {
    public static let applicationID = "org.confab.Confab"
    /// The latest release in data/org.confab.Confab.metainfo.xml.
    static let version = "0.1.0"

    private let options: AppOptions
    private let application: Application
    private let callViewModel: CallViewModel
    private let coordinator: CoordinatorClient
    private let mediaEngine: GStreamerCallMediaEngine
    /// Prints what the call receives and sends each second when CONFAB_STATS=1 (tests, benchmarks).
    private var receptionStatistics: ReceptionStatistics?
    private let devices: GStreamerDeviceSource
    private let cameraPreview: CameraPreview
    private let microphoneMeter: MicrophoneMeter
    private let preferences: AppPreferences
    private var router: AppRouter?
    /// The call page built ahead of the join, while the lobby shows.
    private lazy var callPages = BuiltAhead(build: { [unowned self] in self.makeCallPage() }, drop: { page in page.close() })
    private var sounds: CallSoundPlayer
    private var soundsVolume: Double
    private var preferencesWindow: AppPreferencesWindow?
    private var inhibitCookie: UInt32?
    /// A log-out, a shutdown or `kill` (`terminate`), told on the main loop.
    private var terminationSignals: TerminationSignals?
    private var isTerminating = false
    private var bindings: [ObservationBinding] = []
    private var ringNotificationShown = false
    /// The last missed call from each caller whose notification may still be in the list, for
    /// its Call back button (the action carries the caller's id).
    private var missedCalls: [String: MissedCall] = [:]
    private static let ringNotificationID = "incoming-call"

    /// What the process's environment must say before anything starts a thread (setting a
    /// variable may move the environment while another thread reads it; GSettings, GStreamer
    /// and the DTLS certificate start threads): the first thing `confab` does.
    public static func prepareEnvironment() {
        Application.leaveGLUnloadedWhenRenderingWithCairo()
        Application.askForLibadwaitasEmptyTheme()
    }

    public init(options: AppOptions) {
        self.options = options
        // Before any widget: every label is made in the user's language.
        Translations.install(localeDirectory: ResourceLocator.localeDirectory)
        Wording.install(translate: { Translations.translate($0) },
                        translatePlural: { Translations.translate($0, $1, count: $2) })
        GStreamer.initialize()
        // Every call needs it, and making it takes a while: from now, not from the first Join.
        // (The plugins a call loads wait for the lobby's first picture: see CameraPreview.)
        DTLSCertificate.prepare()
        application = Application(id: Self.applicationID, unique: options.isSingleInstance)
        let preferences = AppPreferences()
        self.preferences = preferences
        soundsVolume = preferences.ringVolume
        sounds = CallSoundPlayer(volume: soundsVolume)
        var coordinatorOptions = CoordinatorClient.Options()
        coordinatorOptions.serverTrust = options.serverTrust
        coordinator = CoordinatorClient(servers: options.servers, userID: options.user.id, token: options.token, options: coordinatorOptions)
        let devices = GStreamerDeviceSource(includeTestDevices: options.useTestDevices)
        self.devices = devices
        mediaEngine = GStreamerCallMediaEngine(deviceSource: devices, userID: options.user.id, iceAddress: options.mediaAddress) { current in
            // The call uses what the lobby chose (remembered choices), else the system's
            // defaults as they change (DeviceChoice).
            let present = devices.devicesNow()
            @MainActor func pick(_ kind: MediaDevice.Kind, _ inUse: MediaDevice?) -> MediaDevice? {
                DeviceChoice.pick(from: present.filter { $0.kind == kind }, preferredID: preferences.preferredDeviceID(for: kind), current: inUse)
            }
            return CallMediaDevices(camera: pick(.camera, current?.camera), microphone: pick(.microphone, current?.microphone),
                                    speaker: pick(.speaker, current?.speaker))
        }
        callViewModel = CallViewModel(currentUser: options.user, callSettings: preferences.callSettingsOnJoin,
                                      callService: coordinator, mediaEngine: mediaEngine)
        mediaEngine.mediaServerTrust = options.serverTrust
        mediaEngine.onLocalAudioLevel = { [weak callViewModel] level in callViewModel?.localMedia.recordLocalAudioLevel(level) }
        mediaEngine.onDeviceFailed = { [weak callViewModel] failure in callViewModel?.localMedia.deviceFailed(failure) }
        mediaEngine.audioProcessing = { [preferences] in preferences.audioProcessing }
        let largestVideo = options.maximumVideoSize
        mediaEngine.maximumVideoSize = { largestVideo }
        receptionStatistics = ReceptionStatistics(media: mediaEngine)
        cameraPreview = CameraPreview(devices: devices, size: .init(width: options.previewWidth, height: options.previewHeight))
        microphoneMeter = MicrophoneMeter(devices: devices)
        // X11 has no "what to share" picker: the whole display goes out, so say so and ask first.
        mediaEngine.confirmSharingWholeDisplay = { [weak self] display in
            await MessageDialog.ask(
                heading: tr("Share your whole screen?"),
                body: tr("Everyone in the call will see everything on display %@, notifications included, until you stop sharing.", "\(display)"),
                cancel: tr("Cancel"), confirm: tr("Share Screen"), over: self?.router?.frontWindow)
        }
        application.onStartup { [weak self] in self?.startUp() }
        application.onActivate { [weak self] in self?.activate() }
        application.onOpen { [weak self] links in self?.open(links) }
    }

    /// Runs until the last window closes (or, in the background, until Quit); returns the exit status.
    /// A second launch hands its links or its activation to the running instance and returns at once.
    public func run() -> Int32 {
        let status = application.run(arguments: (options.runsInBackground ? ["--gapplication-service"] : []) + options.links)
        preferences.save()
        // Quit within a second of starting, the certificate may still be in the making.
        StartupWork.waitUntilFinished()
        return status
    }

    /// Once, in the primary instance, before any window: sign in, ring sounds and notifications.
    private func startUp() {
        if let css = ResourceLocator.path(of: "confab.css") { Application.loadStyleSheet(path: css) }
        registerActions()
        callViewModel.onMissedCall = { [weak self] missed in self?.notifyMissedCall(missed) }
        bindings = [
            ObservationBinding { [weak self] in self?.updateSounds() },
            ObservationBinding { [weak self] in self?.updateRingNotification() },
            ObservationBinding { [weak self] in self?.rememberLayout() },
            ObservationBinding { [weak self] in self?.updateSessionInhibitor() },
            ObservationBinding { [weak self] in self?.closePreferencesDeviceCheck() },
            ObservationBinding { [weak self] in self?.followCallAttention() },
        ]
        if let saved = preferences.layout { callViewModel.update(participantsLayout: saved) }
        // Started by D-Bus activation or the background autostart entry: no window until the
        // user asks for one, and the app stays signed in after its windows close so calls ring.
        if application.isService { application.hold() }
        terminationSignals = TerminationSignals { [weak self] in self?.terminate() }
        stayConnected()
    }

    /// A log-out, a shutdown or `kill`: a call in progress is left first, for a second at most,
    /// then the app quits. Killed in a call, the others were told our connection dropped (a
    /// one-to-one call then waits a minute for us), not that we hung up. A second signal quits.
    private func terminate() {
        let vm = callViewModel
        guard !isTerminating, vm.isInCallSession || vm.callingState == .outgoing else { return quit() }
        isTerminating = true
        // Quits at whichever comes first: the hang-up answered, or the second gone.
        let deadline = Task { try? await Task.sleep(for: .seconds(1)) }
        Task { await vm.hangUp(); deadline.cancel() }
        Task { [weak self] in
            await deadline.value
            self?.quit()
        }
    }

    /// Shows the app's window: the first time the router's screen, later the current one again.
    private func activate() {
        guard router == nil else { return router?.showAgain() ?? () }
        let application = application, callViewModel = callViewModel, preferences = preferences
        let router = AppRouter(callViewModel: callViewModel, factory: AppRouter.Factory(
            mainWindow: {
                // The window opens at the size it had last time, whatever the page, and maximized
                // if it was (as GNOME's guidelines ask of an app's main window).
                let saved = preferences.windowSize.flatMap { $0.width >= 360 && $0.height >= 480 ? $0 : nil }
                return MainWindow(application: application, size: saved ?? AppPreferences.firstWindowSize,
                                  maximized: preferences.windowMaximized) { width, height, maximized in
                    preferences.rememberWindowSize(width: width, height: height, maximized: maximized)
                }
            },
            home: { HomePage(callViewModel: callViewModel) { [unowned self] link in self.open(link) } },
            lobby: { [unowned self] info in self.makeLobby(info) },
            outgoing: { [unowned self] in
                let page = OutgoingCallPage(callViewModel: callViewModel, preview: self.cameraPreview) { [unowned self] in
                    DeviceChoice.pick(from: self.devices.devicesNow().filter { $0.kind == .camera },
                                      preferredID: self.preferences.preferredDeviceID(for: .camera))
                }
                // While it rings: an answer is at least a second away, most often more.
                page.onClose = self.buildCallPageAhead(for: page)
                return page
            },
            call: { [unowned self] call in
                JoinTimeline.mark("call-page-start")
                defer { JoinTimeline.mark("call-page-built") }
                // Built while the lobby showed, unless the join came first (or not from a lobby).
                if !self.callPages.isReady { JoinTimeline.mark("call-page-built-at-join") }
                let page = self.callPages.take()
                page.bind(to: call)
                page.selfViewCorner = self.preferences.selfViewCorner
                return page
            },
            ended: { ended in CallEndedPage(callViewModel: callViewModel, ended: ended) },
            incoming: { [unowned self] call in
                let window = IncomingCallWindow(application: application, callViewModel: callViewModel, call: call)
                // While it rings: accepting takes a person a second or more.
                window.onClose = self.buildCallPageAhead(for: window)
                return window
            },
            minimized: { [unowned self] call in
                MinimizedCallWindow(application: application, callViewModel: callViewModel, call: call, media: self.mediaEngine)
            }))
        self.router = router
        PermissionsPrompt.install(callViewModel: callViewModel, useTestDevices: options.useTestDevices)
        if let call = options.call {
            callViewModel.enterLobby(call, members: [])
        }
        router.start()
    }

    /// `confab:` links from this launch or forwarded by a later one: each opens its call's lobby
    /// when no call is under way.
    private func open(_ links: [String]) {
        for text in links {
            guard let link = CallLink(text) else {
                print("confab: \(text) is not a Confab link (expected confab://join/TYPE/ID)")
                continue
            }
            guard callViewModel.callingState == .idle else {
                print("confab: not opening \(link.call): a call is already under way")
                continue
            }
            open(link)
        }
        activate()
    }

    /// Opens the lobby of a link's call; its secret goes with every later request for that call.
    private func open(_ link: CallLink) {
        if let secret = link.secret { coordinator.useLink(secret: secret, for: link.call) }
        callViewModel.enterLobby(link.call, members: [])
    }

    // MARK: Sounds, notifications, preferences

    /// Ringing loops while a call rings in or out, on the chosen speaker; it stops otherwise.
    private func updateSounds() {
        let sound = callViewModel.callSound
        if sounds.playing == nil, soundsVolume != preferences.ringVolume {
            soundsVolume = preferences.ringVolume
            sounds = CallSoundPlayer(volume: soundsVolume)
        }
        // Every calling-state change passes here; only look for speakers when a ring must play.
        guard sound != nil else { return sounds.play(nil, speaker: nil) }
        let speakers = devices.devicesNow().filter { $0.kind == .speaker }
        sounds.play(sound, speaker: DeviceChoice.pick(from: speakers, preferredID: preferences.preferredDeviceID(for: .speaker)),
                    devices: devices)
    }

    /// While a call rings and none of our windows has the focus, a notification with Accept and
    /// Decline is shown; it is withdrawn as soon as the ring ends.
    private func updateRingNotification() {
        if case .incoming(let call) = callViewModel.callingState {
            guard !ringNotificationShown, !application.hasActiveWindow else { return }
            ringNotificationShown = true
            application.sendNotification(id: Self.ringNotificationID, title: tr("%@ is calling", call.caller.name),
                                         body: call.video ? tr("Video call · %@", "\(call.cid)") : tr("Call · %@", "\(call.cid)"), urgent: true,
                                         buttons: [(tr("Decline"), "app.decline-call"), (tr("Accept"), "app.accept-call")])
        } else if ringNotificationShown {
            ringNotificationShown = false
            application.withdrawNotification(id: Self.ringNotificationID)
        }
    }

    /// A ring we did not take stays in the desktop's notification list, as GNOME Calls' missed
    /// calls do, whether or not a window has the focus: a call that came while the user was away
    /// or in another call is not lost. One per caller, replaced by their next; Call back rings
    /// them in a new call.
    private func notifyMissedCall(_ missed: MissedCall) {
        let caller = missed.ring.caller
        missedCalls[caller.id] = missed
        let body = missed.whileBusy ? tr("While you were in another call") : missed.ring.video ? tr("Video call") : tr("Call")
        application.sendNotification(id: "missed-call-\(caller.id)", title: tr("Missed call from %@", caller.name), body: body,
                                     urgent: false, buttons: [(tr("Call Back"), "app.call-back::\(caller.id)")])
    }

    /// A chat message or a knock while none of our windows has the focus becomes a desktop
    /// notification (one per kind, replaced by the next); clicking it shows the call.
    private func followCallAttention() {
        guard let call = callViewModel.activeCall else { return }
        call.onAttentionNeeded = { [weak self] attention in
            guard let self, !self.application.hasActiveWindow else { return }
            switch attention {
            case .chatMessage(let sender, let text):
                self.application.sendNotification(id: "call-chat", title: sender, body: text, urgent: false, buttons: [])
            case .knock(let name):
                self.application.sendNotification(id: "call-knock", title: tr("%@ asks to join", name),
                                                  body: tr("Let them in from the call’s People list."), urgent: false, buttons: [])
            }
        }
    }

    private func registerActions() {
        let vm = callViewModel
        application.addAction("accept-call") { [weak self, weak vm] in
            guard let vm, case .incoming(let call) = vm.callingState else { return }
            Task { await vm.acceptCall(call.cid) }
            // Accepted from the notification while no window is open: show the call.
            self?.activate()
        }
        application.addAction("decline-call") { [weak vm] in
            guard let vm, case .incoming(let call) = vm.callingState else { return }
            Task { await vm.rejectCall(call.cid) }
        }
        application.addAction("call-back", takingString: { [weak self, weak vm] callerID in
            guard let self, let vm, let missed = self.missedCalls[callerID] else { return }
            if vm.callBack(missed) {
                self.missedCalls[callerID] = nil
            } else {
                // Clicking a notification's button takes it away: in the middle of a call it
                // is sent again, so that it is still in the list when the call ends.
                self.notifyMissedCall(missed)
            }
            self.activate()
        })
        application.addAction("about") { [weak self] in self?.showAbout() }
        for shortcut in AppShortcut.allCases {
            application.addAction(shortcut.rawValue) { [weak self] in self?.perform(shortcut) }
            application.setAccelerators([shortcut.accelerator], for: "app.\(shortcut.rawValue)")
        }
    }

    /// What each global shortcut does; outside the screens it is meant for, nothing.
    private func perform(_ shortcut: AppShortcut) {
        let vm = callViewModel
        let inCall = vm.callingState == .inCall || vm.callingState == .reconnecting
        let callPage = router?.callPage
        switch shortcut {
        case .toggleMicrophone:
            // The lobby's toggles edit the settings the call starts with; in a call they act at once.
            if case .lobby = vm.callingState { vm.toggleMicrophoneEnabled() } else if inCall { vm.toggleMicrophoneEnabled() }
        case .toggleCamera:
            if case .lobby = vm.callingState { vm.toggleCameraEnabled() } else if inCall { vm.toggleCameraEnabled() }
        case .shareScreen:
            if inCall, let call = vm.activeCall { CallPage.toggleScreenshare(call) }
        case .hangUp:
            if inCall || vm.callingState == .joining || vm.callingState == .outgoing { Task { await vm.hangUp() } }
        case .nextLayout:
            guard inCall else { return }
            let all = ParticipantsLayout.allCases
            vm.update(participantsLayout: all[((all.firstIndex(of: vm.participantsLayout) ?? 0) + 1) % all.count])
        case .participants:
            callPage?.toggleParticipants()
        case .raiseHand:
            if inCall, let call = vm.activeCall, call.canRaiseHand { Task { await call.toggleOwnHand() } }
        case .toggleMinimized:
            if inCall { vm.isMinimized.toggle() }
        case .fullScreen:
            if callPage != nil { router?.mainWindow?.window.toggleFullscreen() }
        case .shortcuts:
            ShortcutsHelp.present(over: router?.frontWindow)
        case .preferences:
            showPreferences()
        case .quit:
            // Quitting hangs up: in a call (or ringing out) it asks first, as ending anything in
            // progress should, since Ctrl+Q sits beside the call's own shortcuts.
            guard vm.isInCallSession || vm.callingState == .outgoing else { return quit() }
            Task { [weak self, weak vm] in
                guard let self, await MessageDialog.ask(
                    heading: tr("Leave the call and quit?"), body: tr("Quitting Confab hangs up."), cancel: tr("Cancel"),
                    confirm: tr("Leave and Quit"), destructive: true, over: self.router?.frontWindow) else { return }
                await vm?.hangUp()
                self.quit()
            }
        }
    }

    private func quit() {
        // Quitting takes the windows down without asking them to close: the main window's
        // size and maximized state are kept here, as a close would keep them.
        if router?.mainWindow?.isVisible == true { router?.mainWindow?.rememberCurrentSize() }
        application.quit()
    }

    private func showAbout() {
        AboutWindow.present(AboutWindow.Details(
            name: "Confab", iconName: Self.applicationID, version: Self.version, developer: tr("The Confab developers"),
            comments: tr("Video calls for the Linux desktop")), over: router?.frontWindow)
    }

    private func rememberLayout() {
        preferences.layout = callViewModel.participantsLayout
    }

    /// No suspend and no screen blanking while a call is joining or running (as GNOME Calls and
    /// Dino do), and a log-out or shutdown asks first: it would end the call. The reason is
    /// what GNOME shows beside the app in its log-out dialog, so it is in the user's language.
    private func updateSessionInhibitor() {
        let inCall: Bool
        switch callViewModel.callingState {
        case .joining, .inCall, .reconnecting: inCall = true
        default: inCall = false
        }
        if inCall, inhibitCookie == nil {
            // Translators: why Confab holds off log-out, suspend and the screen blanking; GNOME shows it
            // beside the app in its log-out dialog.
            inhibitCookie = application.inhibitLogoutSuspendAndIdle(reason: tr("In a call"))
        } else if !inCall, let cookie = inhibitCookie {
            application.uninhibit(cookie)
            inhibitCookie = nil
        }
    }

    private func showPreferences() {
        if let preferencesWindow { return preferencesWindow.present() }
        let idle = callViewModel.callingState == .idle
        let window = AppPreferencesWindow(
            application: application, preferences: preferences, callViewModel: callViewModel, cameraPreview: cameraPreview,
            makeDevicesCheck: {
                guard idle else { return nil }
                return LobbyViewModel(info: LobbyInfo(callId: "preferences", callType: .default, participants: []),
                                      callViewModel: self.callViewModel, deviceSource: self.devices,
                                      microphoneLevels: self.microphoneMeter, cameraPreview: self.cameraPreview,
                                      latencyProbe: nil, preferences: self.preferences)
            },
            onRingVolumeChanged: { [weak self] _ in self?.updateSounds() },
            onClosed: { [weak self] in self?.preferencesWindow = nil })
        preferencesWindow = window
        window.present()
    }

    /// A lobby or a call needs the camera and microphone the Preferences window is checking.
    private func closePreferencesDeviceCheck() {
        guard callViewModel.callingState != .idle, preferencesWindow?.isCheckingDevices == true else { return }
        preferencesWindow?.close()
        preferencesWindow = nil
    }

    /// Signs in to the coordinator and keeps trying while it is unreachable: an idle app that is
    /// connected can be rung. Once signed in, the client reconnects by itself.
    private func stayConnected() {
        let coordinator = coordinator, callViewModel = callViewModel
        Task {
            var delay: Duration = .milliseconds(500)
            while true {
                do {
                    try await coordinator.connect()
                    callViewModel.serverConnection = .signedIn
                    return
                } catch {
                    // A refused certificate is told as such: retrying will not fix it, --ca-file may.
                    if let error = error as? CallError, error.kind == .serverNotTrusted {
                        callViewModel.serverConnection = .notTrusted(message: error.message)
                    } else {
                        callViewModel.serverConnection = .unreachable
                    }
                    // The error names the address (the last one tried) and, for a refused
                    // certificate, what to do about it.
                    print("confab: \(error); retrying in \(delay)")
                    try? await Task.sleep(for: delay)
                    delay = min(delay * 2, .seconds(10))
                }
            }
        }
    }

    private func makeLobby(_ info: LobbyInfo) -> LobbyPage {
        let lobby = LobbyViewModel(info: info, callViewModel: callViewModel, deviceSource: devices,
                                   microphoneLevels: microphoneMeter, cameraPreview: cameraPreview,
                                   latencyProbe: TCPLatencyProbe(serverURL: coordinator.serverURL),
                                   preferences: preferences)
        let page = LobbyPage(callViewModel: callViewModel, lobby: lobby, cameraPreview: cameraPreview)
        // The call page is built while the person looks at themselves: just after the first
        // picture, or after a while when none comes (camera off).
        page.onClose = buildCallPageAhead(for: page, in: 1.5)
        page.onFirstPicture = { [weak self, weak page] in
            guard let self, let page else { return }
            _ = self.buildCallPageAhead(for: page, in: 0.1)
        }
        return page
    }

    /// Builds the call page ahead of a join (the lobby's, or a ring's answer) in `seconds`;
    /// what it returns is for the screen to call as it closes: the join has taken the page by
    /// then (the next screen is made before the old one closes), and otherwise it goes.
    private func buildCallPageAhead(for screen: AnyObject, in seconds: Double = 0.3) -> @MainActor () -> Void {
        let reserve = callPages
        reserve.prepare(in: seconds, for: screen) { JoinTimeline.mark("call-page-built-ahead") }
        return { [weak screen] in screen.map(reserve.discard) }
    }

    /// A call page not yet bound to a call, with what the app gives every call page.
    private func makeCallPage() -> CallPage {
        let page = CallPage(callViewModel: callViewModel, media: mediaEngine,
                            devices: CallDevicesPopover(devices: devices, preferences: preferences,
                                                        onChange: { [unowned self] in self.mediaEngine.devicesChanged() },
                                                        onRememberedDevice: { [weak self] change, nowUsing in
                                                            self?.callViewModel.localMedia.rememberedDeviceChanged(change, nowUsing: nowUsing)
                                                        }))
        page.onTitleChanged = { [weak self] in self?.router?.mainWindow?.refreshTitle() }
        page.onSelfViewCornerMoved = { [weak self] corner in self?.preferences.selfViewCorner = corner }
        return page
    }
}

/// Finds data files (CSS, sounds): installed under share/confab, or in the source tree when
/// run from a checkout (`make run`).
enum ResourceLocator {
    /// Where the compiled translations are: installed under share/locale, or compiled into
    /// .build/locale by `make` (`meson-helpers/compile-translations`) for a run from the checkout.
    static var localeDirectory: String? {
        var candidates: [String] = []
        if let dir = ProcessInfo.processInfo.environment["CONFAB_LOCALE_DIR"] { candidates.append(dir) }
        // .build/debug is a link to .build/<triple>/debug: look beside both.
        let program = URL(fileURLWithPath: CommandLine.arguments[0])
        for binDir in [program, program.resolvingSymlinksInPath()].map({ $0.deletingLastPathComponent() }) {
            candidates.append(binDir.appendingPathComponent("../share/locale").standardized.path)
            candidates.append(binDir.appendingPathComponent("../locale").standardized.path)
        }
        // The first folder that holds a Confab catalog for some language.
        return candidates.first { directory in
            let languages = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return languages.contains { FileManager.default.fileExists(atPath: "\(directory)/\($0)/LC_MESSAGES/confab.mo") }
        }
    }

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
