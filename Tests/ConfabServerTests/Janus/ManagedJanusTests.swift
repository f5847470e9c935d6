import ConfabProtocol
import Foundation
import JanusProtocol
import XCTest
@testable import ConfabServer

/// confab-server with its managed Janus: real `janus` processes, talked to as clients do.
final class ManagedJanusTests: XCTestCase {
    private var server: TestServer?
    private var clients: [TestClient] = []
    private var probes: [JanusProbe] = []

    override func setUp() async throws {
        try requireJanus()
        server = try await TestServer.start(media: .managed(ManagedJanusOptions()))
    }

    override func tearDown() async throws {
        for probe in probes { await probe.close() }
        for client in clients { await client.close() }
        await server?.stop()
        if let directory = server?.directory { try? FileManager.default.removeItem(at: directory) }
    }

    private func connect(_ userId: String) async throws -> TestClient {
        let client = try await XCTUnwrap(server).client(userId)
        clients.append(client)
        return client
    }

    private func probe(_ url: String) async throws -> JanusProbe {
        let probe = try await JanusProbe.connect(to: url)
        probes.append(probe)
        return probe
    }

    private let standup = CallID(type: .default, id: "standup")

    private func mediaEndpoint(joining client: TestClient, _ request: JoinCallRequest) async throws -> MediaEndpoint {
        // Generous: the join may wait for a restarting janus.
        let joined = try await client.send(request, timeout: .seconds(15))
        return try XCTUnwrap(joined.media, "a server with managed Janus answers joins with a media endpoint")
    }

    func test_managedJanus_join_answersEndpointWhoseTokenJanusAccepts() async throws {
        let alice = try await connect("alice")
        let joined = try await alice.send(JoinCallRequest(cid: standup, create: true))
        let media = try XCTUnwrap(joined.media, "a server with managed Janus answers joins with a media endpoint")
        XCTAssertTrue(media.janusURL.hasPrefix("ws://127.0.0.1:"), media.janusURL)
        XCTAssertEqual(media.room, JanusRooms.roomNumber(for: standup))
        XCTAssertGreaterThanOrEqual(media.token.count, 32)

        let janus = try await probe(media.janusURL)
        let accepted = try await janus.joinAsPublisher(room: media.room, token: media.token)
        XCTAssertEqual(accepted.kind, .joined)
        XCTAssertNotNil(accepted.privateID)
    }

    func test_managedJanus_joinWithWrongToken_isRefusedUnauthorized() async throws {
        let alice = try await connect("alice")
        let media = try await mediaEndpoint(joining: alice, JoinCallRequest(cid: standup, create: true))
        let janus = try await probe(media.janusURL)

        await assertRefused(JanusError.unauthorized) { _ = try await janus.joinAsPublisher(room: media.room, token: "not-a-token") }
        await assertRefused(JanusError.unauthorized) { _ = try await janus.joinAsPublisher(room: media.room, token: nil) }
    }

