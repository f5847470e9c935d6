import ArgumentParser
import GLibBridge
import ProcessSignals

/// The entry point: runs the parsed command while a GLib main loop owns the main thread.
/// GStreamer's bus watches, decoded frames and webrtcbin callbacks arrive through the GLib main
/// context, and main-actor work (the coordinator client, timers, signals) reaches it through the
/// main-actor bridge; with an async main, neither would run on the main thread (ARCHITECTURE.md).
@main
enum PeerMain {
    static func main() {
        // Before any thread starts (see ProcessHeap).
        ProcessHeap.restartWithGLibSlicesFromMalloc()
        // Then, still before any thread: SIGTERM and SIGINT held for the command's stop, so one
        // sent while the peer starts is kept for it (StopSignals).
        StopSignals.process.start()
        let command: any ParsableCommand
        do {
            command = try ConfabPeer.parseAsRoot()
        } catch {
            ConfabPeer.exit(withError: error)
        }
        MainActor.assumeIsolated { MainActorMainLoopBridge.install() }
        let run = CommandRun()
        Task.detached {
            do {
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    var command = command
                    try command.run()
                }
            } catch {
                run.failure = error
            }
            run.loop.quit()
        }
        run.loop.run()
        // A peer that joins and leaves at once may still be making its certificate.
        StartupWork.waitUntilFinished()
        ConfabPeer.exit(withError: run.failure)
    }
}

/// The loop the command runs under and how the command ended. `failure` is written before
/// `quit()` and read after `run()` returns, which GLib's loop lock orders.
private final class CommandRun: @unchecked Sendable {
    let loop = MainLoop()
    var failure: (any Error)?
}
