"""Screen sharing from the real app: in a call with a media peer (bob), the user clicks Share
screen; the app shares the Xvfb display through ximagesrc, shows the sharing banner and a
placeholder instead of its own screen, and bob receives the screen as ada's screen share (not her
camera). Stop sharing removes the banner and bob sees the share end. Needs a network namespace
(Janus ignores loopback): the UI suites run inside `meson-helpers/netns-run`."""
import json
import os
import subprocess
import sys
import time
import unittest

import pyatspi

from confab_ui import MediaCallTestCase, click, find, is_checked, press_keys, screenshot, wait_for
from pipewire_session import PipeWireScreen

BANNER = "You are sharing your screen"


class ScreenSharingTestCase(MediaCallTestCase):
    def call_bob_to_share(self, call_name, duration, bob_arguments=()):
        """Rings bob (green camera) and returns once bob's tile and the Share screen button are there."""
        bob, call_window = self.call_bob(call_name, ["--duration", str(duration), "--color", "00ff00", "--tone", "440",
                                                     *bob_arguments])
        # The button appears once media is connected (sharing needs the media server).
        # (GTK leaves hidden widgets out of the accessibility tree: found means shown.)
        wait_for(lambda: find(call_window, role="push button", name="Share screen"), timeout=20, what="the Share screen button")
        return bob, call_window

    def screens_from_ada(self, report):
        media = report.get("media") or {}
        screens = [s for s in media.get("remoteScreens", []) if s.get("userID") == "ada"]
        self.assertTrue(screens, f"bob received no screen from ada: {json.dumps(media)[:2000]}")
        changes = [c["isScreensharing"] for c in media.get("screensharingChanges", []) if c.get("userID") == "ada"]
        return screens, changes


class ScreenSharingFromTheApp(ScreenSharingTestCase):
    """Without a screen-sharing portal on the bus the app shares the whole X display."""

    def test_shareScreen_showsBannerAndPlaceholder_bobReceivesIt_stopEndsIt(self):
        # bob stays long enough for a slow machine: when he leaves, the 1:1 call ends and the
        # control bar (with "Share screen" offered again) goes with it.
        bob, call_window = self.call_bob_to_share("share-ui", duration=24)
        # Shared with the keyboard (the Portal tests below click the button). X11 has no picker:
        # the app asks first, naming what everyone will see.
        press_keys(self.xvfb.display, "share-ui – Confab", "ctrl+shift+e")
        share = wait_for(lambda: find(self.accessible, role="push button", name_contains="Share Screen"), what="the share confirmation")
        self.assertIsNotNone(find(self.accessible, role="label", name_contains=f"display {self.xvfb.display}"),
                             "the confirmation does not say which display is shared")
        screenshot(self.xvfb.display, "share-confirmation.png")
        self.assertIsNone(find(call_window, role="label", name=BANNER), "shared before the user agreed")
        click(share)

        wait_for(lambda: find(call_window, role="label", name=BANNER), timeout=10, what="the sharing banner")
        # Our own screen is not shown back to us: the placeholder stands in for it.
        wait_for(lambda: find(call_window, name="Your shared screen (not shown here)"),
                 what="the placeholder for our own screen")
        wait_for(lambda: find(call_window, role="push button", name="Stop sharing screen"),
                 what="the control bar's button offering to stop sharing")
        screenshot(self.xvfb.display, "in-call-sharing.png")

        # Let bob receive a few seconds of the screen, then stop from the banner.
        # (only time can tell how many frames bob decodes)
        time.sleep(3)
        click(find(call_window, role="push button", name="Stop sharing"))
        wait_for(lambda: find(call_window, role="label", name=BANNER) is None, what="the banner to go")
        wait_for(lambda: find(call_window, role="push button", name="Share screen"),
                 what="Share screen offered again")

        # bob leaves once the call told him the share ended and its stream went, not at the end
        # of his 24 s.
        bob.wait_for_output("ada shares a screen: no", timeout=15)
        bob.wait_for_output("screen from ada gone", timeout=15)
        report = bob.stop_and_report()
        screens, changes = self.screens_from_ada(report)
        size = screens[0].get("videoSize") or {}
        # The Xvfb display (1280x900 by default), sent whole: it fits in 1920x1080.
        self.assertEqual((size.get("width"), size.get("height")), (1280, 900))
        self.assertGreater(screens[0].get("framesReceived", 0), 5)
        self.assertIsNotNone(screens[0].get("goneAt"), "bob still receives ada's screen after Stop sharing")
        self.assertEqual(changes, [True, False], f"bob's view of ada sharing: {changes}")


