"""The real app in a call with real media: a confab-peer sends a red test camera and a tone
through the managed Janus; the app must show bob's video and speaking on his tile, and bob
must receive the app's camera. Needs a network namespace (Janus ignores loopback): the UI
suites run inside `meson-helpers/netns-run`, which sets CONFAB_MEDIA_ADDRESS."""
import json
import os
import sys
import unittest

from confab_ui import (MEDIA_ADDRESS, MediaCallTestCase, Peer, click, find, press_keys, screenshot, top_level_window,
                       type_text, wait_for)


class AppInCallWithMedia(MediaCallTestCase):
    def test_appCallsBob_seesBobsVideoAndSpeaking_bobReceivesAppsCamera(self):
        bob = Peer(self.server, "bob", ["answer", "--accept", "--duration", "12", "--timeout", "30",
                                        "--media", "test", "--color", "ff0000", "--tone", "440", "--volume", "0.5",
                                        "--media-address", MEDIA_ADDRESS])
        try:
            self.server.wait_for_connections(2)
            type_text(find(self.home, role="text", name="People to call"), "bob")
            type_text(find(self.home, role="text", name="Call name"), "media-ui")
            click(find(self.home, role="push button", name="Call"))
            call_window = wait_for(lambda: top_level_window(self.accessible, name="media-ui – Confab"), what="the call window")

            # bob's tile: video shown (no "camera off") and, with a tone, speaking.
            tile = wait_for(lambda: find(call_window, name_contains="bob, speaking"), timeout=20, what="bob's tile speaking")
            self.assertNotIn("camera off", tile.name)
            self.assertNotIn("microphone off", tile.name)
            screenshot(self.xvfb.display, "in-call-media.png")

            # The host (ada started the call) mutes bob from the participants panel: bob's own
            # device turns his microphone off, and his tile here shows it.
            press_keys(self.xvfb.display, "media-ui – Confab", "ctrl+p")
            panel = wait_for(lambda: top_level_window(self.accessible, name="Participants – Confab"), what="the participants panel")
            click(wait_for(lambda: find(panel, role="push button", name="Mute bob"), what="Mute bob in the panel"))
            wait_for(lambda: find(call_window, name_contains="bob, microphone off"), timeout=10,
                     what="bob's tile showing his microphone off")
            press_keys(self.xvfb.display, "Participants – Confab", "Escape")

            # Muted while the test microphone keeps sounding: the window says so.
            press_keys(self.xvfb.display, "media-ui – Confab", "ctrl+d")
            wait_for(lambda: find(call_window, role="label", name_contains="You are muted. Unmute to speak"),
                     what="the speaking-while-muted hint")


            report = bob.report(timeout=40)
            received = report.get("media", {}).get("participants") or report.get("media")
            self.assertTrue(received, f"bob's report has no media section: {json.dumps(report)[:2000]}")
            text = json.dumps(received)
            self.assertIn("ada", text, "bob received nothing from ada")
            muted = [e for e in report.get("events", []) if e.get("type") == "mutedByModerator"]
            self.assertEqual([(e.get("user"), e.get("reason")) for e in muted], [("ada", "microphone")],
                             f"bob's device was not told ada muted him: {report.get('events')}")
            self.assertIn("ada turned off your microphone", report.get("media", {}).get("messages", []))
        finally:
            bob.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
