import ConfabProtocol

/// Which Janus node each call's room is on, and the load that puts on each node: the rooms
/// placed there and the participants admitted to them (join tokens not yet revoked).
///
/// A call keeps its node while it lives; it moves only when that node is down (`place` with
/// another node), and its old tokens go with the old room.
struct JanusPlacements: Sendable, Equatable {
    /// A node by its position in the configured list.
    struct NodeID: Hashable, Comparable, Sendable {
        let index: Int
        static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.index < rhs.index }
    }

    /// What a node carries.
    struct Load: Sendable, Equatable {
        var rooms = 0
        var participants = 0
    }

    private struct Placement: Sendable, Equatable {
        var node: NodeID
        var tokens: Set<String> = []
    }

    private var byCall: [CallID: Placement] = [:]

    func node(of cid: CallID) -> NodeID? { byCall[cid]?.node }

    func calls(on node: NodeID) -> [CallID] { byCall.filter { $0.value.node == node }.map(\.key) }

    func load(of node: NodeID) -> Load {
        byCall.values.filter { $0.node == node }.reduce(into: Load()) { load, placement in
            load.rooms += 1
            load.participants += placement.tokens.count
        }
    }

    /// `candidates`, the one a room should go on first: the fewest participants (media is what
    /// costs a Janus), then the fewest rooms, then the first configured.
    func byLoad(_ candidates: [NodeID]) -> [NodeID] {
        candidates.map { ($0, load(of: $0)) }
            .sorted { ($0.1.participants, $0.1.rooms, $0.0.index) < ($1.1.participants, $1.1.rooms, $1.0.index) }
            .map(\.0)
    }

    /// Puts `cid`'s room on `node`; a call moved from another node starts there with no tokens.
    mutating func place(_ cid: CallID, on node: NodeID) {
        if byCall[cid]?.node != node { byCall[cid] = Placement(node: node) }
    }

    mutating func admitted(_ token: String, to cid: CallID) { byCall[cid]?.tokens.insert(token) }

    /// Whether `token` was admitted to `cid`'s room where it is now (not on a node it left).
    mutating func revoked(_ token: String, from cid: CallID) -> Bool { byCall[cid]?.tokens.remove(token) != nil }

    mutating func remove(_ cid: CallID) { byCall[cid] = nil }
}
