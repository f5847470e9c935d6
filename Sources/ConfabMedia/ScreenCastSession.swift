import FoundationEssentials
import Glibc
import GLibBridge

/// One screen cast the user chose in the portal's dialog: the PipeWire node to read and the
/// connection to read it through. It lasts until `close()` or until the desktop ends it (the
/// user pressed stop in the desktop's sharing indicator): then `onClosed` runs.
@MainActor
final class ScreenCastSession {
    let nodeID: UInt32
    /// The stream's size in pixels, when the portal says.
    let size: (width: Int, height: Int)?
    /// The PipeWire connection for `pipewiresrc fd=…`; it stays ours (pipewiresrc duplicates it)
    /// and is closed with the session.
    let pipeWireDescriptor: Int32
    var onClosed: (@MainActor () -> Void)?

    private let proxy: DBusProxy
    private let path: String
    private var closedSubscription: UInt32?

    init(proxy: DBusProxy, path: String, nodeID: UInt32, pipeWireDescriptor: Int32, size: (Int, Int)?) {
        self.proxy = proxy
        self.path = path
        self.nodeID = nodeID
        self.pipeWireDescriptor = pipeWireDescriptor
        self.size = size
        closedSubscription = proxy.subscribe(interface: "org.freedesktop.portal.Session", member: "Closed", path: path) { [weak self] _ in
            self?.endedByDesktop()
        }
    }

    /// Ends the screen cast (the desktop's sharing indicator goes away) and releases the connection.
    func close() {
        guard let subscription = closedSubscription else { return }
        closedSubscription = nil
        proxy.unsubscribe(subscription)
        closeFileDescriptor(pipeWireDescriptor)
        Self.close(path: path)
    }

    private func endedByDesktop() {
        guard closedSubscription != nil else { return }
        close()
        onClosed?()
    }

    /// Asks the portal to close the session at `path` (fire and forget: nothing to do if it fails).
    static func close(path: String) {
        DBusProxy.connect(name: ScreenCastPortal.busName, path: path, interface: "org.freedesktop.portal.Session") { proxy in
            proxy?.call("Close") { _ in withExtendedLifetime(proxy) {} }
        }
    }
}

/// `close(2)`, named apart from `ScreenCastSession.close()`.
func closeFileDescriptor(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
