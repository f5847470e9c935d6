import Foundation
import XCTest

/// A network that changes under a call (issue 14), through a real Janus: alice's address goes
/// away for 4 s and comes back (a laptop's interface down and up: NetworkManager removes the
/// link's addresses), and later moves to a new address at once (another network, a new lease).
/// GStreamer 1.22's ICE cannot restart, and a connection made on an address that is gone stays
/// dead: the app notices (the network monitor, or no receiver report for a while), makes a new
/// media connection, and both sides see and hear each other again by themselves.
final class NetworkChange_EndToEndTests: XCTestCase {
    private static let call = "default:network-change"
    private static let first = "10.98.0.2", second = "10.98.0.3"
    private static let dropAfter = 9.0, dropLasts = 4.0, moveAfter = 30.0, callLasts = 46.0
    /// Issue 14: both sides see and hear each other again within 5 s of the network's return.
    private static let backWithin = 5.0
    private static let peers = [
        // alice joins a second after the controller gave the namespace her first address.
        MediaCall.Peer(user: "alice", joinsAfter: 1, arguments: [
            "join", call, "--create", "--duration", "\(Int(callLasts - 1))", "--pattern", "ball", "--tone", "440",
            "--media-address", "\(first),\(second)", "--verbose",
        ]),
        MediaCall.Peer(user: "bob", joinsAfter: 1, arguments: [
            "join", call, "--create", "--duration", "\(Int(callLasts - 1))", "--pattern", "smpte", "--tone", "660",
        ]),
    ]

    private var reports: [String: MediaPeerReport] = [:]
    private var stamps: [String: Date] = [:]

    override func setUp() async throws {
        (reports, stamps) = try await MediaCall.reports(
            for: "network-change", peers: Self.peers,
            controller: [MediaCall.supportScript("network-change.sh"), Self.first, Self.second,
                         "\(Self.dropAfter)", "\(Self.dropLasts)", "\(Self.moveAfter)", "\(Self.callLasts)"],
            stampFiles: ["dropped-at", "restored-at", "moved-at"], timeout: .seconds(Int64(Self.callLasts) + 40))
    }

    /// When `observer` saw and heard `sender` again after `moment`: video and audio both
    /// growing, as seconds after it.
    private func backAfter(_ moment: Date, observer: String, sender: String) throws -> (video: Double, audio: Double) {
        let received = try XCTUnwrap(reports[observer]?.received(from: sender), "\(observer) received nothing from \(sender)")
        let frames = received.frames(at: moment) ?? 0, readings = received.audioReadings(at: moment) ?? 0
        let video = try XCTUnwrap(received.samples.first { $0.at > moment && $0.framesReceived > frames + 5 },
                                  "\(observer) never saw \(sender)'s video again after \(moment)").at.timeIntervalSince(moment)
        let audio = try XCTUnwrap(received.samples.first { $0.at > moment && $0.audioReadings > readings + 5 },
                                  "\(observer) never heard \(sender) again after \(moment)").at.timeIntervalSince(moment)
        return (video, audio)
    }

    func test_addressGoneAndBack_mediaComesBackBothWays_byItself() throws {
        let dropped = try XCTUnwrap(stamps["dropped-at"]), restored = try XCTUnwrap(stamps["restored-at"])
        // The drop is real: bob stopped receiving alice while her address was gone.
        let received = try XCTUnwrap(reports["bob"]?.received(from: "alice"))
        let during = try XCTUnwrap(received.frames(at: restored)) - (try XCTUnwrap(received.frames(at: dropped.addingTimeInterval(1))))
        XCTAssertLessThanOrEqual(during, 2, "bob kept receiving alice while her address was gone")
        for (observer, sender) in [("bob", "alice"), ("alice", "bob")] {
            let back = try backAfter(restored, observer: observer, sender: sender)
            // The connection alice made while her address was gone (its ICE found no address)
            // is replaced as soon as the address returns: 1.4–1.7 s here (video; audio ~0.5 s
            // later). Left to the 8 s connecting limit it took ~9 s, which fails this.
            print("network change: after the address came back, \(observer) saw \(sender) again in \(back.video) s, heard them in \(back.audio) s")
            XCTAssertLessThan(back.video, Self.backWithin, "\(observer) saw \(sender) again too late\(Self.alicesSide(dropped, restored))")
            XCTAssertLessThan(back.audio, Self.backWithin, "\(observer) heard \(sender) again too late\(Self.alicesSide(dropped, restored))")
        }
    }

