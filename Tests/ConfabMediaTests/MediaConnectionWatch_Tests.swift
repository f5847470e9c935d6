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
            XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, now: at(Double(second))),
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
        XCTAssertEqual(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, now: at(1)), .madeWithoutAddress)
    }

    func test_networkBackWhileGathering_thenNoCandidate_isReplacedAtTheNextLook() {
        var watch = published()
        XCTAssertNil(watch.networkChanged(path: .connecting, candidates: .gathering, now: at(0.1)))
        XCTAssertEqual(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, now: at(1)), .madeWithoutAddress)
    }

    func test_madeWithoutAddress_networkNeverChanges_isLeftToTheConnectingLimit() {
        var watch = published()
        XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, now: at(7.5)))
        XCTAssertEqual(watch.follow(path: .connecting, silence: nil, candidates: .noAddress, now: at(8.5)), .pathDown)
    }

    // MARK: A first connection being made normally

    func test_firstConnectionWithCandidates_networkChangesWhileItComesUp_isKept() {
        var watch = published()
        // The interop test: a browser starting up beside us changes the network while our
        // first connection is still coming up on it.
        XCTAssertNil(watch.networkChanged(path: .connecting, candidates: .found, now: at(0.4)))
        XCTAssertNil(watch.networkChanged(path: .connecting, candidates: .found, now: at(1.8)))
        for second in 1...7 {
            XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .found, now: at(Double(second))))
        }
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(200), candidates: .found, now: at(7.5)))
    }

    func test_firstConnectionStillGathering_networkChanges_isKept() {
        var watch = published()
        XCTAssertNil(watch.networkChanged(path: .connecting, candidates: .gathering, now: at(0.1)))
        XCTAssertNil(watch.follow(path: .connecting, silence: nil, candidates: .found, now: at(1)))
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(100), candidates: .found, now: at(2)))
    }

    // MARK: A connection that was up

    func test_pathUp_networkChanges_thenReportsStop_isGivenUpAfterOneAndAHalfSeconds() {
        var watch = published()
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(300), candidates: .found, now: at(10)))
        XCTAssertNil(watch.networkChanged(path: .up, candidates: .found, now: at(10.2)))
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(1300), candidates: .found, now: at(11)))
        XCTAssertEqual(watch.follow(path: .up, silence: .milliseconds(2300), candidates: .found, now: at(12)), .networkChanged)
    }

    func test_pathDown_networkChanges_isGivenUpAtOnce() {
        var watch = published()
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(4), candidates: .found, now: at(10)))
        XCTAssertEqual(watch.networkChanged(path: .down, candidates: .found, now: at(10.5)), .networkChanged)
    }

    func test_pathDown_noNetworkChange_isGivenUpAfterSixSeconds_notBefore() {
        var watch = published()
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(4), candidates: .found, now: at(10)))
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(9), candidates: .found, now: at(15)))
        XCTAssertEqual(watch.follow(path: .down, silence: .seconds(10), candidates: .found, now: at(16)), .pathDown)
    }

    func test_pathDownThenUpAgain_startsCountingAnew() {
        var watch = published()
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(4), candidates: .found, now: at(10)))
        XCTAssertNil(watch.follow(path: .up, silence: .milliseconds(500), candidates: .found, now: at(14)))
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(4), candidates: .found, now: at(15)))
        XCTAssertNil(watch.follow(path: .down, silence: .seconds(9), candidates: .found, now: at(20)))
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
/// Janus while our sending path is up, and not for a participant who never sent, nor for an
/// outage of the whole path (the publisher's watch replaces everything then).
final class ReceiverWatch_Tests: XCTestCase {
    private let start = ContinuousClock.now
    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    /// Follows `watch` once a second from `from` to `to` (inclusive), returning the seconds at which it gave up.
    private func follow(_ watch: inout ReceiverWatch, heard: Bool, path: MediaPath, from: Int, to: Int) -> [Int] {
        (from...to).filter { watch.follow(heard: heard, sendingPath: path, now: at(Double($0))) }
    }

    func test_heardThenSilent_whileSendingWorks_isMadeAnewOnce_afterFourSeconds() {
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, heard: true, path: .up, from: 0, to: 5), [])
        // Silent from 6 s: counted from the first silent look.
        XCTAssertEqual(follow(&watch, heard: false, path: .up, from: 6, to: 9), [], "made anew before four silent seconds")
        XCTAssertEqual(follow(&watch, heard: false, path: .up, from: 10, to: 10), [10])
        // Then it starts over: not again at every look.
        XCTAssertEqual(follow(&watch, heard: false, path: .up, from: 11, to: 14), [])
        XCTAssertEqual(follow(&watch, heard: false, path: .up, from: 15, to: 15), [15])
    }

    func test_soonAfterANetworkChange_aboutTwoSilentSecondsAreEnough() {
        var watch = ReceiverWatch()
        XCTAssertFalse(watch.follow(heard: true, sendingPath: .up, networkChangedLately: true, now: at(0)))
        XCTAssertFalse(watch.follow(heard: false, sendingPath: .up, networkChangedLately: true, now: at(1)))
        XCTAssertFalse(watch.follow(heard: false, sendingPath: .up, networkChangedLately: true, now: at(2)))
        XCTAssertTrue(watch.follow(heard: false, sendingPath: .up, networkChangedLately: true, now: at(3)))
    }

    func test_aNetworkChange_isKnownForFiveSecondsAfterPublishing() {
        var watch = MediaConnectionWatch()
        watch.connected(at: at(0))
        XCTAssertNil(watch.networkChanged(path: .up, candidates: .found, now: at(10)))
        XCTAssertTrue(watch.changedLately(now: at(14.5)))
        XCTAssertFalse(watch.changedLately(now: at(15.5)))
    }

    func test_aReportNowAndThen_keepsItUp() {
        var watch = ReceiverWatch()
        for second in 0..<30 {
            // A congested link: three looks in four find nothing new.
            XCTAssertFalse(watch.follow(heard: second % 4 == 0, sendingPath: .up, now: at(Double(second))), "at \(second) s")
        }
    }

    func test_neverHeard_isNotMadeAnew() {
        // Someone who has sent nothing yet (camera off, muted from the start): nothing to judge.
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, heard: false, path: .up, from: 0, to: 30), [])
    }

    func test_aConnectionMadeAnew_mustBeHeardToo() {
        var watch = ReceiverWatch(replacing: true)
        XCTAssertEqual(follow(&watch, heard: false, path: .up, from: 0, to: 4), [4])
    }

    func test_silentWhileOurOwnPathIsDown_isNotCounted() {
        var watch = ReceiverWatch()
        XCTAssertEqual(follow(&watch, heard: true, path: .up, from: 0, to: 2), [])
        // Everything down for 10 s: the publisher's watch decides.
        XCTAssertEqual(follow(&watch, heard: false, path: .down, from: 3, to: 12), [])
        // Our path back: the receiver gets its own four seconds from here, not from 3 s.
        XCTAssertEqual(follow(&watch, heard: false, path: .up, from: 13, to: 16), [])
        XCTAssertEqual(follow(&watch, heard: true, path: .up, from: 17, to: 17), [], "heard again")
        XCTAssertEqual(follow(&watch, heard: false, path: .connecting, from: 18, to: 30), [])
    }
}
