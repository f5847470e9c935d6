@testable import ConfabCore
import Foundation
import XCTest

final class LobbyViewModel_Tests: XCTestCase {
    private struct Harness {
        let call: CallViewModel
        let devices: FakeDeviceSource
        let camera: FakeCameraPreview
        let microphone: FakeMicrophone
        let preferences: InMemoryDevicePreferences
        let subject: LobbyViewModel
    }

    @MainActor
    private func makeHarness(devices: [MediaDevice] = Devices.all, roundTrip: Duration?? = nil,
                             preferences: InMemoryDevicePreferences? = nil,
                             settings: CallSettings = .default, callID: CallID = CallID(type: .default, id: "standup")) -> Harness {
        let preferences = preferences ?? InMemoryDevicePreferences()
        let call = CallViewModel(currentUser: User(id: "ada"), callSettings: settings)
        call.enterLobby(callID, members: [Member(user: User(id: "ada")), Member(user: User(id: "bob"))])
        guard case .lobby(let info) = call.callingState else { fatalError("not in lobby") }
        let source = FakeDeviceSource(devices)
        let camera = FakeCameraPreview()
        let microphone = FakeMicrophone()
        let subject = LobbyViewModel(info: info, callViewModel: call, deviceSource: source, microphoneLevels: microphone,
                                     cameraPreview: camera, latencyProbe: roundTrip.map { FakeLatencyProbe(roundTrip: $0) },
                                     preferences: preferences, microphoneChecker: MicrophoneChecker(valueLimit: 3))
        return Harness(call: call, devices: source, camera: camera, microphone: microphone, preferences: preferences, subject: subject)
    }

    func test_start_choosesDefaultDevicesAndStartsBothChecks() { onMain {
        let h = makeHarness()
        h.subject.start()
        XCTAssertEqual(h.subject.selectedCamera, Devices.builtInCamera)
        XCTAssertEqual(h.subject.selectedMicrophone, Devices.builtInMic)
        XCTAssertEqual(h.subject.selectedSpeaker, Devices.speakers)
        XCTAssertEqual(h.camera.running, Devices.builtInCamera)
        XCTAssertEqual(h.microphone.metering, Devices.builtInMic)
        XCTAssertEqual(h.subject.cameraState, .running)
        XCTAssertEqual(h.subject.microphoneState, .running)
        XCTAssertEqual(h.subject.cameras.count, 2)
    } }

    func test_participants_excludeCurrentUser() { onMain {
        XCTAssertEqual(makeHarness().subject.participants.map(\.user.id), ["bob"])
    } }

    /// Joined, the lobby stays on screen while the call's media starts (AppRouter): it goes on
    /// saying who is in and offering the link, as last seen, not as when it opened.
    func test_afterTheLobby_participantsAndLinkStayAsLastSeen() { onMain {
        let h = makeHarness()
        let standup = CallID(type: .default, id: "standup")
        h.call.enterLobby(standup, members: [Member(user: User(id: "ada")), Member(user: User(id: "bob")), Member(user: User(id: "carol"))])
        XCTAssertEqual(h.subject.participants.map(\.user.id), ["bob", "carol"])
        h.call.closeLobby()
        XCTAssertEqual(h.subject.participants.map(\.user.id), ["bob", "carol"], "back to who was in when the lobby opened")
    } }

    func test_cameraToggledOff_previewStops_andBackOnRestarts() { onMain {
        let h = makeHarness()
        h.subject.start()
        h.subject.toggleCamera()
        settle()
        XCTAssertNil(h.camera.running)
        XCTAssertEqual(h.subject.cameraState, .off)
        h.subject.toggleCamera()
        settle()
        XCTAssertEqual(h.camera.running, Devices.builtInCamera)
        XCTAssertEqual(h.subject.cameraState, .running)
        XCTAssertFalse(h.camera.startedWhileRunning)
    } }

    func test_privacySwitchRefusesCameraAndMicrophone_previewAndMeterStop_andComeBackWhenAllowed() { onMain {
        let h = makeHarness()
        h.subject.start()
        h.call.localMedia.updateDeviceAccess(DeviceAccess(camera: false, microphone: false))
        settle()
        XCTAssertNil(h.camera.running, "the camera preview keeps running against the privacy switch")
        XCTAssertNil(h.microphone.metering, "the microphone keeps being read against the privacy switch")
        h.call.localMedia.updateDeviceAccess(DeviceAccess(camera: true, microphone: true))
        settle()
        XCTAssertEqual(h.camera.running, Devices.builtInCamera)
        XCTAssertEqual(h.microphone.metering, Devices.builtInMic)
    } }

    func test_callSettingsChangedElsewhere_lobbyFollows() { onMain {
        // Ctrl+D and the in-call controls edit the CallViewModel directly.
        let h = makeHarness()
        h.subject.start()
        h.call.toggleMicrophoneEnabled()
        settle()
        XCTAssertNil(h.microphone.metering)
        XCTAssertEqual(h.subject.microphoneState, .off)
    } }

