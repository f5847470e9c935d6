import ConfabCore
import FoundationEssentials
import GLibBridge

/// What a screen share captures: the gst-launch fragment that produces its frames and, when the
/// desktop's portal chose the stream, the portal session behind it.
@MainActor
final class ScreenCapture {
    /// The gst-launch fragment that captures the screen.
    let description: String
    private let portalSession: ScreenCastSession?

    private init(description: String, portalSession: ScreenCastSession? = nil) {
        self.description = description
        self.portalSession = portalSession
    }

    /// Runs once if the desktop ends the share (the stop button of its sharing indicator).
    var onEndedByDesktop: (@MainActor () -> Void)? {
        get { portalSession?.onClosed }
        set { portalSession?.onClosed = newValue }
    }

    /// Opens `source`. `.automatic` prefers the ScreenCast portal (the user picks a monitor or a
    /// window, and it is the only way on Wayland), then the whole X display. Throws a sentence for
    /// the user, or `ScreenshareCancelled` when they back out of the portal's dialog or say no
    /// to `confirmWholeDisplay`: X11 has no picker, so the whole display is shared only once the
    /// user agreed (nil: no one to ask, as in confab-peer).
    static func open(_ source: ScreenshareSource, confirmWholeDisplay: (@MainActor (String) async -> Bool)? = nil,
                     environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> ScreenCapture {
        let display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        switch source {
        case .test:
            // A standard test pattern with a moving corner, at a typical laptop screen size.
            return ScreenCapture(description: "videotestsrc is-live=true pattern=smpte horizontal-speed=4 ! video/x-raw,width=1280,height=720")
        case .x11:
            guard let display else { throw CallError("There is no X display to share (DISPLAY is not set).") }
            return try await x11(display: display, confirm: confirmWholeDisplay)
        case .portal:
            guard let portal = await ScreenCastPortal.find() else {
                throw CallError("This desktop has no screen-sharing portal (xdg-desktop-portal with a ScreenCast backend).")
            }
            return try await open(portal)
        case .automatic:
            if let portal = await ScreenCastPortal.find() { return try await open(portal) }
            guard let display else {
                throw CallError("This desktop offers no way to share the screen: there is no screen-sharing portal "
                    + "(install xdg-desktop-portal and your desktop’s portal backend) and no X display.")
            }
            return try await x11(display: display, confirm: confirmWholeDisplay)
        }
    }

    /// Ends the capture's portal session, if any (the desktop's sharing indicator goes away).
    func close() { portalSession?.close() }

    /// The whole X display, once the user agreed. use-damage=false: with XDamage, ximagesrc
    /// sends only changed regions over a stale frame.
    private static func x11(display: String, confirm: (@MainActor (String) async -> Bool)?) async throws -> ScreenCapture {
        if let confirm, await !confirm(display) { throw ScreenshareCancelled() }
        return ScreenCapture(description: "ximagesrc display-name=\"\(display.replacing("\"", with: ""))\" use-damage=false show-pointer=true")
    }

    /// The user's choice in the portal's dialog, read from PipeWire. keepalive-time repeats the
    /// last frame: compositors send frames only when the screen changes, and a still screen must
    /// still reach late joiners. always-copy hands PipeWire its buffers back at once.
    private static func open(_ portal: ScreenCastPortal) async throws -> ScreenCapture {
        guard GStreamer.hasElement("pipewiresrc") else {
            throw CallError("Sharing through the desktop’s portal needs GStreamer’s PipeWire plugin (gstreamer1.0-pipewire).")
        }
        let session = try await portal.openSession()
        return ScreenCapture(description: "pipewiresrc fd=\(session.pipeWireDescriptor) path=\(session.nodeID) client-name=Confab "
                                + "always-copy=true do-timestamp=true keepalive-time=1000", portalSession: session)
    }
}
