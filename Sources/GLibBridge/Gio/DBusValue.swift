import CGLib

/// A D-Bus value read out of a GVariant, so callers never touch GVariant themselves.
public indirect enum DBusValue: Equatable, Sendable {
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// Strings, object paths and signatures.
    case string(String)
    case array([DBusValue])
    case tuple([DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case variant(DBusValue)
    /// A type we do not read (its type string).
    case other(String)

    public var bool: Bool? { if case .bool(let value) = unwrapped { value } else { nil } }
    public var integer: Int64? { if case .integer(let value) = unwrapped { value } else { nil } }
    public var string: String? { if case .string(let value) = unwrapped { value } else { nil } }
    /// The children of an array or a tuple.
    public var children: [DBusValue] {
        switch unwrapped {
        case .array(let values), .tuple(let values): values
        default: []
        }
    }
    /// An `a{s…}` dictionary.
    public var dictionary: [String: DBusValue] {
        var result: [String: DBusValue] = [:]
        for case .dictEntry(let key, let value) in children { if let key = key.string { result[key] = value } }
        return result
    }
    private var unwrapped: DBusValue { if case .variant(let inner) = self { inner.unwrapped } else { self } }

    /// Reads `variant` (borrowed; not unreffed).
    init(reading variant: OpaquePointer) {
        let type = g_variant_classify(variant)
        switch type {
        case G_VARIANT_CLASS_BOOLEAN: self = .bool(g_variant_get_boolean(variant) != 0)
        case G_VARIANT_CLASS_BYTE: self = .integer(Int64(g_variant_get_byte(variant)))
        case G_VARIANT_CLASS_INT16: self = .integer(Int64(g_variant_get_int16(variant)))
        case G_VARIANT_CLASS_UINT16: self = .integer(Int64(g_variant_get_uint16(variant)))
        case G_VARIANT_CLASS_INT32: self = .integer(Int64(g_variant_get_int32(variant)))
        // A file descriptor: its index in the message's fd list.
        case G_VARIANT_CLASS_HANDLE: self = .integer(Int64(g_variant_get_handle(variant)))
        case G_VARIANT_CLASS_UINT32: self = .integer(Int64(g_variant_get_uint32(variant)))
        case G_VARIANT_CLASS_INT64: self = .integer(Int64(g_variant_get_int64(variant)))
        case G_VARIANT_CLASS_UINT64: self = .integer(Int64(truncatingIfNeeded: g_variant_get_uint64(variant)))
        case G_VARIANT_CLASS_DOUBLE: self = .double(g_variant_get_double(variant))
        case G_VARIANT_CLASS_STRING, G_VARIANT_CLASS_OBJECT_PATH, G_VARIANT_CLASS_SIGNATURE:
            self = .string(String(cString: g_variant_get_string(variant, nil)))
        case G_VARIANT_CLASS_VARIANT:
            let inner = g_variant_get_variant(variant)!
            defer { g_variant_unref(inner) }
            self = .variant(DBusValue(reading: inner))
        case G_VARIANT_CLASS_ARRAY, G_VARIANT_CLASS_TUPLE, G_VARIANT_CLASS_DICT_ENTRY:
            let children = (0..<g_variant_n_children(variant)).map { index -> DBusValue in
                let child = g_variant_get_child_value(variant, index)!
                defer { g_variant_unref(child) }
                return DBusValue(reading: child)
            }
            if type == G_VARIANT_CLASS_ARRAY { self = .array(children) }
            else if type == G_VARIANT_CLASS_TUPLE { self = .tuple(children) }
            else { self = children.count == 2 ? .dictEntry(children[0], children[1]) : .tuple(children) }
        default:
            self = .other(String(cString: g_variant_get_type_string(variant)))
        }
    }
}
