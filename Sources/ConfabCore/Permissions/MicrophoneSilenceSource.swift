import Observation

/// Reports a microphone that is on and opens but delivers digital silence as a likely system
/// mute (GNOME's privacy switch and hardware mute keys both look like this to an app).
///
/// It follows whatever screen measures the microphone (the lobby's `MicrophoneChecker`); with
/// nothing to follow it says nothing, and the other sources decide.
@MainActor
public final class MicrophoneSilenceSource: PermissionSource {
    public let name = "microphone levels"
    private var onChange: (@MainActor (PermissionDevice, PermissionReport) -> Void)?
    private var isSilent: (@MainActor () -> Bool)?
    private var generation = 0

    public init() {}

    public func start(onChange: @escaping @MainActor (PermissionDevice, PermissionReport) -> Void) {
        self.onChange = onChange
        track()
    }

    public func stop() {
        stopFollowing()
        onChange = nil
    }

    /// Follows `isSilent` (an observable expression, e.g. `lobby.showsMicrophoneWarning`) until
    /// `stopFollowing()` or another `follow`.
    public func follow(_ isSilent: @escaping @MainActor () -> Bool) {
        self.isSilent = isSilent
        generation += 1
        track()
    }

    public func stopFollowing() {
        isSilent = nil
        generation += 1
        onChange?(.microphone, .unknown)
    }

    private func track() {
        guard let isSilent, let onChange else { return }
        let generation = generation
        let silent = withObservationTracking { isSilent() } onChange: { [weak self] in
            Task { @MainActor in
                guard let self, self.generation == generation else { return }
                self.track()
            }
        }
        onChange(.microphone, silent ? PermissionReport(.denied(.likelySystemMute)) : .unknown)
    }
}
