"""One main window, GNOME style: home, lobby, ringing, call and call-ended are pages of the same
window, which keeps its size and place from step to step; at phone size (360x640) every control
of the call stays reachable and inside the window. Screenshots of every page, light and dark,
are saved under the build folder's ui-artifacts."""
import os
import subprocess
import time
import unittest

import pyatspi

from confab_ui import (MEDIA_ADDRESS, App, MediaCallTestCase, Peer, Server, XvfbTestCase, application, click, find, find_all, on_screen, press_keys, read_clipboard,
                       screenshot, top_level_window, type_text, ring_from_home, wait_for, walk)


def extents(node):
    e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return e.x, e.y, e.width, e.height


def frames(accessible):
    """The app's top-level windows that are on screen."""
    shown = []
    for index in range(accessible.childCount):
        window = accessible.getChildAtIndex(index)
        if window is not None and window.getState().contains(pyatspi.STATE_SHOWING):
            shown.append(window)
    return shown


def open_link(test, home, link, title):
    """A confab: link pasted at home, then Join…: the lobby of its call."""
    type_text(find(home, role="text", name="Call name"), link)
    click(find(home, role="push button", name="Join…"))
    return wait_for(lambda: top_level_window(test.accessible, name=title), timeout=20, what="the lobby of the pasted link")


class MainWindowTestCase(XvfbTestCase):
    scheme = None
    app_env = {}

    def setUp(self):
        self.server = Server()
        self.addCleanup(self.server.stop)
        extra = {"ADW_DEBUG_COLOR_SCHEME": self.scheme} if self.scheme else {}
        self.app = App(self.xvfb, ["--server", self.server.url, "--user", "ada", "--test-devices"], extra_env={**extra, **self.app_env})
        self.addCleanup(self.app.stop)
        self.accessible = wait_for(lambda: application(self.app.process.pid), what="the app on the AT-SPI bus")
        self.home = wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="the home page")
        self.server.wait_for_connections(1)

    def tearDown(self):
        self.assertFalse(self.app.exited(), f"confab exited during the test:\n{self.app.output()}")

    def peer(self, user, *command):
        peer = Peer(self.server, user, list(command))
        self.addCleanup(peer.stop)
        return peer

    def page(self, title, what):
        return wait_for(lambda: top_level_window(self.accessible, name=title), timeout=20, what=what)

    def open_lobby(self, home, call_name):
        """Home → Join… → the lobby of `call_name`."""
        type_text(find(home, role="text", name="Call name"), call_name)
        click(find(home, role="push button", name="Join…"))
        return self.page(f"{call_name} – Confab", "the lobby")

    def join_call(self, name):
        """Home → lobby of `name` → Join: returns the call page."""
        lobby = self.open_lobby(self.home, name)
        click(wait_for(lambda: find(lobby, role="push button", name="Join call"), what="the Join button"))
        title = f"{name} – Confab"
        wait_for(lambda: top_level_window(self.accessible, name=title)
                 and on_screen(top_level_window(self.accessible, name=title), name="Hang up"), timeout=20, what="the call page")
        return top_level_window(self.accessible, name=title)

    def link_secret(self, cid):
        """The call's secret as the server stored it (what its hosts' Copy link carries)."""
        return self.server.stored_call(cid, "linkSecret")

    def open_link(self, home, link, title):
        return open_link(self, home, link, title)

    def assert_inside(self, node, window, what):
        x, y, width, height = extents(window)
        cx, cy, cw, ch = extents(node)
        self.assertTrue(cw > 0 and ch > 0, f"{what} has no size")
        self.assertTrue(x <= cx and cx + cw <= x + width and y <= cy and cy + ch <= y + height,
                        f"{what} at {(cx, cy, cw, ch)} is cut off by the window at {(x, y, width, height)}")

    def ring_bob(self, home, call_name, duration, title):
        """Rings bob (a confab-peer that answers and stays `duration` s) from the home page;
        returns the call page once bob's tile is there."""
        bob = self.peer("bob", "answer", "--accept", "--duration", str(duration), "--timeout", "30")
        self.server.wait_for_connections(2)
        ring_from_home(home, "bob", call_name)
        call = self.page(title, "the call")
        wait_for(lambda: find(call, name_contains="bob, "), timeout=20, what="bob's tile")
        return bob, call

    def resize(self, title, width, height):
        subprocess.run(["xdotool", "search", "--name", f"^{title}$", "windowsize", str(width), str(height)],
                       env={**os.environ, "DISPLAY": self.xvfb.display}, check=True)
        window = top_level_window(self.accessible, name=title)
        wait_for(lambda: abs(extents(window)[2] - width) <= 20 and abs(extents(window)[3] - height) <= 20,
                 what=f"the window at {width}x{height}")
        time.sleep(1)

    def assert_one_window_at(self, place, what):
        shown = frames(self.accessible)
        self.assertEqual(len(shown), 1, f"{what}: {len(shown)} windows on screen ({[w.name for w in shown]})")
        self.assertEqual(extents(shown[0]), place, f"{what}: the window moved or changed size")


