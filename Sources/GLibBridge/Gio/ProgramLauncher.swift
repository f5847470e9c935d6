import CGLib

/// Starts other programs (the desktop's Settings) through GIO without waiting for them.
public enum ProgramLauncher {
    public struct LaunchError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The full path of `name` on PATH, if it is there.
    public static func findProgram(_ name: String) -> String? { takeString(g_find_program_in_path(name)) }

    /// Starts `arguments` (argv, the program first) as a child process and returns at once.
    /// `onExit` gets its exit status later, on the main loop (nil when it was killed by a signal).
    @MainActor
    public static func launch(_ arguments: [String], onExit: (@MainActor (Int32?) -> Void)? = nil) throws(LaunchError) {
        guard !arguments.isEmpty else { throw LaunchError(description: "no program to start") }
        var cStrings: [UnsafeMutablePointer<gchar>?] = arguments.map { strdup($0) } + [nil]
        defer { cStrings.forEach { free($0) } }
        var error: UnsafeMutablePointer<GError>?
        let subprocess = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                g_subprocess_newv($0, G_SUBPROCESS_FLAGS_NONE, &error)
            }
        }
        guard let subprocess else { throw LaunchError(description: takeErrorMessage(error) ?? "could not start \(arguments[0])") }
        let box = CallbackBox<@MainActor (Int32?) -> Void>(onExit ?? { _ in })
        // The subprocess reference is handed to the wait; the callback drops it.
        g_subprocess_wait_async(subprocess, nil, subprocessExitedThunk, box.retainedPointer())
    }
}

/// Runs on the main context the wait was started from (the main thread).
private let subprocessExitedThunk: GAsyncReadyCallback = { source, result, data in
    let box = Unmanaged<CallbackBox<@MainActor (Int32?) -> Void>>.fromOpaque(data!).takeRetainedValue()
    let subprocess: OpaquePointer? = source.map { OpaquePointer($0) }
    var status: Int32?
    if let subprocess {
        var error: UnsafeMutablePointer<GError>?
        if g_subprocess_wait_finish(subprocess, result, &error) != 0, g_subprocess_get_if_exited(subprocess) != 0 {
            status = g_subprocess_get_exit_status(subprocess)
        }
        if let error { g_error_free(error) }
        g_object_unref(gpointer(subprocess))
    }
    MainActor.assumeIsolated { box.body(status) }
}

/// The message of a GError we own, which is freed.
func takeErrorMessage(_ error: UnsafeMutablePointer<GError>?) -> String? {
    guard let error else { return nil }
    defer { g_error_free(error) }
    return error.pointee.message.map { String(cString: $0) }
}
