import ConfabCore
import XCTest

/// Which remembered devices were plugged in or pulled out between two lists of what is there:
/// a call chooses their kinds again, and says so (UI `AChosenMicrophonePluggedBackIn`).
final class DeviceChoice_Tests: XCTestCase {
    private let laptop = MediaDevice(id: "laptop-mic", name: "Laptop", kind: .microphone, isDefault: true)
    private let headset = MediaDevice(id: "headset-mic", name: "Headset", kind: .microphone)
    private let headphones = MediaDevice(id: "headset-out", name: "Headphones", kind: .speaker)
    private let webcam = MediaDevice(id: "usb-cam", name: "Webcam", kind: .camera)

    private func changes(before: [MediaDevice], now: [MediaDevice], remembered: [MediaDevice.Kind: String]) -> [RememberedDeviceChange] {
        DeviceChoice.rememberedDevicesPluggedInOrOut(before: before, now: now, preferredID: { remembered[$0] })
    }

    private func changed(before: [MediaDevice], now: [MediaDevice], remembered: [MediaDevice.Kind: String]) -> [MediaDevice.Kind] {
        changes(before: before, now: now, remembered: remembered).map(\.device.kind)
    }

    func test_theRememberedMicrophone_pulledOut_thenPluggedBackIn() {
        XCTAssertEqual(changes(before: [laptop, headset], now: [laptop], remembered: [.microphone: "headset-mic"]),
                       [RememberedDeviceChange(device: headset, isPluggedIn: false)])
        XCTAssertEqual(changes(before: [laptop], now: [laptop, headset], remembered: [.microphone: "headset-mic"]),
                       [RememberedDeviceChange(device: headset, isPluggedIn: true)])
    }

    func test_anotherDevice_comingOrGoing_changesNothing() {
        XCTAssertEqual(changed(before: [laptop], now: [laptop, headset, webcam], remembered: [.microphone: "laptop-mic"]), [])
        XCTAssertEqual(changed(before: [laptop, headset, webcam], now: [laptop], remembered: [.microphone: "laptop-mic"]), [])
        XCTAssertEqual(changed(before: [laptop], now: [laptop, headset], remembered: [:]), [])
    }

    func test_theRememberedDevice_thereAllAlong_orAwayAllAlong_changesNothing() {
        XCTAssertEqual(changed(before: [laptop, headset], now: [laptop, headset, webcam], remembered: [.microphone: "headset-mic"]), [])
        XCTAssertEqual(changed(before: [laptop], now: [laptop, webcam], remembered: [.microphone: "headset-mic"]), [])
    }

    func test_eachKind_byItsOwnChoice() {
        // The same id under another kind is not the remembered one.
        let oddCamera = MediaDevice(id: "headset-mic", name: "Odd", kind: .camera)
        XCTAssertEqual(changed(before: [], now: [oddCamera, headphones], remembered: [.microphone: "headset-mic", .speaker: "headset-out"]), [.speaker])
    }
}