    func test_twoJoins_eachGetsOwnToken_bothAccepted() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: standup, members: [MemberRequest(userId: "bob")]))
        let first = try await mediaEndpoint(joining: alice, JoinCallRequest(cid: standup))
        let second = try await mediaEndpoint(joining: bob, JoinCallRequest(cid: standup))
        XCTAssertEqual(first.room, second.room)
        XCTAssertNotEqual(first.token, second.token)
        let janus = try await probe(second.janusURL)
        let joined = try await janus.joinAsPublisher(room: second.room, token: second.token)
        XCTAssertEqual(joined.kind, .joined)
    }

    func test_askToJoinCall_knockGetsNoMediaEndpoint_untilAHostAdmits() async throws {
        let alice = try await connect("alice")
        let carol = try await connect("carol")
        let created = try await alice.send(GetOrCreateCallRequest(cid: standup, askToJoin: true))
        let secret = try XCTUnwrap(created.call.linkSecret)
        _ = try await mediaEndpoint(joining: alice, JoinCallRequest(cid: standup))

        // The knock is refused before Janus is asked: no token is made for the room.
        let knock = try await carol.sendExpectingError(JoinCallRequest(cid: standup, linkSecret: secret))
        XCTAssertEqual(knock.code, .waitingForHost)
        _ = try await alice.send(AdmitParticipantRequest(cid: standup, userId: "carol"))
        let media = try await mediaEndpoint(joining: carol, JoinCallRequest(cid: standup, linkSecret: secret))

        let janus = try await probe(media.janusURL)
        let joined = try await janus.joinAsPublisher(room: media.room, token: media.token)
        XCTAssertEqual(joined.kind, .joined)
    }

    func test_participantLeaves_tokenIsRemovedFromRoom() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: standup, members: [MemberRequest(userId: "bob")]))
        let aliceMedia = try await mediaEndpoint(joining: alice, JoinCallRequest(cid: standup))
        _ = try await bob.send(JoinCallRequest(cid: standup))

        _ = try await alice.send(LeaveCallRequest(cid: standup))

        let janus = try await probe(aliceMedia.janusURL)
        // The removal runs just after the leave's answer: poll for it.
        let refused = await eventually {
            do {
                _ = try await janus.joinAsPublisher(room: aliceMedia.room, token: aliceMedia.token)
                return false
            } catch {
                return (error as? JanusError)?.pluginErrorCode == JanusError.unauthorized
            }
        }
        XCTAssertTrue(refused, "a departed participant's token must not admit anyone to the room")
    }

    func test_kickedParticipant_isEjectedFromTheRoom_othersStay() async throws {
        let alice = try await connect("alice")
        let bob = try await connect("bob")
        _ = try await alice.send(GetOrCreateCallRequest(cid: CallID(type: .default, id: "kick-media"), members: [MemberRequest(userId: "bob")]))
        let aliceJoin = try await alice.send(JoinCallRequest(cid: CallID(type: .default, id: "kick-media")))
        let bobJoin = try await bob.send(JoinCallRequest(cid: CallID(type: .default, id: "kick-media")))
        let aliceMedia = try XCTUnwrap(aliceJoin.media), bobMedia = try XCTUnwrap(bobJoin.media)
        // Both publish as Confab apps do: camera "user|session", bob also a screen.
        let janus = try await probe(bobMedia.janusURL)
        _ = try await janus.joinAsPublisher(room: aliceMedia.room, token: aliceMedia.token, display: "alice|\(aliceJoin.sessionId)")
        _ = try await janus.joinAsPublisher(room: bobMedia.room, token: bobMedia.token, display: "bob|\(bobJoin.sessionId)")
        _ = try await janus.joinAsPublisher(room: bobMedia.room, token: bobMedia.token, display: "bob|\(bobJoin.sessionId)|screen")
        let before = try await janus.participantDisplays(room: bobMedia.room)
        XCTAssertEqual(before.count, 3, "\(before)")

        // alice created the call: she may remove bob. bob's (pretend-stuck) app never leaves Janus.
        _ = try await alice.send(KickUserRequest(cid: CallID(type: .default, id: "kick-media"), userId: "bob"))
        let ejected = try await eventually {
            try await janus.participantDisplays(room: bobMedia.room) == ["alice|\(aliceJoin.sessionId)"]
        }
        let after = try await janus.participantDisplays(room: bobMedia.room)
        XCTAssertTrue(ejected, "bob's camera and screen are still in the room: \(after)")
    }

    func test_callEnds_roomIsDestroyed() async throws {
        let alice = try await connect("alice")
        let media = try await mediaEndpoint(joining: alice, JoinCallRequest(cid: standup, create: true))

        _ = try await alice.send(EndCallRequest(cid: standup))

        let janus = try await probe(media.janusURL)
        let gone = await eventually {
            do {
                _ = try await janus.joinAsPublisher(room: media.room, token: media.token)
                return false
            } catch {
                return (error as? JanusError)?.pluginErrorCode == JanusError.noSuchRoom
            }
        }
        XCTAssertTrue(gone, "an ended call's Janus room is destroyed")
    }

    func test_janusKilled_laterJoin_getsWorkingEndpointFromRestartedJanus() async throws {
        let alice = try await connect("alice")
        _ = try await alice.send(GetOrCreateCallRequest(cid: standup, members: [MemberRequest(userId: "bob")]))
        _ = try await alice.send(JoinCallRequest(cid: standup))
        let original = try XCTUnwrap(janusChildren().first, "the managed janus runs as a child of the server")

        kill(original, SIGKILL)
        let restarted = await eventually { !janusChildren().isEmpty && !janusChildren().contains(original) }
        XCTAssertTrue(restarted, "the server starts a new janus after the old one died")

        let bob = try await connect("bob")
        let media = try await mediaEndpoint(joining: bob, JoinCallRequest(cid: standup))
        let janus = try await probe(media.janusURL)
        let joined = try await janus.joinAsPublisher(room: media.room, token: media.token)
        XCTAssertEqual(joined.kind, .joined, "the room is recreated on the restarted janus")
    }

    func test_janusKilled_renewMedia_givesTheSameSessionAWorkingEndpoint() async throws {
        let alice = try await connect("alice")
        let first = try await alice.send(JoinCallRequest(cid: standup, create: true))
        let original = try XCTUnwrap(janusChildren().first, "the managed janus runs as a child of the server")
        kill(original, SIGKILL)
        let restarted = await eventually { !janusChildren().isEmpty && !janusChildren().contains(original) }
        XCTAssertTrue(restarted, "the server starts a new janus after the old one died")

        // A plain join again changes nothing (same connection, same session, same endpoint) …
        let again = try await alice.send(JoinCallRequest(cid: standup), timeout: .seconds(15))
        XCTAssertEqual(again.media, first.media)
        // … renewMedia gives the same session a new endpoint that the new janus accepts.
        let renewed = try await alice.send(JoinCallRequest(cid: standup, renewMedia: true), timeout: .seconds(15))
        XCTAssertEqual(renewed.sessionId, first.sessionId)
        let media = try XCTUnwrap(renewed.media)
        XCTAssertNotEqual(media.token, first.media?.token)
        let janus = try await probe(media.janusURL)
        let joined = try await janus.joinAsPublisher(room: media.room, token: media.token)
        XCTAssertEqual(joined.kind, .joined)
        await assertRefused(JanusError.unauthorized) {
            _ = try await janus.joinAsPublisher(room: media.room, token: try XCTUnwrap(first.media).token)
        }
    }

    func test_renewMedia_whenNotInTheCall_joinsNormally() async throws {
        let alice = try await connect("alice")
        let joined = try await alice.send(JoinCallRequest(cid: standup, create: true, renewMedia: true))
        XCTAssertNotNil(joined.media)
    }

    func test_ready_andMetrics_sayTheManagedJanusIsUp() async throws {
        let port = try XCTUnwrap(server).port
        let (status, body) = try await HTTPGet.fetch("http://127.0.0.1:\(port)/ready")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(try ConfabJSON.decoder().decode(ReadinessStatus.self, from: body), ReadinessStatus(database: .ok, janus: .ok))
        let metrics = try await Metrics.fetch(port: port)
        XCTAssertEqual(metrics["confab_janus_up"], 1)
    }

    func test_serverStops_managedJanusExits() async throws {
        let janus = try XCTUnwrap(janusChildren().first, "the managed janus runs as a child of the server")

        await server?.stop()
        server = nil

        XCTAssertTrue(processHasExited(janus), "janus must be stopped by the time the server has stopped")
        XCTAssertTrue(janusChildren().isEmpty)
    }

    private func assertRefused(_ code: Int, file: StaticString = #filePath, line: UInt = #line, _ attempt: () async throws -> Void) async {
        do {
            try await attempt()
            XCTFail("Janus accepted; expected error \(code)", file: file, line: line)
        } catch {
            XCTAssertEqual((error as? JanusError)?.pluginErrorCode, code, "\(error)", file: file, line: line)
        }
    }
}

/// Media disabled (`--no-media`): the coordinator alone.
final class NoMediaTests: XCTestCase {
    func test_noMedia_join_answersWithoutMediaEndpoint() async throws {
        let server = try await TestServer.start(media: .disabled)
        let alice = try await server.client("alice")
        let joined = try await alice.send(JoinCallRequest(cid: CallID(type: .default, id: "quiet"), create: true))
        XCTAssertNil(joined.media)
        XCTAssertTrue(janusChildren().isEmpty, "no janus is started without media")
        await alice.close()
        await server.stop()
        try? FileManager.default.removeItem(at: server.directory)
    }
}
