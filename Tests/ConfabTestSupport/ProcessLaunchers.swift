/// Commands that start a program in a given state, for a test's launcher (`/usr/bin/env`,
/// then the program's path and arguments after them).
public enum ProcessLaunchers {
    /// Starts the program with SIGTERM already pending: held and raised in the process that then
    /// execs it (both survive exec). The moment a stop reaches a program before it handles stop
    /// signals cannot be hit on demand otherwise.
    public static let withStopPending = [
        "python3", "-c",
        "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}); "
            + "os.kill(os.getpid(), signal.SIGTERM); os.execv(sys.argv[1], sys.argv[1:])",
    ]
}
