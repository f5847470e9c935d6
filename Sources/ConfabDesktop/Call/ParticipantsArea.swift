import ConfabCore
import GLibBridge
import GtkBridge

/// Arranges the participant tiles by layout: a grid of equal tiles (with one or two others,
/// ours small in its corner: `TileGrid`); a spotlight (one large tile and a strip of the
/// others); or one participant filling the area. While someone shares a screen, the share
/// layout wins: the screen large, everyone in a strip below. Tiles are made once per
/// participant session and moved between arrangements, so video never restarts.
@MainActor
final class ParticipantsArea {
    let view: Stack
    let selfTile: ParticipantTile
    /// Your own name, for the self-view's avatar.
    private let selfName: String
    private(set) var tiles: [String: ParticipantTile] = [:]
    /// The self-view in the corner stays above the name and pin button of the tile under it.
    private let grid = TileGrid(spacing: 8, cornerClearance: ParticipantTile.nameBarHeight)
    /// The spotlight's and the full-screen layout's one large tile have the shape of the video
    /// (16:9, as every Confab camera is sent), centred in the area: filling a wide area, the
    /// spotlight cropped a third of the picture's height, the top of the speaker's head; a
    /// narrow window's full-screen tile showed a strip from the middle of it. In a tall window
    /// the spotlight sits on its strip, one group, rather than halfway between it and the top.
    private let spotlightMain = AspectFrame(ratio: ParticipantsArea.largeTileShape, verticalAlignment: 1)
    private static let largeTileShape = 16.0 / 9.0
    private let spotlightStrip = Box(.horizontal, spacing: 8)
    /// The strip under the spotlight; hidden when nobody is in it (alone in a call, the one
    /// tile takes the whole area instead of half).
    private let spotlightStripView: ScrolledWindow
    private let fullScreenMain = AspectFrame(ratio: ParticipantsArea.largeTileShape)
    /// The share layout's large view.
    let screenshareView = ScreenshareView()
    private let shareStrip = Box(.horizontal, spacing: 8)
    private var arrangement: (layout: ParticipantsLayout, order: [String], spotlight: String?, share: String?)?
    private var placed: [(container: Box, tile: Widget)] = []
    /// The participant sessions whose tiles the current layout shows (the full-screen layout
    /// shows one): only their video needs receiving.
    var shownSessions: Set<String> { placedSessions.subtracting(scrolledOut) }
    /// The spotlight strip's tiles out of view, as last settled (see `checkStripAfterLayout`).
    private var scrolledOut: Set<String> = []
    /// Called when `shownSessions` changes after the caller of `update` read it: the spotlight's
    /// strip scrolled or was resized, or was laid out after a new arrangement.
    var onShownSessionsChanged: (@MainActor () -> Void)?
    /// Whether the arrangement places our own tile (the full-screen layout of someone else does
    /// not): our camera is converted for it only then.
    private(set) var showsSelf = true
    /// Every participant the arrangement places, whether or not its tile is in view.
    private var placedSessions: Set<String> = []
    /// The spotlight strip's tiles (their clamps), by participant session.
    private var spotlightStripTiles: [String: Clamp] = [:]
    /// The clamps that hold tiles in a strip, emptied at every rearrangement.
    private var stripClamps: [Clamp] = []
    /// A strip's tiles are thumbnails: at most this wide, however wide the window or the video.
    private static let thumbnailWidth = 220
    /// A strip's height: a thumbnail tile with its avatar above the name (ParticipantTile's
    /// minimum) and room for the scrollbar; the rest of the height goes to the large view.
    private static let stripHeight = 124
    private let onTogglePin: @MainActor (String) -> Void

    /// The corner our self-view sits in over the others' video (the grid with one or two others).
    var selfViewCorner: TileGridPlan.Corner {
        get { grid.cornerPosition }
        set { grid.cornerPosition = newValue }
    }

    /// Called when the user moves the self-view to another corner (a drag, or an arrow key).
    var onSelfViewCornerMoved: (@MainActor (TileGridPlan.Corner) -> Void)? {
        get { grid.onCornerMoved }
        set { grid.onCornerMoved = newValue }
    }

