import GLibBridge
@testable import ConfabMedia
import XCTest

/// Which of the device monitor's entries the app lists (`GStreamerDeviceSource.usable`). On a
/// GNOME session both PipeWire and PulseAudio (PipeWire's server for its protocol) report each
/// microphone and speaker; PipeWire's element for a microphone does not connect in the app.
final class DeviceListing_Tests: XCTestCase {
    struct Entry: ListedDevice, Equatable {
        var id: String
        var kind: SystemDevice.Kind
        var isPulseAudio: Bool
    }

    func test_aDeviceBothList_isListedOnce_asPulseAudios() {
        let listed = GStreamerDeviceSource.usable([
            Entry(id: "laptop-mic", kind: .microphone, isPulseAudio: false),
            Entry(id: "laptop-mic", kind: .microphone, isPulseAudio: true),
        ])
        XCTAssertEqual(listed, [Entry(id: "laptop-mic", kind: .microphone, isPulseAudio: true)])
    }

    /// A headset just plugged back in: PipeWire lists it a few milliseconds before PulseAudio.
    /// Listed then, a call that took its chosen headset back opened PipeWire's entry, which
    /// failed ("cannot be connected"), and the call went silent.
    func test_aMicrophoneOnlyPipeWireListsYet_whilePulseAudioRuns_isNotListed() {
        let listed = GStreamerDeviceSource.usable([
            Entry(id: "laptop-mic", kind: .microphone, isPulseAudio: false),
            Entry(id: "headset-mic", kind: .microphone, isPulseAudio: false),
            Entry(id: "laptop-mic", kind: .microphone, isPulseAudio: true),
            Entry(id: "laptop-speaker", kind: .speaker, isPulseAudio: true),
        ])
        XCTAssertEqual(listed.map(\.id), ["laptop-mic", "laptop-speaker"])
        XCTAssertTrue(listed.allSatisfy(\.isPulseAudio))
    }

    func test_withoutPulseAudio_PipeWiresDevicesAreListed() {
        let listed = GStreamerDeviceSource.usable([
            Entry(id: "laptop-mic", kind: .microphone, isPulseAudio: false),
            Entry(id: "laptop-speaker", kind: .speaker, isPulseAudio: false),
        ])
        XCTAssertEqual(listed.map(\.id), ["laptop-mic", "laptop-speaker"])
    }

    func test_camerasAreNotPulseAudios_andStayListed() {
        let listed = GStreamerDeviceSource.usable([
            Entry(id: "/dev/video0", kind: .camera, isPulseAudio: false),
            Entry(id: "laptop-mic", kind: .microphone, isPulseAudio: true),
        ])
        XCTAssertEqual(listed.map(\.id), ["laptop-mic", "/dev/video0"])
    }
}