    /// What alice's media did about the network (once seen: alice back 20 s late, from the move
    /// 17 s after, with bob back in 0.7 s), to say why when it comes back.
    private static func alicesSide(_ dropped: Date, _ restored: Date) -> String {
        let log = MediaCall.log(of: "alice", in: "network-change", containing: [
            "network changed", "giving the media connection up", "media path", "message:", "gone", "receiving", "first frame", "connected",
        ])
        return " (address dropped at \(dropped), back at \(restored)); alice's log:\n\(log.suffix(6000))"
    }

    func test_newAddress_mediaComesBackBothWays_byItself() throws {
        let moved = try XCTUnwrap(stamps["moved-at"])
        for (observer, sender) in [("bob", "alice"), ("alice", "bob")] {
            let back = try backAfter(moved, observer: observer, sender: sender)
            print("network change: after alice moved to a new address, \(observer) saw \(sender) again in \(back.video) s, heard them in \(back.audio) s")
            // The move is real: alice's old address is gone, so what bob receives now came over
            // a new connection (alice's old one could still send for a moment, so bob's video
            // may not pause; alice's view of bob must).
            if observer == "alice" {
                let received = try XCTUnwrap(reports["alice"]?.received(from: "bob"))
                let stalled = zip(received.samples, received.samples.dropFirst(2)).contains {
                    $0.at > moved && $0.at < moved.addingTimeInterval(8) && $1.framesReceived == $0.framesReceived
                }
                XCTAssertTrue(stalled, "alice's video from bob never paused when her address went away")
            }
        }
    }

    func test_alice_isToldItIsReconnecting_andThatItIsBack() throws {
        let messages = try XCTUnwrap(reports["alice"]?.media?.messages)
        XCTAssertTrue(messages.contains { $0.hasSuffix("Reconnecting audio and video…") }, "\(messages)")
        XCTAssertGreaterThanOrEqual(messages.filter { $0 == "Audio and video are back." }.count, 2, "\(messages)")
    }
}

/// A media connection that never comes up (made while the network is away: here an ICE
/// address that does not exist). webrtcbin holds everything back until DTLS is up, which
/// never comes; the camera's thread once stalled behind it on a query, and taking the camera
/// out (turned off, or judged stuck) then waited for that thread forever: the app hung (found
/// while building the network-change recovery above).
final class MediaPathNeverUp_EndToEndTests: XCTestCase {
    private static let call = "default:path-never-up"
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 0, arguments: [
            "join", call, "--create", "--duration", "14", "--pattern", "ball", "--tone", "440",
            "--media-address", "10.98.0.9", "--camera-off-after", "8",
        ]),
        MediaCall.Peer(user: "bob", joinsAfter: 0, arguments: ["join", call, "--create", "--duration", "14", "--pattern", "smpte"]),
    ]

    func test_cameraTurnedOff_onAConnectionThatNeverCameUp_doesNotHang() async throws {
        let reports = try await MediaCall.reports(for: "path-never-up", peers: Self.peers)
        let alice = try XCTUnwrap(reports["alice"], "alice hung: no report")
        XCTAssertNil(alice.error)
        let camera = try XCTUnwrap(alice.media?.camera)
        XCTAssertEqual(camera.map(\.on), [false], "the camera was turned off")
        XCTAssertEqual(camera.first?.deviceOpenAfter, false, "the camera device stayed open")
    }
}

