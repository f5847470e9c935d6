@testable import ConfabCore
import Foundation
import XCTest

/// What the banner shows for the store's state, the call's needs and the user's dismissal.
final class PermissionsPrompt_Tests: XCTestCase {
    @MainActor private func makePrompt(preferences: PermissionsPromptPreferences? = nil)
        -> (PermissionsPromptViewModel, FakePermissionSource, CallViewModel, CapabilitiesCallService) {
        let source = FakePermissionSource()
        let store = PermissionStore(sources: [source])
        store.start()
        let service = CapabilitiesCallService()
        let call = CallViewModel(currentUser: User(id: "ada"), callService: service)
        call.enterLobby(CallID(type: .default, id: "standup"), members: [])
        return (PermissionsPromptViewModel(store: store, callViewModel: call, preferences: preferences), source, call, service)
    }

    @MainActor private func join(_ call: CallViewModel) {
        var done = false
        Task { await call.joinCall(CallID(type: .default, id: "standup")); done = true }
        waitUntil { done }
    }

    func test_titles_nameWhatIsMissing() { onMain {
        let (prompt, source, _, _) = makePrompt()
        XCTAssertFalse(prompt.isShown)
        source.report(.camera, .denied(.privacySetting))
        XCTAssertEqual(prompt.title, "Camera access required")
        XCTAssertTrue(prompt.isShown)
        source.report(.microphone, .denied(.privacySetting))
        XCTAssertEqual(prompt.title, "Camera and microphone access required")
        XCTAssertEqual(prompt.missingDevices, [.camera, .microphone])
        source.report(.camera, .granted)
        XCTAssertEqual(prompt.title, "Microphone access required")
        source.report(.microphone, .granted)
        XCTAssertFalse(prompt.isShown, "gone by itself when access returns")
    } }

    func test_message_saysWhy_andGivesTheVideoGroupHint() { onMain {
        let (prompt, source, _, _) = makePrompt()
        source.report(.camera, .denied(.deviceNotReadable(path: "/dev/video0")))
        XCTAssertTrue(prompt.message.hasPrefix("Others in the call can't see you."))
        XCTAssertTrue(prompt.message.contains("video group"), prompt.message)
    } }

    func test_message_bothSwitchedOff_saysSoOnce() { onMain {
        let (prompt, source, _, _) = makePrompt()
        source.report(.camera, .denied(.privacySetting))
        source.report(.microphone, .denied(.privacySetting))
        XCTAssertEqual(prompt.message, "Others in the call can't see or hear you. "
                       + "Camera and microphone access are turned off in the system's privacy settings.")
    } }

    func test_unavailableCamera_showsNoBanner() { onMain {
        let (prompt, source, _, _) = makePrompt()
        source.report(.camera, .unavailable)
        XCTAssertFalse(prompt.isShown)
    } }

    func test_inCall_onlyDevicesTheCapabilitiesNeed() { onMain {
        let (prompt, source, call, service) = makePrompt()
        service.capabilities = [.sendAudio]
        join(call)
        XCTAssertEqual(call.callingState, .inCall)
        source.report(.camera, .denied(.privacySetting))
        XCTAssertFalse(prompt.isShown, "a listener without sendVideo does not need the camera")
        source.report(.microphone, .denied(.privacySetting))
        XCTAssertEqual(prompt.title, "Microphone access required")
    } }

    func test_dismiss_hidesForTheRestOfTheCall_thenReturnsNextCall() { onMain {
        let (prompt, source, call, _) = makePrompt()
        source.report(.camera, .denied(.privacySetting))
        prompt.dismiss()
        XCTAssertFalse(prompt.isShown)
        join(call)
        XCTAssertFalse(prompt.isShown, "the lobby and the call are one call")
        var left = false
        Task { await call.hangUp(); left = true }
        waitUntil { left }
        call.enterLobby(CallID(type: .default, id: "standup"), members: [])
        XCTAssertTrue(prompt.isShown, "back next call by default")
    } }

    func test_dismiss_whenPreferenceSaysSo_staysDismissedNextCall_andIsSaved() { onMain {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("confab-\(UUID().uuidString)/permissions.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(#"{"showAgainNextCall": false}"#.utf8).write(to: file)
        let (prompt, source, call, _) = makePrompt(preferences: JSONFilePermissionsPromptPreferences(fileURL: file))
        source.report(.camera, .denied(.privacySetting))
        prompt.dismiss()
        call.enterLobby(CallID(type: .default, id: "other"), members: [])
        XCTAssertFalse(prompt.isShown)
        XCTAssertTrue(JSONFilePermissionsPromptPreferences(fileURL: file).isDismissedForGood, "remembered across runs")
    } }

    func test_preferencesFile_damaged_meansDefaults() { onMain {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("confab-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try? Data("{not json".utf8).write(to: file)
        let preferences = JSONFilePermissionsPromptPreferences(fileURL: file)
        XCTAssertTrue(preferences.showsAgainNextCall)
        XCTAssertFalse(preferences.isDismissedForGood)
    } }
}
