import ConfabCore
import GLibBridge
import GtkBridge

/// A row of people: avatar with initials and name under it (outgoing ring, incoming caller).
@MainActor
final class ParticipantAvatars {
    let view = Box(.horizontal, spacing: 24)

    init(users: [User], size: Int) {
        view.align(horizontal: .center)
        for user in users.prefix(4) {
            let avatar = Avatar(size: size, name: user.name)
            avatar.setAccessibleLabel(user.name)
            let name = Label(user.name, cssClasses: ["title-4"])
            name.ellipsizeAtEnd()
            view.append(Box(.vertical, spacing: 8, children: [avatar, name]))
        }
        if users.count > 4 {
            view.append(Label("+\(users.count - 4)", cssClasses: ["title-2", "dim-label"]))
        }
    }
}

/// "0:07", "12:45", "1:02:03": elapsed call or ring time.
func formatElapsed(seconds: Int) -> String {
    let hours = seconds / 3600, minutes = (seconds / 60) % 60, rest = seconds % 60
    let twoDigits: (Int) -> String = { $0 < 10 ? "0\($0)" : "\($0)" }
    return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
}
