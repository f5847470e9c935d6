import ConfabCore
import GLibBridge
import GtkBridge

/// One participant in the call: their video (or avatar when there is none), name, a
/// microphone-off icon, a border while they speak, and connection bars. Stateless: `update`
/// shows the participant it is given; `show(_:)` shows a video frame.
@MainActor
final class ParticipantTile {
    let view: Overlay
    private let stack = Stack()
    private let picture = VideoPicture()
    /// The video's size on screen, for the pipeline to scale frames to (see `VideoViewport`).
    let viewport = VideoViewport()
    private let avatar: Avatar
    private let nameLabel = Label("", cssClasses: ["tile-name"])
    private let microphoneOff = Image(iconName: "microphone-disabled-symbolic")
    /// In the name's pill, bars alone: the word over the picture was dark on dark video, and
    /// on a small tile it ended "Connec…".
    private let quality = ConnectionQualityIndicator(showsWord: false)
    private let pinIcon = Image(iconName: "view-pin-symbolic")
    private let handIcon = Label("✋", cssClasses: ["tile-hand"])
    /// The participant's reaction, floating over the tile while it lasts.
    private let reactionLabel = Label("", cssClasses: ["tile-reaction"])
    private var pinButton: Button?
    private static let avatarSize = 64
    /// The space the name bar takes at the tile's bottom: its 8 px margin and a row as tall as
    /// the pin button in it.
    static let nameBarHeight = 44

    /// - Parameter onTogglePin: when given, the tile has a pin button (pin on this device only).
    init(name: String, onTogglePin: (@MainActor () -> Void)? = nil) {
        avatar = Avatar(size: Self.avatarSize, name: name)
        let avatarPage = Box(.vertical, children: [avatar])
        avatarPage.align(horizontal: .center, vertical: .center)
        // The avatar is centred in the space above the name bar, never under it.
        avatarPage.setMargins(top: 0, bottom: Self.nameBarHeight, start: 0, end: 0)
        picture.onPixelSizeChanged = { [viewport] width, height in viewport.update(VideoSize(width: width, height: height)) }
        stack.addPage(picture, name: "video")
        stack.addPage(avatarPage, name: "avatar")
        stack.visiblePageName = "avatar"
        // Small enough that two tiles side by side fit a phone-sized window (360 px), and tall
        // enough for the avatar above the name bar (a 500 px tall window in a 2x2 grid).
        stack.setSizeRequest(width: 150, height: Self.avatarSize + Self.nameBarHeight + 8)
        stack.expand()
        stack.addCSSClass("tile")
        stack.clipChildren()

        let spacer = Box(.horizontal)
        spacer.expand(horizontally: true, vertically: false)
        // The name sits in a small pill at the bottom left (a bar across the whole tile hid
        // the picture and read as heavy); the pin button floats at the right on its own.
        // A long name ends in "…" (its whole in the tooltip): it overflowed the tile, and its
        // width held every tile, and so the window, from narrowing (556 px for a 48-letter id).
        nameLabel.ellipsizeAtEnd()
        let namePill = Box(.horizontal, spacing: 6, children: [handIcon, pinIcon, microphoneOff, nameLabel, quality.view])
        namePill.addCSSClass("tile-bar")
        namePill.align(vertical: .center)
        let bar = Box(.horizontal, spacing: 6, children: [namePill, spacer])
        pinIcon.isVisible = false
        handIcon.isVisible = false
        reactionLabel.isVisible = false
        reactionLabel.align(horizontal: .end, vertical: .start)
        if let onTogglePin {
            let pin = Button(iconName: "view-pin-symbolic", accessibleLabel: tr("Pin %@", "\(name)"))
            pin.addCSSClass("osd")
            pin.addCSSClass("circular")
            pin.onClicked(onTogglePin)
            bar.append(pin)
            pinButton = pin
        }
        bar.align(vertical: .end)
        bar.setMargins(8)
        view = Overlay(child: stack)
        view.addOverlay(bar)
        view.addPassThroughOverlay(reactionLabel)
        view.addCSSClass("tile-frame")
        picture.onHasFrameChanged = { [weak self] in self?.updateBackground() }
    }

