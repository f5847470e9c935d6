/// Sharing our screen (capability `screenshare`) and who else shares theirs. The media engine
/// publishes the screen as a second stream; others see it as our `isScreensharing`.
extension CallViewModel {
    /// The current user may share their screen in this call.
    public var canScreenshare: Bool { ownCapabilities.contains("screenshare") }

    /// The participant whose shared screen the call window shows large: the earliest to join
    /// among those sharing (our own share is never shown back to us; see `isCurrentUserScreensharing`).
    public var screensharingParticipant: CallParticipant? {
        callParticipants.values.filter(\.isScreensharing).sorted { $0.joinedAt < $1.joinedAt }.first
    }

    /// Someone shares a screen (we or another participant): the call window uses the share layout.
    public var isAnyoneScreensharing: Bool { isCurrentUserScreensharing || screensharingParticipant != nil }

    /// Starts publishing our screen; refusals and capture failures are shown to the user.
    public func startScreensharing(source: ScreenshareSource = .automatic) async {
        guard !isCurrentUserScreensharing else { return }
        guard canScreenshare else { return show("You don’t have permission to share your screen in this call.") }
        guard let mediaEngine, let call = mediaCall, isMediaConnected else {
            return show("Screen sharing needs the call’s audio and video connection. Wait until it is connected and try again.")
        }
        isCurrentUserScreensharing = true
        do {
            try await mediaEngine.startScreenshare(source: source) { [weak self] reason in
                self?.screenshareEnded(in: call, reason: reason)
            }
            // The call may have ended (or sharing been stopped) while the capture started.
            if mediaCall != call || !isCurrentUserScreensharing { await mediaEngine.stopScreenshare() }
        } catch is ScreenshareCancelled {
            // The user closed the desktop's dialog: they know, no message.
            if mediaCall == call { isCurrentUserScreensharing = false }
        } catch {
            guard mediaCall == call else { return }
            isCurrentUserScreensharing = false
            show("Couldn’t share your screen: \(error)")
        }
    }

    /// The share ended without us asking (the desktop's stop button, a capture failure): show
    /// that we no longer share, and why.
    private func screenshareEnded(in call: CallID, reason: String) {
        guard mediaCall == call, isCurrentUserScreensharing else { return }
        isCurrentUserScreensharing = false
        show(reason)
        Task { await mediaEngine?.stopScreenshare() }
    }

    /// Stops publishing our screen.
    public func stopScreensharing() async {
        guard isCurrentUserScreensharing else { return }
        isCurrentUserScreensharing = false
        await mediaEngine?.stopScreenshare()
    }
}
