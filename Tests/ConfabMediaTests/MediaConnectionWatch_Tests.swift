import ConfabCore
@testable import ConfabMedia
import XCTest

/// When the media connection is given up for a new one (issue 14: a network change recovers
/// within 5 s), decided from the path, what ICE gathered and the network's changes — without a
/// network: each test plays the moments a call would see.
final class MediaConnectionWatch_Tests: XCTestCase {
    private let start = ContinuousClock.now
    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    /// A watch whose connection was published at 0 s.
    private func published() -> MediaConnectionWatch {
        var watch = MediaConnectionWatch()
        watch.connected(at: at(0))
        return watch
    }

    // MARK: A connection made while the network was away

    func test_madeWithoutAddress_networkComesBack_isReplacedAtOnce() {
        var watch = published()
        for second in 1...3 {
            XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, heardFromJanus: true, now: at(Double(second))),
                         "replaced while the network is still away")
        }
        XCTAssertEqual(watch.networkChanged(path: .connecting, candidates: .noAddress, now: at(3.5)), .madeWithoutAddress)
    }

    func test_madeWithoutAddress_networkComesBackRightAfterPublishing_isReplacedAtOnce() {
        var watch = published()
        // Within the grace that ignores GIO's first report: this connection cannot come up anyway.
        XCTAssertEqual(watch.networkChanged(path: .connecting, candidates: .noAddress, now: at(0.2)), .madeWithoutAddress)
    }

    func test_networkBackWhilePublishing_noCandidate_isReplacedAtTheFirstLookAfter() {
        var watch = MediaConnectionWatch()
        // Not while the call is still starting the connection.
        XCTAssertNil(watch.networkChanged(path: .connecting, candidates: .noAddress, now: at(-0.3)))
        watch.connected(at: at(0))
        XCTAssertEqual(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, heardFromJanus: true, now: at(1)), .madeWithoutAddress)
    }

    func test_networkBackWhileGathering_thenNoCandidate_isReplacedAtTheNextLook() {
        var watch = published()
        XCTAssertNil(watch.networkChanged(path: .connecting, candidates: .gathering, now: at(0.1)))
        XCTAssertEqual(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, heardFromJanus: true, now: at(1)), .madeWithoutAddress)
    }

    func test_madeWithoutAddress_networkNeverChanges_isGivenUpWhenJanusSentNothingFor4s() {
        var watch = published()
        // (Without an address nothing can be heard.)
        XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, heardFromJanus: false, now: at(3.5)))
        XCTAssertEqual(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, heardFromJanus: false, now: at(4.5)), .pathDown)
    }

    // MARK: A connection made while the network is away, with no change to tell it came back

    func test_janusSentNothingFor4s_isGivenUp() {
        // A try made during an outage (every UDP packet dropped): its ICE never comes up, not
        // even when the network is back. Given up at 8 s before, media then back 4–7 s after
        // the network.
        var watch = published()
        for second in 1...4 {
            XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .found, heardFromJanus: false, now: at(Double(second))),
                         "given up at \(second) s: a connection coming up normally hears Janus within a second, but not always at once")
        }
        XCTAssertEqual(watch.follow(path: .connecting, silence: nil, candidates: .found, heardFromJanus: false, now: at(4.5)), .pathDown)
    }

    func test_janusHeard_butNoReportYet_isGivenTheConnectingLimit() {
        // ICE and DTLS are up (a loaded machine, Janus slow to report): it may yet carry media.
        var watch = published()
        XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .found, heardFromJanus: true, now: at(7.5)))
        XCTAssertEqual(watch.follow(path: .connecting, silence: nil, candidates: .found, heardFromJanus: true, now: at(8.5)), .pathDown)
    }

    func test_janusSilent_butThePathIsUp_isKept() {
        // Sending nothing (muted, camera off) counts as up: there is nothing to be told of.
        var watch = published()
        for second in 1...30 {
            XCTAssertNil(watch.follow(path: .up, silence: nil, candidates: .found, heardFromJanus: false, now: at(Double(second))))
        }
    }

    // MARK: A first connection being made normally

    func test_firstConnectionWithCandidates_networkChangesWhileItComesUp_isKept() {
        var watch = published()
        // The interop test: a browser starting up beside us changes the network while our
        // first connection is still coming up on it (ICE up: Janus heard).
        XCTAssertNil(watch.networkChanged(path: .connecting, candidates: .found, now: at(0.4)))
        XCTAssertNil(watch.networkChanged(path: .connecting, candidates: .found, now: at(1.8)))
        for second in 1...7 {
            XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .found, heardFromJanus: true, now: at(Double(second))))
        }
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(200), candidates: .found, heardFromJanus: true, now: at(7.5)))
    }

    func test_firstConnectionStillGathering_networkChanges_isKept() {
        var watch = published()
        XCTAssertNil(watch.networkChanged(path: .connecting, candidates: .gathering, now: at(0.1)))
        XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .found, heardFromJanus: true, now: at(1)))
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(100), candidates: .found, heardFromJanus: true, now: at(2)))
    }

    // MARK: A connection that was up

    func test_pathUp_networkChanges_thenReportsStop_isGivenUpAfterOneAndAHalfSeconds() {
        var watch = published()
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(300), candidates: .found, heardFromJanus: true, now: at(10)))
        XCTAssertNil(watch.networkChanged(path: .up, candidates: .found, now: at(10.2)))
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(1300), candidates: .found, heardFromJanus: true, now: at(11)))
        XCTAssertEqual(watch.follow(path: .up, silence: .milliseconds(2300), candidates: .found, heardFromJanus: true, now: at(12)), .networkChanged)
    }

    func test_pathDown_networkChanges_isGivenUpAtOnce() {
        var watch = published()
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(4), candidates: .found, heardFromJanus: true, now: at(10)))
        XCTAssertEqual(watch.networkChanged(path: .down, candidates: .found, now: at(10.5)), .networkChanged)
    }

    func test_pathDown_noNetworkChange_isGivenUpAfterSixSeconds_notBefore() {
        var watch = published()
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(4), candidates: .found, heardFromJanus: true, now: at(10)))
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(9), candidates: .found, heardFromJanus: true, now: at(15)))
        XCTAssertEqual(watch.follow(path: .down, silence: .seconds(10), candidates: .found, heardFromJanus: true, now: at(16)), .pathDown)
    }

    func test_pathDownThenUpAgain_startsCountingAnew() {
        var watch = published()
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(4), candidates: .found, heardFromJanus: true, now: at(10)))
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(500), candidates: .found, heardFromJanus: true, now: at(14)))
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(4), candidates: .found, heardFromJanus: true, now: at(15)))
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(9), candidates: .found, heardFromJanus: true, now: at(20)))
    }

    // MARK: Reading what ICE gathered

    func test_localCandidates_fromTheCountAndTheGatheringState() {
        XCTAssertEqual(LocalCandidates(gathered: 0, isGatheringComplete: false), .gathering)
        XCTAssertEqual(LocalCandidates(gathered: 0, isGatheringComplete: true), LocalCandidates.noAddress)
        XCTAssertEqual(LocalCandidates(gathered: 2, isGatheringComplete: false), .found)
        XCTAssertEqual(LocalCandidates(gathered: 2, isGatheringComplete: true), .found)
    }
}