def extents(node):
    """A widget's size on screen (width, height)."""
    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return box.width, box.height


class WatchingAShare(ScreenSharingTestCase):
    """bob shares a 1280x720 test screen: the app shows it large, whole (never cropped), and at
    its actual size on demand, to read small text."""

    def test_remoteShare_fitsTheView_actualSizeShowsItPixelForPixel(self):
        bob, call_window = self.call_bob_to_share("watch-share", duration=40, bob_arguments=["--screen", "test", "--screen-after", "1"])
        wait_for(lambda: find(call_window, name_contains="bob is presenting"), timeout=20, what="bob's share shown large")
        picture = wait_for(lambda: find(call_window, name="Screen of bob"), what="the picture of bob's screen")
        time.sleep(1.5)  # frames arrive and the layout settles
        try:
            fitted = extents(picture)
        except Exception:
            screenshot(self.xvfb.display, "DEBUG-watch.png")
            print("APPLOG", self.app.output()[-3000:])
            raise
        self.assertLess(fitted[0], 1280, f"the fitted screen is wider than the window: {fitted}")
        screenshot(self.xvfb.display, "in-call-watching-share-fitted.png")

        # (GTK 4.8 gives toggle buttons the push-button role; their state says pressed or not.)
        actual_size = wait_for(lambda: find(call_window, role="push button", name="Actual size"),
                               what="the Actual size control over the shared screen")
        click(actual_size)
        wait_for(lambda: extents(picture) == (1280, 720), what=f"the screen at 1280x720 (now {extents(picture)})")
        self.assertTrue(is_checked(actual_size), "Actual size does not show as on")
        screenshot(self.xvfb.display, "in-call-watching-share-actual-size.png")

        click(actual_size)
        wait_for(lambda: not is_checked(actual_size), what="Actual size off again")
        wait_for(lambda: extents(picture) == fitted, what=f"the screen fitted again (now {extents(picture)})")


class X11ShareAsksFirst(ScreenSharingTestCase):
    def test_shareScreen_cancelInTheConfirmation_nothingShared_noError(self):
        bob, call_window = self.call_bob_to_share("share-cancel", duration=12)
        click(find(call_window, role="push button", name="Share screen"))
        click(wait_for(lambda: find(self.accessible, role="push button", name_contains="Cancel"), what="Cancel in the share confirmation"))
        wait_for(lambda: find(self.accessible, role="push button", name_contains="Share Screen") is None, what="the confirmation gone")
        time.sleep(2)
        self.assertIsNone(find(call_window, role="label", name=BANNER), "the screen was shared after Cancel")
        self.assertIsNotNone(find(call_window, role="push button", name="Share screen"), "Share screen is no longer offered")
        report = bob.report(timeout=40)
        self.assertEqual([s for s in report.get("media", {}).get("remoteScreens", []) if s.get("userID") == "ada"], [],
                         "bob received a screen that was never agreed to")


