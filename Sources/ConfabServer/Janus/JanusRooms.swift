import ConfabProtocol
import Foundation
import JanusProtocol
import Logging

/// The coordinator's side of Janus: one videoroom per call, and one join token per admitted
/// participant in that room's `allowed` list.
///
/// Rooms are made on demand (at a call's first join, and again after Janus restarted and lost
/// them) and destroyed when the call ends, which also disconnects everyone still in it from
/// Janus. A room whose participants all left but whose call goes on is kept: an idle room costs
/// Janus nothing, and the next join needs no `create`.
actor JanusRooms {
    /// Where Janus is now: the managed one may restart on another port, so this is asked
    /// before every (re)connection and may wait while Janus starts.
    typealias Locator = @Sendable (_ timeout: Duration) async throws -> String

    private let locate: Locator
    /// Required by `create` when Janus's videoroom has an `admin_key`.
    private let adminKey: String?
    /// Set on every room, so only the coordinator can edit its allowed list or destroy it.
    private let roomSecret: String
    private let logger: Logger
    private var link: Link?
    private var connecting: Task<Link, any Error>?

    /// A Janus session with one videoroom handle, used for every room request.
    private struct Link {
        var client: JanusSignallingClient
        var session: UInt64
        var handle: UInt64
        var keepalive: Task<Void, Never>
    }

    /// Keepalives well inside any `session_timeout` (Janus's default is 60 s).
    static let keepaliveInterval: Duration = .seconds(20)
    /// 16 publishers: beyond ~8 the machine, not the room, is the limit (ARCHITECTURE.md figures).
    static let maxPublishers = 16

    init(adminKey: String?, roomSecret: String, logger: Logger, locate: @escaping Locator) {
        self.adminKey = adminKey
        self.roomSecret = roomSecret
        self.logger = logger
        self.locate = locate
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

    /// Issues a new token for `cid`'s room (creating the room when missing) and returns where
    /// and how the participant sends media.
    func admit(to cid: CallID) async throws -> MediaEndpoint {
        let room = Self.roomNumber(for: cid)
        let token = randomHex(bytes: 16)
        // Joins and an ending call may race (another join created the room meanwhile, or the
        // call's room was just destroyed), hence a few rounds of "add, else create".
        for _ in 0..<3 {
            let link = try await currentLink()
            do {
                try await editAllowed(room: room, action: .add, token: token, on: link)
                return MediaEndpoint(janusURL: link.client.url, room: room, token: token)
            } catch let error as JanusError where error.pluginErrorCode == JanusError.noSuchRoom {
                do {
                    try await createRoom(room, for: cid, firstToken: token, on: link)
                    return MediaEndpoint(janusURL: link.client.url, room: room, token: token)
                } catch let error as JanusError where error.pluginErrorCode == JanusError.roomExists {
                    continue
                }
            } catch JanusError.disconnected, JanusError.refused {
                // The socket closed, or Janus forgot our session (it restarted, or missed
                // keepalives): start over on a new session.
                await dropLink()
                continue
            }
        }
        throw JanusError.unexpectedReply("room \(room) for \(cid) could neither be found nor created")
    }

    /// Takes a participant's token out of the room, so it cannot be used to publish again.
    func revoke(_ token: String, in cid: CallID) async {
        let room = Self.roomNumber(for: cid)
        do {
            try await editAllowed(room: room, action: .remove, token: token, on: try await currentLink())
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
            let link = try await currentLink()
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
        do {
            let link = try await currentLink()
            _ = try await link.client.videoRoom(.destroy(room: room, secret: roomSecret, permanent: false),
                                                session: link.session, handle: link.handle)
            logger.info("destroyed janus room", metadata: ["cid": "\(cid)", "room": "\(room)"])
        } catch let error as JanusError where error.pluginErrorCode == JanusError.noSuchRoom {
            // Never created (nobody joined with media) or lost in a Janus restart.
        } catch {
            logger.warning("could not destroy a Janus room", metadata: ["cid": "\(cid)", "error": "\(error)"])
        }
    }

    /// Ends the Janus session (its rooms stay until Janus stops or the calls end).
    func shutdown() async {
        connecting?.cancel()
        guard let link else { return }
        self.link = nil
        link.keepalive.cancel()
        try? await link.client.destroySession(link.session)
        await link.client.close()
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
        let link = try await currentLink()
        if let folder {
            _ = try await link.client.videoRoom(.editRecordingFolder(room: room, secret: roomSecret, folder: folder),
                                                session: link.session, handle: link.handle)
        }
        _ = try await link.client.videoRoom(.enableRecording(room: room, secret: roomSecret, record: on),
                                            session: link.session, handle: link.handle)
    }

    /// The room's publishers now; empty when the room does not exist.
    func publishers(in cid: CallID) async throws -> [Publisher] {
        let link = try await currentLink()
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
        let link = try await currentLink()
        let data = try await link.client.videoRoom(request, session: link.session, handle: link.handle)
        return (data.forwarders ?? []).map(\.streamID)
    }

    func stopForwarding(_ publisher: UInt64, streams: [UInt64], in cid: CallID) async {
        guard let link = try? await currentLink() else { return }
        for stream in streams {
            let request = VideoRoomRequest.stopRTPForward(room: Self.roomNumber(for: cid), publisher: publisher, stream: stream,
                                                          secret: roomSecret, adminKey: adminKey)
            // Fails harmlessly when the publisher left (its forwarders went with it).
            _ = try? await link.client.videoRoom(request, session: link.session, handle: link.handle)
        }
    }

    // MARK: Room requests

    private func createRoom(_ room: UInt64, for cid: CallID, firstToken: String, on link: Link) async throws {
        let options = VideoRoomOptions(
            description: "\(cid)", secret: roomSecret, adminKey: adminKey, isPrivate: true, permanent: false,
            publishers: Self.maxPublishers, audioCodec: "opus", videoCodec: "vp8",
            // Speaking indicators: `talking` after ~1 s of packets averaging above -40 dBov.
            audioLevelExtension: true, audioLevelEvent: true, audioActivePackets: 50, audioLevelAverage: 40,
            // Janus checks tokens for publishers only; subscribers must name the private_id of
            // a publisher in the room, which only a token holder gets.
            allowed: [firstToken], requirePrivateID: true,
            notifyJoining: true)
        _ = try await link.client.videoRoom(.create(room: room, options: options), session: link.session, handle: link.handle)
        logger.info("created janus room", metadata: ["cid": "\(cid)", "room": "\(room)"])
    }

    private func editAllowed(room: UInt64, action: VideoRoomRequest.AllowedAction, token: String, on link: Link) async throws {
        _ = try await link.client.videoRoom(.allowed(room: room, secret: roomSecret, action: action, tokens: [token]),
                                            session: link.session, handle: link.handle)
    }

    // MARK: The connection

    private func dropLink() async {
        guard let link else { return }
        self.link = nil
        link.keepalive.cancel()
        await link.client.close()
    }

    /// The open link, or a new one; concurrent callers share one connection attempt.
    private func currentLink() async throws -> Link {
        if let link {
            if await !link.client.isClosed { return link }
            link.keepalive.cancel()
            self.link = nil
            logger.warning("lost the connection to janus; reconnecting")
        }
        if let connecting { return try await connecting.value }
        let attempt = Task { [locate, logger] in
            let url = try await locate(.seconds(10))
            let client = try await JanusSignallingClient.connect(to: url, logger: logger)
            do {
                let session = try await client.createSession()
                let handle = try await client.attachVideoRoom(session: session)
                return Link(client: client, session: session, handle: handle, keepalive: Self.keepingAlive(session, on: client))
            } catch {
                await client.close()
                throw error
            }
        }
        connecting = attempt
        defer { connecting = nil }
        let link = try await attempt.value
        self.link = link
        return link
    }

    private static func keepingAlive(_ session: UInt64, on client: JanusSignallingClient) -> Task<Void, Never> {
        Task { [weak client] in
            while !Task.isCancelled {
                try? await Task.sleep(for: keepaliveInterval)
                guard let client, await !client.isClosed else { return }
                // A failed keepalive shows up as a closed client at the next request.
                try? await client.keepalive(session: session)
            }
        }
    }
}
