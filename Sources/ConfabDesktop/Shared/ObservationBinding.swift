import Observation

/// Keeps a view in step with observable state: runs `update` now, and again after any
/// observable property it read changes, until cancelled or released.
///
/// Observation reports a change once per tracking pass and before the new value is stored,
/// so the re-run hops through the main actor (the GLib loop, via the bridge) and re-tracks.
@MainActor
final class ObservationBinding {
    private var isActive = true
    private let update: @MainActor () -> Void

    init(_ update: @escaping @MainActor () -> Void) {
        self.update = update
        track()
    }

    func cancel() { isActive = false }

    private func track() {
        guard isActive else { return }
        withObservationTracking {
            update()
        } onChange: { [weak self] in
            Task { @MainActor in self?.track() }
        }
    }
}