class ScreenSharingThroughThePortal(ScreenSharingTestCase):
    """With the ScreenCast portal on the bus the app asks it what to share and reads the chosen
    stream from PipeWire. The portal is a stand-in (the real one needs a compositor); PipeWire,
    WirePlumber and the stream are real: a 1024x640 blue source no other path could produce."""

    WIDTH, HEIGHT = 1024, 640

    def setUp(self):
        self.screen = PipeWireScreen(self.WIDTH, self.HEIGHT, argb=0xff2040ff)
        self.addCleanup(self.screen.stop)
        self.portal = subprocess.Popen(
            [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_screencast_portal.py"),
             self.screen.socket, str(self.screen.node_id), str(self.WIDTH), str(self.HEIGHT)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.addCleanup(self.stop_portal)
        self.portal_calls = []
        self.assertEqual(self.read_portal(), "ready")
        super().setUp()

    def stop_portal(self):
        self.portal.stdin.close()
        try:
            self.portal.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.portal.kill()
            self.portal.wait()
        self.portal.stdout.close()

    def read_portal(self):
        line = self.portal.stdout.readline().strip()
        self.portal_calls.append(line)
        return line

    def tell_portal(self, command):
        self.portal.stdin.write(json.dumps(command) + "\n")
        self.portal.stdin.flush()

    def wait_portal_call(self, name):
        """Portal calls in order, up to and including `name` (readline blocks: the portal prints each call)."""
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.read_portal().split(" ")[0] == name:
                return self.portal_calls[-1]
        self.fail(f"the portal was not asked {name}: {self.portal_calls}")

    def test_shareScreen_portalStream_bobReceivesIt_desktopStopEndsIt(self):
        bob, call_window = self.call_bob_to_share("portal-share", duration=16)
        click(find(call_window, role="push button", name="Share screen"))
        selected = self.wait_portal_call("SelectSources")
        options = json.loads(selected.split(" ", 1)[1])
        self.assertEqual(options.get("types"), 3, "the user may pick a monitor or a window")
        self.assertEqual(options.get("cursor_mode"), 2, "the pointer is drawn into the shared frames")
        self.assertFalse(options.get("multiple"))
        self.wait_portal_call("OpenPipeWireRemote")
        wait_for(lambda: find(call_window, role="label", name=BANNER), timeout=10, what="the sharing banner")
        screenshot(self.xvfb.display, "in-call-sharing-portal.png")

        # Let bob receive a few seconds of the stream, then the desktop's indicator stops it.
        time.sleep(4)
        self.tell_portal({"close": True})
        wait_for(lambda: find(call_window, role="label", name=BANNER) is None, what="the banner to go")
        wait_for(lambda: find(call_window, name_contains="Screen sharing was stopped from the desktop"),
                 what="the toast saying the desktop stopped the share")
        wait_for(lambda: find(call_window, role="push button", name="Share screen"), what="Share screen offered again")

        # bob leaves once the call told him the share ended and its stream went, not at the end
        # of his 16 s.
        bob.wait_for_output("ada shares a screen: no", timeout=15)
        bob.wait_for_output("screen from ada gone", timeout=15)
        report = bob.stop_and_report()
        screens, changes = self.screens_from_ada(report)
        size = screens[0].get("videoSize") or {}
        self.assertEqual((size.get("width"), size.get("height")), (self.WIDTH, self.HEIGHT),
                         "bob did not receive the stream the portal chose")
        self.assertGreater(screens[0].get("framesReceived", 0), 5)
        color = screens[0].get("centerPixel") or {}
        for channel, expected in (("red", 0x20), ("green", 0x40), ("blue", 0xff)):
            self.assertAlmostEqual(color.get(channel, -100), expected, delta=24, msg=f"centre of ada's screen: {color}")
        self.assertIsNotNone(screens[0].get("goneAt"), "bob still receives ada's screen after the desktop stopped it")
        self.assertEqual(changes, [True, False], f"bob's view of ada sharing: {changes}")

    def test_shareScreen_userCancelsThePortalDialog_nothingShared_noError(self):
        bob, call_window = self.call_bob_to_share("portal-cancel", duration=8)
        self.tell_portal({"response": 1})
        click(find(call_window, role="push button", name="Share screen"))
        self.wait_portal_call("Start")
        # The session the app opened is closed again after the cancelled dialog.
        self.wait_portal_call("Close")
        wait_for(lambda: find(call_window, role="push button", name="Share screen"), what="Share screen offered again")
        self.assertIsNone(find(call_window, role="label", name=BANNER))
        self.assertIsNone(find(call_window, name_contains="Couldn’t share"), "a cancelled dialog is not an error")
        self.assertNotIn("OpenPipeWireRemote", [c.split(" ")[0] for c in self.portal_calls])


if __name__ == "__main__":
    unittest.main(verbosity=2)
