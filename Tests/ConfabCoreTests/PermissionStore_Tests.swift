@testable import ConfabCore
import Foundation
import XCTest

/// How the store combines its sources, and what the banner shows for the combination.
final class PermissionStore_Tests: XCTestCase {
    // MARK: Combining reports on one device

    func test_combine_noReports_isUnknown() {
        XCTAssertEqual(PermissionStore.combine([]), .unknown)
    }

    func test_combine_noDevice_winsOverARefusal() {
        let combined = PermissionStore.combine([PermissionReport(.denied(.privacySetting)), PermissionReport(.unavailable)])
        XCTAssertEqual(combined.state, .unavailable, "Settings cannot fix a missing camera")
        XCTAssertFalse(combined.canRequest)
    }

    func test_combine_anyRefusal_winsOverGrants_andNamesTheFirstReason() {
        let combined = PermissionStore.combine([PermissionReport(.granted), PermissionReport(.denied(.privacySetting)),
                                                PermissionReport(.denied(.portal))])
        XCTAssertEqual(combined.state, .denied(.privacySetting))
    }

    func test_combine_refusalThatOnlyAsking_canLift_canRequest() {
        XCTAssertTrue(PermissionStore.combine([PermissionReport(.denied(.portal), canRequest: true)]).canRequest)
        XCTAssertFalse(PermissionStore.combine([PermissionReport(.denied(.portal), canRequest: true),
                                                PermissionReport(.denied(.privacySetting))]).canRequest,
                       "asking the portal does not turn the privacy switch back on")
    }

    func test_combine_unaskedPortal_outweighsGrants() {
        let combined = PermissionStore.combine([PermissionReport(.granted), PermissionReport(.unknown, canRequest: true)])
        XCTAssertEqual(combined, PermissionReport(.unknown, canRequest: true))
    }

    func test_combine_grantAndSilence_isGranted() {
        XCTAssertEqual(PermissionStore.combine([PermissionReport(.granted), .unknown]).state, .granted)
    }

    // MARK: The store over live sources

    func test_store_followsSourcesLive_perDevice() { onMain {
        let privacy = FakePermissionSource(), devices = FakePermissionSource()
        let store = PermissionStore(sources: [privacy, devices])
        store.start()
        devices.report(.camera, .granted)
        devices.report(.microphone, .granted)
        XCTAssertEqual(store.cameraState, .granted)

        privacy.report(.camera, .denied(.privacySetting))
        XCTAssertEqual(store.cameraState, .denied(.privacySetting))
        XCTAssertFalse(store.hasCameraPermission)
        XCTAssertTrue(store.hasMicrophonePermission, "one device's refusal leaves the other alone")

        privacy.report(.camera, .granted)
        XCTAssertEqual(store.cameraState, .granted, "access back without a restart")
    } }

    func test_store_noCameraPresent_isUnavailable_notDenied() { onMain {
        let devices = FakePermissionSource()
        let store = PermissionStore(sources: [devices])
        store.start()
        devices.report(.camera, .unavailable)
        XCTAssertEqual(store.cameraState, .unavailable)
        XCTAssertTrue(store.hasCameraPermission)
    } }

    func test_store_requestAccess_asksOnlySourcesThatCan() { onMain {
        let portal = FakePermissionSource(), privacy = FakePermissionSource()
        let store = PermissionStore(sources: [privacy, portal])
        store.start()
        portal.report(.camera, .unknown, canRequest: true)
        XCTAssertTrue(store.canRequestCamera)
        portal.grantsOnRequest = true
        var granted: Bool?
        Task { granted = await store.requestAccess(to: .camera) }
        waitUntil { granted != nil }
        XCTAssertEqual(granted, true)
        XCTAssertEqual(portal.requests, [.camera])
        XCTAssertEqual(privacy.requests, [])
        XCTAssertEqual(store.cameraState, .granted)
    } }

    func test_store_silentMicrophone_isLikelySystemMute_untilSoundComes() { onMain {
        let store = PermissionStore(sources: [])
        store.start()
        let checker = MicrophoneChecker(valueLimit: 3)
        store.followMicrophoneSilence { checker.isSilent }
        XCTAssertEqual(store.microphoneState, .unknown, "still listening")
        for _ in 0..<3 { checker.record(decibels: -.infinity) }
        waitUntil { store.microphoneState == .denied(.likelySystemMute) }
        checker.record(decibels: -30)
        waitUntil { store.microphoneState == .unknown }
        store.stopFollowingMicrophoneSilence()
        XCTAssertEqual(store.microphoneState, .unknown)
    } }

    func test_store_stop_stopsSources_andForgetsState() { onMain {
        let source = FakePermissionSource()
        let store = PermissionStore(sources: [source])
        store.start()
        source.report(.camera, .denied(.privacySetting))
        store.stop()
        XCTAssertFalse(source.isStarted)
        XCTAssertEqual(store.cameraState, .unknown)
    } }
}

// MARK: Fakes

@MainActor
final class FakePermissionSource: PermissionSource {
    let name = "fake"
    private(set) var isStarted = false
    private(set) var requests: [PermissionDevice] = []
    var grantsOnRequest = false
    private var onChange: (@MainActor (PermissionDevice, PermissionReport) -> Void)?

    func start(onChange: @escaping @MainActor (PermissionDevice, PermissionReport) -> Void) {
        isStarted = true
        self.onChange = onChange
    }

    func stop() {
        isStarted = false
        onChange = nil
    }

    func report(_ device: PermissionDevice, _ state: PermissionState, canRequest: Bool = false) {
        onChange?(device, PermissionReport(state, canRequest: canRequest))
    }

    func requestAccess(to device: PermissionDevice) async -> Bool {
        requests.append(device)
        if grantsOnRequest { report(device, .granted) }
        return grantsOnRequest
    }
}

/// A coordinator that joins at once and grants `capabilities`.
@MainActor
final class CapabilitiesCallService: CallService {
    let currentUserID = "ada"
    var capabilities: Set<OwnCapability> = [.sendAudio, .sendVideo]
    func setEventHandler(_ handler: @escaping @MainActor (CallServiceEvent) -> Void) {}
    func getOrCreateCall(_ call: CallID, memberIDs: [String], ring: Bool, video: Bool) async throws -> CallSnapshot {
        CallSnapshot(id: call, createdBy: currentUserID)
    }
    func getCall(_ call: CallID) async throws -> CallSnapshot { CallSnapshot(id: call, createdBy: "bob") }
    func joinCall(_ call: CallID, settings: CallSettings) async throws -> CallSnapshot {
        CallSnapshot(id: call, createdBy: currentUserID, ownCapabilities: capabilities)
    }
    func leaveCall(_ call: CallID) async throws {}
    func acceptCall(_ call: CallID) async throws {}
    func rejectCall(_ call: CallID, reason: RejectionReason) async throws {}
    func endCall(_ call: CallID) async throws {}
    func muteUser(_ userID: String, in call: CallID) async throws {}
    func blockUser(_ userID: String, in call: CallID) async throws {}
    func unblockUser(_ userID: String, in call: CallID) async throws {}
    func kickUser(_ userID: String, in call: CallID) async throws {}
    func pinForEveryone(_ participant: CallParticipant, in call: CallID) async throws {}
    func unpinForEveryone(_ participant: CallParticipant, in call: CallID) async throws {}
}
