import ConfabCore
import ConfabMedia

/// The peer's synthetic devices: a test camera (`--pattern`, `--color`), a tone for a
/// microphone, a speaker that discards the sound in time (or feeds the simulated room and the
/// ear), and the second set that `--switch-devices-after` switches to.
@MainActor
struct PeerTestDevices {
    let source: GStreamerDeviceSource
    let camera: MediaDevice
    let microphone: MediaDevice
    let speaker: MediaDevice
    let next: CallMediaDevices

    init(settings: PeerMediaSettings) {
        source = GStreamerDeviceSource(includeTestDevices: false)
        camera = source.addSyntheticDevice(id: "peer:camera", name: "Test camera (solid colour)", kind: .camera, source: settings.cameraSource)
        microphone = source.addSyntheticDevice(id: "peer:microphone", name: "Test microphone (tone)", kind: .microphone,
                                               source: settings.microphoneSource)
        speaker = source.addSyntheticDevice(id: "test:speaker", name: "Test speaker", kind: .speaker, source: settings.speakerSink)
        next = CallMediaDevices(
            camera: source.addSyntheticDevice(id: "peer:camera-2", name: "Second test camera", kind: .camera, source: settings.nextCameraSource),
            microphone: source.addSyntheticDevice(id: "peer:microphone-2", name: "Second test microphone", kind: .microphone,
                                                  source: settings.nextMicrophoneSource),
            speaker: source.addSyntheticDevice(id: "test:speaker-2", name: "Second test speaker", kind: .speaker, source: settings.speakerSink))
    }

    /// What to join with: everything, or (`--join-without-devices`) only the speaker.
    func joining(withoutDevices: Bool) -> CallMediaDevices {
        withoutDevices ? CallMediaDevices(camera: nil, microphone: nil, speaker: speaker)
                       : CallMediaDevices(camera: camera, microphone: microphone, speaker: speaker)
    }
}
