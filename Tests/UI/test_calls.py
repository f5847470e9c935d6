"""UI tests of ringing: the real app and a real confab-server, with a confab-peer on the other end."""
import json
import unittest

from confab_ui import (App, Peer, Server, Xvfb, application, click, find, screenshot, top_level_window,
                       type_text, wait_for)


class CallsTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.xvfb = Xvfb()

    @classmethod
    def tearDownClass(cls):
        cls.xvfb.stop()

    def setUp(self):
        self.server = Server()
        self.peers = []
        # No --call: the app opens on its home page, signed in as ada and able to be rung.
        self.app = App(self.xvfb, ["--server", self.server.url, "--user", "ada", "--test-devices"])
        self.accessible = wait_for(lambda: application(self.app.process.pid), what="the app on the AT-SPI bus")
        self.home = wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="the home window")
        self.server.wait_for_connections(1)  # the app is signed in, so it can be rung

    def tearDown(self):
        crashed = self.app.exited()
        output = self.app.output()
        self.app.stop()
        for peer in self.peers:
            peer.stop()
        self.server.stop()
        self.assertFalse(crashed, f"confab exited during the test:\n{output}")

    def peer(self, user, *command):
        peer = Peer(self.server, user, list(command))
        self.peers.append(peer)
        return peer

    def window(self, name_contains):
        return wait_for(lambda: top_level_window(self.accessible, name_contains=name_contains), what=f"window '{name_contains}'")

    @staticmethod
    def outcome(report):
        return json.dumps(report.get("outcome"))


class AppRingsPeer(CallsTestCase):
    def test_appRingsBob_bobAccepts_bothInCall_thenHangUp(self):
        bob = self.peer("bob", "answer", "--accept", "--duration", "20", "--timeout", "30")
        self.server.wait_for_connections(2)  # the app and bob are both signed in

        type_text(find(self.home, role="text", name="People to call"), "bob")
        type_text(find(self.home, role="text", name="Call name"), "ui-ring")
        click(find(self.home, role="push button", name="Call"))

        call_window = self.window("ui-ring – Confab")
        wait_for(lambda: find(call_window, role="label", name="In the call: bob"), what="bob in the call")
        screenshot(self.xvfb.display, "in-call.png")

        click(find(call_window, role="push button", name="Hang up"))
        wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="back home after hanging up")
        bob.stop()


class PeerRingsApp(CallsTestCase):
    def test_bobRingsAda_adaAcceptsInApp_bothInCall(self):
        bob = self.peer("bob", "ring", "default:ui-incoming", "--members", "ada", "--timeout", "20", "--duration", "3")
        incoming = self.window("bob is calling")
        screenshot(self.xvfb.display, "incoming.png")
        click(find(incoming, role="push button", name="Accept"))

        call_window = self.window("ui-incoming – Confab")
        wait_for(lambda: find(call_window, role="label", name="In the call: bob"), what="bob in the call")
        report = bob.report()
        self.assertIn("accepted", self.outcome(report))
        self.assertIn("ada", self.outcome(report))

    def test_bobRingsAda_adaDeclinesInApp_bobSeesDecline(self):
        bob = self.peer("bob", "ring", "default:ui-decline", "--members", "ada", "--timeout", "20")
        incoming = self.window("bob is calling")
        click(find(incoming, role="push button", name="Decline"))
        wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="back home after declining")
        report = bob.report()
        self.assertIn("decline", self.outcome(report))


if __name__ == "__main__":
    unittest.main(verbosity=2)
