import ConfabProtocol

/// The rules for user ids, which appear in tokens, member lists and logs.
enum UserID {
    static func validate(_ userId: String) throws {
        let allowed = userId.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "_-.@".unicodeScalars.contains($0)
        }
        guard !userId.isEmpty, userId.count <= 64, allowed else {
            throw ProtocolError(.invalidRequest, "user id '\(userId)' must be 1-64 characters of A-Z a-z 0-9 _ - . @")
        }
    }
}
