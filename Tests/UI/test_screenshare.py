"""Screen sharing from the real app: in a call with a media peer (bob), the user clicks Share
screen; the app shares the Xvfb display through ximagesrc, shows the sharing banner and a
placeholder instead of its own screen, and bob receives the screen as ada's screen share (not her
camera). Stop sharing removes the banner and bob sees the share end. Needs a network namespace
(Janus ignores loopback): the UI suites run inside `meson-helpers/netns-run`."""
import json
import os
import time
import unittest

from confab_ui import (MEDIA_ADDRESS, MediaCallTestCase, Peer, click, find, screenshot, top_level_window,
                       type_text, wait_for)

BANNER = "You are sharing your screen"


class ScreenSharingFromTheApp(MediaCallTestCase):
    def test_shareScreen_showsBannerAndPlaceholder_bobReceivesIt_stopEndsIt(self):
        bob = Peer(self.server, "bob", ["answer", "--accept", "--duration", "14", "--timeout", "30",
                                        "--media", "test", "--color", "00ff00", "--tone", "440",
                                        "--media-address", MEDIA_ADDRESS])
        try:
            self.server.wait_for_connections(2)
            type_text(find(self.home, role="text", name="People to call"), "bob")
            type_text(find(self.home, role="text", name="Call name"), "share-ui")
            click(find(self.home, role="push button", name="Call"))
            call_window = wait_for(lambda: top_level_window(self.accessible, name="share-ui – Confab"), what="the call window")
            # The button appears once media is connected (sharing needs the media server).
            # bob's tile with video: both are in the call and media flows.
            wait_for(lambda: find(call_window, name_contains="bob, "), timeout=20, what="bob's tile")
            # (GTK leaves hidden widgets out of the accessibility tree: found means shown.)
            share = wait_for(lambda: find(call_window, role="push button", name="Share screen"),
                             timeout=20, what="the Share screen button")
            click(share)

            wait_for(lambda: find(call_window, role="label", name=BANNER), timeout=10, what="the sharing banner")
            # Our own screen is not shown back to us: the placeholder stands in for it.
            wait_for(lambda: find(call_window, name="Your shared screen (not shown here)"),
                     what="the placeholder for our own screen")
            self.assertIsNotNone(find(call_window, role="push button", name="Stop sharing screen"),
                                 "the control bar's button does not offer to stop sharing")
            screenshot(self.xvfb.display, "in-call-sharing.png")

            # Let bob receive a few seconds of the screen, then stop from the banner.
            # (only time can tell how many frames bob decodes)
            time.sleep(3)
            click(find(call_window, role="push button", name="Stop sharing"))
            wait_for(lambda: find(call_window, role="label", name=BANNER) is None, what="the banner to go")
            wait_for(lambda: find(call_window, role="push button", name="Share screen"),
                     what="Share screen offered again")

            report = bob.report(timeout=40)
            media = report.get("media") or {}
            screens = [s for s in media.get("remoteScreens", []) if s.get("userID") == "ada"]
            self.assertTrue(screens, f"bob received no screen from ada: {json.dumps(media)[:2000]}")
            size = screens[0].get("videoSize") or {}
            # The Xvfb display (1280x900 by default), sent whole: it fits in 1920x1080.
            self.assertEqual((size.get("width"), size.get("height")), (1280, 900))
            self.assertGreater(screens[0].get("framesReceived", 0), 5)
            self.assertIsNotNone(screens[0].get("goneAt"), "bob still receives ada's screen after Stop sharing")
            changes = [c for c in media.get("screensharingChanges", []) if c.get("userID") == "ada"]
            self.assertEqual([c["isScreensharing"] for c in changes], [True, False], f"bob's view of ada sharing: {changes}")
        finally:
            bob.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
