import ArgumentParser
import Dispatch
import Foundation
import ProcessSignals

// Stop signals first, before any thread exists (StopSignals says why); then the command, while
// this thread serves the main queue as an asynchronous `main` would.
StopSignals.process.start()
Task.detached {
    await runAsynchronously(ConfabServerCommand.self)
    exit(0)
}
dispatchMain()

/// `AsyncParsableCommand`'s entry: called on the concrete type, `main` resolves to
/// `ParsableCommand`'s synchronous one, which refuses to run an asynchronous command.
func runAsynchronously<Command: AsyncParsableCommand>(_ command: Command.Type) async {
    await command.main(nil)
}
