import ConfabProtocol
import Foundation
import JanusProtocol
import Logging

/// The coordinator's side of Janus: one videoroom per call, on one of the Janus nodes, and one
/// join token per admitted participant in that room's `allowed` list.
///
/// Rooms are made on demand (at a call's first join, and again after Janus restarted and lost
/// them) and destroyed when the call ends, which also disconnects everyone still in it from
/// Janus. A room whose participants all left but whose call goes on is kept: an idle room costs
/// Janus nothing, and the next join needs no `create`.
///
/// With several nodes (`--janus-node`), a call's room goes on the live node with the least load
/// and stays there while the call lives (`JanusPlacements`). When a node goes down its calls
/// move to the least-loaded live nodes at once, their rooms made there; the participants' own
/// connections to the dead Janus closed too, so they ask for a new endpoint (`renewMedia`) as
/// after a Janus restart, and get one on the call's new node.
actor JanusRooms {
    typealias NodeID = JanusPlacements.NodeID

    /// The Janus instances rooms can go on, in configured order (ties go to the first).
    private let nodes: [JanusNode]
    /// Required by `create` when Janus's videoroom has an `admin_key` (the same on every node).
    private let adminKey: String?
    /// Set on every room, so only the coordinator can edit its allowed list or destroy it.
    private let roomSecret: String
    private let logger: Logger
    private var placements = JanusPlacements()
    /// Calls moved off a node while it was down. A node taken for down may only have been hung
    /// or cut off from this server: when it comes back, the rooms left on it are destroyed, so
    /// participants still in them are dropped (Janus's `destroyed`) and renew onto the call's
    /// new node instead of staying split from it.
    private var leftBehind: [NodeID: Set<CallID>] = [:]

    typealias Link = JanusNode.Link

    /// 16 publishers: beyond ~8 the machine, not the room, is the limit (ARCHITECTURE.md figures).
    static let maxPublishers = 16

    /// `nodes` must not be empty; call `start` to connect them.
    init(nodes: [JanusNode], adminKey: String?, roomSecret: String, logger: Logger) {
        precondition(!nodes.isEmpty, "JanusRooms needs at least one Janus node")
        self.nodes = nodes
        self.adminKey = adminKey
        self.roomSecret = roomSecret
        self.logger = logger
    }

    /// Connects every node and keeps watching them; a node that goes down hands its calls on.
    func start() async {
        for node in nodes {
            await node.startWatching(
                wentDown: { [weak self] node in await self?.nodeWentDown(node) },
                cameBack: { [weak self] node in await self?.nodeCameBack(node) })
        }
    }

    /// One node as `/metrics` shows it.
    struct NodeStatus: Sendable, Equatable {
        var name: String
        var isUp: Bool
        var load: JanusPlacements.Load
    }

    /// Every node's health and load now.
    func nodeStatus() async -> [NodeStatus] {
        var status: [NodeStatus] = []
        for (index, node) in nodes.enumerated() {
            status.append(NodeStatus(name: node.name, isUp: await node.isUp, load: placements.load(of: NodeID(index: index))))
        }
        return status
    }

    /// The call's Janus room number: stable across server restarts, derived from the cid
    /// (FNV-1a), kept below 2^53 so JavaScript clients read it exactly (Confab's own clients
    /// carry any UInt64), never 0 (Janus reads 0 as "pick one for me").
    static func roomNumber(for cid: CallID) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(cid.type):\(cid.id)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01b3
        }
        let room = hash & ((1 << 53) - 1)
        return room == 0 ? 1 : room
    }

    /// Issues a new token for `cid`'s room (creating the room when missing, on the call's node
    /// or, for a new call or one whose node is down, on the least-loaded live one) and returns
    /// where and how the participant sends media.
    func admit(to cid: CallID) async throws -> MediaEndpoint {
        let room = Self.roomNumber(for: cid)
        let token = randomHex(bytes: 16)
        // Joins and an ending call may race (another join created the room meanwhile, or the
        // call's room was just destroyed), hence a few rounds of "add, else create".
        for _ in 0..<3 {
            let (id, link) = try await placing(cid)
            do {
                do {
                    try await editAllowed(room: room, action: .add, token: token, on: link)
                } catch let error as JanusError where error.pluginErrorCode == JanusError.noSuchRoom {
                    do {
                        try await createRoom(room, for: cid, tokens: [token], on: link)
                    } catch let error as JanusError where error.pluginErrorCode == JanusError.roomExists {
                        continue
                    }
                }
                placements.admitted(token, to: cid)
                return MediaEndpoint(janusURL: link.client.url, room: room, token: token)
            } catch JanusError.disconnected, JanusError.refused, JanusError.timedOut {
                // The socket closed, Janus forgot our session (it restarted, or missed
                // keepalives), or it stopped answering: the node is down until a new session
                // is made, and the call goes on another if one is up.
                await nodes[id.index].drop(link)
                continue
            }
        }
        throw JanusError.unexpectedReply("room \(room) for \(cid) could neither be found nor created")
    }

    /// Takes a participant's token out of the room, so it cannot be used to publish again.
    func revoke(_ token: String, in cid: CallID) async {
        let room = Self.roomNumber(for: cid)
        // A token of a room the call left behind on a dead node: nothing to take out.
        if placements.node(of: cid) != nil, !placements.revoked(token, from: cid) { return }
        do {
            guard let (_, link) = try await holder(of: cid) else { return }
            try await editAllowed(room: room, action: .remove, token: token, on: link)
        } catch let error as JanusError where error.pluginErrorCode == JanusError.noSuchRoom {
            // Gone already (call ended, or Janus restarted): nothing to revoke.
        } catch {
            logger.warning("could not remove a join token from a Janus room", metadata: ["cid": "\(cid)", "error": "\(error)"])
        }
    }

    /// Drops from the call's room every publisher of the participant session `session` (its
    /// camera and its shared screen: displays "user|session" and "user|session|screen"). A
    /// kicked or blocked participant's app leaves by itself, but a modified or stuck one must
    /// not go on sending to the others. Nothing happens when it has left already.
    func eject(session: String, in cid: CallID) async {
        let room = Self.roomNumber(for: cid)
        do {
            guard let (_, link) = try await holder(of: cid) else { return }
            let data = try await link.client.videoRoom(.listParticipants(room: room), session: link.session, handle: link.handle)
            for entry in data.participants ?? [] {
                guard let display = entry.display else { continue }
                let parts = display.split(separator: "|", omittingEmptySubsequences: false)
                guard parts.count >= 2, parts[1] == session else { continue }
                do {
                    _ = try await link.client.videoRoom(.kick(room: room, secret: roomSecret, participant: entry.id),
                                                        session: link.session, handle: link.handle)
                    logger.info("ejected a publisher from a Janus room", metadata: ["cid": "\(cid)", "display": "\(display)"])
                } catch {
                    // It may have left between the list and the kick.
                    logger.debug("could not eject a publisher", metadata: ["cid": "\(cid)", "error": "\(error)"])
                }
            }
        } catch let error as JanusError where error.pluginErrorCode == JanusError.noSuchRoom {
            // No room (no media yet, or the call ended): nobody to eject.
        } catch {
            logger.warning("could not eject a participant from a Janus room", metadata: ["cid": "\(cid)", "error": "\(error)"])
        }
    }

    /// Destroys the call's room; Janus tells everyone in it (`destroyed`) and drops them.
    func closeRoom(for cid: CallID) async {
        let room = Self.roomNumber(for: cid)
        defer { placements.remove(cid) }
        do {
            guard let (_, link) = try await holder(of: cid) else { return }
            _ = try await link.client.videoRoom(.destroy(room: room, secret: roomSecret, permanent: false),
                                                session: link.session, handle: link.handle)
            logger.info("destroyed janus room", metadata: ["cid": "\(cid)", "room": "\(room)"])
        } catch let error as JanusError where error.pluginErrorCode == JanusError.noSuchRoom {
            // Never created (nobody joined with media) or lost in a Janus restart.
        } catch {
            logger.warning("could not destroy a Janus room", metadata: ["cid": "\(cid)", "error": "\(error)"])
        }
    }

    /// Ends the Janus sessions (their rooms stay until Janus stops or the calls end).
    func shutdown() async {
        for node in nodes { await node.stop() }
    }

    // MARK: Recording and forwarding

    /// A publisher in a room: Janus's id and the `display` its client joined with (the user id).
    struct Publisher: Sendable, Equatable {
        var id: UInt64
        var display: String
    }

    /// Turns the videoroom recorder on (into `folder`, which Janus writes `.mjr` files to) or off
    /// for every publisher of the call's room, present and future.
    func setRecording(_ on: Bool, folder: String?, for cid: CallID) async throws {
        let room = Self.roomNumber(for: cid)
        guard let (_, link) = try await holder(of: cid) else { throw JanusError.pluginRefused(code: JanusError.noSuchRoom, reason: "no room for \(cid)") }
        if let folder {
            _ = try await link.client.videoRoom(.editRecordingFolder(room: room, secret: roomSecret, folder: folder),
                                                session: link.session, handle: link.handle)
        }
        _ = try await link.client.videoRoom(.enableRecording(room: room, secret: roomSecret, record: on),
                                            session: link.session, handle: link.handle)
    }

    /// The room's publishers now; empty when the room does not exist.
    func publishers(in cid: CallID) async throws -> [Publisher] {
        guard let (_, link) = try await holder(of: cid) else { return [] }
        do {
            let data = try await link.client.videoRoom(.listParticipants(room: Self.roomNumber(for: cid)),
                                                       session: link.session, handle: link.handle)
            return (data.participants ?? []).filter(\.publisher).map { entry in
                // Clients join as `user|session|camera` (or just the user id): the user comes first.
                let display = entry.display ?? "\(entry.id)"
                return Publisher(id: entry.id, display: String(display.split(separator: "|").first ?? Substring(display)))
            }
        } catch let error as JanusError where error.pluginErrorCode == JanusError.noSuchRoom {
            return []
        }
    }

    /// Asks Janus to copy a publisher's first audio and video streams as plain RTP to `host`;
    /// returns the forwarders' stream ids, for `stopForwarding`.
    func forward(_ publisher: UInt64, in cid: CallID, to host: String, audioPort: Int, videoPort: Int) async throws -> [UInt64] {
        // Janus 1.1 forwards per stream, by mid; the legacy audio_port/video_port make no
        // forwarders. Confab clients publish camera then microphone, and webrtcbin names the
        // m-lines by kind and index: "video0", "audio1".
        // The managed Janus locks rtp_forward behind the admin key (`lock_rtp_forward`).
        let request = VideoRoomRequest.rtpForward(
            room: Self.roomNumber(for: cid), publisher: publisher, secret: roomSecret, adminKey: adminKey, host: host,
            streams: [.init(mid: "video0", port: videoPort), .init(mid: "audio1", port: audioPort)])
        guard let (_, link) = try await holder(of: cid) else { throw JanusError.pluginRefused(code: JanusError.noSuchRoom, reason: "no room for \(cid)") }
        let data = try await link.client.videoRoom(request, session: link.session, handle: link.handle)
        return (data.forwarders ?? []).map(\.streamID)
    }

    func stopForwarding(_ publisher: UInt64, streams: [UInt64], in cid: CallID) async {
        guard let (_, link) = try? await holder(of: cid) else { return }
        for stream in streams {
            let request = VideoRoomRequest.stopRTPForward(room: Self.roomNumber(for: cid), publisher: publisher, stream: stream,
                                                          secret: roomSecret, adminKey: adminKey)
            // Fails harmlessly when the publisher left (its forwarders went with it).
            _ = try? await link.client.videoRoom(request, session: link.session, handle: link.handle)
        }
    }

    // MARK: Room requests

    private func createRoom(_ room: UInt64, for cid: CallID, tokens: [String], on link: Link) async throws {
        let options = VideoRoomOptions(
            description: "\(cid)", secret: roomSecret, adminKey: adminKey, isPrivate: true, permanent: false,
            publishers: Self.maxPublishers, audioCodec: "opus", videoCodec: "vp8",
            // Speaking indicators: `talking` after ~1 s of packets averaging above -40 dBov.
            audioLevelExtension: true, audioLevelEvent: true, audioActivePackets: 50, audioLevelAverage: 40,
            // Janus checks tokens for publishers only; subscribers must name the private_id of
            // a publisher in the room, which only a token holder gets.
            allowed: tokens, requirePrivateID: true,
            notifyJoining: true)
        _ = try await link.client.videoRoom(.create(room: room, options: options), session: link.session, handle: link.handle)
        logger.info("created janus room", metadata: ["cid": "\(cid)", "room": "\(room)", "janus": "\(link.client.url)"])
    }

    private func editAllowed(room: UInt64, action: VideoRoomRequest.AllowedAction, token: String, on link: Link) async throws {
        _ = try await link.client.videoRoom(.allowed(room: room, secret: roomSecret, action: action, tokens: [token]),
                                            session: link.session, handle: link.handle)
    }

    // MARK: Placement

    /// The node `cid`'s room is on (or goes on) and a link to it. A call keeps its node while
    /// that node is up; a new call, or one whose node is down, goes on the least-loaded live
    /// node. Nodes not known to be up are tried last: one may be back before its watcher
    /// noticed, and with a single node this is the wait for a restarting Janus.
    private func placing(_ cid: CallID) async throws -> (NodeID, Link) {
        let current = placements.node(of: cid)
        // Up, or reconnecting (its participants may well still be connected to it): the call
        // stays, waiting for the attempt under way rather than being split across two nodes.
        if let current, await nodes[current.index].health != .down, let link = try? await nodes[current.index].currentLink() {
            return (current, link)
        }
        // A call this server has not placed (or whose node is down) may have a room on a live
        // node already: placed before this server restarted, or by another coordinator using
        // the same nodes. Its participants are there.
        if let found = try? await nodeHoldingRoom(of: cid) { return found }
        var up: [NodeID] = [], down: [NodeID] = []
        for (index, node) in nodes.enumerated() {
            if await node.isUp { up.append(NodeID(index: index)) } else { down.append(NodeID(index: index)) }
        }
        down.sort { ($0 == current ? 0 : 1, $0.index) < ($1 == current ? 0 : 1, $1.index) }
        var lastError: any Error = JanusError.unreachable(url: nodes[0].name, reason: "no Janus node answered")
        for id in placements.byLoad(up) + down {
            do {
                let link = try await nodes[id.index].currentLink()
                place(cid, on: id, from: current)
                return (id, link)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// The node holding `cid`'s room and a link to it; nil when no node has it.
    private func holder(of cid: CallID) async throws -> (NodeID, Link)? {
        if let id = placements.node(of: cid) { return (id, try await nodes[id.index].currentLink()) }
        // One node: it is the only place the room can be (and requests answer "no such room").
        if nodes.count == 1 { return (NodeID(index: 0), try await nodes[0].currentLink()) }
        return try await nodeHoldingRoom(of: cid)
    }

    /// Looks for `cid`'s room on the live nodes (a call placed before this server restarted, or
    /// by another coordinator), and places the call where it is found.
    private func nodeHoldingRoom(of cid: CallID) async throws -> (NodeID, Link)? {
        guard nodes.count > 1 else { return nil }
        for (index, node) in nodes.enumerated() where await node.isUp {
            guard let link = try? await node.currentLink(),
                  let answer = try? await link.client.videoRoom(.exists(room: Self.roomNumber(for: cid)), session: link.session, handle: link.handle),
                  answer.exists == true
            else { continue }
            place(cid, on: NodeID(index: index), from: placements.node(of: cid))
            return (NodeID(index: index), link)
        }
        return nil
    }

    private func place(_ cid: CallID, on id: NodeID, from previous: NodeID?) {
        placements.place(cid, on: id)
        if let previous, previous != id {
            leftBehind[previous, default: []].insert(cid)
            logger.notice("moved a call's room to another janus node",
                          metadata: ["cid": "\(cid)", "from": "\(nodes[previous.index].name)", "to": "\(nodes[id.index].name)"])
        } else if previous == nil {
            logger.info("placed a call's room", metadata: ["cid": "\(cid)", "janus": "\(nodes[id.index].name)"])
        }
    }

    /// `node` is up again after being down: destroys the rooms of calls that moved away from it
    /// meanwhile (and did not come back).
    private func nodeCameBack(_ node: JanusNode) async {
        guard let index = nodes.firstIndex(where: { $0 === node }) else { return }
        let id = NodeID(index: index)
        let stale = (leftBehind.removeValue(forKey: id) ?? []).filter { placements.node(of: $0) != id }
        guard !stale.isEmpty, let link = try? await node.currentLink() else { return }
        for cid in stale {
            do {
                _ = try await link.client.videoRoom(.destroy(room: Self.roomNumber(for: cid), secret: roomSecret, permanent: false),
                                                    session: link.session, handle: link.handle)
                logger.notice("destroyed a room left on a janus node that came back", metadata: ["cid": "\(cid)", "node": "\(node.name)"])
            } catch {
                // Gone with a restart of that Janus (the usual case): nothing was left.
                logger.debug("no room left on a janus node that came back", metadata: ["cid": "\(cid)", "error": "\(error)"])
            }
        }
    }

    /// `node` went down: each call placed there moves to the least-loaded live node, its room
    /// made there before its participants (whose connections to the dead Janus closed too) ask
    /// for new endpoints. With no live node the calls stay, to come back with it.
    private func nodeWentDown(_ node: JanusNode) async {
        guard let index = nodes.firstIndex(where: { $0 === node }) else { return }
        let dead = NodeID(index: index)
        let stranded = placements.calls(on: dead)
        guard !stranded.isEmpty else { return }
        var up: [NodeID] = []
        for (other, candidate) in nodes.enumerated() where await candidate.isUp { up.append(NodeID(index: other)) }
        guard !up.isEmpty else {
            logger.warning("a janus node is down and no other is up: its calls wait for it", metadata: ["node": "\(node.name)"])
            return
        }
        for cid in stranded {
            guard placements.node(of: cid) == dead else { continue }
            // Moved already by another coordinator using the same nodes: follow it there.
            if let (found, _) = try? await nodeHoldingRoom(of: cid) {
                logger.notice("a call's room was found on another janus node", metadata: ["cid": "\(cid)", "janus": "\(nodes[found.index].name)"])
                continue
            }
            // Placed again meanwhile (a participant renewed first), or ended.
            guard placements.node(of: cid) == dead, let target = placements.byLoad(up).first else { continue }
            place(cid, on: target, from: dead)
            // Ended meanwhile: no room to make.
            guard let link = try? await nodes[target.index].currentLink(), placements.node(of: cid) == target else { continue }
            do {
                // Made now, so the participants' renewals only add their tokens.
                try await createRoom(Self.roomNumber(for: cid), for: cid, tokens: [], on: link)
            } catch {
                // Already there (a renewal was quicker), or the node went too: the next admit
                // makes it.
                logger.debug("could not make a moved call's room ahead", metadata: ["cid": "\(cid)", "error": "\(error)"])
            }
        }
    }
}
