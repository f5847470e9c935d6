@testable import ConfabDesktop
import GLibBridge
import XCTest

/// The call page built while the lobby shows (`BuiltAhead`): built once, when asked and the
/// loop is idle; taken as built; built at once when taken first; never built after the lobby
/// closed or the join took one.
///
/// XCTest runs these on the main thread, where the GLib default context is iterated.
final class BuiltAhead_Tests: XCTestCase {
    private final class Page {
        let number: Int
        init(number: Int) { self.number = number }
    }

    /// A screen that asks for the page (a lobby, a ring).
    private final class Screen {}

    @MainActor private final class Pages {
        var builds = 0
        var dropped: [Int] = []
    }

    private var pages: Pages!
    private var builds: Int { MainActor.assumeIsolated { pages.builds } }
    private var dropped: [Int] { MainActor.assumeIsolated { pages.dropped } }

    @MainActor private func makeReserve() -> BuiltAhead<Page> {
        let pages = Pages()
        self.pages = pages
        return BuiltAhead(build: {
            pages.builds += 1
            return Page(number: pages.builds)
        }, drop: { page in pages.dropped.append(page.number) })
    }

    /// Runs the main loop for `seconds` (timers and idle callbacks fire).
    @MainActor private func runLoop(_ seconds: Double) {
        MainLoop.iterate(until: { false }, timeout: seconds)
    }

    func test_asked_itIsBuiltOnceTheLoopIsIdle_andTheJoinTakesThatOne() { MainActor.assumeIsolated {
        let reserve = makeReserve(), lobby = Screen()
        var told = 0
        reserve.prepare(in: 0.05, for: lobby) { told += 1 }
        XCTAssertEqual(builds, 0, "not built while the caller runs")
        runLoop(0.3)
        XCTAssertEqual(builds, 1)
        XCTAssertEqual(told, 1)
        XCTAssertTrue(reserve.isReady)
        let page = reserve.take()
        XCTAssertEqual(page.number, 1)
        XCTAssertEqual(builds, 1, "taking the one built builds no other")
        XCTAssertFalse(reserve.isReady)
    } }

    func test_askedTwice_oneIsBuilt() { MainActor.assumeIsolated {
        let reserve = makeReserve(), lobby = Screen()
        reserve.prepare(in: 0.02, for: lobby)
        reserve.prepare(in: 0.1, for: lobby)
        runLoop(0.3)
        XCTAssertEqual(builds, 1)
    } }

    func test_theJoinComesFirst_itIsBuiltThen_andTheRequestLaterBuildsNothing() { MainActor.assumeIsolated {
        let reserve = makeReserve(), lobby = Screen()
        reserve.prepare(in: 0.1, for: lobby)
        let page = reserve.take()
        XCTAssertEqual(page.number, 1)
        runLoop(0.3)
        XCTAssertEqual(builds, 1, "a page nobody will take was built after the join")
    } }

    func test_theLobbyClosesBeforeTheBuild_nothingIsBuilt() { MainActor.assumeIsolated {
        let reserve = makeReserve(), lobby = Screen()
        reserve.prepare(in: 0.05, for: lobby)
        reserve.discard(for: lobby)
        runLoop(0.3)
        XCTAssertEqual(builds, 0)
        XCTAssertEqual(dropped, [])
    } }

    func test_theLobbyClosesAfterTheBuild_thePageIsDropped_andTheNextJoinBuildsANewOne() { MainActor.assumeIsolated {
        let reserve = makeReserve(), lobby = Screen()
        reserve.prepare(in: 0.02, for: lobby)
        runLoop(0.2)
        reserve.discard(for: lobby)
        XCTAssertEqual(dropped, [1])
        XCTAssertFalse(reserve.isReady)
        XCTAssertEqual(reserve.take().number, 2)
    } }

    func test_theJoinTookOne_thenTheLobbyClosed_nothingIsDropped() { MainActor.assumeIsolated {
        let reserve = makeReserve(), lobby = Screen()
        reserve.prepare(in: 0.02, for: lobby)
        runLoop(0.2)
        _ = reserve.take()
        reserve.discard(for: lobby)
        XCTAssertEqual(dropped, [], "the page the call shows was closed")
    } }

    func test_aLobbyReplacedByAnother_theOldOnesClosingKeepsThePageBuiltForBoth() { MainActor.assumeIsolated {
        let reserve = makeReserve(), first = Screen(), second = Screen()
        reserve.prepare(in: 0.02, for: first)
        runLoop(0.2)
        reserve.prepare(in: 0.02, for: second)
        reserve.discard(for: first)
        runLoop(0.2)
        XCTAssertEqual(dropped, [], "the second screen's page was dropped by the first one closing")
        XCTAssertTrue(reserve.isReady)
        XCTAssertEqual(builds, 1)
        reserve.discard(for: second)
        XCTAssertEqual(dropped, [1])
    } }
}