    func test_lobbyOpenedWithCameraOff_noPreview() { onMain {
        let h = makeHarness(settings: CallSettings(videoOn: false))
        h.subject.start()
        XCTAssertNil(h.camera.running)
        XCTAssertEqual(h.subject.cameraState, .off)
    } }

    /// Nobody's camera is sent in an audio room, whatever their role: its lobby previewed the
    /// camera all the same, and its toggle said nothing. The microphone is checked as usual
    /// (hosts speak; whether we are one is the join's to say). Leaving the lobby, the rule goes.
    func test_anAudioRoomsLobby_previewsNoCamera_andSaysWhy_butChecksTheMicrophone() { onMain {
        let h = makeHarness(callID: CallID(type: .audioRoom, id: "townhall"))
        h.subject.start()
        XCTAssertNil(h.camera.running, "the audio room's lobby previews the camera")
        XCTAssertEqual(h.subject.cameraState, .off)
        XCTAssertNotNil(h.call.localMedia.cameraRefusal)
        XCTAssertEqual(h.microphone.metering, Devices.builtInMic)
        XCTAssertNil(h.call.localMedia.microphoneRefusal)
        XCTAssertTrue(h.call.callSettings.videoOn, "the user's own choice was changed")
        h.subject.close()
        XCTAssertNil(h.call.localMedia.cameraRefusal, "the audio room's rule outlived its lobby")
        XCTAssertTrue(h.call.localMedia.effectiveSettings.videoOn)
    } }

    func test_noDevicesAtAll_saysSoWithoutStartingAnything() { onMain {
        let h = makeHarness(devices: [])
        h.subject.start()
        XCTAssertEqual(h.subject.cameraState, .noCamera)
        XCTAssertEqual(h.subject.microphoneState, .noMicrophone)
        XCTAssertNil(h.camera.running)
        XCTAssertNil(h.microphone.metering)
        XCTAssertFalse(h.subject.showsMicrophoneWarning)
    } }

    func test_userPicksCamera_previewSwitches_andChoiceIsRemembered() { onMain {
        let h = makeHarness()
        h.subject.start()
        h.subject.selectDevice(Devices.usbCamera)
        settle()
        XCTAssertEqual(h.camera.running, Devices.usbCamera)
        XCTAssertFalse(h.camera.startedWhileRunning, "two previews open at once")
        XCTAssertEqual(h.preferences.choices[.camera], Devices.usbCamera.id)

        let next = makeHarness(preferences: h.preferences)
        next.subject.start()
        XCTAssertEqual(next.subject.selectedCamera, Devices.usbCamera)
    } }

    func test_selectedCameraUnplugged_fallsBackToDefault_andReturnsWhenReplugged() { onMain {
        let preferences = InMemoryDevicePreferences()
        preferences.choices[.camera] = Devices.usbCamera.id
        let h = makeHarness(preferences: preferences)
        h.subject.start()
        XCTAssertEqual(h.camera.running, Devices.usbCamera)

        h.devices.replug(Devices.all.filter { $0 != Devices.usbCamera })
        XCTAssertEqual(h.camera.running, Devices.builtInCamera)
        XCTAssertEqual(h.subject.cameras, [Devices.builtInCamera])

        h.devices.replug(Devices.all)
        XCTAssertEqual(h.camera.running, Devices.usbCamera)
    } }

    /// A headset plugged in and made the system's default (or another default chosen in
    /// Settings) is followed when the user chose nothing; a remembered choice stays.
    func test_systemDefaultMoves_followedUnlessADeviceWasChosen() { onMain {
        let headsetDefault = MediaDevice(id: Devices.headsetMic.id, name: Devices.headsetMic.name, kind: .microphone, isDefault: true)
        let builtInNotDefault = MediaDevice(id: Devices.builtInMic.id, name: Devices.builtInMic.name, kind: .microphone)
        let moved = Devices.all.filter { $0.kind != .microphone } + [headsetDefault, builtInNotDefault]

        let h = makeHarness()
        h.subject.start()
        XCTAssertEqual(h.microphone.metering?.id, Devices.builtInMic.id)
        h.devices.replug(moved)
        XCTAssertEqual(h.microphone.metering?.id, Devices.headsetMic.id, "the new default is followed")
        XCTAssertEqual(h.subject.selectedMicrophone?.id, Devices.headsetMic.id)

        let preferences = InMemoryDevicePreferences()
        preferences.choices[.microphone] = Devices.builtInMic.id
        let chosen = makeHarness(preferences: preferences)
        chosen.subject.start()
        chosen.devices.replug(moved)
        XCTAssertEqual(chosen.microphone.metering?.id, Devices.builtInMic.id, "the user's choice stays")
    } }

    /// Where the sound server follows the default itself, its entry is what the lobby opens
    /// unless the user chose a device; a choice still wins.
    func test_systemDefaultEntry_chosenUnlessADeviceWasChosen() { onMain {
        let following = MediaDevice.systemDefault(.microphone)
        let h = makeHarness(devices: [following] + Devices.all)
        h.subject.start()
        XCTAssertEqual(h.microphone.metering?.id, following.id)
        XCTAssertTrue(h.microphone.metering?.followsSystemDefault ?? false)

        let preferences = InMemoryDevicePreferences()
        preferences.choices[.microphone] = Devices.headsetMic.id
        let chosen = makeHarness(devices: [following] + Devices.all, preferences: preferences)
        chosen.subject.start()
        XCTAssertEqual(chosen.microphone.metering?.id, Devices.headsetMic.id)
    } }

