import CGLib

/// String, number and enum keys, for the app's own schema (org.confab.Confab). Only keys the
/// schema declares may be used: GLib aborts on an unknown key, so callers pass `requiredKeys`
/// to `Settings.init` and stick to them.
extension Settings {
    public func string(_ key: String) -> String { takeString(g_settings_get_string(c(), key)) ?? "" }

    /// Writes `value`; false when the schema refuses it (e.g. not one of an enum's values).
    @discardableResult
    public func setString(_ key: String, _ value: String) -> Bool {
        guard accepts(key, g_variant_new_string(value)) else { return false }
        return g_settings_set_string(c(), key, value) != 0
    }

    public func integer(_ key: String) -> Int { Int(g_settings_get_int(c(), key)) }

    @discardableResult
    public func setInteger(_ key: String, _ value: Int) -> Bool {
        guard let narrow = gint(exactly: value), accepts(key, g_variant_new_int32(narrow)) else { return false }
        return g_settings_set_int(c(), key, narrow) != 0
    }

    public func double(_ key: String) -> Double { g_settings_get_double(c(), key) }

    @discardableResult
    public func setDouble(_ key: String, _ value: Double) -> Bool {
        guard value.isFinite, accepts(key, g_variant_new_double(value)) else { return false }
        return g_settings_set_double(c(), key, value) != 0
    }

    /// Writes pending changes to disk (the keyfile or dconf backend) before the process exits.
    public static func sync() { g_settings_sync() }

    /// Checks a value against the key's range or choices first: an out-of-range write is a
    /// GLib critical (fatal in tests), and a value from the user or a file may be anything.
    private func accepts(_ key: String, _ value: OpaquePointer?) -> Bool {
        guard let value else { return false }
        g_variant_ref_sink(value)
        defer { g_variant_unref(value) }
        guard let schema = settingsSchema() else { return false }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, key) != 0, let schemaKey = g_settings_schema_get_key(schema, key) else { return false }
        defer { g_settings_schema_key_unref(schemaKey) }
        return g_variant_is_of_type(value, g_settings_schema_key_get_value_type(schemaKey)) != 0
            && g_settings_schema_key_range_check(schemaKey, value) != 0
    }

    /// The schema (a new reference), read through the "settings-schema" property because
    /// g_object_get is variadic and does not import.
    private func settingsSchema() -> OpaquePointer? {
        var value = GValue()
        g_value_init(&value, g_settings_schema_get_type())
        defer { g_value_unset(&value) }
        g_object_get_property(objectPointer, "settings-schema", &value)
        return g_value_dup_boxed(&value).map { OpaquePointer($0) }
    }
}
