import ConfabCore
import GLibBridge
import GtkBridge

/// The lobby's big picture: the live camera preview, or the user's avatar with the reason
/// there is no video (camera off, none found, or failed), with the mic meter and the
/// connection quality laid over its bottom edge. It has the camera's shape (16:9, what is sent),
/// so the whole frame shows: the lobby is where people check what others will see.
@MainActor
final class LobbyPreview {
    let view: AspectFit
    let micLevel = MicrophoneLevelIndicator()
    let connectionQuality = ConnectionQualityIndicator()
    private let stack = Stack()
    private let picture = VideoPicture()
    private let avatar: Avatar
    private let avatarCaption = Label("", cssClasses: ["dim-label"])
    private let avatarPage: Box

    init(user: User) {
        avatar = Avatar(size: 96, name: user.name)
        avatarPage = Box(.vertical, spacing: 12, children: [avatar, avatarCaption])
        avatarPage.align(horizontal: .center, vertical: .center)
        avatarCaption.wrap()
        picture.setAccessibleLabel(tr("Camera preview"))
        stack.addPage(picture, name: "video")
        stack.addPage(avatarPage, name: "avatar")
        // Grows with the window; small enough for a phone-sized one (360 px less the lobby's
        // margins).
        stack.setSizeRequest(width: 280, height: 158)
        stack.addCSSClass("preview")
        stack.clipChildren()

        // The meter takes the room left beside the connection quality.
        micLevel.view.expand(horizontally: true, vertically: false)
        let bottomBar = Box(.horizontal, spacing: 12, children: [micLevel.view, connectionQuality.view])
        bottomBar.addCSSClass("preview-bar")
        bottomBar.align(vertical: .end)
        bottomBar.setMargins(12)

        let overlay = Overlay(child: stack)
        overlay.addOverlay(bottomBar)
        view = AspectFit(child: overlay, ratio: 16.0 / 9.0, minimumHeight: 158)
        picture.onHasFrameChanged = { [weak self] in self?.updateBackground() }
    }

    /// The tallest the preview may be: what the window shows of the lobby, less what must be
    /// seen with it. Nil: as tall as its width makes it.
    var maximumHeight: Int? {
        get { view.maximumHeight }
        set { view.maximumHeight = newValue }
    }

    var framesShown: Int { picture.framesShown }

    /// Told of the picture's size in device pixels when it changes, for the camera's frames to
    /// be scaled to it.
    func onPictureSizeChanged(_ handler: @escaping @MainActor (VideoSize) -> Void) {
        picture.onPixelSizeChanged = { width, height in handler(VideoSize(width: width, height: height)) }
    }

    func show(_ frame: VideoFrame) { picture.show(frame) }

    /// One page per state: video while the camera runs and has produced a frame, else the avatar.
    /// - Parameter refusal: why the call lets nobody's camera be seen, if it does not; said
    ///   in place of "Camera is off".
    func update(cameraState: LobbyViewModel.CameraState, hasFrame: Bool, userName: String, refusal: String? = nil) {
        let caption: String
        switch cameraState {
        case .running where hasFrame:
            stack.visiblePageName = "video"
            updateBackground()
            return
        case .running: caption = tr("Starting camera…")
        case .off: caption = refusal ?? tr("Camera is off")
        case .noCamera: caption = tr("No camera found")
        case .failed(let reason): caption = reason
        }
        if cameraState != .running { picture.clear() }
        avatarCaption.text = caption
        avatar.setAccessibleLabel("\(userName), \(caption.lowercased())")
        stack.visiblePageName = "avatar"
        updateBackground()
    }

    /// The camera's frame covers the whole preview: its tinted background is painted only
    /// where no frame is (confab.css, `.covered`).
    private func updateBackground() {
        stack.setCSSClass("covered", stack.visiblePageName == "video" && picture.hasFrame)
    }
}
