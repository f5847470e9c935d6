import CGLib

// Scoped GValues for property setting: initialised, handed to `body`, unset again.

func withGValue(boolean: Bool, _ body: (UnsafeMutablePointer<GValue>) -> Void) {
    var value = GValue()
    g_value_init(&value, confab_type_boolean())
    g_value_set_boolean(&value, boolean ? 1 : 0)
    body(&value)
    g_value_unset(&value)
}

func withGValue(double: Double, _ body: (UnsafeMutablePointer<GValue>) -> Void) {
    var value = GValue()
    g_value_init(&value, confab_type_double())
    g_value_set_double(&value, double)
    body(&value)
    g_value_unset(&value)
}

func withGValue(string: String, _ body: (UnsafeMutablePointer<GValue>) -> Void) {
    var value = GValue()
    g_value_init(&value, confab_type_string())
    g_value_set_string(&value, string)
    body(&value)
    g_value_unset(&value)
}

/// Reads a C string GLib owns, without taking it over.
package func string(from cString: UnsafePointer<gchar>?) -> String? {
    cString.map { String(cString: $0) }
}

/// Reads a C string GLib handed us, then frees it.
package func takeString(_ cString: UnsafeMutablePointer<gchar>?) -> String? {
    guard let cString else { return nil }
    defer { g_free(cString) }
    return String(cString: cString)
}

/// The string property `name` of `object` (nil when unset).
func stringProperty(_ name: String, of object: UnsafeMutablePointer<GObject>) -> String? {
    var value = GValue()
    g_value_init(&value, confab_type_string())
    defer { g_value_unset(&value) }
    g_object_get_property(object, name, &value)
    return string(from: g_value_get_string(&value))
}
