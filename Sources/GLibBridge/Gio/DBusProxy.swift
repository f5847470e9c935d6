import CGLib

/// A D-Bus object on the session bus (GDBusProxy): cached properties with change notification,
/// asynchronous method calls and signal subscriptions. Nothing here blocks the main loop.
@MainActor
public final class DBusProxy: GObjectReference {
    public struct CallError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Touched only on the main thread; read again by the deinit.
    nonisolated(unsafe) private var subscriptions: [guint] = []

    private init(proxy: OpaquePointer) { super.init(takingOwnershipOf: UnsafeMutableRawPointer(proxy)) }

    deinit {
        let connection = g_dbus_proxy_get_connection(objectPointer.c())
        for id in subscriptions { g_dbus_connection_signal_unsubscribe(connection, id) }
    }

    /// Creates a proxy for `interface` at `path` of `name` on the session bus; `completion` gets
    /// nil when the bus cannot be reached.
    public static func connect(name: String, path: String, interface: String,
                               completion: @escaping @MainActor (DBusProxy?) -> Void) {
        let box = CallbackBox<@MainActor (DBusProxy?) -> Void>(completion)
        g_dbus_proxy_new_for_bus(G_BUS_TYPE_SESSION, G_DBUS_PROXY_FLAGS_NONE, nil, name, path, interface, nil,
                                 proxyReadyThunk, box.retainedPointer())
    }

    fileprivate static func adopt(_ proxy: OpaquePointer?) -> DBusProxy? { proxy.map { DBusProxy(proxy: $0) } }

    /// The unique bus name serving the object now, nil when nobody does (the service is absent).
    public var nameOwner: String? { takeString(g_dbus_proxy_get_name_owner(c())) }

    /// Our own unique bus name (":1.42"), which portals build request paths from.
    public var uniqueName: String? { string(from: g_dbus_connection_get_unique_name(g_dbus_proxy_get_connection(c()))) }

    /// A property as last received from the service.
    public func cachedProperty(_ name: String) -> DBusValue? {
        guard let value = g_dbus_proxy_get_cached_property(c(), name) else { return nil }
        defer { g_variant_unref(value) }
        return DBusValue(reading: value)
    }

    /// Runs `body` whenever the service reports changed properties.
    @discardableResult
    public func onPropertiesChanged(_ body: @escaping @MainActor () -> Void) -> SignalConnection {
        let box = CallbackBox(body)
        let id = g_signal_connect_data(raw, "g-properties-changed", unsafeBitCast(propertiesChangedThunk, to: GCallback.self),
                                       box.retainedPointer(), releaseVoidCallback, GConnectFlags(rawValue: 0))
        return SignalConnection(object: self, handlerID: id)
    }

    /// Calls `method` with `arguments` in GVariant text form (e.g. `("devices", "camera")`).
    public func call(_ method: String, arguments: String = "()", timeoutMilliseconds: Int32 = 10_000,
                     completion: @escaping @MainActor (Result<DBusValue, CallError>) -> Void) {
        let parameters: OpaquePointer
        switch Self.parse(arguments) {
        case .success(let parsed): parameters = parsed
        case .failure(let error): return completion(.failure(error))
        }
        defer { g_variant_unref(parameters) }
        let box = CallbackBox<@MainActor (Result<DBusValue, CallError>) -> Void>(completion)
        g_dbus_proxy_call(c(), method, parameters, G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil,
                          callFinishedThunk, box.retainedPointer())
    }

    /// Calls `method` like `call`, for methods that answer with file descriptors (the reply's
    /// `h` values index into `descriptors`). The caller owns the descriptors and must close them.
    public func callReturningFileDescriptors(_ method: String, arguments: String = "()", timeoutMilliseconds: Int32 = 10_000,
                                             completion: @escaping @MainActor (Result<(DBusValue, descriptors: [Int32]), CallError>) -> Void) {
        let parameters: OpaquePointer
        switch Self.parse(arguments) {
        case .success(let parsed): parameters = parsed
        case .failure(let error): return completion(.failure(error))
        }
        defer { g_variant_unref(parameters) }
        let box = CallbackBox<@MainActor (Result<(DBusValue, descriptors: [Int32]), CallError>) -> Void>(completion)
        g_dbus_proxy_call_with_unix_fd_list(c(), method, parameters, G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil, nil,
                                            fileDescriptorCallFinishedThunk, box.retainedPointer())
    }

