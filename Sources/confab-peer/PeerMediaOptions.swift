import ArgumentParser
import ConfabCore
import Foundation

/// What media the peer sends once in a call: nothing (coordinator only, the default), or a
/// solid-colour test camera and a tone, so another peer can check what it decodes.
struct PeerMediaOptions: ParsableArguments {
    enum Kind: String, ExpressibleByArgument, Sendable {
        /// Coordinator only: no media server connection at all.
        case none
        /// A solid-colour camera and a sine-tone microphone.
        case test
    }

    @Option(help: "Media to send and receive once in a call: none (coordinator only) or test (solid colour + tone).")
    var media: Kind = .none

    @Option(help: "The test camera's colour, RRGGBB.")
    var color: String = "3366CC"

    @Option(help: "The test camera's picture: solid (the colour) or ball (a white ball moving over the colour).")
    var pattern: CameraPattern = .solid

    @Option(help: "The test microphone's tone, Hz.")
    var tone: Double = 440

    @Option(help: "The test microphone's amplitude, 0…1 (0.5 is −9 dBFS RMS; 0 is silence).")
    var volume: Double = 0.5

    @Option(name: .customLong("media-address"),
            help: "Restrict audio/video (ICE) to this local IP address (default: $CONFAB_MEDIA_ADDRESS).")
    var mediaAddress: String?

    @Option(name: .customLong("mute-after"), help: "Seconds in the call before muting the microphone.")
    var muteAfter: Double?

    @Option(name: .customLong("unmute-after"), help: "Seconds in the call before unmuting it again.")
    var unmuteAfter: Double?

    @Option(name: .customLong("camera-off-after"), help: "Seconds in the call before turning the camera off.")
    var cameraOffAfter: Double?

    @Option(name: .customLong("camera-on-after"), help: "Seconds in the call before turning it on again.")
    var cameraOnAfter: Double?

    @Flag(name: .customLong("join-camera-off"), help: "Join with the camera off (turn it on with --camera-on-after).")
    var joinCameraOff = false

    @Flag(name: .customLong("join-without-devices"),
          help: "Join with no camera and no microphone (as if none were plugged in); --switch-devices-after plugs some in.")
    var joinWithoutDevices = false

    @Flag(name: .customLong("camera-stuck"), help: "Make the test camera open but never give a picture, as a stuck camera does.")
    var cameraStuck = false

    @Option(name: .customLong("camera-error-after"),
            help: "Make the test camera fail after this many frames, as an unplugged camera does.")
    var cameraErrorAfter: Int?

    @Option(name: .customLong("switch-devices-after"),
            help: "Seconds in the call before switching to a second camera (--next-color), microphone (--next-volume) and speaker.")
    var switchDevicesAfter: Double?

    @Option(name: .customLong("next-color"), help: "The second test camera's colour, RRGGBB.")
    var nextColor: String = "FFFF00"

    @Option(name: .customLong("next-volume"), help: "The second test microphone's amplitude, 0…1 (same tone).")
    var nextVolume: Double = 0.125

    /// What the peer shares as its screen.
    enum Screen: String, ExpressibleByArgument, Sendable {
        /// A moving SMPTE test pattern, 1280x720.
        case test
        /// The X display named by $DISPLAY.
        case x11
        /// Whatever the user picks in the desktop's ScreenCast portal dialog (PipeWire).
        case portal

        var source: ScreenshareSource {
            switch self {
            case .test: .test
            case .x11: .x11
            case .portal: .portal
            }
        }
    }

    @Option(help: "Share a screen once in the call: test (a 1280x720 test pattern), x11 (the X display in $DISPLAY) or portal (the desktop's screen-sharing portal).")
    var screen: Screen?

    @Option(name: .customLong("screen-after"), help: "Seconds in the call (media connected) before sharing the screen.")
    var screenAfter: Double = 0

    @Option(name: .customLong("stop-screen-after"), help: "Seconds in the call before stopping the screen share.")
    var stopScreenAfter: Double?

