"""One main window, GNOME style: home, lobby, ringing, call and call-ended are pages of the same
window, which keeps its size and place from step to step; at phone size (360x640) every control
of the call stays reachable and inside the window. Screenshots of every page, light and dark,
are saved under the build folder's ui-artifacts."""
import os
import subprocess
import time
import unittest

import pyatspi

from confab_ui import (App, Peer, Server, XvfbTestCase, application, click, find, find_all, on_screen, press_keys, screenshot,
                       top_level_window, type_text, wait_for)


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


class MainWindowTestCase(XvfbTestCase):
    scheme = None

    def setUp(self):
        self.server = Server()
        self.addCleanup(self.server.stop)
        extra = {"ADW_DEBUG_COLOR_SCHEME": self.scheme} if self.scheme else None
        self.app = App(self.xvfb, ["--server", self.server.url, "--user", "ada", "--test-devices"], extra_env=extra)
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

    def ring_bob(self, home, call_name, duration, title):
        """Rings bob (a confab-peer that answers and stays `duration` s) from the home page;
        returns the call page once bob's tile is there."""
        bob = self.peer("bob", "answer", "--accept", "--duration", str(duration), "--timeout", "30")
        self.server.wait_for_connections(2)
        type_text(find(home, role="text", name="People to call"), "bob")
        type_text(find(home, role="text", name="Call name"), call_name)
        click(find(home, role="push button", name="Call"))
        call = self.page(title, "the call")
        wait_for(lambda: find(call, name_contains="bob, "), timeout=20, what="bob's tile")
        return bob, call

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
    def test_at360x640_everyCallControlIsOnScreen_insideTheWindow(self):
        lobby = self.open_lobby(self.home, "narrow")
        click(wait_for(lambda: find(lobby, role="push button", name="Join call"), what="the Join button"))
        call = wait_for(lambda: top_level_window(self.accessible, name="narrow – Confab")
                        and find(top_level_window(self.accessible, name="narrow – Confab"), role="push button", name="Hang up"),
                        timeout=20, what="the call page") and top_level_window(self.accessible, name="narrow – Confab")
        subprocess.run(["xdotool", "search", "--name", "^narrow – Confab$", "windowsize", "360", "640"],
                       env={**os.environ, "DISPLAY": self.xvfb.display}, check=True)
        wait_for(lambda: extents(call)[2] <= 380 and extents(call)[3] <= 660, what="the window at 360x640")
        time.sleep(1)
        screenshot(self.xvfb.display, "call-360x640.png")
        x, y, width, height = extents(call)
        for name in ("Microphone", "Camera", "Devices", "Participants", "Layout", "Minimize call", "Hang up"):
            control = wait_for(lambda: find(call, name_contains=name), what=f"“{name}” in the call page")
            cx, cy, cw, ch = extents(control)
            self.assertTrue(cw > 0 and ch > 0, f"“{name}” has no size")
            self.assertTrue(x <= cx and cx + cw <= x + width and y <= cy and cy + ch <= y + height,
                            f"“{name}” at {(cx, cy, cw, ch)} is cut off by the window at {(x, y, width, height)}")


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


class PagesLight(MainWindowTestCase):
    """Screenshots of every page for a person to look at (light); asserts only that each shows."""
    scheme = "prefer-light"
    suffix = "light"

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
        bob, call = self.ring_bob(home, "pages", duration=20, title="pages – Confab")
        time.sleep(1)
        screenshot(self.xvfb.display, f"{artifacts}-call.png")
        press_keys(self.xvfb.display, "pages – Confab", "ctrl+p")
        wait_for(lambda: on_screen(call, role="push button", name="Hide participants"), what="the sidebar")
        time.sleep(0.5)
        screenshot(self.xvfb.display, f"{artifacts}-call-sidebar.png")
        bob.stop()


class PagesDark(PagesLight):
    scheme = "prefer-dark"
    suffix = "dark"


if __name__ == "__main__":
    unittest.main(verbosity=2)
