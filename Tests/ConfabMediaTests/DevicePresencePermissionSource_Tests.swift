import ConfabCore
@testable import ConfabMedia
import Foundation
import XCTest

/// No device is "unavailable", not a refusal; a video node this account cannot open is a refusal
/// that names the node.
final class DevicePresencePermissionSource_Tests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("confab-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    @MainActor private func reports(devices: [MediaDevice]) -> [PermissionDevice: PermissionReport] {
        let source = DevicePresencePermissionSource(devices: ListedDevices(devices), deviceDirectory: directory.path)
        var reports: [PermissionDevice: PermissionReport] = [:]
        source.start { device, report in reports[device] = report }
        source.stop()
        return reports
    }

    func test_noCameraNoNode_isUnavailable_notDenied() { onMain {
        let reports = reports(devices: [MediaDevice(id: "mic", name: "Mic", kind: .microphone)])
        XCTAssertEqual(reports[.camera]?.state, .unavailable)
        XCTAssertEqual(reports[.microphone]?.state, .granted)
    } }

    func test_listedCamera_isGranted() { onMain {
        let reports = reports(devices: [MediaDevice(id: "cam", name: "Cam", kind: .camera)])
        XCTAssertEqual(reports[.camera]?.state, .granted)
        XCTAssertEqual(reports[.microphone]?.state, .unavailable)
    } }

    func test_unreadableVideoNode_isDenied_withItsPath() throws {
        try XCTSkipIf(geteuid() == 0, "root opens any node; run as a user to check the video-group case")
        let node = directory.appendingPathComponent("video0")
        FileManager.default.createFile(atPath: node.path, contents: nil, attributes: [.posixPermissions: 0o000])
        onMain {
            XCTAssertEqual(reports(devices: [])[.camera]?.state, .denied(.deviceNotReadable(path: node.path)))
        }
    }

    func test_readableVideoNode_isGranted_evenBeforeTheMonitorListsIt() { onMain {
        FileManager.default.createFile(atPath: directory.appendingPathComponent("video0").path, contents: nil,
                                       attributes: [.posixPermissions: 0o666])
        XCTAssertEqual(reports(devices: [])[.camera]?.state, .granted)
    } }
}

@MainActor
private final class ListedDevices: DeviceSource {
    let devices: [MediaDevice]
    init(_ devices: [MediaDevice]) { self.devices = devices }
    func startMonitoring(onChange: @escaping @MainActor ([MediaDevice]) -> Void) { onChange(devices) }
    func stopMonitoring() {}
}