    func validate() throws {
        guard PeerMediaSettings.rgb(fromHex: color) != nil else {
            throw ValidationError("--color takes RRGGBB, e.g. FF0000 for red")
        }
        guard tone > 0, tone < 20_000 else { throw ValidationError("--tone takes a frequency in Hz, e.g. 440") }
        guard (0...1).contains(volume) else { throw ValidationError("--volume takes a value from 0 to 1") }
        if let muteAfter, let unmuteAfter, unmuteAfter <= muteAfter {
            throw ValidationError("--unmute-after must come after --mute-after")
        }
        if media == .none, muteAfter != nil || unmuteAfter != nil {
            throw ValidationError("--mute-after and --unmute-after need --media test")
        }
        if let cameraOffAfter, let cameraOnAfter, cameraOnAfter <= cameraOffAfter {
            throw ValidationError("--camera-on-after must come after --camera-off-after")
        }
        if media == .none, cameraOffAfter != nil || cameraOnAfter != nil || joinCameraOff || switchDevicesAfter != nil || joinWithoutDevices {
            throw ValidationError("--camera-off-after, --camera-on-after, --join-camera-off, --join-without-devices and --switch-devices-after need --media test")
        }
        if let cameraErrorAfter, cameraErrorAfter < 1 { throw ValidationError("--camera-error-after takes a number of frames, 1 or more") }
        guard PeerMediaSettings.rgb(fromHex: nextColor) != nil else { throw ValidationError("--next-color takes RRGGBB") }
        guard (0...1).contains(nextVolume) else { throw ValidationError("--next-volume takes a value from 0 to 1") }
        if media == .none, screen != nil { throw ValidationError("--screen needs --media test") }
        if screen == nil, stopScreenAfter != nil { throw ValidationError("--stop-screen-after needs --screen") }
        guard screenAfter >= 0 else { throw ValidationError("--screen-after takes seconds, 0 or more") }
        if let stopScreenAfter, stopScreenAfter <= screenAfter {
            throw ValidationError("--stop-screen-after must come after --screen-after")
        }
    }

    /// The plain values; nil when the peer sends no media.
    var settings: PeerMediaSettings? {
        guard media == .test, let rgb = PeerMediaSettings.rgb(fromHex: color) else { return nil }
        let address = mediaAddress ?? ProcessInfo.processInfo.environment["CONFAB_MEDIA_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        return PeerMediaSettings(color: rgb, pattern: pattern, tone: tone, volume: volume, mediaAddress: address,
                                 muteAfter: muteAfter.map(seconds), unmuteAfter: unmuteAfter.map(seconds),
                                 cameraOffAfter: cameraOffAfter.map(seconds), cameraOnAfter: cameraOnAfter.map(seconds),
                                 joinCameraOff: joinCameraOff, joinWithoutDevices: joinWithoutDevices, cameraStuck: cameraStuck, cameraErrorAfter: cameraErrorAfter, switchDevicesAfter: switchDevicesAfter.map(seconds),
                                 nextColor: PeerMediaSettings.rgb(fromHex: nextColor) ?? rgb, nextVolume: nextVolume,
                                 screen: screen?.source,
                                 screenAfter: seconds(screenAfter), stopScreenAfter: stopScreenAfter.map(seconds))
    }
}

/// What the test camera shows.
enum CameraPattern: String, ExpressibleByArgument, Sendable {
    /// One colour: easy to check at any pixel.
    case solid
    /// A ball moving over the colour: the picture changes every frame, so a frozen picture shows.
    case ball
}

/// What `PeerMediaOptions` parsed, for the main actor.
struct PeerMediaSettings: Sendable {
    let color: (red: UInt8, green: UInt8, blue: UInt8)
    let pattern: CameraPattern
    let tone: Double
    let volume: Double
    let mediaAddress: String?
    let muteAfter: Duration?
    let unmuteAfter: Duration?
    let cameraOffAfter: Duration?
    let cameraOnAfter: Duration?
    let joinCameraOff: Bool
    let joinWithoutDevices: Bool
    let cameraStuck: Bool
    /// Frames before the test camera fails (nil: it never does).
    let cameraErrorAfter: Int?
    /// When to switch to the second camera and microphone (colour `nextColor`, amplitude `nextVolume`).
    let switchDevicesAfter: Duration?
    let nextColor: (red: UInt8, green: UInt8, blue: UInt8)
    let nextVolume: Double
    /// The screen to share once media is connected, nil for none.
    let screen: ScreenshareSource?
    let screenAfter: Duration
    let stopScreenAfter: Duration?

    /// The test camera: one solid colour (videotestsrc takes it as 0xAARRGGBB).
    var cameraSource: String {
        // identity's error-after makes the stream fail the way a camera pulled out does.
        Self.cameraSource(color, pattern: pattern) + (cameraErrorAfter.map { " ! identity error-after=\($0)" } ?? "")
            + (cameraStuck ? " ! identity drop-probability=1.0" : "")
    }
    var nextCameraSource: String { Self.cameraSource(nextColor, pattern: pattern) }

    /// The test microphone: a sine at `volume` amplitude (RMS is amplitude/√2, so 0.5 → −9 dBFS).
    var microphoneSource: String { microphoneSource(volume: volume) }
    var nextMicrophoneSource: String { microphoneSource(volume: nextVolume) }

    private static func cameraSource(_ color: (red: UInt8, green: UInt8, blue: UInt8), pattern: CameraPattern) -> String {
        let argb = 0xFF00_0000 | UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
        switch pattern {
        case .solid: return "videotestsrc is-live=true pattern=solid-color foreground-color=0x\(String(argb, radix: 16))"
        case .ball: return "videotestsrc is-live=true pattern=ball motion=sweep background-color=0x\(String(argb, radix: 16))"
        }
    }

    private func microphoneSource(volume: Double) -> String {
        "audiotestsrc is-live=true wave=sine freq=\(tone) volume=\(volume)"
    }

    static func rgb(fromHex text: String) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
}
