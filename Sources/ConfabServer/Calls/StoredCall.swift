import ConfabProtocol
import Foundation

/// The durable part of a call: what a `CallStore` keeps across restarts.
struct StoredCall: Sendable, Equatable {
    var cid: CallID
    var createdBy: String
    var createdAt: Date
    var updatedAt: Date
    var startsAt: Date?
    var endedAt: Date?
    var backstage = false
    var broadcasting = false
    var recording = false
    var members: [CallMember] = []
    var blockedUsers: [String] = []
    var custom: [String: JSONValue] = [:]
    /// The secret of the call's link; made with the call and kept with it.
    var linkSecret = CallLinkSecret.random()
    /// A waiting room: people who are not members knock, and a host lets them in (issue 18).
    var askToJoin = false

    /// Throws `callEnded` when the call has ended (requests that change a call need it open).
    func requireNotEnded() throws {
        if endedAt != nil { throw ProtocolError(.callEnded, "call \(cid) has ended") }
    }

    func role(of userId: String) -> CallRole? {
        members.first { $0.userId == userId }?.role
    }

    func isMember(_ userId: String) -> Bool {
        members.contains { $0.userId == userId }
    }

    /// Adds a member or changes the role of an existing one; returns the member as stored.
    @discardableResult
    mutating func upsertMember(_ userId: String, role: CallRole, at date: Date) -> CallMember {
        if let index = members.firstIndex(where: { $0.userId == userId }) {
            members[index].role = role
            return members[index]
        }
        let member = CallMember(userId: userId, role: role, createdAt: date)
        members.append(member)
        return member
    }
}