    /// Only the default flag changed: the running microphone is not reopened.
    func test_sameDeviceNoLongerDefault_keepsRunning() { onMain {
        let h = makeHarness()
        h.subject.start()
        let starts = h.microphone.startCount
        let builtInNotDefault = MediaDevice(id: Devices.builtInMic.id, name: Devices.builtInMic.name, kind: .microphone)
        h.devices.replug(Devices.all.filter { $0.kind != .microphone } + [Devices.headsetMic, builtInNotDefault])
        XCTAssertEqual(h.microphone.metering?.id, Devices.builtInMic.id, "no default named: the one in use stays")
        XCTAssertEqual(h.microphone.startCount, starts, "not reopened")
    } }

    func test_onlyCameraUnplugged_showsNoCamera() { onMain {
        let h = makeHarness()
        h.subject.start()
        h.devices.replug(Devices.all.filter { $0.kind != .camera })
        XCTAssertNil(h.camera.running)
        XCTAssertEqual(h.subject.cameraState, .noCamera)
    } }

    func test_silentMicrophone_showsWarning_untilSoundArrives() { onMain {
        let h = makeHarness()
        h.subject.start()
        h.microphone.emit(-100, times: 2)
        XCTAssertFalse(h.subject.showsMicrophoneWarning)
        h.microphone.emit(-100)
        XCTAssertTrue(h.subject.showsMicrophoneWarning)
        h.microphone.emit(-30)
        XCTAssertFalse(h.subject.showsMicrophoneWarning)
    } }

    func test_silentMicrophoneTurnedOff_warningHidden() { onMain {
        let h = makeHarness()
        h.subject.start()
        h.microphone.emit(-100, times: 3)
        h.subject.toggleMicrophone()
        settle()
        XCTAssertFalse(h.subject.showsMicrophoneWarning)
    } }

    func test_cameraFails_stateSaysWhy_andToggleRetries() { onMain {
        let h = makeHarness()
        h.subject.start()
        h.camera.fail("Camera is in use by another application")
        XCTAssertEqual(h.subject.cameraState, .failed("Camera is in use by another application"))
        XCTAssertNil(h.camera.running)
        h.subject.toggleCamera(); settle()
        h.subject.toggleCamera(); settle()
        XCTAssertEqual(h.camera.running, Devices.builtInCamera)
        XCTAssertEqual(h.camera.startCount, 2)
    } }

    func test_microphoneFails_stateSaysWhy() { onMain {
        let h = makeHarness()
        h.subject.start()
        h.microphone.fail("Microphone disconnected")
        XCTAssertEqual(h.subject.microphoneState, .failed("Microphone disconnected"))
        XCTAssertNil(h.microphone.metering)
    } }

    func test_fastServer_qualityExcellent_noWarning() { onMain {
        let h = makeHarness(roundTrip: .some(.milliseconds(5)))
        h.subject.start()
        waitUntil { h.subject.connectionQuality == .excellent }
        XCTAssertFalse(h.subject.showsConnectionWarning)
        h.subject.stop()
    } }

    func test_unreachableServer_qualityPoor_withWarning() { onMain {
        let h = makeHarness(roundTrip: .some(nil))
        XCTAssertEqual(h.subject.connectionQuality, .unknown)
        h.subject.start()
        waitUntil { h.subject.connectionQuality == .poor }
        XCTAssertTrue(h.subject.showsConnectionWarning)
        h.subject.stop()
    } }

    func test_close_stopsEverything_andReturnsToIdle() { onMain {
        let h = makeHarness()
        h.subject.start()
        h.subject.close()
        XCTAssertNil(h.camera.running)
        XCTAssertNil(h.microphone.metering)
        XCTAssertFalse(h.devices.isMonitoring)
        XCTAssertEqual(h.call.callingState, .idle)
    } }
}

final class JSONFileDevicePreferences_Tests: XCTestCase {
    private var directory: URL!

    override func setUp() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-prefs-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    func test_choiceSaved_readBackByNewInstance() { onMain {
        let file = directory.appendingPathComponent("devices.json")
        JSONFileDevicePreferences(fileURL: file).setPreferredDeviceID("/dev/video2", for: .camera)
        XCTAssertEqual(JSONFileDevicePreferences(fileURL: file).preferredDeviceID(for: .camera), "/dev/video2")
        XCTAssertNil(JSONFileDevicePreferences(fileURL: file).preferredDeviceID(for: .microphone))
    } }

    func test_damagedFile_meansNoPreference() { onMain {
        let file = directory.appendingPathComponent("devices.json")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data("{not json".utf8).write(to: file)
        XCTAssertNil(JSONFileDevicePreferences(fileURL: file).preferredDeviceID(for: .camera))
    } }
}
