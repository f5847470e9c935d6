"""Issue 18's waiting room in the app, with confab-peers over a real server and Janus:
ada (the app) hosts a call that asks to join, lets one knocker in (whose video then arrives) and
turns another away (who is told); and ada knocks on a peer's call, waits in the lobby, is let in
and finds the chat said before she came."""

import time
import unittest

from confab_ui import (MediaCallTestCase, Peer, click, find, find_all, is_checked, on_screen, screenshot, top_level_window, wait_for,
                       MEDIA_ADDRESS)


def tile_of(window, user):
    """`user`'s tile (named "eve, speaking, …"); the waiting list's row reads "eve, asks to join"."""
    return next((node for node in find_all(window, name_contains=f"{user}, ") if "asks to join" not in node.name), None)


class WaitingRoom(MediaCallTestCase):
    # Without a call's link only open calls let a stranger knock at all.
    server_args = ("--open-calls",)

    def test_hostAdmitsAKnocker_whoseVideoArrives_andDeniesAnother_whoIsTold(self):
        bob, call_window = self.call_bob("waiting-ui", ["--duration", "120"])
        # ada made the call: she may switch its waiting room on, from the People list.
        click(find(call_window, role="push button", name_contains="Participants ("))
        # A click while the sidebar slides in is lost now and then: wait until it is in.
        wait_for(lambda: on_screen(call_window, role="push button", name="Hide sidebar"), what="the sidebar open")
        time.sleep(0.5)
        ask = wait_for(lambda: find(call_window, role="check box", name_contains="Ask to join"), what="the Ask to join switch")
        self.assertFalse(is_checked(ask), "the call asked to join before ada switched it on")

        def switched_on():
            # The list is rebuilt from the server's answer: the switch found again is on. A click
            # that did not take (the switch still off) is made again, as a user would.
            node = find(call_window, role="check box", name_contains="Ask to join")
            if node is not None and not is_checked(node):
                click(node)
                time.sleep(1)
                node = find(call_window, role="check box", name_contains="Ask to join")
            return node is not None and is_checked(node)
        wait_for(switched_on, timeout=20, interval=0.5, what="Ask to join on, as the server has it")

        eve = Peer(self.server, "eve", ["join", "default:waiting-ui", "--duration", "40", "--media", "test",
                                        "--media-address", MEDIA_ADDRESS, "--knock-timeout", "60"])
        self.addCleanup(eve.stop)
        admit = wait_for(lambda: find(call_window, role="push button", name="Admit eve"), timeout=20,
                         what="eve waiting to join, with Admit, in the People list")
        self.assertIsNotNone(find(call_window, role="push button", name="Deny eve"))
        self.assertIsNone(tile_of(call_window, "eve"), "eve had a tile before ada let her in")
        screenshot(self.xvfb.display, "waiting-room-knock.png")
        click(admit)
        wait_for(lambda: tile_of(call_window, "eve"), timeout=30, what="eve's tile once let in")
        wait_for(lambda: float((self.reception("eve")[0] or {}).get("fps", 0)) > 0, timeout=30, what="eve's video received")
        self.assertIsNone(find(call_window, role="push button", name="Admit eve"), "eve still listed as waiting")

        mallory = Peer(self.server, "mallory", ["join", "default:waiting-ui", "--duration", "30", "--knock-timeout", "60"])
        self.addCleanup(mallory.stop)
        wait_for(lambda: find(call_window, role="push button", name="Deny mallory"), timeout=20,
                 what="mallory waiting to join, with Deny")
        def turned_away():
            # A click on a row that the People list rebuilt meanwhile does not take: the Deny
            # button still there after a while is clicked again, as a user would.
            node = find(call_window, role="push button", name="Deny mallory")
            if node is not None:
                click(node)
                time.sleep(2)
            return find(call_window, role="push button", name="Deny mallory") is None
        wait_for(turned_away, timeout=20, interval=0.5, what="mallory gone from the waiting list after Deny")
        mallory_report = mallory.report(timeout=40)
        self.assertEqual(mallory_report.get("admission"), "denied", f"mallory's report: {mallory_report}")
        self.assertIsNone(tile_of(call_window, "mallory"), "mallory got a tile after being turned away")

        eve_report = eve.stop_and_report()
        self.assertEqual(eve_report.get("admission"), "admitted", f"eve's report: {eve_report}")
        bob.stop()


class KnockingOnAPeersCall(MediaCallTestCase):
    server_args = ("--open-calls",)
    # Its screenshots are the dark ones of the waiting room and the chat.
    app_env = {"ADW_DEBUG_COLOR_SCHEME": "prefer-dark"}

    def test_appWaitsInTheLobby_isLetIn_andSeesTheChatFromBefore(self):
        # bob makes the call with a waiting room, says something, and lets ada in 6 s after
        # she knocks (long enough to see her wait).
        bob = Peer(self.server, "bob", ["join", "default:knock-ui", "--create", "--ask-to-join", "--duration", "90",
                                        "--media", "test", "--media-address", MEDIA_ADDRESS,
                                        "--chat", "notes from before you came", "--admit", "ada", "--answer-after", "6"])
        self.addCleanup(bob.stop)
        wait_for(lambda: self.server.health().get("sessionsInMemory", 0) >= 1, timeout=20, what="bob in his call")

        find(self.home, role="text", name="Call name").queryEditableText().setTextContents("knock-ui")
        click(find(self.home, role="push button", name="Join…"))
        window = wait_for(lambda: top_level_window(self.accessible, name="knock-ui – Confab"), what="the lobby")
        click(wait_for(lambda: find(window, role="push button", name="Join call"), what="the Join button"))
        wait_for(lambda: find(window, name="Waiting for the host to let you in…"), timeout=15, what="ada waiting in the lobby")
        self.assertIsNotNone(find(window, role="push button", name="Cancel"), "no way to stop waiting")
        screenshot(self.xvfb.display, "waiting-in-lobby-dark.png")
        waited_from = time.time()

        call_window = wait_for(lambda: (lambda w: w if w and find(w, name_contains="bob, ") else None)(
            top_level_window(self.accessible, name="knock-ui – Confab")), timeout=30, what="ada in the call with bob")
        print(f"waiting room: ada was let in {time.time() - waited_from:.1f} s after the lobby said she waits")
        wait_for(lambda: float((self.reception("bob")[0] or {}).get("fps", 0)) > 0, timeout=30, what="bob's video received")
        # What bob said before ada came is in the chat.
        click(find(call_window, role="push button", name_contains="Participants ("))
        wait_for(lambda: on_screen(call_window, role="push button", name="Hide sidebar"), what="the sidebar open")

        def chat_with_bobs_note():
            # Like a user, click the tab again if the page did not switch (a click while the
            # sidebar slid in was lost now and then).
            click(find(call_window, role="page tab", name="Chat"))
            time.sleep(0.3)
            return find(call_window, name_contains="notes from before you came")
        wait_for(chat_with_bobs_note, interval=0.5, what="bob's earlier message in ada's chat")
        screenshot(self.xvfb.display, "chat-history-dark.png")
        report = bob.stop_and_report()
        self.assertEqual(report.get("knocks", {}).get("ada"), "admitted", f"bob's report: {report}")


if __name__ == "__main__":
    unittest.main()
