import ArgumentParser
import ConfabCore
import FoundationEssentials
import GLibBridge

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

    @Option(help: "The test microphone's tone, Hz.")
    var tone: Double = 440

    @Option(help: "The test microphone's amplitude, 0…1 (0.5 is −9 dBFS RMS; 0 is silence).")
    var volume: Double = 0.5

    // Voice processing, on by default as in the app. Each can be given again later on the
    // command line to change it back (the last one counts): a test harness may set defaults.
    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast, help: "Echo cancellation on the test microphone.")
    var echoCancellation = true

    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast,
          help: "Noise suppression on the test microphone (it also takes a steady tone for noise and lowers it).")
    var noiseSuppression = true

    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast, help: "Automatic gain control on the test microphone.")
    var gainControl = true

    @Flag(name: .customLong("simulated-room"),
          help: "Feed what the test speaker plays back into the test microphone, about 50 ms later and 6 dB quieter, as laptop speakers do.")
    var simulatedRoom = false

    @Option(help: "Add white noise of this amplitude (0…1) to the test microphone.")
    var noise: Double = 0

    @Flag(name: .customLong("tone-bursts"), help: "Send the tone in bursts (0.4 s of every second) instead of steadily.")
    var toneBursts = false

    @Option(parsing: .upToNextOption,
            help: "Measure what the test speaker plays every 50 ms: overall, and in a narrow band around each of these frequencies (Hz).")
    var listen: [Double] = []

    /// The test camera's picture.
    enum Pattern: String, ExpressibleByArgument, Sendable {
        /// One colour (`--color`): another peer can check it at the centre.
        case solid
        /// A ball moving over a plain background: motion, as a person is (the encoder works for it).
        case ball
        /// SMPTE colour bars with moving noise: a detailed, changing picture.
        case smpte
    }

    @Option(help: "The test camera's picture: solid (the --color), ball (moving) or smpte (bars).")
    var pattern: Pattern = .solid

    @Option(name: .customLong("max-video-size"),
            help: "The largest size the camera is sent at, WIDTHxHEIGHT (what is sent follows the path up to it).")
    var maxVideoSize: String = "1280x720"

    @Option(name: .customLong("shows"),
            help: "Tell the call that this peer shows every other camera at WIDTHxHEIGHT, as an app's tiles do (their senders then send no larger). Without it the peer says nothing, and is sent the path's best.")
    var shows: String?

    @Option(name: .customLong("media-address"),
            help: "Restrict audio/video (ICE) to this local IP address, or these (comma-separated; those present at each connection are used) (default: $CONFAB_MEDIA_ADDRESS).")
    var mediaAddress: String?

    @Option(name: .customLong("mute-after"), help: "Seconds in the call before muting the microphone.")
    var muteAfter: Double?

    @Option(name: .customLong("unmute-after"), help: "Seconds in the call before unmuting it again.")
    var unmuteAfter: Double?

    @Option(name: .customLong("speaker-off-after"), help: "Seconds in the call before muting the speaker (what we hear).")
    var speakerOffAfter: Double?

    @Option(name: .customLong("speaker-on-after"), help: "Seconds in the call before unmuting the speaker again.")
    var speakerOnAfter: Double?

    @Option(name: .customLong("camera-off-after"), help: "Seconds in the call before turning the camera off.")
    var cameraOffAfter: Double?

    @Option(name: .customLong("camera-on-after"), help: "Seconds in the call before turning it on again.")
    var cameraOnAfter: Double?

    @Flag(name: .customLong("join-camera-off"), help: "Join with the camera off (turn it on with --camera-on-after).")
    var joinCameraOff = false

    @Flag(name: .customLong("join-muted"), help: "Join with the microphone off (turn it on with --unmute-after).")
    var joinMuted = false

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

    @Option(name: .customLong("progress-every"),
            help: "Print the video frames received so far (in all, and per sender) every this many seconds, for long runs.")
    var progressEvery: Double?

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
        if joinMuted, muteAfter != nil { throw ValidationError("--join-muted joins muted already: take --unmute-after, not --mute-after") }
        if let muteAfter, let unmuteAfter, unmuteAfter <= muteAfter {
            throw ValidationError("--unmute-after must come after --mute-after")
        }
        if let speakerOffAfter, let speakerOnAfter, speakerOnAfter <= speakerOffAfter {
            throw ValidationError("--speaker-on-after must come after --speaker-off-after")
        }
        if let cameraOffAfter, let cameraOnAfter, cameraOnAfter <= cameraOffAfter {
            throw ValidationError("--camera-on-after must come after --camera-off-after")
        }
        if let cameraErrorAfter, cameraErrorAfter < 1 { throw ValidationError("--camera-error-after takes a number of frames, 1 or more") }
        guard PeerMediaSettings.rgb(fromHex: nextColor) != nil else { throw ValidationError("--next-color takes RRGGBB") }
        guard (0...1).contains(nextVolume) else { throw ValidationError("--next-volume takes a value from 0 to 1") }
        guard (0...1).contains(noise) else { throw ValidationError("--noise takes a value from 0 to 1") }
        if let bad = listen.first(where: { !($0 > 20 && $0 < 20_000) }) {
            throw ValidationError("--listen takes frequencies in Hz between 20 and 20000, not \(bad)")
        }
        if let progressEvery, !(progressEvery >= 0.1) { throw ValidationError("--progress-every takes seconds, 0.1 or more") }
        guard VideoSize(parsing: maxVideoSize) != nil else { throw ValidationError("--max-video-size takes WIDTHxHEIGHT, e.g. 640x360") }
        if let shows, VideoSize(parsing: shows) == nil { throw ValidationError("--shows takes WIDTHxHEIGHT, e.g. 430x242") }
        if screen == nil, stopScreenAfter != nil { throw ValidationError("--stop-screen-after needs --screen") }
        guard screenAfter >= 0 else { throw ValidationError("--screen-after takes seconds, 0 or more") }
        if let stopScreenAfter, stopScreenAfter <= screenAfter {
            throw ValidationError("--stop-screen-after must come after --screen-after")
        }
    }

    /// Coordinator commands send media only with `--media test`: options that shape media make
    /// no sense without it. (`confab-peer janus` always sends test media and skips this.)
    func validateMediaIsSent() throws {
        guard media == .none else { return }
        if muteAfter != nil || unmuteAfter != nil || joinMuted {
            throw ValidationError("--mute-after, --unmute-after and --join-muted need --media test")
        }
        if speakerOffAfter != nil || speakerOnAfter != nil {
            throw ValidationError("--speaker-off-after and --speaker-on-after need --media test")
        }
        if cameraOffAfter != nil || cameraOnAfter != nil || joinCameraOff || switchDevicesAfter != nil || joinWithoutDevices {
            throw ValidationError("--camera-off-after, --camera-on-after, --join-camera-off, --join-without-devices and --switch-devices-after need --media test")
        }
        if simulatedRoom || !listen.isEmpty || noise > 0 { throw ValidationError("--simulated-room, --listen and --noise need --media test") }
        if screen != nil { throw ValidationError("--screen needs --media test") }
        if progressEvery != nil { throw ValidationError("--progress-every needs --media test") }
        if shows != nil { throw ValidationError("--shows needs --media test") }
    }

    /// The plain values; nil when the peer sends no media.
    var settings: PeerMediaSettings? {
        guard media == .test, let rgb = PeerMediaSettings.rgb(fromHex: color) else { return nil }
        let address = mediaAddress ?? ProcessInfo.processInfo.environment["CONFAB_MEDIA_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        return PeerMediaSettings(color: rgb, tone: tone, volume: volume, mediaAddress: address,
                                 muteAfter: muteAfter.map(seconds), unmuteAfter: unmuteAfter.map(seconds),
                                 cameraOffAfter: cameraOffAfter.map(seconds), cameraOnAfter: cameraOnAfter.map(seconds),
                                 joinCameraOff: joinCameraOff, joinMuted: joinMuted, joinWithoutDevices: joinWithoutDevices, cameraStuck: cameraStuck, cameraErrorAfter: cameraErrorAfter, switchDevicesAfter: switchDevicesAfter.map(seconds),
                                 nextColor: PeerMediaSettings.rgb(fromHex: nextColor) ?? rgb, nextVolume: nextVolume,
                                 screen: screen?.source,
                                 screenAfter: seconds(screenAfter), stopScreenAfter: stopScreenAfter.map(seconds),
                                 audioProcessing: AudioProcessing(echoCancellation: echoCancellation, noiseSuppression: noiseSuppression,
                                                                  automaticGainControl: gainControl),
                                 speakerOffAfter: speakerOffAfter.map(seconds), speakerOnAfter: speakerOnAfter.map(seconds),
                                 simulatedRoom: simulatedRoom, noise: noise, toneBursts: toneBursts, listen: listen, pattern: pattern,
                                 progressEvery: progressEvery.map(seconds),
                                 maximumVideoSize: VideoSize(parsing: maxVideoSize) ?? VideoSize(width: 1280, height: 720),
                                 shownVideoSize: shows.flatMap(VideoSize.init(parsing:)))
    }
}

