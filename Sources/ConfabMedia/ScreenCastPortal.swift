import ConfabCore
import FoundationEssentials
import GLibBridge

/// The xdg-desktop-portal ScreenCast portal: the desktop (GNOME, KDE, wlroots…) asks the user
/// which monitor or window to share, then hands us a PipeWire connection and the node of that
/// stream. This is the only way to capture the screen on Wayland, and the friendlier one on X11
/// (the user picks a window instead of giving away the whole display).
///
/// The portal's methods answer through a Request object: each call gets a `handle_token`, and
/// the result arrives as a `Response` signal on the request path built from our bus name and the
/// token. We subscribe before calling so a fast portal cannot answer before we listen.
@MainActor
final class ScreenCastPortal {
    static let busName = "org.freedesktop.portal.Desktop"
    static let objectPath = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.ScreenCast"

    /// Source types (bit flags of the portal's AvailableSourceTypes).
    private static let monitorAndWindow: Int64 = 1 | 2
    /// Cursor mode "embedded": the pointer is drawn into the frames, so others see what we point at.
    private static let embeddedCursor: Int64 = 2
    /// The user may take this long to pick what to share before we give up on the dialog.
    static let dialogTimeout: Duration = .seconds(300)

    /// Request tokens must be unique for our connection: counted across every portal use.
    private static var tokenCounter = 0

    private let proxy: DBusProxy

    private init(proxy: DBusProxy) { self.proxy = proxy }

    /// The ScreenCast portal on the session bus, or nil when there is none: no portal service, or
    /// one without the ScreenCast interface (its properties are then missing).
    static func find() async -> ScreenCastPortal? {
        var proxy: DBusProxy?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DBusProxy.connect(name: busName, path: objectPath, interface: interface) { found in
                proxy = found
                continuation.resume()
            }
        }
        guard let proxy, proxy.nameOwner != nil, proxy.cachedProperty("AvailableSourceTypes") != nil else { return nil }
        return ScreenCastPortal(proxy: proxy)
    }

    /// Asks the user what to share (the portal's dialog) and opens it. Throws
    /// `ScreenshareCancelled` when the user cancels the dialog, a sentence for anything else.
    func openSession() async throws -> ScreenCastSession {
        let created = try await request("CreateSession") { token in
            "({'handle_token': <'\(token)'>, 'session_handle_token': <'\(Self.nextToken())'>},)"
        }
        guard let session = created["session_handle"]?.string, session.hasPrefix("/") else {
            throw portalError("it created no session")
        }
        do {
            let sourceTypes = (proxy.cachedProperty("AvailableSourceTypes")?.integer ?? Self.monitorAndWindow) & Self.monitorAndWindow
            let cursorModes = proxy.cachedProperty("AvailableCursorModes")?.integer ?? 0
            let cursor = cursorModes & Self.embeddedCursor != 0 ? ", 'cursor_mode': <uint32 \(Self.embeddedCursor)>" : ""
            _ = try await request("SelectSources") { token in
                "(objectpath '\(session)', {'handle_token': <'\(token)'>, 'types': <uint32 \(sourceTypes == 0 ? Self.monitorAndWindow : sourceTypes)>, "
                    + "'multiple': <false>\(cursor)})"
            }
            let started = try await request("Start") { token in "(objectpath '\(session)', '', {'handle_token': <'\(token)'>})" }
            guard let stream = started["streams"]?.children.first?.children, let node = stream.first?.integer,
                  let nodeID = UInt32(exactly: node) else {
                throw portalError("it started no stream")
            }
            let sizes = stream.count > 1 ? stream[1].dictionary["size"]?.children.compactMap(\.integer) ?? [] : []
            let size = sizes.count == 2 ? (width: Int(sizes[0]), height: Int(sizes[1])) : nil
            let descriptor = try await openPipeWireRemote(session: session)
            return ScreenCastSession(proxy: proxy, path: session, nodeID: nodeID, pipeWireDescriptor: descriptor, size: size)
        } catch {
            ScreenCastSession.close(path: session)
            throw error
        }
    }

    /// The PipeWire connection that may see (only) the stream the user chose.
    private func openPipeWireRemote(session: String) async throws -> Int32 {
        let result = await withCheckedContinuation { continuation in
            proxy.callReturningFileDescriptors("OpenPipeWireRemote", arguments: "(objectpath '\(session)', @a{sv} {})") {
                continuation.resume(returning: $0)
            }
        }
        switch result {
        case .success(let (reply, descriptors)):
            let index = reply.children.first?.integer.map(Int.init) ?? -1
            guard descriptors.indices.contains(index) else {
                descriptors.forEach(closeFileDescriptor)
                throw portalError("it gave no PipeWire connection")
            }
            for (position, descriptor) in descriptors.enumerated() where position != index { closeFileDescriptor(descriptor) }
            return descriptors[index]
        case .failure(let error):
            throw portalError(error.description)
        }
    }

    /// Calls `method` with the arguments `arguments(token)` builds and waits for its Response.
    private func request(_ method: String, arguments: (String) -> String) async throws -> [String: DBusValue] {
        guard let sender = proxy.uniqueName else { throw portalError("there is no session bus") }
        let token = Self.nextToken()
        let path = Self.objectPath + "/request/" + String(sender.dropFirst().replacing(".", with: "_")) + "/" + token
        let outcome: Result<(code: Int64, results: [String: DBusValue]), PortalError> = await withCheckedContinuation { continuation in
            let proxy = self.proxy
            var finished = false
            var subscription: UInt32 = 0
            var timeout: Task<Void, Never>?
            let finish = { (outcome: Result<(code: Int64, results: [String: DBusValue]), PortalError>) in
                guard !finished else { return }
                finished = true
                timeout?.cancel()
                proxy.unsubscribe(subscription)
                continuation.resume(returning: outcome)
            }
            subscription = proxy.subscribe(interface: "org.freedesktop.portal.Request", member: "Response", path: path) { reply in
                let code = reply.children.first?.integer ?? 2
                let results = reply.children.count > 1 ? reply.children[1].dictionary : [:]
                finish(.success((code, results)))
            }
            proxy.call(method, arguments: arguments(token)) { result in
                if case .failure(let error) = result { finish(.failure(PortalError(detail: error.description))) }
            }
            timeout = Task { @MainActor in
                guard (try? await Task.sleep(for: Self.dialogTimeout)) != nil else { return }
                finish(.failure(PortalError(detail: "it did not answer")))
            }
        }
        switch outcome {
        case .failure(let error):
            throw portalError(error.detail)
        case .success(let response) where response.code == 0:
            return response.results
        case .success(let response) where response.code == 1:
            throw ScreenshareCancelled()
        case .success:
            throw portalError("it ended the request")
        }
    }

    private static func nextToken() -> String {
        tokenCounter += 1
        return "confab\(ProcessInfo.processInfo.processIdentifier)_\(tokenCounter)"
    }

    private struct PortalError: Error { let detail: String }

    private func portalError(_ detail: String) -> CallError {
        CallError("The desktop’s screen-sharing portal could not share your screen (\(detail)).")
    }
}