/// One receiving connection dies while the rest work: alice's connection receiving bob stops
/// passing anything, both ways, 8 s into the call (a NAT or firewall that forgot that one
/// mapping; or, seen once in CI, the network coming back under alice's sending connection
/// while this one stayed deaf until the next change, 17 s later). Janus reports on what it
/// forwards once a second: alice notices the silence, receives bob anew over a new connection,
/// and sees and hears him again — without giving up what she sends, which bob kept seeing; and
/// without taking carol, who sends nothing, for dead.
final class ReceiverLost_EndToEndTests: XCTestCase {
    private static let call = "default:receiver-lost"
    private static let address = "10.98.0.4"
    private static let blockAfter = 8.0, callLasts = 22.0
    /// ~5 s of silence (`ReceiverWatch`), then a new connection (~0.5 s here).
    private static let backWithin = 10.0
    private static let peers = [
        MediaCall.Peer(user: "alice", joinsAfter: 1, arguments: [
            "join", call, "--create", "--duration", "\(Int(callLasts - 1))", "--pattern", "ball", "--tone", "440",
            "--media-address", address, "--verbose",
        ]),
        MediaCall.Peer(user: "bob", joinsAfter: 1, arguments: [
            "join", call, "--create", "--duration", "\(Int(callLasts - 1))", "--pattern", "smpte", "--tone", "660",
        ]),
        // Sends nothing from 4 s on: Janus still reports on her streams, so alice, hearing no
        // packet from her, must not take her connection for dead.
        MediaCall.Peer(user: "carol", joinsAfter: 1, arguments: [
            "join", call, "--create", "--duration", "\(Int(callLasts - 1))", "--pattern", "ball", "--tone", "880",
            "--mute-after", "3", "--camera-off-after", "3",
        ]),
    ]

    func test_aDeadReceivingConnection_isMadeAnew_andTheOtherSideNeverPauses() async throws {
        let (reports, blocked) = try await MediaCall.reports(
            for: "receiver-lost", peers: Self.peers,
            controller: [MediaCall.supportScript("block-receiver.sh"), Self.address, "\(Self.blockAfter)", "\(Self.callLasts)", "busiest"],
            stampFile: "receiver-blocked-at", timeout: .seconds(Int64(Self.callLasts) + 40))
        let alicesLog = MediaCall.log(of: "alice", in: "receiver-lost", containing: ["receiving anew", "giving the media connection up", "media path", "first frame"])
        let fromBob = try XCTUnwrap(reports["alice"]?.received(from: "bob"), "alice received nothing from bob")
        // The block is real, and it took alice's receiving connection: her view of bob stopped.
        let frames = try XCTUnwrap(fromBob.frames(at: blocked.addingTimeInterval(1)))
        let stalled = fromBob.samples.contains { $0.at > blocked.addingTimeInterval(3) && $0.at < blocked.addingTimeInterval(4) && $0.framesReceived <= frames + 2 }
        XCTAssertTrue(stalled, "alice kept seeing bob after the block: it took another connection")
        let video = fromBob.samples.first { $0.at > blocked.addingTimeInterval(2) && $0.framesReceived > frames + 10 }
        let readings = try XCTUnwrap(fromBob.audioReadings(at: blocked.addingTimeInterval(3)))
        let audio = fromBob.samples.first { $0.at > blocked.addingTimeInterval(3) && $0.audioReadings > readings + 5 }
        print("receiver lost: alice's log:\n\(alicesLog)")
        print("receiver lost: alice saw bob again \(video.map { $0.at.timeIntervalSince(blocked) } ?? -1) s after the block, heard him \(audio.map { $0.at.timeIntervalSince(blocked) } ?? -1) s after")
        XCTAssertLessThan(try XCTUnwrap(video, "alice never saw bob again; her log:\n\(alicesLog)").at.timeIntervalSince(blocked), Self.backWithin)
        XCTAssertLessThan(try XCTUnwrap(audio, "alice never heard bob again; her log:\n\(alicesLog)").at.timeIntervalSince(blocked), Self.backWithin)
        // What alice sends was left alone: bob's view of her never paused, and she was not
        // told her audio and video were reconnecting.
        let fromAlice = try XCTUnwrap(reports["bob"]?.received(from: "alice"))
        let during = fromAlice.samples.filter { $0.at > blocked && $0.at < blocked.addingTimeInterval(Self.backWithin) }
        let paused = zip(during, during.dropFirst(2)).first { $1.framesReceived == $0.framesReceived }
        XCTAssertNil(paused, "bob's view of alice paused at \(paused?.0.at.description ?? ""): her sending connection was given up too")
        let messages = try XCTUnwrap(reports["alice"]?.media?.messages)
        XCTAssertFalse(messages.contains { $0.hasSuffix("Reconnecting audio and video…") }, "\(messages)")
        // Only bob's connection was made anew: carol's, silent but reported on, was left alone.
        let madeAnew = alicesLog.split(separator: "\n").filter { $0.contains("receiving anew") }
        XCTAssertEqual(madeAnew.count, 1, "alice made these receiving connections anew:\n\(madeAnew.joined(separator: "\n"))")
    }
}

