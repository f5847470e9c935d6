import ConfabCore
import GLibBridge
import GtkBridge

/// Shows the call view model's messages in one window's toast overlay: each message once, only
/// those about this window's call (or about no call), and a message from before the window
/// opened only when it is recent (a screen change often follows the message that caused it).
@MainActor
final class ToastForwarder {
    private weak var callViewModel: CallViewModel?
    private let overlay: ToastOverlay
    private let call: CallID?
    private var lastToastID: Int?
    /// The toasts shown or waiting here, by their message's id: a later message may grow one
    /// of them (`Toast.replaces`). Those gone from the screen are let go.
    private var shown: [Int: GrowingToast] = [:]
    private var binding: ObservationBinding?

    /// - Parameter call: the call this window is about; nil for windows outside a call.
    init(callViewModel: CallViewModel, overlay: ToastOverlay, call: CallID?) {
        self.callViewModel = callViewModel
        self.overlay = overlay
        self.call = call
        if let toast = callViewModel.toast, !toast.isRecent { lastToastID = toast.id }
        binding = ObservationBinding { [weak self] in self?.update() }
    }

    func cancel() { binding?.cancel() }

    private func update() {
        guard let toast = callViewModel?.toast, toast.id != lastToastID else { return }
        lastToastID = toast.id
        guard toast.belongs(to: call) else { return }
        shown = shown.filter { !$0.value.isDismissed }
        let previous = toast.replaces.flatMap { shown.removeValue(forKey: $0) }
        shown[toast.id] = overlay.showToast(toast.message, growing: previous)
    }
}
