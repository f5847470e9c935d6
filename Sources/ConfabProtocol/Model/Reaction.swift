/// The reactions a participant may send: a fixed set, so that a reaction is never free text
/// (nothing to moderate, nothing that can be made to look like a system message).
public enum Reaction: String, Codable, Sendable, CaseIterable {
    case thumbsUp = "👍"
    case heart = "❤️"
    case laugh = "😂"
    case party = "🎉"
    case clap = "👏"
    case surprised = "😮"
}