    /// GVariant text form → a GVariant the caller unrefs.
    private static func parse(_ arguments: String) -> Result<OpaquePointer, CallError> {
        var error: UnsafeMutablePointer<GError>?
        guard let parameters = g_variant_parse(nil, arguments, nil, nil, &error) else {
            return .failure(CallError(description: takeErrorMessage(error) ?? "bad arguments \(arguments)"))
        }
        return .success(parameters)
    }

    /// Runs `body` with the parameters of every `member` signal of `interface` emitted at `path`
    /// (on this proxy's connection) until the proxy goes away or `unsubscribe` is called.
    @discardableResult
    public func subscribe(interface: String, member: String, path: String,
                          _ body: @escaping @MainActor (DBusValue) -> Void) -> UInt32 {
        let box = CallbackBox<@MainActor (DBusValue) -> Void>(body)
        let id = g_dbus_connection_signal_subscribe(g_dbus_proxy_get_connection(c()), nil, interface, member, path, nil,
                                                    G_DBUS_SIGNAL_FLAGS_NONE, signalThunk, box.retainedPointer(),
                                                    { data in CallbackBox<@MainActor (DBusValue) -> Void>.release(data) })
        subscriptions.append(id)
        return id
    }

    public func unsubscribe(_ id: UInt32) {
        guard let index = subscriptions.firstIndex(of: id) else { return }
        subscriptions.remove(at: index)
        g_dbus_connection_signal_unsubscribe(g_dbus_proxy_get_connection(c()), id)
    }
}

// GDBus runs these on the main context the call was made from (the main thread).

private let proxyReadyThunk: GAsyncReadyCallback = { _, result, data in
    let box = Unmanaged<CallbackBox<@MainActor (DBusProxy?) -> Void>>.fromOpaque(data!).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    nonisolated(unsafe) let proxy = g_dbus_proxy_new_for_bus_finish(result, &error)
    if let message = takeErrorMessage(error) { print("confab: D-Bus: \(message)") }
    MainActor.assumeIsolated { box.body(DBusProxy.adopt(proxy.map { OpaquePointer($0) })) }
}

private let callFinishedThunk: GAsyncReadyCallback = { source, result, data in
    let box = Unmanaged<CallbackBox<@MainActor (Result<DBusValue, DBusProxy.CallError>) -> Void>>.fromOpaque(data!).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    let outcome: Result<DBusValue, DBusProxy.CallError>
    if let source, let reply = g_dbus_proxy_call_finish(source.c(), result, &error) {
        outcome = .success(DBusValue(reading: reply))
        g_variant_unref(reply)
    } else {
        outcome = .failure(DBusProxy.CallError(description: takeErrorMessage(error) ?? "D-Bus call failed"))
    }
    MainActor.assumeIsolated { box.body(outcome) }
}

private let fileDescriptorCallFinishedThunk: GAsyncReadyCallback = { source, result, data in
    typealias Completion = @MainActor (Result<(DBusValue, descriptors: [Int32]), DBusProxy.CallError>) -> Void
    let box = Unmanaged<CallbackBox<Completion>>.fromOpaque(data!).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    var fileDescriptors: UnsafeMutablePointer<GUnixFDList>?
    let outcome: Result<(DBusValue, descriptors: [Int32]), DBusProxy.CallError>
    if let source, let reply = g_dbus_proxy_call_with_unix_fd_list_finish(source.c(), &fileDescriptors, result, &error) {
        var descriptors: [Int32] = []
        if let fileDescriptors {
            // Stealing hands the descriptors to us: the list no longer closes them.
            var count: gint = 0
            if let stolen = g_unix_fd_list_steal_fds(fileDescriptors, &count) {
                descriptors = Array(UnsafeBufferPointer(start: stolen, count: Int(count)))
                g_free(stolen)
            }
            g_object_unref(fileDescriptors)
        }
        outcome = .success((DBusValue(reading: reply), descriptors: descriptors))
        g_variant_unref(reply)
    } else {
        outcome = .failure(DBusProxy.CallError(description: takeErrorMessage(error) ?? "D-Bus call failed"))
    }
    MainActor.assumeIsolated { box.body(outcome) }
}

private let propertiesChangedThunk: @convention(c) (gpointer?, OpaquePointer?, gpointer?, gpointer?) -> Void = { _, _, _, data in
    CallbackBox<@MainActor () -> Void>.borrow(data).call()
}

private let signalThunk: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    let box = CallbackBox<@MainActor (DBusValue) -> Void>.borrow(data)
    let value = parameters.map { DBusValue(reading: $0) } ?? .tuple([])
    MainActor.assumeIsolated { box.body(value) }
}
