import CGLib

/// GSettings for one schema, read live: `onChange` runs whenever another program (Settings,
/// `gsettings set`) changes a key.
@MainActor
public final class Settings: GObjectReference {
    /// Nil when the schema (or one of `requiredKeys`) is not installed: GLib aborts the process
    /// on an unknown schema or key, so callers must be able to do without.
    public init?(schemaID: String, requiredKeys: [String] = []) {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return nil }
        defer { g_settings_schema_unref(schema) }
        for key in requiredKeys where g_settings_schema_has_key(schema, key) == 0 { return nil }
        super.init(takingOwnershipOf: g_settings_new(schemaID))
    }

    /// Whether `schemaID` is installed.
    public nonisolated static func isInstalled(_ schemaID: String) -> Bool {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return false }
        g_settings_schema_unref(schema)
        return true
    }

    public func bool(_ key: String) -> Bool { g_settings_get_boolean(c(), key) != 0 }

    @discardableResult
    public func setBool(_ key: String, _ value: Bool) -> Bool { g_settings_set_boolean(c(), key, value ? 1 : 0) != 0 }

    /// Runs `body` after `key` changes (GSettings' "changed::key" signal).
    @discardableResult
    public func onChange(of key: String, _ body: @escaping @MainActor () -> Void) -> SignalConnection {
        let box = CallbackBox(body)
        let id = g_signal_connect_data(raw, "changed::\(key)", unsafeBitCast(settingsChangedThunk, to: GCallback.self),
                                       box.retainedPointer(), releaseVoidCallback, GConnectFlags(rawValue: 0))
        return SignalConnection(object: self, handlerID: id)
    }
}

/// GSettings emits "changed" on the main context it was created on (the main thread).
private let settingsChangedThunk: @convention(c) (gpointer?, UnsafePointer<gchar>?, gpointer?) -> Void = { _, _, data in
    CallbackBox<@MainActor () -> Void>.borrow(data).call()
}