/// What `PeerMediaOptions` parsed, for the main actor.
struct PeerMediaSettings: Sendable {
    let color: (red: UInt8, green: UInt8, blue: UInt8)
    let tone: Double
    let volume: Double
    let mediaAddress: String?
    let muteAfter: Duration?
    let unmuteAfter: Duration?
    let cameraOffAfter: Duration?
    let cameraOnAfter: Duration?
    let joinCameraOff: Bool
    let joinMuted: Bool
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
    /// Echo cancellation, noise suppression and gain control for the test microphone.
    let audioProcessing: AudioProcessing
    let speakerOffAfter: Duration?
    let speakerOnAfter: Duration?
    /// The test speaker's sound comes back into the test microphone (see `PeerRoom`).
    let simulatedRoom: Bool
    /// White noise added to the test microphone (amplitude, 0 for none).
    let noise: Double
    let toneBursts: Bool
    /// Frequencies (Hz) to measure what the test speaker plays at (see `PeerEar`).
    let listen: [Double]
    let pattern: PeerMediaOptions.Pattern
    /// How often to print the frames received so far (nil: never).
    let progressEvery: Duration?
    /// The largest size the camera is sent at.
    let maximumVideoSize: VideoSize
    /// The size the peer tells the call it shows every other camera at (nil: it does not say).
    let shownVideoSize: VideoSize?