    /// - Parameter onTogglePin: pin/unpin a participant locally (the tile menu).
    init(selfName: String, onTogglePin: @escaping @MainActor (String) -> Void) {
        self.onTogglePin = onTogglePin
        self.selfName = selfName
        selfTile = ParticipantTile(name: selfName)
        view = Stack()
        // Only the layout shown sets the size: the spotlight's strip must not keep a narrow
        // window from fitting the grid.
        view.sizesToEveryPage = false
        grid.expand()
        grid.cornerDescription = tr("Drag it, or press an arrow key, to move it to another corner")
        spotlightMain.expand()
        spotlightStrip.isHomogeneous = true
        // Thumbnails side by side in the middle, not stretched across the window.
        spotlightStrip.align(horizontal: .center)
        fullScreenMain.expand()
        view.addPage(grid, name: ParticipantsLayout.grid.rawValue)
        spotlightStripView = ScrolledWindow(strip: spotlightStrip, height: Self.stripHeight)
        // A strip with more people than fit shows some of them only when scrolled to: the others'
        // video is not received meanwhile (issue 14).
        spotlightStripView.onHorizontalViewportChange { [weak self] in self?.checkStripAfterLayout() }
        view.addPage(Box(.vertical, spacing: 8, children: [spotlightMain, spotlightStripView]),
                     name: ParticipantsLayout.spotlight.rawValue)
        view.addPage(fullScreenMain, name: ParticipantsLayout.fullScreen.rawValue)
        shareStrip.isHomogeneous = true
        shareStrip.align(horizontal: .center)
        // The screen takes the height; the tiles' own expand would otherwise split it evenly.
        shareStrip.expand(horizontally: true, vertically: false)
        view.addPage(Box(.vertical, spacing: 8, children: [screenshareView.view, ScrolledWindow(strip: shareStrip, height: Self.stripHeight)]),
                     name: Self.sharePage)
        view.expand()
    }

    /// Video frames shown by the tiles, ours included (CONFAB_STATS).
    var framesShown: Int { tiles.values.reduce(selfTile.framesShown) { $0 + $1.framesShown } }

    /// Paints of the tiles' frames, ours included, as textures and with cairo (CONFAB_STATS).
    var paints: PaintCounts { tiles.values.reduce(selfTile.paints) { $0 + $1.paints } }

    private static let sharePage = "screenshare"
    /// The self-view's look while it sits in the grid's corner, over the video (confab.css).
    private static let cornerClass = "corner-tile"

    /// Shows `others` (in the order given: `ActiveCall.othersInTileOrder`) and ourselves in
    /// `layout`, with `spotlight` large; while `sharedScreen` is set, in the share layout instead.
    func update(others: [CallParticipant], layout: ParticipantsLayout, spotlight: String?, pinnedHere: Set<String>,
                selfHasVideo: Bool, selfVideoInterrupted: Bool = false, selfHasAudio: Bool, selfQuality: ConnectionQuality = .unknown, sharedScreen: SharedScreen? = nil,
                reactions: [String: Reaction] = [:], selfReaction: Reaction? = nil, selfHandRaised: Bool = false) {
        let order = others.map(\.sessionID)
        for participant in others where tiles[participant.sessionID] == nil {
            let sessionID = participant.sessionID
            tiles[sessionID] = ParticipantTile(name: participant.name, onTogglePin: { [weak self] in self?.onTogglePin(sessionID) })
        }
        for gone in tiles.keys where !order.contains(gone) { tiles[gone] = nil }

        let spotlightID = spotlight.flatMap { order.contains($0) ? $0 : nil } ?? order.first
        if case .participant(let sharer) = sharedScreen {
            screenshareView.update(participant: sharer)
        } else if sharedScreen == .ours {
            screenshareView.update(participant: nil)
        }
        let share = sharedScreen?.key
        if arrangement?.layout != layout || arrangement?.order != order || arrangement?.spotlight != spotlightID
            || arrangement?.share != share {
            arrangement = (layout, order, spotlightID, share)
            arrange(layout: layout, order: order, spotlight: spotlightID, share: share != nil)
        }
        for participant in others {
            tiles[participant.sessionID]?.update(name: participant.name, hasVideo: participant.hasVideo,
                                                 videoInterrupted: participant.isVideoInterrupted(), hasAudio: participant.hasAudio,
                                                 isSpeaking: participant.isSpeaking, quality: participant.connectionQuality,
                                                 isPinned: pinnedHere.contains(participant.sessionID) || participant.isPinned,
                                                 isHandRaised: participant.isHandRaised, reaction: reactions[participant.sessionID])
        }
        selfTile.update(name: "You", avatarName: selfName, hasVideo: selfHasVideo, videoInterrupted: selfVideoInterrupted, hasAudio: selfHasAudio, isSpeaking: false, quality: selfQuality,
                        isSelf: true, isHandRaised: selfHandRaised, reaction: selfReaction)
    }