/// Receiving connections die before anything came on one of them: carol joins muted with her
/// camera off, so Janus has nothing to send alice on the connection receiving her; then every
/// connection alice receives on stops passing anything (both ways) while her sending one works
/// (a NAT that forgot those mappings), before carol unmutes. No count of packets can tell
/// carol's connection from an idle socket, so all of them are blocked. Silence there says
/// nothing until carol's device says her microphone is on; from then on alice must hear her.
/// Before, a connection that never carried media was never judged, and alice never heard carol
/// (what a network change under a muted participant's connection left: issue 15's notes).
final class ReceiverLostBeforeMedia_EndToEndTests: XCTestCase {
    private static let call = "default:receiver-lost-early"
    private static let address = "10.98.0.4"
    /// The block lands at ~10 s (7 s, then 3 s of counting); carol unmutes 13 s into her call.
    private static let blockAfter = 7.0, unmuteAfter = 13.0, callLasts = 28.0
    /// carol's state reaches alice within the second, then ~4 s of silence (`ReceiverWatch`),
    /// then a new connection.
    private static let heardWithin = 9.0
    private static let peers = [
        peer("alice", "ball", 440, ["--media-address", address, "--verbose"]),
        peer("bob", "smpte", 660),
        peer("carol", "ball", 880, ["--join-muted", "--join-camera-off", "--unmute-after", "\(Int(unmuteAfter))"]),
    ]

    private static func peer(_ user: String, _ pattern: String, _ tone: Int, _ more: [String] = []) -> MediaCall.Peer {
        MediaCall.Peer(user: user, joinsAfter: 1, arguments: [
            "join", call, "--create", "--duration", "\(Int(callLasts - 1))", "--pattern", pattern, "--tone", "\(tone)",
        ] + more)
    }

    private func call() async throws -> (reports: [String: MediaPeerReport], stamp: Date) {
        try await MediaCall.reports(
            for: "receiver-lost-early", peers: Self.peers,
            controller: [MediaCall.supportScript("block-receiver.sh"), Self.address, "\(Self.blockAfter)", "\(Self.callLasts)", "all-but-sending"],
            stampFile: "receiver-blocked-at", timeout: .seconds(Int64(Self.callLasts) + 40))
    }

    /// When carol's microphone went on, by her own report.
    private func unmuted(_ reports: [String: MediaPeerReport]) throws -> Date {
        try XCTUnwrap(reports["carol"]?.media?.microphone.first { $0.on }?.at, "carol never unmuted")
    }