    /// The test camera: the pattern over the colour (videotestsrc takes it as 0xAARRGGBB).
    var cameraSource: MediaPipeline.Source {
        // identity's error-after makes the stream fail the way a camera pulled out does.
        let faults = (cameraErrorAfter.map { " ! identity error-after=\($0)" } ?? "") + (cameraStuck ? " ! identity drop-probability=1.0" : "")
        return Self.cameraSource(color, pattern: pattern, followedBy: faults)
    }
    var nextCameraSource: MediaPipeline.Source { Self.cameraSource(nextColor, pattern: pattern, followedBy: "") }

    /// The test microphone: a sine at `volume` amplitude (RMS is amplitude/√2, so 0.5 → −9 dBFS).
    var microphoneSource: String { microphoneSource(volume: volume) }
    var nextMicrophoneSource: String { microphoneSource(volume: nextVolume) }

    private static func cameraSource(_ color: (red: UInt8, green: UInt8, blue: UInt8), pattern: PeerMediaOptions.Pattern,
                                     followedBy faults: String) -> MediaPipeline.Source {
        let argb = 0xFF00_0000 | UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
        let hex = "0x\(String(argb, radix: 16))"
        switch pattern {
        case .solid: return .description("videotestsrc is-live=true pattern=solid-color foreground-color=\(hex)" + faults)
        // Drawn over the colour (MovingBall): videotestsrc's own ball cost 6 % of a core.
        case .ball: return .movingBall(background: argb, followedBy: faults)
        case .smpte: return .description("videotestsrc is-live=true pattern=smpte horizontal-speed=4" + faults)
        }
    }

    /// The tone (steady or in bursts), with white noise and the simulated room's sound mixed in
    /// when asked.
    private func microphoneSource(volume: Double) -> String {
        let format = "audio/x-raw,rate=48000,channels=1"
        let tone = toneBursts
            // Ticks are bursts of sine: 0.4 s worth of periods, one burst a second.
            ? "audiotestsrc is-live=true wave=ticks freq=\(self.tone) sine-periods-per-tick=\(max(1, Int(self.tone * 0.4))) volume=\(volume)"
            : "audiotestsrc is-live=true wave=sine freq=\(self.tone) volume=\(volume)"
        guard simulatedRoom || noise > 0 else { return tone }
        var parts = ["\(tone) ! \(format) ! peer-microphone-mix."]
        if noise > 0 { parts.append("audiotestsrc is-live=true wave=white-noise volume=\(noise) ! \(format) ! peer-microphone-mix.") }
        if simulatedRoom { parts.append(PeerRoom.microphoneBranch(into: "peer-microphone-mix")) }
        // Output from the first input's time (the inputs start from 0 on a running clock).
        return parts.joined(separator: " ") + " audiomixer name=peer-microphone-mix start-time-selection=first ! identity"
    }

    /// The test speaker: discards the sound in time, or feeds the simulated room and the ear.
    var speakerSink: String {
        var outputs: [String] = []
        if simulatedRoom { outputs.append(PeerRoom.speakerBranch) }
        if !listen.isEmpty { outputs.append(PeerEar.speakerBranch) }
        guard !outputs.isEmpty else { return "fakesink sync=true" }
        if outputs.count == 1 { return outputs[0] }
        return "tee name=peer-speaker-split " + outputs.map { "peer-speaker-split. ! queue ! \($0)" }.joined(separator: " ")
    }

    static func rgb(fromHex text: String) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
}