class OneWindowFromHomeToCallEnded(MainWindowTestCase):
    def test_homeLobbyOutgoingCallEnded_areOneWindowThatKeepsItsSizeAndPlace(self):
        time.sleep(0.5)
        place = extents(self.home)
        self.assert_one_window_at(place, "home")

        lobby = self.open_lobby(self.home, "same-place")
        wait_for(lambda: find(lobby, role="push button", name="Join call"), what="the Join button")
        self.assert_one_window_at(place, "lobby")
        press_keys(self.xvfb.display, "same-place – Confab", "Escape")
        home = self.page("Confab", "home again")

        # bob answers, stays 4 s and hangs up: outgoing → call → call ended, in the same window.
        # Titled after bob: no generated id.
        bob, call = self.ring_bob(home, "", duration=4, title="Call with bob – Confab")
        self.assert_one_window_at(place, "call")
        self.assertFalse(any("call-" in (w.name or "") for w in frames(self.accessible)), "a generated id in a title")
        bob.report(timeout=30)
        ended = self.page("Call ended – Confab", "the call-ended page")
        wait_for(lambda: find(ended, name_contains="bob hung up"), what="why it ended")
        self.assert_one_window_at(place, "call ended")


class ControlBarAtPhoneSize(MainWindowTestCase):
    # Each call action, and what stands for it in the More menu when the bar has no room for it
    # (the layout is three choices there instead of a menu of them).
    ACTIONS = {"Microphone": "Microphone", "Camera": "Camera", "Devices": "Devices", "Participants": "Participants",
               "Layout": "Grid", "Minimize call": "Minimize call", "Hang up": "Hang up"}

    def test_at360x640_everyCallActionIsInTheBarOrTheMoreMenu_onOneLine_insideTheWindow(self):
        call = self.join_call("narrow")
        # At the default size every action has its place in the bar.
        for name in self.ACTIONS:
            wait_for(lambda: on_screen(call, name_contains=name), what=f"“{name}” in the bar at the default size")
        # And every round button of it is the same size (the People button, in an overlay for
        # the chat's unread count, was out of reach of the bar's style and smaller than the rest).
        sizes = {name: tuple(extents(on_screen(call, name_contains=name))[2:]) for name in self.ACTIONS}
        print(f"the bar's buttons: {sizes}")
        self.assertEqual(len(set(sizes.values())), 1, f"the bar's buttons differ in size: {sizes}")

        subprocess.run(["xdotool", "search", "--name", "^narrow – Confab$", "windowsize", "360", "640"],
                       env={**os.environ, "DISPLAY": self.xvfb.display}, check=True)
        wait_for(lambda: extents(call)[2] <= 380 and extents(call)[3] <= 660, what="the window at 360x640")
        # The bar has had its layout at the new width once the least needed action has left it.
        wait_for(lambda: on_screen(call, name="Minimize call") is None, what="Minimize call to leave the narrow bar")
        screenshot(self.xvfb.display, "call-360x640.png")

        in_bar = {}
        for name in self.ACTIONS:
            control = on_screen(call, name_contains=name)
            if control is not None:
                self.assert_inside(control, call, f"“{name}”")
                in_bar[name] = control
        for essential in ("Microphone", "Camera", "Devices", "Hang up"):
            self.assertIn(essential, in_bar, f"“{essential}” left the bar at 360 px")
        # One line, not wrapped: every control in the bar shares one centre line.
        centres = {name: extents(node)[1] + extents(node)[3] // 2 for name, node in in_bar.items()}
        self.assertLessEqual(max(centres.values()) - min(centres.values()), 4, f"the bar wraps: centres {centres}")

        left_out = [name for name in self.ACTIONS if name not in in_bar]
        self.assertTrue(left_out, "nothing moved to the More menu at 360 px (is the bar cut off instead?)")
        more = on_screen(call, name="More")
        self.assertIsNotNone(more, f"{left_out} left the bar but there is no More menu")
        self.assert_inside(more, call, "“More”")
        click(more)
        # GTK 4.8 places what is in a popover wrongly over AT-SPI (positions as if the popover
        # sat at the window's origin), but sizes are right: each left-out action is in the menu,
        # laid out, and the menu is no larger than the window.
        for name in left_out:
            entry = wait_for(lambda: find(more, name_contains=self.ACTIONS[name]),
                             what=f"“{self.ACTIONS[name]}” (for {name}) in the More menu")
            self.assertGreater(extents(entry)[2], 0, f"“{self.ACTIONS[name]}” in the More menu has no size")
        menu = max(walk(more), key=lambda node: extents(node)[2] * extents(node)[3])
        _, _, width, height = extents(call)
        self.assertLessEqual(extents(menu)[2], width, "the More menu is wider than the window")
        self.assertLessEqual(extents(menu)[3], height, "the More menu is taller than the window")
        time.sleep(0.5)
        screenshot(self.xvfb.display, "call-360x640-more.png")

        # An action from the menu works: Participants opens the sidebar.
        if "Participants" in left_out:
            click(find(more, name_contains="Participants"))
            wait_for(lambda: on_screen(call, role="push button", name="Hide sidebar"), what="the sidebar from the More menu")


class CallLinkLetsAStrangerIn(MainWindowTestCase):
    """Issue 16: the host copies the call's link from the call's More menu; someone who is not a
    member joins with its secret; the home page opens the call's lobby from the pasted link."""

    def test_hostCopiesLink_strangerJoinsWithItsSecret_linkPastedAtHomeOpensTheLobby(self):
        call = self.join_call("linked")
        click(wait_for(lambda: on_screen(call, name="More"), what="the More menu"))
        click(wait_for(lambda: find(call, role="push button", name="Copy link"), what="Copy link in the More menu"))
        link = wait_for(lambda: (lambda text: text if text.startswith("confab://join/default/linked?secret=") else None)(
            read_clipboard(self.xvfb.display)), what="the call's link on the clipboard")
        secret = link.split("secret=", 1)[1]
        self.assertRegex(secret, r"^[0-9a-f]{32}$")

        # carol is no member: without the secret she is refused, with it she is in ada's call.
        refused = self.peer("carol", "join", "default:linked", "--duration", "1")
        self.assertNotEqual(refused.process.wait(30), 0, "confab-peer joined without the link's secret")
        refusal = refused.output()
        self.assertIn("open the call’s link", refusal, f"refused for another reason:\n{refusal}")
        self.assertIsNone(find(call, name_contains="carol, "), "carol got in without the link")
        carol = self.peer("carol", "join", "default:linked", "--link-secret", secret, "--duration", "8")
        wait_for(lambda: find(call, name_contains="carol, "), timeout=20, what="carol's tile (joined with the link)")
        screenshot(self.xvfb.display, "call-link-carol.png")
        carol.stop()

        click(wait_for(lambda: on_screen(call, name="Hang up"), what="Hang up"))
        home = self.page("Confab", "home after hanging up")
        type_text(find(home, role="text", name="Call name"), link)
        click(find(home, role="push button", name="Join…"))
        lobby = self.page("linked – Confab", "the lobby opened from the pasted link")
        wait_for(lambda: on_screen(lobby, role="push button", name="Copy link"), what="Copy link in the lobby")


class SidebarOpensOnlyWhenAsked(MainWindowTestCase):
    """Seen as a user: in a call, a window made narrow (640x480, too narrow for the sidebar
    beside the video) and then wide again showed the participants sidebar, which nobody had
    opened, taking 320 px from the video: libadwaita's flap, left to itself, opens its sidebar
    whenever the window widens. Now it comes back only if it was open before the window narrowed."""

    def sidebar_shown(self, call):
        return on_screen(call, role="push button", name="Hide sidebar") is not None

    def test_narrowThenWide_closedSidebarStaysClosed_openOneComesBack_oneClosedMeanwhileStaysClosed(self):
        title = "sidebar – Confab"
        call = self.join_call("sidebar")
        width, height = extents(call)[2:]
        self.assertFalse(self.sidebar_shown(call), "the sidebar is open at the start of a call")

        self.resize(title, 640, 480)
        self.resize(title, width, height)
        screenshot(self.xvfb.display, "sidebar-narrow-then-wide.png")
        self.assertFalse(self.sidebar_shown(call), "the window made narrow and wide again opened the sidebar nobody asked for")

        press_keys(self.xvfb.display, title, "ctrl+p")
        wait_for(lambda: self.sidebar_shown(call), what="the sidebar opened with Ctrl+P")
        self.resize(title, 640, 480)
        self.assertFalse(self.sidebar_shown(call), "the open sidebar stayed over the video in a narrow window")
        self.resize(title, width, height)
        self.assertTrue(self.sidebar_shown(call), "the sidebar open before the window narrowed did not come back")

        # Narrow again, opened and closed there: closed it stays.
        self.resize(title, 640, 480)
        press_keys(self.xvfb.display, title, "ctrl+p")
        wait_for(lambda: self.sidebar_shown(call), what="the sidebar opened over the video in the narrow window")
        press_keys(self.xvfb.display, title, "Escape")
        wait_for(lambda: not self.sidebar_shown(call), what="the sidebar closed with Escape")
        self.resize(title, width, height)
        self.assertFalse(self.sidebar_shown(call), "the sidebar closed in the narrow window came back as it widened")


class ALongNameFitsAPhoneSizedWindow(MainWindowTestCase):
    """A person whose user id is long (48 letters) is rung and joins: their name ends in "…" in
    their tile, and the call window still narrows to phone size. The name's width held every
    tile, and so the window, at 556 px, the name running out of its tile over the pin button."""
    LONG = "maximilian_alexander_featherstonehaugh_the_third"

    def test_ringingAndInTheCall_theNameIsCutToItsTile_andTheWindowNarrowsTo360(self):
        callee = self.peer(self.LONG, "answer", "--accept", "--duration", "60", "--timeout", "30")
        self.server.wait_for_connections(2)
        ring_from_home(self.home, self.LONG, "long-name")
        call = self.page("long-name – Confab", "the call")
        tile = wait_for(lambda: find(call, name_contains=f"{self.LONG}, "), timeout=20, what="the long-named person's tile")

        self.resize("long-name – Confab", 360, 640)
        self.assert_inside(tile, call, "the long-named person's tile")
        name = wait_for(lambda: on_screen(call, role="label", name=self.LONG), what="the name in the tile")
        self.assert_inside(name, tile, "the name")
        screenshot(self.xvfb.display, "long-name-360x640.png")
        callee.stop()


class HomePageSaysWhatIsWrongUnderTheField(MainWindowTestCase):
    """A call name the server cannot take, or Call with nobody to call, is explained under its
    field, whole, with what to type instead, until the field is edited. It was a toast that cut
    the reason off ("…optionally after a type (default:standup): call i…") and went away."""

    def problem_on_screen(self, words):
        # A hidden label has no size: on_screen passes it over.
        return on_screen(self.home, role="label", name_contains=words)

    def test_aNameWithSpaces_isExplainedWhole_withANameThatWouldDo_andTheExplanationGoesWhenEdited(self):
        call_name = find(self.home, role="text", name="Call name")
        type_text(call_name, "Team Sync! #1")
        join = find(self.home, role="push button", name="Join…")
        join_before = extents(join)
        click(join)
        said = "A call’s name has only letters, digits, “.”, “-” and “_”, not spaces, “!”, “#”. “Team-Sync-1” would do."
        problem = wait_for(lambda: self.problem_on_screen("“Team-Sync-1” would do"), what="the reason under the call name")
        self.assertEqual(problem.name, said)
        self.assert_inside(problem, self.home, "the reason")
        _, entry_y, _, entry_height = extents(call_name)
        self.assertGreaterEqual(extents(problem)[1], entry_y + entry_height, "the reason is not under the call name")
        screenshot(self.xvfb.display, "home-call-name-problem.png")
        self.assertIsNotNone(top_level_window(self.accessible, name="Confab"), "the home page went away")
        # The reason takes the hint's place: Join… stays where it was (it went half below the
        # window's edge at the default size when the reason was added under the hint).
        self.assertEqual(extents(join), join_before, "Join… moved when the reason showed")

        # Mended as suggested: the reason goes, and Join… opens that call's lobby.
        type_text(call_name, "Team-Sync-1")
        wait_for(lambda: self.problem_on_screen("would do") is None, what="the reason gone once the name is edited")
        click(find(self.home, role="push button", name="Join…"))
        self.page("Team-Sync-1 – Confab", "the lobby of the mended name")

    def test_callWithNobodyToCall_orOnlyHerself_saysSoUnderThePeopleField(self):
        call_button = find(self.home, role="push button", name="Call")
        call_before = extents(call_button)
        click(call_button)
        problem = wait_for(lambda: self.problem_on_screen("Enter who to call"), what="the reason under the people field")
        _, entry_y, _, entry_height = extents(find(self.home, role="text", name="People to call"))
        _, button_y, _, _ = extents(find(self.home, role="push button", name="Call"))
        _, problem_y, _, problem_height = extents(problem)
        self.assertTrue(entry_y + entry_height <= problem_y and problem_y + problem_height <= button_y,
                        f"the reason at y {problem_y} is not between the people field (ending at {entry_y + entry_height}) and Call ({button_y})")
        self.assertEqual(extents(call_button), call_before, "Call moved when the reason showed")
        type_text(find(self.home, role="text", name="People to call"), "bob")
        wait_for(lambda: self.problem_on_screen("Enter who to call") is None, timeout=2, what="the reason gone once someone is named")

        # Only herself: said here, not refused by the server on the call-ended page.
        type_text(find(self.home, role="text", name="People to call"), "ada")
        click(find(self.home, role="push button", name="Call"))
        wait_for(lambda: self.problem_on_screen("That is you"), what="calling herself explained under the people field")
        self.assertIsNotNone(top_level_window(self.accessible, name="Confab"), "the home page went away")


class HomePageSaysWhichCallCallRingsInto(MainWindowTestCase):
    """Call rings people into the call named under "Join a call" when one is typed there. The
    page did not say so: someone who had typed a name to join, then rang bob, rang him into
    that call. The line under the people field names it."""

    def ring_hint(self):
        return on_screen(self.home, role="label", name_contains="Rings everyone listed")

    def test_aCallNameTyped_theLineUnderThePeopleFieldNamesIt_andBobIsRungIntoThatCall(self):
        bob = self.peer("bob", "answer", "--accept", "--duration", "20", "--timeout", "30")
        self.server.wait_for_connections(2)
        self.assertNotIn("“", self.ring_hint().name, "a call named before any was typed")
        type_text(find(self.home, role="text", name="People to call"), "bob")
        type_text(find(self.home, role="text", name="Call name"), "planning")
        hint = wait_for(lambda: on_screen(self.home, role="label", name_contains="into the call “planning”"),
                        what="the line under the people field naming the call")
        _, entry_y, _, entry_height = extents(find(self.home, role="text", name="People to call"))
        _, button_y, _, _ = extents(find(self.home, role="push button", name="Call"))
        _, hint_y, _, _ = extents(hint)
        self.assertTrue(entry_y + entry_height <= hint_y < button_y, "the line is not between the people field and Call")
        screenshot(self.xvfb.display, "home-ring-into-named-call.png")

        # A name the server cannot take names nothing; a good one again, and Call rings into it.
        type_text(find(self.home, role="text", name="Call name"), "plan ning")
        wait_for(lambda: "“" not in self.ring_hint().name, what="the line without a call once the name is not one")
        type_text(find(self.home, role="text", name="Call name"), "planning")
        wait_for(lambda: on_screen(self.home, role="label", name_contains="into the call “planning”"), what="the call named again")
        click(find(self.home, role="push button", name="Call"))
        call = self.page("planning – Confab", "the call named on the home page")
        wait_for(lambda: find(call, name_contains="bob, "), timeout=20, what="bob in that call")
        bob.stop()


class HomeWithoutServer(XvfbTestCase):
    def test_unreachableServer_homeSaysSo_insteadOfSignedIn(self):
        app = App(self.xvfb, ["--server", "ws://127.0.0.1:9", "--user", "ada", "--test-devices"])
        self.addCleanup(app.stop)
        accessible = wait_for(lambda: application(app.process.pid), what="the app on the AT-SPI bus")
        home = wait_for(lambda: top_level_window(accessible, name="Confab"), what="the home page")
        wait_for(lambda: find(home, name_contains="Can’t reach the call server"), what="the home page saying the server is out of reach")
        self.assertIsNone(find(home, name_contains="Signed in as"), "“Signed in” while the server is down")
        self.assertFalse(app.exited(), app.output())


class SpeaksGerman(XvfbTestCase):
    """With LANGUAGE=de the app speaks German: widgets are found by their translated names."""

    def test_languageGerman_joinButtonAndMainMenuAreTranslated(self):
        server = Server()
        self.addCleanup(server.stop)
        # gettext ignores LANGUAGE under the plain C locale; C.UTF-8 is always there on Debian.
        app = App(self.xvfb, ["--server", server.url, "--user", "ada", "--test-devices", "--call", "default:sprache"],
                  extra_env={"LANGUAGE": "de", "LANG": "C.UTF-8", "LC_ALL": ""})
        self.addCleanup(app.stop)
        accessible = wait_for(lambda: application(app.process.pid), what="the app on the AT-SPI bus")
        lobby = wait_for(lambda: top_level_window(accessible, name="sprache – Confab"), what="the lobby")
        wait_for(lambda: find(lobby, role="push button", name="Anruf beitreten"), what="“Anruf beitreten” (Join call)")
        self.assertIsNone(find(lobby, role="push button", name="Join call"), "the English Join button is still there")
        click(wait_for(lambda: find(lobby, name="Hauptmenü"), what="“Hauptmenü” (Main Menu)"))
        for item in ("Einstellungen", "Tastenkürzel", "Info zu Confab"):
            wait_for(lambda: find(accessible, name_contains=item), what=f"“{item}” in the main menu")
        screenshot(self.xvfb.display, "lobby-german.png")
        self.assertFalse(app.exited(), app.output())


class PastedLinkLetsAdaIntoBobsCall(MainWindowTestCase):
    """Issue 16: ada is no member of bob's call; a link pasted at home opens its lobby, and only
    the link's secret lets her join."""


    def test_linkPastedAtHome_withoutItsSecretAdaIsRefused_withItSheJoinsBobsCall(self):
        self.peer("bob", "join", "default:bobs-room", "--create", "--duration", "40")
        secret = wait_for(lambda: self.link_secret("default:bobs-room"), timeout=20, what="bob's call to exist")

        lobby = self.open_link(self.home, "confab://join/default/bobs-room", "bobs-room – Confab")
        click(wait_for(lambda: find(lobby, role="push button", name="Join call"), what="the Join button"))
        wait_for(lambda: find(lobby, name_contains="open the call’s link"), what="the refusal, saying to open the call's link")
        press_keys(self.xvfb.display, "bobs-room – Confab", "Escape")
        home = self.page("Confab", "home again")

        lobby = self.open_link(home, f"confab://join/default/bobs-room?secret={secret}", "bobs-room – Confab")
        click(wait_for(lambda: find(lobby, role="push button", name="Join call"), what="the Join button"))
        call = self.page("bobs-room – Confab", "the call")
        wait_for(lambda: find(call, name_contains="bob, "), timeout=20, what="bob's tile: ada is in his call")


class CallPageBuiltInTheLobby(MainWindowTestCase):
    """The call page (40-50 ms of widgets on an idle machine, up to 0.7 s on a saturated one)
    was built between the click on Join and the first frame. It is now built while the lobby
    shows, once its picture is up, and bound to the call when it is joined: the join builds no
    page, and the page it shows works as one built for the call (the other person's tile, the
    People list, the More menu's link)."""
    app_env = {"CONFAB_TIMELINE": "1"}

    def marks(self, step):
        return [line for line in self.app.output().splitlines() if line.startswith(f"confab-timeline {step} ")]

    def test_lobbyBuildsTheCallPage_theJoinBindsIt_andThePageShowsTheCall(self):
        lobby = self.open_lobby(self.home, "ahead")
        wait_for(lambda: find(lobby, role="image", name="Camera preview"), what="the lobby's camera preview")
        wait_for(lambda: len(self.marks("call-page-built-ahead")) == 1, timeout=10, what="the call page built in the lobby")
        # Back home the page goes; the next lobby builds another.
        press_keys(self.xvfb.display, "ahead – Confab", "Escape")
        home = self.page("Confab", "home again")
        lobby = self.open_lobby(home, "ahead")
        wait_for(lambda: len(self.marks("call-page-built-ahead")) == 2, timeout=10, what="the call page built in the second lobby")

        click(wait_for(lambda: find(lobby, role="push button", name="Join call"), what="the Join button"))
        call = wait_for(lambda: (lambda window: window if window and on_screen(window, name="Hang up") else None)(
            top_level_window(self.accessible, name="ahead – Confab")), timeout=20, what="the call page")
        self.assertEqual(self.marks("call-page-built-at-join"), [], "the join built a call page")
        self.assertEqual(len(self.marks("call-page-built-ahead")), 2, "a page was built after the join")

        # Bound to the call: the More menu copies its link, bob joins with it, his tile and his
        # row in the People list come.
        click(wait_for(lambda: on_screen(call, name="More"), what="the More menu"))
        click(wait_for(lambda: find(call, role="push button", name="Copy link"), what="Copy link in the More menu"))
        link = wait_for(lambda: (lambda text: text if "?secret=" in text else None)(read_clipboard(self.xvfb.display)),
                        what="the call's link on the clipboard")
        self.peer("bob", "join", "default:ahead", "--link-secret", link.split("secret=", 1)[1], "--duration", "30")
        wait_for(lambda: find(call, name_contains="bob, "), timeout=20, what="bob's tile")
        click(wait_for(lambda: on_screen(call, role="push button", name_contains="Participants"), what="the People button"))
        wait_for(lambda: on_screen(call, name_contains="In the call (2)"), what="the People list, counting bob and ada, on screen")
        screenshot(self.xvfb.display, "call-page-built-in-lobby.png")


class CallPageAfterTheMediaSignals(MediaCallTestCase):
    """Issue 15: joined from the lobby, the call page's first layout and paint (50-110 ms of the
    main thread here) came between the click and our answer to those already in, and every step
    of that signalling waited for it. The lobby now stays (its button saying "Joining...") until
    our answer to bob is made; the page is laid out while the connection comes up, and shows him."""
    app_env = {"CONFAB_TIMELINE": "1"}

    def timeline(self):
        """The join's steps in the order the app marked them (first time each), with their ms
        after the click."""
        seen = {}
        for line in self.app.output().splitlines():
            if line.startswith("confab-timeline "):
                step, at = line.split()[1], float(line.rsplit("at=", 1)[1])
                if step == "join-clicked":
                    seen = {}
                seen.setdefault(step, at)
        start = seen.get("join-clicked", 0)
        return [f"{step} +{(at - start) * 1000:.0f}" for step, at in seen.items()]

    def steps(self):
        return [entry.split(" +")[0] for entry in self.timeline()]

    def tearDown(self):
        self.assertFalse(self.app.exited(), f"confab exited during the test:\n{self.app.output()}")

    def test_joinedFromTheLobby_theCallPageComesOnceOurAnswerToBobIsMade_andShowsHim(self):
        bob = Peer(self.server, "bob", ["join", "default:signals", "--create", "--duration", "40", "--media", "test",
                                        "--media-address", MEDIA_ADDRESS])
        self.addCleanup(bob.stop)
        secret = wait_for(lambda: self.server.stored_call("default:signals", "linkSecret"), timeout=20, what="bob's call to exist")
        lobby = open_link(self, self.home, f"confab://join/default/signals?secret={secret}", "signals – Confab")
        wait_for(lambda: find(lobby, role="image", name="Camera preview"), what="the lobby's camera preview")
        click(wait_for(lambda: find(lobby, role="push button", name="Join call"), what="the Join button"))
        call = wait_for(lambda: (lambda window: window if window and on_screen(window, name="Hang up") else None)(
            top_level_window(self.accessible, name="signals – Confab")), timeout=20, what="the call page")
        wait_for(lambda: find(call, name_contains="bob, "), timeout=20, what="bob's tile")
        try:
            wait_for(lambda: "first-frame" in self.steps(), timeout=20, what="bob's first picture")
        except AssertionError:
            raise AssertionError(f"no picture of bob; the join's steps: {self.steps()}")
        steps = self.steps()
        for step in ("answer-made", "call-page-start"):
            self.assertIn(step, steps, f"no {step} in the join's steps: {steps}")
        self.assertLess(steps.index("answer-made"), steps.index("call-page-start"),
                        f"the call page came before our answer to bob was made: {self.timeline()}")
        self.assertIn("media-signalled", steps)
        self.assertLess(steps.index("media-signalled"), steps.index("call-page-start"), f"steps: {steps}")
        screenshot(self.xvfb.display, "call-page-after-media-signalled.png")


class ResetCallLink(MainWindowTestCase):
    """Issue 16: a host's Reset link… asks first, then the old link stops working and whoever
    it let in leaves the call."""

    def copy_link(self, call, replacing=None):
        """Copy link from the More menu; the link read back from the clipboard (once it is no
        longer `replacing`, what was copied before)."""
        click(wait_for(lambda: on_screen(call, name="More"), what="the More menu"))
        click(wait_for(lambda: find(call, role="push button", name="Copy link"), what="Copy link in the More menu"))
        return wait_for(lambda: (lambda text: text if "?secret=" in text and text != replacing else None)(read_clipboard(self.xvfb.display)),
                        what="a new link on the clipboard" if replacing else "the call's link on the clipboard")

    def test_hostResetsLink_afterConfirming_linkHolderLeaves_andTheOldLinkIsRefused(self):
        call = self.join_call("reset")
        old_link = self.copy_link(call)
        old_secret = old_link.split("secret=", 1)[1]
        carol = self.peer("carol", "join", "default:reset", "--link-secret", old_secret, "--duration", "30")
        wait_for(lambda: find(call, name_contains="carol, "), timeout=20, what="carol's tile (joined with the link)")

        click(wait_for(lambda: on_screen(call, name="More"), what="the More menu"))
        click(wait_for(lambda: find(call, role="push button", name="Reset link…"), what="Reset link… in the More menu"))
        dialog = wait_for(lambda: top_level_window(self.accessible, name_contains="Reset the call"), what="the confirmation")
        screenshot(self.xvfb.display, "reset-link-confirmation.png")
        click(wait_for(lambda: find(dialog, role="push button", name_contains="Reset Link"), what="Reset Link in the dialog"))
        wait_for(lambda: find(call, name_contains="carol, ") is None, timeout=20, what="carol (let in by the old link) to leave")

        new_link = self.copy_link(call, replacing=old_link)
        self.assertTrue(new_link.startswith("confab://join/default/reset?secret="), new_link)
        late = self.peer("dave", "join", "default:reset", "--link-secret", old_secret, "--duration", "1")
        self.assertNotEqual(late.process.wait(30), 0, "the old link still lets people in")
        carol.stop()


class HomePageFromItsUIFileSpeaksGerman(XvfbTestCase):
    """The home page's layout is a GtkBuilder file (Resources/ui/home-page.ui): its strings are
    translated through Confab's gettext domain like the code's."""

    def test_languageGerman_homePageLabelsAndAccessibleNamesFromTheUIFileAreTranslated(self):
        server = Server()
        self.addCleanup(server.stop)
        app = App(self.xvfb, ["--server", server.url, "--user", "ada", "--test-devices"],
                  extra_env={"LANGUAGE": "de", "LANG": "C.UTF-8", "LC_ALL": ""})
        self.addCleanup(app.stop)
        accessible = wait_for(lambda: application(app.process.pid), what="the app on the AT-SPI bus")
        home = wait_for(lambda: top_level_window(accessible, name="Confab"), what="the home page")
        wait_for(lambda: find(home, role="label", name="Jemanden anrufen"), what="“Jemanden anrufen” (Call someone), a label of the .ui")
        wait_for(lambda: find(home, role="text", name="Anzurufende Personen"), what="“Anzurufende Personen”, an accessible name set in the .ui")
        wait_for(lambda: find(home, role="push button", name="Beitreten …"), what="“Beitreten …” (Join…)")
        self.assertIsNone(find(home, role="label", name="Call someone"), "the .ui's English text is still there")
        screenshot(self.xvfb.display, "home-german.png")
        self.assertFalse(app.exited(), app.output())


class PagesLight(MainWindowTestCase):
    """Screenshots of every page for a person to look at (light), at the default size, 500 px
    tall and phone size (360x640). Asserts that each shows, and what a screenshot would show
    wrong at those sizes: an avatar running into its tile's name, a self-view cut off."""
    scheme = "prefer-light"
    suffix = "light"

    def assert_avatars_clear_of_names(self, call, what):
        for initial, name in (("B", "bob"), ("A", "You")):
            avatar = wait_for(lambda: on_screen(call, role="label", name=initial), what=f"{name}'s avatar")
            caption = wait_for(lambda: on_screen(call, role="label", name=name), what=f"{name}'s name on the tile")
            _, avatar_y, _, avatar_height = extents(avatar)
            _, caption_y, _, _ = extents(caption)
            self.assertLessEqual(avatar_y + avatar_height, caption_y, f"{what}: {name}'s avatar runs into the name under it")

    def assert_self_view_whole(self, call, what):
        tile = wait_for(lambda: on_screen(call, name_contains="You, "), what=f"{what}: the self-view inside the window")
        self.assertGreaterEqual(extents(tile)[3], 100, f"{what}: the self-view is squashed to {extents(tile)[3]} px")

    def test_screenshotsOfEveryPage(self):
        artifacts = f"pages-{self.suffix}"
        screenshot(self.xvfb.display, f"{artifacts}-home.png")
        click(find(self.home, name="Main Menu"))
        wait_for(lambda: find(self.accessible, name="About Confab"), what="the main menu")
        screenshot(self.xvfb.display, f"{artifacts}-main-menu.png")
        click(find(self.home, name="Main Menu"))  # closes it again
        self.open_lobby(self.home, "pages")
        time.sleep(1.5)
        screenshot(self.xvfb.display, f"{artifacts}-lobby.png")
        press_keys(self.xvfb.display, "pages – Confab", "Escape")
        home = self.page("Confab", "home again")
        # Calls are private: bob comes in by being rung (a member), not by joining on his own.
        bob, call = self.ring_bob(home, "pages", duration=40, title="pages – Confab")
        time.sleep(1)
        screenshot(self.xvfb.display, f"{artifacts}-call.png")
        press_keys(self.xvfb.display, "pages – Confab", "ctrl+p")
        wait_for(lambda: on_screen(call, role="push button", name="Hide sidebar"), what="the sidebar")
        time.sleep(0.5)
        screenshot(self.xvfb.display, f"{artifacts}-call-sidebar.png")
        press_keys(self.xvfb.display, "pages – Confab", "ctrl+p")
        wait_for(lambda: on_screen(call, role="push button", name="Hide sidebar") is None, what="the sidebar closed")
        click(wait_for(lambda: on_screen(call, name="More"), what="the More menu"))
        wait_for(lambda: find(call, role="push button", name="Copy link"), what="the More menu open")
        screenshot(self.xvfb.display, f"{artifacts}-call-more.png")
        press_keys(self.xvfb.display, "pages – Confab", "Escape")
        self.resize("pages – Confab", 900, 500)
        screenshot(self.xvfb.display, f"{artifacts}-call-grid-500.png")
        self.assert_avatars_clear_of_names(call, "grid at 900x500")
        press_keys(self.xvfb.display, "pages – Confab", "ctrl+l")  # grid → spotlight
        time.sleep(1)
        screenshot(self.xvfb.display, f"{artifacts}-call-spotlight-500.png")
        self.assert_avatars_clear_of_names(call, "spotlight at 900x500")
        self.assert_self_view_whole(call, "spotlight at 900x500")
        self.resize("pages – Confab", 900, 700)
        screenshot(self.xvfb.display, f"{artifacts}-call-spotlight.png")
        self.assert_self_view_whole(call, "spotlight at the default size")
        self.resize("pages – Confab", 360, 640)
        screenshot(self.xvfb.display, f"{artifacts}-call-spotlight-360.png")
        self.assert_avatars_clear_of_names(call, "spotlight at 360x640")
        self.assert_self_view_whole(call, "spotlight at 360x640")
        bob.stop()
        self.page("Call ended – Confab", "the call-ended page")
        time.sleep(0.5)
        screenshot(self.xvfb.display, f"{artifacts}-call-ended-360.png")
        press_keys(self.xvfb.display, "Call ended – Confab", "Escape")
        home = self.page("Confab", "home at phone size")
        time.sleep(0.5)
        screenshot(self.xvfb.display, f"{artifacts}-home-360.png")
        self.open_lobby(home, "pages")
        time.sleep(1.5)
        screenshot(self.xvfb.display, f"{artifacts}-lobby-360.png")


class PagesDark(PagesLight):
    scheme = "prefer-dark"
    suffix = "dark"


if __name__ == "__main__":
    unittest.main(verbosity=2)
