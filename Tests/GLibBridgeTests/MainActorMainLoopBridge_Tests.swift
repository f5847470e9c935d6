import ConfabTestSupport
import Foundation
import GLibBridge
import XCTest

/// The GLib main loop owns the main thread in the app; these tests prove Swift concurrency
/// still runs there through the bridge, and that the bridge does not busy-loop.
/// XCTest on Linux runs test methods on the main thread but cannot call main-actor methods,
/// so each test enters the main actor with `onMain`.
final class MainActorMainLoopBridge_Tests: XCTestCase {
    override func setUp() { MainActorMainLoopBridge.install() }
    override func tearDown() { MainActorMainLoopBridge.uninstall() }

    func test_glibLoopRunning_mainActorTaskSleepAndStream_allRunOnMainThread() { onMain {
        let loop = MainLoop()
        var steps: [String] = []
        var received: [Int] = []
        var allOnMainThread = true
        let (numbers, continuation) = AsyncStream.makeStream(of: Int.self)

        Task { @MainActor in
            allOnMainThread = allOnMainThread && Thread.isMainThread
            steps.append("task started")
            try? await Task.sleep(for: .milliseconds(50))
            allOnMainThread = allOnMainThread && Thread.isMainThread
            steps.append("slept")
        }
        Task { @MainActor in
            for await number in numbers {
                allOnMainThread = allOnMainThread && Thread.isMainThread
                received.append(number)
            }
            steps.append("stream finished")
            loop.quit()
        }
        // The producer is a GLib timer, i.e. work that only the GLib loop can run.
        MainLoop.after(seconds: 0.1) {
            continuation.yield(1); continuation.yield(2); continuation.yield(3)
            continuation.finish()
        }
        MainLoop.after(seconds: 5) { loop.quit() } // a hung bridge fails instead of hanging

        loop.run()

        XCTAssertEqual(received, [1, 2, 3])
        XCTAssertEqual(Set(steps), ["task started", "slept", "stream finished"])
        XCTAssertTrue(allOnMainThread)
    } }

    /// confab-peer's command runs on another thread and quits the loop when it ends; one refused
    /// at once ended before the main thread ran the loop, and the peer hung (once in CI).
    func test_quitBeforeRun_runReturnsAtOnce() { onMain {
        let loop = MainLoop()
        var guardFired = false
        loop.quit()
        MainLoop.after(seconds: 5) { guardFired = true; loop.quit() } // a lost quit fails instead of hanging
        let started = Date()
        loop.run()
        XCTAssertFalse(guardFired, "the quit that came before run() was lost")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    } }

    func test_bridgeInstalled_loopIdleForOneSecond_usesAlmostNoCPU() { onMain {
        let loop = MainLoop()
        // Wake the bridge at least once first: a bridge that forgot to drain its eventfd spins from then on.
        var woke = false
        Task { @MainActor in woke = true }
        MainLoop.iterate(until: { woke }, timeout: 2)
        XCTAssertTrue(woke)

        let before = processCPUSeconds()
        MainLoop.after(seconds: 1) { loop.quit() }
        loop.run()
        let used = processCPUSeconds() - before

        // A spinning source burns ~1 s of CPU here; an idle loop a few milliseconds.
        XCTAssertLessThan(used, 0.2, "the idle main loop used \(used) s of CPU in 1 s")
    } }

}

/// User + system CPU time this process has used.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}