    func show(_ frame: VideoFrame) {
        picture.show(frame)
        // An interrupted picture with no frame yet (our camera while the call's first media
        // connection is refused and tried again) shows the frames as they come; before, it
        // kept the avatar, which says the camera is off, over a camera that was showing.
        if showsFramesAsTheyCome, stack.visiblePageName != "video" {
            stack.visiblePageName = "video"
            updateBackground()
        }
    }

    /// The last `update` said the video is interrupted: its frames may still come.
    private var showsFramesAsTheyCome = false

    /// Video frames this tile has shown.
    var framesShown: Int { picture.framesShown }

    /// Paints of this tile's frames as textures (under GL) and with cairo.
    var paints: PaintCounts { picture.paints }

    /// A frame covers the whole tile (it is scaled to cover it): the tile's tinted background
    /// is painted only where no frame is (confab.css, `.covered`).
    private func updateBackground() {
        stack.setCSSClass("covered", stack.visiblePageName == "video" && picture.hasFrame)
    }

    /// - Parameter videoInterrupted: their camera is on but its picture stopped arriving
    ///   (`CallParticipant.isVideoInterrupted`): the last picture stays, frozen. On the
    ///   self-view: our media connection is being made anew, and our camera's frames go on.
    /// - Parameter isSelf: the self-view says "You"; its connection is our uplink.
    /// - Parameter avatarName: whose initial the avatar shows (the self-view says "You" but
    ///   shows your own initial).
    func update(name: String, avatarName: String? = nil, hasVideo: Bool, videoInterrupted: Bool = false, hasAudio: Bool, isSpeaking: Bool,
                quality connection: ConnectionQuality, isSelf: Bool = false, isPinned: Bool = false,
                isHandRaised: Bool = false, reaction: Reaction? = nil) {
        pinIcon.isVisible = isPinned
        handIcon.isVisible = isHandRaised
        reactionLabel.isVisible = reaction != nil
        reactionLabel.text = reaction?.rawValue ?? ""
        pinButton?.setAccessibleLabel(isPinned ? tr("Unpin %@", "\(name)") : tr("Pin %@", "\(name)"))
        pinButton?.tooltip = isPinned ? tr("Unpin") : tr("Pin (on this device)")
        nameLabel.text = name
        nameLabel.tooltip = name
        avatar.name = avatarName ?? name
        let showsPicture = hasVideo || (videoInterrupted && picture.hasFrame)
        showsFramesAsTheyCome = videoInterrupted
        stack.visiblePageName = showsPicture ? "video" : "avatar"
        if !showsPicture { picture.clear() }
        updateBackground()
        microphoneOff.isVisible = !hasAudio
        // Only a poor connection is worth a mark on the tile (as in Meet): bars on every tile
        // saying "excellent" are noise.
        // On the self-view it is our own uplink (what the media server sees of what we send).
        quality.view.isVisible = connection.needsAttention
        quality.update(connection)
        view.setCSSClass("speaking", isSpeaking)
        var parts = [name]
        if isSpeaking { parts.append("speaking") }
        if isPinned { parts.append("pinned") }
        if isHandRaised { parts.append(tr("hand raised")) }
        // The reaction is part of what the tile says while it shows, so a screen reader
        // following the tile hears it (the name change is an accessibility event).
        if let reaction { parts.append(tr("reacted %@ %@", reaction.rawValue, reaction.spokenName)) }
        if !hasAudio { parts.append(tr("microphone off")) }
        if videoInterrupted { parts.append(tr("video interrupted")) } else if !hasVideo { parts.append(tr("camera off")) }
        if !isSelf { parts.append(tr("connection %@", "\(connection.rawValue)")) }
        view.setAccessibleLabel(parts.joined(separator: ", "))
        picture.setAccessibleLabel(tr("Video of %@", "\(name)"))
    }
}
