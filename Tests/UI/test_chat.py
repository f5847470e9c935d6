"""Issue 18 in the app: chat both ways with a confab-peer, a peer's reaction on its tile, a raised
hand the host (the app) lowers, and the chat's history for a late joiner."""

import os
import time
import subprocess
import unittest
from datetime import datetime

from confab_ui import (MediaCallTestCase, NotificationStandIn, Peer, click, find, find_all, on_screen, press_keys, screenshot, top_level_window,
                       wait_for, MEDIA_ADDRESS)


class ChatAndReactions(MediaCallTestCase):
    """ada (the app) calls bob; dave (a confab-peer) joins by the call's id, chats and reacts."""
    # dave joins by the call's id without being rung.
    server_args = ("--open-calls",)

    def type_into_window(self, title, text):
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        subprocess.run(["xdotool", "search", "--sync", "--limit", "1", "--name", f"^{title}$", "windowfocus", "--sync"],
                       env=env, check=True, timeout=10, stdout=subprocess.DEVNULL)
        subprocess.run(["xdotool", "type", "--delay", "20", text], env=env, check=True, timeout=20)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Return"], env=env, check=True, timeout=10)

    def daves_tile_says(self, call_window, words):
        # The tile's name reads "dave, speaking, hand raised, …": speaking comes and goes; the
        # participants pane's row for dave also starts "dave, ".
        return any(words in (node.name or "") for node in find_all(call_window, name_contains="dave, "))

    def test_appAndPeer_exchangeChatMessages_andThePeersReactionShowsOnItsTile(self):
        bob, call_window = self.call_bob("chat-ui", ["--duration", "120"], tile="bob, ")
        # dave reacts and chats 12 s in, once his tile is surely shown and found (a reaction
        # lasts 3 s; walking the call window's tree takes seconds), and stays long enough for
        # ada's answer on a loaded machine.
        dave = Peer(self.server, "dave", ["join", "default:chat-ui", "--duration", "120", "--media", "test",
                                          "--media-address", MEDIA_ADDRESS, "--chat", "hello from dave https://example.org/x",
                                          "--chat-after", "12", "--react", "🎉", "--raise-hand"])
        self.addCleanup(dave.stop)
        wait_for(lambda: find(call_window, name_contains="dave, "), timeout=20, what="dave's tile")

        # The reaction floats over dave's tile (~3 s) and is part of what the tile says. Walking
        # the whole tree takes seconds on a loaded machine, so dave's tile (the first node named
        # for him; his row in the People list comes after it) is found once, before he reacts,
        # and only its name is read again.
        daves_tile = find(call_window, name_contains="dave, ")
        wait_for(lambda: "reacted 🎉" in (daves_tile.name or ""), timeout=25, interval=0.05, what="dave's reaction on his tile")
        # The raised hand stays: on the tile and in the participants pane.
        saw_hand = True
        try:
            wait_for(lambda: self.daves_tile_says(call_window, "hand raised"), timeout=10, what="dave's raised hand on his tile")
        except AssertionError:
            saw_hand = False

        # dave's message arrives while the chat is hidden: the People button counts it.
        wait_for(lambda: find(call_window, role="push button", name_contains="1 unread message"), timeout=15,
                 what="the unread badge on the People button")
        click(find(call_window, role="push button", name_contains="Participants ("))
        wait_for(lambda: find(call_window, name_contains="hello from dave"), what="dave's message in the chat pane")

        self.type_into_window("chat-ui – Confab", "hi dave from ada")
        wait_for(lambda: find(call_window, name_contains="You at"), what="ada's own message in the chat pane")
        screenshot(self.xvfb.display, "chat-pane.png")

        # ada hosts the call: she lowers dave's hand from his menu in the People list.
        lowered = False
        if saw_hand:
            def lower_hand_offered():
                # Like a user, click again what did not open (a click while a page or the
                # sidebar slides is lost now and then).
                if on_screen(call_window, name="Actions for dave") is None:
                    click(find(call_window, role="page tab", name="People"))
                    time.sleep(0.5)
                click(find(call_window, name="Actions for dave"))
                time.sleep(0.5)
                return find(self.accessible, role="push button", name="Lower hand dave")
            click(wait_for(lower_hand_offered, timeout=20, interval=0.5, what="Lower hand in dave's menu"))

            def hand_down():
                # The click on Lower hand is lost now and then while the menu opens: the menu
                # closes and the hand stays up (CI and here, 2026-11-25: about one run in two,
                # dave never told). As a user would, open the menu and click it again.
                if not self.daves_tile_says(call_window, "hand raised"):
                    return True
                again = lower_hand_offered()
                if again is not None:
                    click(again)
                return False
            wait_for(hand_down, timeout=30, interval=3, what="dave's hand down on his tile")
            lowered = True

        # erin joins late: the call's stored chat is hers from the start.
        erin = Peer(self.server, "erin", ["join", "default:chat-ui", "--duration", "5"])
        self.addCleanup(erin.stop)
        erin_report = erin.report(timeout=40)
        history = [entry["text"] for entry in erin_report.get("chatHistory") or []]

        # dave leaves now (SIGTERM: he leaves the call and writes his report), not at the end of
        # his 120 s: a few seconds for ada's message to reach him.
        time.sleep(1)
        dave.process.terminate()
        report = dave.report(timeout=30)
        self.assertTrue(saw_hand, f"no raised hand on dave's tile; dave's report: {report}")
        self.assertTrue(lowered)
        self.assertIn({"type": "lowered", "user": "dave", "by": "ada"},
                      [{key: hand[key] for key in ("type", "user", "by")} for hand in report.get("hands", [])],
                      f"dave's report does not say ada lowered his hand: {report.get('hands')}")
        self.assertIn("hello from dave https://example.org/x", history, f"erin's report: {erin_report}")
        self.assertIn("hi dave from ada", history, f"erin's report: {erin_report}")
        texts = [entry["text"] for entry in report.get("chat", [])]
        self.assertIn("hi dave from ada", texts, f"dave's report: {report}")
        bob.stop()

    def test_aMessageWhileAnotherAppHasTheFocus_isADesktopNotification(self):
        stand_in = NotificationStandIn()
        self.addCleanup(stand_in.stop)
        bob, call_window = self.call_bob("notify-ui", ["--duration", "90"])
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        subprocess.run(["xdotool", "search", "--sync", "--limit", "1", "--name", "^notify-ui – Confab$", "windowfocus", "--sync"],
                       env=env, check=True, timeout=10, stdout=subprocess.DEVNULL)
        # While ada looks at the call, a message is only counted on the People button.
        dave = Peer(self.server, "dave", ["join", "default:notify-ui", "--duration", "6", "--chat", "seen in the window"])
        self.addCleanup(dave.stop)
        wait_for(lambda: find(call_window, role="push button", name_contains="1 unread message"), timeout=20,
                 what="dave's message counted while the window has the focus")
        self.assertEqual([n for n in stand_in.calls("Notify") if n["summary"] == "dave"], [],
                         "a notification for a message ada could see in the window")

        # Another application takes the focus (there is no window manager: xdotool gives it).
        other = subprocess.Popen(["xmessage", "-name", "elsewhere", "another application"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: (other.kill(), other.wait()))
        subprocess.run(["xdotool", "search", "--sync", "--limit", "1", "--classname", "elsewhere", "windowfocus", "--sync"],
                       env=env, check=True, timeout=10, stdout=subprocess.DEVNULL)
        erin = Peer(self.server, "erin", ["join", "default:notify-ui", "--duration", "6", "--chat", "are you still there?"])
        self.addCleanup(erin.stop)
        notification = wait_for(lambda: next((n for n in stand_in.calls("Notify") if n["summary"] == "erin"), None), timeout=20,
                                what="a desktop notification of erin's message")
        self.assertEqual(notification["body"], "are you still there?")
        self.assertEqual([n for n in stand_in.calls("Notify") if n["summary"] == "dave"], [])
        bob.stop()


class TalkingWhileMuted(MediaCallTestCase):
    """ada (the app) mutes herself in a call with bob. Holding Space lets her talk, and letting
    it go shuts the microphone again, also when it is let go in another application's window.
    Typing in the chat is typing: each Space there was taken for talking, lost from the
    message, and opened her microphone to bob for a moment. bob's report says when his call
    showed ada's microphone on."""

    def xdotool(self, *arguments):
        subprocess.run(["xdotool", *arguments], env=dict(os.environ, DISPLAY=self.xvfb.display), check=True, timeout=20)

    def mute(self, title):
        press_keys(self.xvfb.display, title, "ctrl+d")
        self.xdotool("keyup", "ctrl")

    @staticmethod
    def microphone_changes(report):
        """When bob's call showed ada's microphone on or off: (seconds since the epoch, on)."""
        ada = next(remote for remote in report["media"]["remote"] if remote["userID"] == "ada")
        return [(datetime.fromisoformat(change["at"].replace("Z", "+00:00")).timestamp(), change["hasAudio"])
                for change in ada["changes"]]

    @staticmethod
    def microphone_at(changes, moment):
        before = [on for at, on in changes if at <= moment]
        return before[-1] if before else None

    def test_holdingSpaceOpensTheMicrophone_butSpacesTypedInTheChatAreTextAndOpenNothing(self):
        bob, call_window = self.call_bob("muted-chat", ["--duration", "90"])
        title = "muted-chat – Confab"
        xdotool = self.xdotool
        self.mute(title)
        time.sleep(3)
        # Space held with the focus on the window's buttons: ada talks while she holds it.
        xdotool("keydown", "space")
        held_at = time.time()
        time.sleep(3)
        xdotool("keyup", "space")
        released_at = time.time()
        time.sleep(2)

        # The chat (Ctrl+P opens people and chat), its box clicked, a message typed as a person
        # types it, sent with Enter.
        press_keys(self.xvfb.display, title, "ctrl+p")
        xdotool("keyup", "ctrl")
        click(wait_for(lambda: on_screen(call_window, role="page tab", name="Chat"), what="the Chat tab"))
        click(wait_for(lambda: on_screen(call_window, role="text", name="Message"), what="the chat's message box"))
        time.sleep(0.5)
        typing_at = time.time()
        xdotool("type", "--delay", "80", "hello bob from a muted ada")
        xdotool("key", "Return")
        typed_at = time.time()
        wait_for(lambda: find(call_window, name_contains="You at"), what="ada's message in the chat pane")
        screenshot(self.xvfb.display, "muted-chat.png")
        time.sleep(1.5)

        bob.process.terminate()
        report = bob.report(timeout=30)
        texts = [entry["text"] for entry in report.get("chat", [])]
        self.assertIn("hello bob from a muted ada", texts, f"the message as bob got it; his chat: {report.get('chat')}")

        changes = self.microphone_changes(report)
        self.assertIs(self.microphone_at(changes, held_at - 0.5), False, f"ada's mute not seen by bob before she held Space: {changes}")
        self.assertTrue(any(on for at, on in changes if held_at < at < released_at + 0.5),
                        f"holding Space while muted did not open ada's microphone: {changes}")
        self.assertIs(self.microphone_at(changes, typing_at), False, f"ada's microphone stayed on after Space was let go: {changes}")
        opened_while_typing = [at - typing_at for at, on in changes if on and typing_at <= at <= typed_at + 1.5]
        self.assertEqual(opened_while_typing, [],
                         f"ada's microphone opened while she typed in the chat (seconds into the typing): {changes}")

    def test_spaceHeld_whileAnotherApplicationTakesTheFocus_theMicrophoneShuts(self):
        # The release of Space goes to the window that has the focus then: the call's window
        # never heard it, and ada's microphone stayed open for the rest of the call.
        bob, call_window = self.call_bob("muted-away", ["--duration", "90"])
        title = "muted-away – Confab"
        self.mute(title)
        time.sleep(3)
        self.xdotool("keydown", "space")
        held_at = time.time()
        time.sleep(2)
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        other = subprocess.Popen(["xmessage", "-name", "elsewhere", "another application"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: (other.kill(), other.wait()))
        self.xdotool("search", "--sync", "--limit", "1", "--classname", "elsewhere", "windowfocus", "--sync")
        away_at = time.time()
        time.sleep(1)
        self.xdotool("keyup", "space")
        time.sleep(4)
        checked_at = time.time()
        bob.process.terminate()
        changes = self.microphone_changes(bob.report(timeout=30))
        self.assertIs(self.microphone_at(changes, held_at - 0.5), False, f"ada's mute not seen by bob before she held Space: {changes}")
        self.assertIs(self.microphone_at(changes, away_at - 0.2), True, f"holding Space did not open ada's microphone: {changes}")
        self.assertIs(self.microphone_at(changes, checked_at), False,
                      f"ada's microphone stayed open after another application took the focus while she held Space: {changes}")


if __name__ == "__main__":
    unittest.main()