/// When one receiving connection is made anew (`ReceiverWatch`): one that stops hearing from
/// Janus while our sending path is up, or never hears anything; not one that carried no media
/// yet (Janus forwards nothing, so sends nothing to hear), nor for an outage of the whole path
/// (the publisher's watch replaces everything then).
final class ReceiverWatch_Tests: XCTestCase {
    private let start = ContinuousClock.now
    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    /// Looks once a second from `from` to `to` (inclusive), with the packet count each second
    /// gives (`received(second)`), returning the seconds at which it gave up.
    private func follow(_ watch: inout ReceiverWatch, from: Int, to: Int, media: Bool = true, microphoneOn: Bool = false, path: MediaPath = .up,
                        networkChanged: Bool = false, received: (Int) -> Int) -> [Int] {
        (from...to).filter {
            watch.follow(received: received($0), carriedMedia: media, microphoneOn: microphoneOn, sendingPath: path,
                         networkChangedLately: networkChanged, now: at(Double($0)))
        }
    }

    func test_heardThenSilent_whileSendingWorks_isMadeAnew_afterFourSilentSeconds() {
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 5) { $0 * 50 }, [])
        // Nothing more from 6 s on: counted from the first silent look.
        XCTAssertEqual(follow(&watch, from: 6, to: 9) { _ in 250 }, [], "made anew before four silent seconds")
        XCTAssertEqual(follow(&watch, from: 10, to: 10) { _ in 250 }, [10])
    }

    func test_reportsAlone_keepItUp() {
        // The sender muted and turned the camera off: one report a second, on two streams.
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 60) { 100 + $0 * 2 }, [])
    }

    func test_aReportNowAndThen_keepsItUp() {
        // A congested link: three looks in four find nothing new.
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 30) { 100 + $0 / 4 }, [])
    }

    func test_noMediaEverForwarded_silenceIsNotJudged() {
        // Someone who has sent nothing yet (camera off, muted from the start): after the
        // handshake Janus has nothing to send.
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 30, media: false) { _ in 12 }, [])
    }

    func test_noMediaYet_theirMicrophoneGoesOn_andNothingComes_isMadeAnewFourSecondsLater() {
        var watch = ReceiverWatch()
        // Up (the handshake's packets), then muted with the camera off for 20 s: left alone.
        XCTAssertEqual(follow(&watch, from: 0, to: 20, media: false) { _ in 12 }, [])
        // They unmute at 21 s; nothing comes: counted from then, not from the last packet.
        XCTAssertEqual(follow(&watch, from: 21, to: 24, media: false, microphoneOn: true) { _ in 12 }, [], "made anew before four silent seconds")
        XCTAssertEqual(follow(&watch, from: 25, to: 25, media: false, microphoneOn: true) { _ in 12 }, [25])
    }

    func test_noMediaYet_theirMicrophoneOnFromTheStart_silenceIsNotJudged() {
        // Their own connection may still be coming up (a loaded machine): nothing to hear yet,
        // and a new connection would hear no more.
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 30, media: false, microphoneOn: true) { _ in 12 }, [])
    }

    func test_noMediaYet_theirMicrophoneGoesOn_andItComes_isKept() {
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 20, media: false) { _ in 12 }, [])
        // Their first packets come within the second; media from then on.
        XCTAssertEqual(follow(&watch, from: 21, to: 21, media: false, microphoneOn: true) { _ in 12 }, [])
        XCTAssertEqual(follow(&watch, from: 22, to: 60, microphoneOn: true) { 12 + ($0 - 21) * 50 }, [])
    }

    func test_theySayTheySendOnlyBriefly_theSilenceBeforeAndAfterIsNotCounted() {
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 10, media: false) { _ in 12 }, [])
        XCTAssertEqual(follow(&watch, from: 11, to: 13, media: false, microphoneOn: true) { _ in 12 }, [])
        XCTAssertEqual(follow(&watch, from: 14, to: 30, media: false) { _ in 12 }, [])
        XCTAssertEqual(follow(&watch, from: 31, to: 33, media: false, microphoneOn: true) { _ in 12 }, [], "the earlier silent seconds counted")
    }

    func test_nothingEverReceived_neverCameUp_isMadeAnewAfterEightSeconds() {
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 7, media: false) { _ in 0 }, [])
        XCTAssertEqual(follow(&watch, from: 8, to: 8, media: false) { _ in 0 }, [8])
    }

    func test_soonAfterANetworkChange_aboutTwoSilentSecondsAreEnough() {
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 0, networkChanged: true) { _ in 100 }, [])
        XCTAssertEqual(follow(&watch, from: 1, to: 3, networkChanged: true) { _ in 100 }, [3])
    }

    func test_silentWhileOurOwnPathIsDown_isNotCounted() {
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, from: 0, to: 2) { $0 * 50 }, [])
        // Everything down for 10 s: the publisher's watch decides.
        XCTAssertEqual(follow(&watch, from: 3, to: 12, path: .down) { _ in 100 }, [])
        // Our path back: the receiver gets its own four seconds from here, not from 3 s.
        XCTAssertEqual(follow(&watch, from: 13, to: 16) { _ in 100 }, [])
        XCTAssertEqual(follow(&watch, from: 17, to: 17) { _ in 101 }, [], "heard again")
        XCTAssertEqual(follow(&watch, from: 18, to: 30, path: .connecting) { _ in 101 }, [])
    }

    func test_aNetworkChange_isKnownForFiveSecondsAfterPublishing() {
        var watch = MediaConnectionWatch()
        watch.connected(at: at(0))
        XCTAssertNil(watch.networkChanged(path: .up, candidates: .found, now: at(10)))
        XCTAssertTrue(watch.changedLately(now: at(14.5)))
        XCTAssertFalse(watch.changedLately(now: at(15.5)))
    }
}
