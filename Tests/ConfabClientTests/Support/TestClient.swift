import ConfabTestSupport
import ConfabClient
import Logging

extension CoordinatorClient {
    /// A client of `server` as these tests sign in (quiet logs, quick reconnects), not yet
    /// connected: the test attaches its event recorder first.
    @MainActor
    static func forTests(_ user: String, on server: ServerProcess, configure: (inout Options) -> Void = { _ in }) -> CoordinatorClient {
        var options = Options()
        options.clientName = "client-tests"
        options.reconnectBackoff = ReconnectBackoff(initial: .milliseconds(100), maximum: .milliseconds(500))
        configure(&options)
        var logger = Logger(label: "client-tests")
        logger.logLevel = .warning
        return CoordinatorClient(serverURL: server.baseURL, userID: user, options: options, logger: logger)
    }
}
