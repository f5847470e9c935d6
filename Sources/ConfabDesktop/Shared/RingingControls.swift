import ConfabCore
import ConfabMedia
import GLibBridge
import GtkBridge

/// Microphone and camera toggles while a call rings, so you choose how you start before it
/// does, and (for a call you are making) a small preview of yourself. The toggles edit the
/// same settings the lobby does; the preview runs only while the camera is on and the page
/// shows it.
@MainActor
final class RingingControls {
    let view: Widget
    private let microphone: MediaToggle
    private let camera: MediaToggle
    private let picture = VideoPicture()
    private let preview: CameraPreview?
    private let previewCamera: @MainActor () -> MediaDevice?
    private let localMedia: LocalMedia
    private var binding: ObservationBinding?
    private var isPreviewing = false

    /// - Parameter preview: the camera preview to show yourself in; nil for no preview (an
    ///   incoming ring must not turn the camera on by itself).
    init(localMedia: LocalMedia, preview: CameraPreview?, camera previewCamera: @escaping @MainActor () -> MediaDevice? = { nil }) {
        self.localMedia = localMedia
        self.preview = preview
        self.previewCamera = previewCamera
        microphone = MediaToggle(.microphone) { [weak localMedia] in localMedia?.toggleMicrophone() }
        camera = MediaToggle(.camera) { [weak localMedia] in localMedia?.toggleCamera() }
        let toggles = Box(.horizontal, spacing: 18, children: [microphone.button, camera.button])
        toggles.align(horizontal: .center)
        let column = Box(.vertical, spacing: 12)
        if preview != nil {
            picture.setAccessibleLabel(tr("Your camera"))
            picture.setSizeRequest(width: 192, height: 108)
            picture.addCSSClass("preview")
            picture.clipChildren()
            picture.align(horizontal: .center)
            // A small self-view while ringing (at most 240 px wide, whatever the camera's frame
            // size): the person rung is what the page is about.
            column.append(Clamp(maximumWidth: 240, child: picture))
        }
        column.append(toggles)
        view = column
    }

    /// Starts following the settings (and the camera, for the preview).
    func start() {
        preview?.onFrame = { [weak self] frame in self?.picture.show(frame) }
        binding = ObservationBinding { [weak self] in self?.update() }
    }

    /// Stops the preview before the call opens the camera itself.
    func stop() {
        binding?.cancel()
        binding = nil
        if isPreviewing { preview?.stopPreview() }
        isPreviewing = false
        preview?.onFrame = nil
    }

    private func update() {
        let settings = localMedia.callSettings
        microphone.update(isOn: settings.audioOn)
        camera.update(isOn: settings.videoOn)
        guard let preview else { return }
        let wanted = localMedia.effectiveSettings.videoOn
        picture.isVisible = wanted
        if wanted, !isPreviewing, let device = previewCamera() {
            isPreviewing = true
            preview.startPreview(device) { [weak self] _ in self?.picture.isVisible = false }
        } else if !wanted, isPreviewing {
            isPreviewing = false
            preview.stopPreview()
        }
    }
}
