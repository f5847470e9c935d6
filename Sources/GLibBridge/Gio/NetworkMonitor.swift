import CGLib

/// The system's network, as GIO's network monitor sees it (netlink on Linux): `onChange` runs
/// when addresses or routes change — an interface went down or up, or an address came or went.
/// Media connections are tied to the addresses they were made on; this is how they learn that
/// theirs may be gone without waiting for the silence to tell.
@MainActor
public final class NetworkMonitor {
    private let monitor: GObjectReference
    private var connection: SignalConnection?

    /// Watches the default monitor (shared by the process; made on the main context, where its
    /// signal is emitted).
    public init() {
        monitor = GObjectReference(adopting: gpointer(g_network_monitor_get_default()))
    }

    /// Runs `body` on every change (with whether a network is available); replaces an earlier one.
    public func onChange(_ body: @escaping @MainActor (Bool) -> Void) {
        connection?.disconnect()
        let box = CallbackBox(body)
        let id = g_signal_connect_data(monitor.raw, "network-changed", unsafeBitCast(networkChangedThunk, to: GCallback.self),
                                       box.retainedPointer(), { data, _ in CallbackBox<@MainActor (Bool) -> Void>.release(data) },
                                       GConnectFlags(rawValue: 0))
        connection = SignalConnection(object: monitor, handlerID: id)
    }

    /// Stops watching (also when the monitor goes).
    public func stop() {
        connection?.disconnect()
        connection = nil
    }

    isolated deinit { connection?.disconnect() }
}

private let networkChangedThunk: @convention(c) (gpointer?, gboolean, gpointer?) -> Void = { _, available, data in
    let box = CallbackBox<@MainActor (Bool) -> Void>.borrow(data)
    MainActor.assumeIsolated { box.body(available != 0) }
}