    func test_aReceivingConnectionDeadBeforeItsParticipantSpoke_isMadeAnewWhenTheySpeak() async throws {
        let (reports, blocked) = try await call()
        let alicesLog = MediaCall.log(of: "alice", in: "receiver-lost-early", containing: ["receiving anew", "giving the media connection up", "media path", "carol"])
        print("receiver lost before media: alice's log:\n\(alicesLog)")
        let fromCarol = try XCTUnwrap(reports["alice"]?.received(from: "carol"), "alice received nothing from carol")
        // Nothing came from carol before the block (she was muted): her connection had carried
        // no media when it was blocked.
        XCTAssertEqual(fromCarol.audioReadings(at: blocked) ?? 0, 0, "alice heard carol before she unmuted")
        // The block is real: alice's view of bob stopped.
        let fromBob = try XCTUnwrap(reports["alice"]?.received(from: "bob"), "alice received nothing from bob")
        let frames = try XCTUnwrap(fromBob.frames(at: blocked.addingTimeInterval(1)))
        XCTAssertTrue(fromBob.samples.contains { $0.at > blocked.addingTimeInterval(2) && $0.at < blocked.addingTimeInterval(3) && $0.framesReceived <= frames + 2 },
                      "alice kept seeing bob after the block: the block missed her receiving connections")
        let unmuted = try unmuted(reports)
        XCTAssertGreaterThan(unmuted, blocked, "carol unmuted before the block")
        let heard = fromCarol.samples.first { $0.at > blocked && $0.audioReadings > 5 }
        print("receiver lost before media: alice heard carol \(heard.map { $0.at.timeIntervalSince(unmuted) } ?? -1) s after her unmute")
        XCTAssertLessThan(try XCTUnwrap(heard, "alice never heard carol").at.timeIntervalSince(unmuted), Self.heardWithin)
        // What alice sends was left alone.
        let messages = try XCTUnwrap(reports["alice"]?.media?.messages)
        XCTAssertFalse(messages.contains { $0.hasSuffix("Reconnecting audio and video…") }, "\(messages)")
    }

    /// carol herself, 13 s muted with her camera off, then unmuted: webrtcbin had long dropped
    /// her audio's statistics and never brought them back, so Janus's reports on what she sent
    /// were never seen, her path counted as down 3 s after she unmuted and her whole
    /// connection was given up 6 s later ("Reconnecting audio and video…", everyone gone from
    /// her call for a moment, and she from theirs). bob, whose connections are not blocked,
    /// must hear her at once, and she must keep her connection.
    func test_joinedMutedWithTheCameraOff_unmutingLater_keepsTheConnection() async throws {
        let (reports, _) = try await call()
        let unmuted = try unmuted(reports)
        let carolsMessages = try XCTUnwrap(reports["carol"]?.media?.messages)
        XCTAssertFalse(carolsMessages.contains { $0.hasSuffix("Reconnecting audio and video…") },
                       "carol's connection was given up after she unmuted: \(carolsMessages)")
        let fromCarol = try XCTUnwrap(reports["bob"]?.received(from: "carol"), "bob received nothing from carol")
        let heard = try XCTUnwrap(fromCarol.samples.first { $0.at > unmuted && $0.audioReadings > 5 }, "bob never heard carol")
        print("joined muted: bob heard carol \(heard.at.timeIntervalSince(unmuted)) s after she unmuted")
        XCTAssertLessThan(heard.at.timeIntervalSince(unmuted), 3)
        // Her feed stayed the one bob first received: a connection made anew is a new feed.
        XCTAssertNil(fromCarol.goneAt.flatMap { $0 < unmuted.addingTimeInterval(10) ? $0 : nil },
                     "carol's feed left bob's call \(fromCarol.goneAt.map { "\($0.timeIntervalSince(unmuted))" } ?? "") s after she unmuted")
    }
}
