import ConfabProtocol
import Foundation

/// The waiting rooms of calls that ask to join (issue 18): who knocks from which connections,
/// and whom hosts let in or turned away.
///
/// Owned by the `CallCoordinator`, in memory like the link holders in `CallCache`: a knock
/// lives as long as the knocker's connection, and the answers as long as the call stays in
/// memory (a call nobody uses any more forgets them; whoever comes later knocks again).
struct WaitingRoomRegistry {
    private struct Knocker {
        var knock: CallKnock
        /// The knocker's devices waiting for the answer; the knock goes with the last one.
        var connections: Set<String>
    }

    private struct Room {
        var knockers: [String: Knocker] = [:]
        var admitted: Set<String> = []
        var denied: Set<String> = []
    }

    private var rooms: [CallID: Room] = [:]

    func isAdmitted(_ userId: String, to cid: CallID) -> Bool {
        rooms[cid]?.admitted.contains(userId) ?? false
    }

    func isDenied(_ userId: String, from cid: CallID) -> Bool {
        rooms[cid]?.denied.contains(userId) ?? false
    }

    /// Records a knock from `connectionId`; returns the knock when `userId` was not knocking
    /// yet (hosts are told once, however many devices knock).
    mutating func knock(_ userId: String, from connectionId: String, at cid: CallID, now: Date) -> CallKnock? {
        if rooms[cid]?.knockers[userId] != nil {
            rooms[cid]?.knockers[userId]?.connections.insert(connectionId)
            return nil
        }
        let knock = CallKnock(userId: userId, knockedAt: now)
        rooms[cid, default: Room()].knockers[userId] = Knocker(knock: knock, connections: [connectionId])
        return knock
    }

    /// Who waits, first knock first.
    func knocks(at cid: CallID) -> [CallKnock] {
        (rooms[cid]?.knockers.values.map(\.knock) ?? []).sorted { ($0.knockedAt, $0.userId) < ($1.knockedAt, $1.userId) }
    }

    func hasKnocks(at cid: CallID) -> Bool {
        !(rooms[cid]?.knockers.isEmpty ?? true)
    }

    /// Lets a knocker in; returns the connections that knocked, or nil when `userId` is not
    /// knocking.
    mutating func admit(_ userId: String, to cid: CallID) -> Set<String>? {
        guard let knocker = rooms[cid]?.knockers.removeValue(forKey: userId) else { return nil }
        rooms[cid]?.admitted.insert(userId)
        return knocker.connections
    }

    /// Takes `userId`'s knock off the list without an answer (they got in another way: a host
    /// made them a member); true when they were knocking.
    mutating func removeKnock(of userId: String, at cid: CallID) -> Bool {
        rooms[cid]?.knockers.removeValue(forKey: userId) != nil
    }

    /// Lets in, without a knock, someone already in the call (the waiting room was switched on
    /// while they were there: they stay).
    mutating func admitWithoutKnock(_ userId: String, to cid: CallID) {
        rooms[cid, default: Room()].admitted.insert(userId)
    }

    /// Turns a knocker away; returns the connections that knocked, or nil when `userId` is not
    /// knocking.
    mutating func deny(_ userId: String, from cid: CallID) -> Set<String>? {
        guard let knocker = rooms[cid]?.knockers.removeValue(forKey: userId) else { return nil }
        rooms[cid]?.denied.insert(userId)
        return knocker.connections
    }

    /// The connection closed: its knocks go; returns the knocks that had no other device left.
    mutating func withdraw(connection connectionId: String) -> [(cid: CallID, userId: String)] {
        var withdrawn: [(CallID, String)] = []
        for (cid, room) in rooms {
            for userId in room.knockers.keys where withdraw(userId, connection: connectionId, at: cid) {
                withdrawn.append((cid, userId))
            }
        }
        return withdrawn
    }

    /// `userId` stopped waiting on `connectionId` (left the lobby, or went away); true when
    /// that was their last device waiting, so the knock is gone.
    mutating func withdraw(_ userId: String, connection connectionId: String, at cid: CallID) -> Bool {
        guard let knocker = rooms[cid]?.knockers[userId], knocker.connections.contains(connectionId) else { return false }
        if knocker.connections.count == 1 {
            rooms[cid]?.knockers[userId] = nil
            return true
        }
        rooms[cid]?.knockers[userId]?.connections.remove(connectionId)
        return false
    }

    /// Forgets who was let in (the call's link changed: what the old link let in is void).
    mutating func forgetAdmissions(to cid: CallID) {
        rooms[cid]?.admitted.removeAll()
    }

    mutating func forget(_ cid: CallID) {
        rooms[cid] = nil
    }
}