    private func arrange(layout: ParticipantsLayout, order: [String], spotlight: String?, share: Bool) {
        grid.setChildren([], corner: nil, cornerClass: Self.cornerClass)
        for (container, tile) in placed { container.remove(tile) }
        placed = []
        stripClamps.forEach { $0.removeChild() }
        stripClamps = []
        spotlightMain.setChild(nil)
        fullScreenMain.setChild(nil)
        spotlightStripTiles = [:]
        let others = order.compactMap { tiles[$0]?.view }
        placedSessions = layout == .fullScreen && !share ? Set([spotlight].compactMap { $0 }) : Set(order)
        showsSelf = true
        defer {
            // Until GTK has laid the strip out anew, the tiles still in it keep what they were
            // (a new one counts as in view), and whoever left it for the large view is in view.
            scrolledOut.formIntersection(spotlightStripTiles.keys)
            checkStripAfterLayout()
        }
        if share {
            for tile in others + [selfTile.view] { placeThumbnail(tile, in: shareStrip) }
            view.visiblePageName = Self.sharePage
            return
        }
        switch layout {
        case .grid:
            // With one or two others, they share the area and we are a small tile in its
            // corner (the SDK's grid omits the local user up to three people): in a one-to-one
            // call the person you talk to is large, not a portrait strip cropped from their video.
            if (1...2).contains(others.count) {
                grid.setChildren(others, corner: selfTile.view, cornerClass: Self.cornerClass)
            } else {
                grid.setChildren(others + [selfTile.view], corner: nil, cornerClass: Self.cornerClass)
            }
        case .spotlight:
            let main = spotlight.flatMap { tiles[$0]?.view } ?? selfTile.view
            spotlightMain.setChild(main)
            for id in order where id != spotlight {
                if let tile = tiles[id]?.view { spotlightStripTiles[id] = placeThumbnail(tile, in: spotlightStrip) }
            }
            if main !== selfTile.view { placeThumbnail(selfTile.view, in: spotlightStrip) }
            spotlightStripView.isVisible = !order.filter { $0 != spotlight }.isEmpty || main !== selfTile.view
        case .fullScreen:
            let main = spotlight.flatMap { tiles[$0]?.view } ?? selfTile.view
            fullScreenMain.setChild(main)
            showsSelf = main === selfTile.view
        }
        view.visiblePageName = layout.rawValue
    }

    private func place(_ tile: Widget, in container: Box) {
        container.append(tile)
        placed.append((container, tile))
    }

    @discardableResult
    private func placeThumbnail(_ tile: Widget, in strip: Box) -> Clamp {
        let clamp = Clamp(maximumWidth: Self.thumbnailWidth, child: tile)
        stripClamps.append(clamp)
        place(clamp, in: strip)
        return clamp
    }

    /// Looks again at which of the strip's tiles are out of view once GTK has laid it out and
    /// painted it: not at the strip view's own signals, as its viewport says its new size before
    /// its tiles get theirs (GtkViewport configures the adjustment, then allocates its child).
    /// A tile come into view is received at once; one gone out of view is paused only once the
    /// strip has stayed as it is for a moment: a window being resized is laid out at sizes it
    /// does not stay at (narrowed from 1400 to 360 px: 301 px, then 326), and reading those
    /// paused a tile in view and resumed it within the second — a frozen picture and a new
    /// keyframe.
    private func checkStripAfterLayout() {
        spotlightStripView.afterNextPaint { [weak self] in
            guard let self else { return }
            guard let measured = self.measuredOutOfView() else { return }
            let cameIntoView = self.scrolledOut.subtracting(measured)
            if !cameIntoView.isEmpty {
                self.scrolledOut.subtract(cameIntoView)
                self.onShownSessionsChanged?()
            }
            if !measured.isSubset(of: self.scrolledOut) { self.settleScrolledOut() }
        }
    }

    /// Takes what is out of view once the strip has not changed for `settleSeconds`: every
    /// change since the last call starts the wait again.
    private func settleScrolledOut() {
        settleGeneration += 1
        let generation = settleGeneration
        MainLoop.after(seconds: Self.settleSeconds) { [weak self] in
            guard let self, self.settleGeneration == generation else { return }
            // (Given no width now, it is given one later: that is a change, which comes here again.)
            guard let measured = self.measuredOutOfView() else { return }
            guard measured != self.scrolledOut else { return }
            self.scrolledOut = measured
            self.onShownSessionsChanged?()
        }
    }

    private var settleGeneration = 0
    private static let settleSeconds = 0.5

    /// The strip's tiles out of view as laid out now; nil while the strip is given no width: in
    /// a window being narrowed, GTK laid the participants out 0 px wide for a frame, the strip's
    /// viewport still saying 156 px — 0.15 s here, up to 0.85 s under load, which the wait above
    /// may not outlast (probably CI's case: a tile in view paused in spite of it).
    private func measuredOutOfView() -> Set<String>? {
        guard !spotlightStripTiles.isEmpty else { return [] }
        guard view.allocatedSize.width > 0, spotlightStripView.allocatedSize.width > 0 else { return nil }
        let extents = spotlightStripTiles.compactMapValues { $0.horizontalExtent(in: spotlightStrip) }
        return StripVisibility.outOfView(extents, viewport: spotlightStripView.horizontalViewport)
    }
}

/// Which tiles of a scrolling strip are out of view.
enum StripVisibility {
    /// The sessions whose tile (its horizontal extent in the strip) does not overlap the part
    /// of the strip shown; none while the strip is not laid out (nothing is known yet).
    static func outOfView(_ extents: [String: ClosedRange<Double>], viewport: ClosedRange<Double>?) -> Set<String> {
        guard let viewport else { return [] }
        // A sliver of a tile at the edge is not watching someone.
        return Set(extents.filter { _, extent in
            min(extent.upperBound, viewport.upperBound) - max(extent.lowerBound, viewport.lowerBound) < 8
        }.keys)
    }
}
