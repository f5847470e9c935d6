import CGLib
import Dispatch
import Glibc

/// glibc's allocator, set for a long-running app with many threads.
///
/// Left to itself it gives each thread that allocates at a busy moment an arena of its own
/// (up to eight per core), and keeps what a torn-down page or pipeline freed inside its heaps
/// until the process ends. bench-media's smaps of an app in a two-person call (issue 15):
/// 85 MiB PSS, of which 23 MiB in five thread arenas and 14 MiB in the main heap.
public enum ProcessHeap {
    /// At most `count` arenas for the whole process. Call before any thread starts: an arena,
    /// once made, stays.
    public static func limitArenas(to count: Int) {
        _ = mallopt(M_ARENA_MAX, Int32(count))
    }

    /// Makes GLib take its slices from malloc (`G_SLICE=always-malloc`), by starting this
    /// program again in this process with that set, unless G_SLICE is set already. Call first
    /// thing, before any thread starts; a program that cannot be started again (no /proc) goes
    /// on as it is.
    ///
    /// GLib 2.74 hands out GStreamer's buffers, GObject instances and hash tables from a slice
    /// allocator of its own: per-thread magazines and slab pages beside malloc's heaps (GLib
    /// 2.76 dropped it for plain malloc). bench-media at N = 4 (issue 15): confab-peer 54 → 51 MiB
    /// PSS, the app 76–79 → 74–76 MiB, CPU the same. GLib reads the variable once, when its
    /// allocator starts, and GLib's own constructor starts it, before `main`; and a variable set
    /// before the C library's constructor (an ELF pre-init function) is dropped by it. So the
    /// variable has to be there when the program starts, and starting again costs the dynamic
    /// linking twice: 40 ms for the app (too much before its lobby shows), nothing that matters
    /// for confab-peer.
    public static func restartWithGLibSlicesFromMalloc() {
        guard getenv("G_SLICE") == nil else { return }
        setenv("G_SLICE", "always-malloc", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        unsetenv("G_SLICE")
    }

    /// Gives the pages malloc holds free back to the system (`malloc_trim`), on a thread of
    /// the system's pool: it walks every arena under its lock, which is no work for the main
    /// thread.
    public static func returnFreePages() {
        DispatchQueue.global(qos: .utility).async { returnFreePagesNow() }
    }

    /// `returnFreePages` on this thread; whether any memory went back.
    @discardableResult
    public static func returnFreePagesNow() -> Bool { malloc_trim(0) == 1 }
}

/// Returns the free pages once things have settled after a big change (a page torn down, a
/// call's pipelines and first frames): `changed()` again before then starts the wait anew.
@MainActor
public final class HeapTrimmer {
    private let delay: Double
    private let trim: @MainActor () -> Void
    private var changes = 0

    public init(delay: Double, trim: @escaping @MainActor () -> Void = { ProcessHeap.returnFreePages() }) {
        self.delay = delay
        self.trim = trim
    }

    public func changed() {
        changes += 1
        let change = changes
        MainLoop.after(seconds: delay) { [weak self] in
            guard let self, self.changes == change else { return }
            self.trim()
        }
    }
}
