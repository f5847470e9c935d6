import ConfabCore
import FoundationEssentials
import GLibBridge
import GtkBridge

/// The call's chat in the sidebar: the messages (sender, avatar, time; links clickable) and an
/// entry where Enter sends and Shift+Enter breaks the line. A message over the server's limit
/// is refused before sending, with the reason under the entry. Built before the call (with the
/// call page, while the lobby shows), then bound to the call's chat.
@MainActor
final class ChatPane {
    let view: Widget
    private weak var call: ActiveCall?
    private let messages = Box(.vertical, spacing: 10)
    private let scroller: ScrolledWindow
    private let emptyLabel = Label(tr("No messages yet. Say hello!"), cssClasses: ["dim-label"])
    private let entry = MessageTextView(accessibleLabel: tr("Message"))
    private let refusal = Label("", cssClasses: ["error", "caption"])
    private let sendButton = Button(iconName: "paper-plane-symbolic", accessibleLabel: tr("Send message"))
    private var binding: ObservationBinding?
    /// The ids shown, so an update appends only what is new.
    private var shownIDs: [Int64] = []

    init() {
        messages.setMargins(12)
        messages.append(emptyLabel)
        scroller = ScrolledWindow(child: messages)
        scroller.expand(horizontally: false, vertically: true)
        scroller.followEnd()
        entry.addCSSClass("chat-entry")
        entry.expand(horizontally: true, vertically: false)
        entry.tooltip = tr("Enter sends, Shift+Enter starts a new line")
        let entryFrame = ScrolledWindow(child: entry)
        entryFrame.expand(horizontally: true, vertically: false)
        entryFrame.setSizeRequest(width: -1, height: 60)
        sendButton.addCSSClass("circular")
        sendButton.addCSSClass("suggested-action")
        sendButton.align(vertical: .end)
        refusal.wrapAtStart()
        refusal.isVisible = false
        let composer = Box(.horizontal, spacing: 6, children: [entryFrame, sendButton])
        let bottom = Box(.vertical, spacing: 4, children: [refusal, composer])
        bottom.setMargins(12)
        let column = Box(.vertical, children: [scroller, Separator(), bottom])
        column.setAccessibleLabel(tr("Chat"))
        view = column
        entry.onSubmit { [weak self] in self?.send() }
        sendButton.onClicked { [weak self] in self?.send() }
    }

    /// Shows `call`'s chat and sends to it from now on.
    func bind(to call: ActiveCall) {
        self.call = call
        binding = ObservationBinding { [weak self] in self?.update() }
    }

    /// Ends the pane's binding (the call page closes).
    func close() {
        binding?.cancel()
        binding = nil
    }

    /// Puts the keyboard in the entry (the pane was just opened).
    func focusEntry() { entry.grabFocus() }

    private func send() {
        guard let call else { return }
        let text = entry.text
        // Refused here with the reason, and kept in the entry so it can be shortened.
        if let reason = ActiveCall.chatRefusal(for: text) {
            refusal.text = reason
            refusal.isVisible = true
            return
        }
        refusal.isVisible = false
        guard !text.trimmingWhitespace().isEmpty else { return }
        entry.text = ""
        // Back to the newest, where the message will show, also from reading earlier ones.
        scroller.scrollToEnd()
        Task { [weak self] in
            // A failed send (told in a toast) gives the text back to the entry.
            if await !call.sendChat(text), let self, self.entry.text.isEmpty { self.entry.text = text }
        }
    }

    private func update() {
        guard let call else { return }
        let all = call.chatMessages
        guard all.map(\.id) != shownIDs else { return }
        // Messages only ever join the end (sorted by the server's id), except history that
        // came after a live message: then the list is drawn again.
        if !shownIDs.isEmpty, Array(all.prefix(shownIDs.count).map(\.id)) != shownIDs {
            messages.removeAll()
            shownIDs = []
        }
        emptyLabel.isVisible = all.isEmpty
        for message in all.dropFirst(shownIDs.count) {
            messages.append(row(for: message, in: call))
            shownIDs.append(message.id)
        }
    }

    private func row(for message: ChatMessage, in call: ActiveCall) -> Widget {
        let name = call.isOwn(message) ? tr("You") : call.senderName(of: message)
        let avatar = Avatar(size: 28, name: call.senderName(of: message))
        avatar.align(vertical: .start)
        let nameLabel = Label(name, cssClasses: ["heading", "caption"])
        nameLabel.ellipsizeAtEnd()
        let time = LocalTime.shortText(of: message.createdAt)
        let timeLabel = Label(time, cssClasses: ["dim-label", "caption", "numeric"])
        let header = Box(.horizontal, spacing: 6, children: [nameLabel, timeLabel])
        let text = Label()
        text.setMarkup(ChatMarkup.markup(for: message.text))
        text.wrapAtStart()
        text.makeSelectable()
        let column = Box(.vertical, spacing: 2, children: [header, text])
        column.expand(horizontally: true, vertically: false)
        let row = Box(.horizontal, spacing: 8, children: [avatar, column])
        row.addCSSClass("chat-message")
        row.setAccessibleLabel(tr("%@ at %@: %@", name, time, message.text))
        return row
    }
}

/// A chat message as Pango markup: the text escaped (nothing a sender types is read as
/// markup), with web links (http and https only) made clickable.
@MainActor
enum ChatMarkup {
    static func markup(for text: String) -> String {
        var markup = ""
        var cursor = text.startIndex
        for match in text.matches(of: /https?:\/\/[^\s<>"]+/) {
            markup += Label.escape(String(text[cursor..<match.range.lowerBound]))
            let link = Label.escape(String(match.output))
            markup += "<a href=\"\(link)\">\(link)</a>"
            cursor = match.range.upperBound
        }
        return markup + Label.escape(String(text[cursor...]))
    }
}
