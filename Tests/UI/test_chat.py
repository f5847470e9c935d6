"""Issue 18 in the app: chat both ways with a confab-peer, a peer's reaction on its tile, a raised
hand the host (the app) lowers, and the chat's history for a late joiner."""

import os
import time
import subprocess
import unittest
from datetime import datetime

from confab_ui import (MediaCallTestCase, NotificationStandIn, Peer, box, click, find, find_all, on_screen, press_keys, screenshot,
                       top_level_window, wait_for, MEDIA_ADDRESS)


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
        # The history comes with her join: she leaves once in the call, not after her 5 s.
        erin.wait_for_output("state inCall", timeout=30)
        erin_report = erin.stop_and_report()
        history = [entry["text"] for entry in erin_report.get("chatHistory") or []]

        # dave leaves now (SIGTERM: he leaves the call and writes his report), not at the end of
        # his 120 s: a few seconds for ada's message to reach him.
        time.sleep(1)
        report = dave.stop_and_report()
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
        # Space held with the focus on the window's buttons: ada talks while she holds it. The
        # times are taken before each key: bob can hear of it before xdotool has returned.
        held_at = time.time()
        xdotool("keydown", "space")
        time.sleep(3)
        released_at = time.time()
        xdotool("keyup", "space")
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

        report = bob.stop_and_report()
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
        held_at = time.time()
        self.xdotool("keydown", "space")
        time.sleep(2)
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        other = subprocess.Popen(["xmessage", "-name", "elsewhere", "another application"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: (other.kill(), other.wait()))
        away_at = time.time()
        self.xdotool("search", "--sync", "--limit", "1", "--classname", "elsewhere", "windowfocus", "--sync")
        time.sleep(1)
        self.xdotool("keyup", "space")
        time.sleep(4)
        checked_at = time.time()
        changes = self.microphone_changes(bob.stop_and_report())
        self.assertIs(self.microphone_at(changes, held_at - 0.5), False, f"ada's mute not seen by bob before she held Space: {changes}")
        self.assertIs(self.microphone_at(changes, away_at), True, f"holding Space did not open ada's microphone: {changes}")
        self.assertIs(self.microphone_at(changes, checked_at), False,
                      f"ada's microphone stayed open after another application took the focus while she held Space: {changes}")


class ChatScrolling(MediaCallTestCase):
    """The chat pane shows the newest message as it comes, leaves a person reading earlier ones
    where they are, and goes back to the newest when they send. It showed every new message one
    update late: the scroll bar at the end, the content short of it by what had just come, so
    the last messages (and your own) sat below the view."""
    # dave and erin join by the call's id without being rung.
    server_args = ("--open-calls",)

    def list_area(self, call_window):
        """The chat's list on screen, as (top, bottom): between the tabs and the message box."""
        tab = on_screen(call_window, role="page tab", name="Chat")
        entry = on_screen(call_window, role="text", name="Message")
        _, tab_y, _, tab_height = box(tab)
        _, entry_y, _, _ = box(entry)
        return tab_y + tab_height, entry_y

    def row(self, call_window, words):
        return next((node for node in find_all(call_window, name_contains=words) if node.name and " at " in node.name), None)

    def in_view(self, call_window, words):
        """Whether the chat's row containing `words` is wholly within the list's area."""
        row = self.row(call_window, words)
        if row is None:
            return False
        top, bottom = self.list_area(call_window)
        _, y, _, height = box(row)
        return height > 0 and top <= y and y + height <= bottom

    def test_newMessagesComeIntoView_notWhileReadingEarlierOnes_andSendingGoesBackToTheNewest(self):
        bob, call_window = self.call_bob("chat-scroll", ["--duration", "120"])
        press_keys(self.xvfb.display, "chat-scroll – Confab", "ctrl+p")
        subprocess.run(["xdotool", "keyup", "ctrl"], env=dict(os.environ, DISPLAY=self.xvfb.display), check=True, timeout=10)
        click(wait_for(lambda: on_screen(call_window, role="page tab", name="Chat"), what="the Chat tab"))
        wait_for(lambda: on_screen(call_window, role="text", name="Message"), what="the chat's message box")

        # More messages than the pane holds, a long link and a few lines among them.
        texts = [f"dave says {number:02}" for number in range(1, 21)]
        texts[8] = "dave says 09 https://example.org/" + "a-long-path-without-spaces" * 8
        texts[13] = "dave says 14\nover\nthree lines"
        arguments = [argument for text in texts for argument in ("--chat", text)]
        dave = Peer(self.server, "dave", ["join", "default:chat-scroll", "--duration", "90", "--chat-after", "2", *arguments])
        self.addCleanup(dave.stop)
        wait_for(lambda: self.row(call_window, "dave says 20"), timeout=30, what="dave's last message in the chat")
        wait_for(lambda: self.in_view(call_window, "dave says 20"), timeout=5,
                 what="dave's last message in view (it stayed below the chat's view)")
        self.assertFalse(self.in_view(call_window, "dave says 01"))
        screenshot(self.xvfb.display, "chat-scrolled-to-the-newest.png")

        # ada scrolls back to read (the mouse wheel over the list).
        top, bottom = self.list_area(call_window)
        x, _, width, _ = box(on_screen(call_window, role="text", name="Message"))
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        subprocess.run(["xdotool", "mousemove", str(x + width // 2), str((top + bottom) // 2)], env=env, check=True, timeout=10)
        subprocess.run(["xdotool", "click", "--repeat", "6", "--delay", "50", "4"], env=env, check=True, timeout=10)
        time.sleep(1)
        reading = next(words for words in (f"dave says {number:02}" for number in range(1, 21)) if self.in_view(call_window, words))
        _, reading_y, _, _ = box(self.row(call_window, reading))
        self.assertFalse(self.in_view(call_window, "dave says 20"), "the wheel did not scroll the chat back")

        erin = Peer(self.server, "erin", ["join", "default:chat-scroll", "--duration", "60", "--chat-after", "1", "--chat", "erin is here"])
        self.addCleanup(erin.stop)
        wait_for(lambda: self.row(call_window, "erin is here"), timeout=30, what="erin's message in the chat")
        time.sleep(1)
        _, still_y, _, _ = box(self.row(call_window, reading))
        self.assertEqual(still_y, reading_y, f"the message ada was reading ({reading}) moved when erin's came")
        self.assertFalse(self.in_view(call_window, "erin is here"))

        # Her own message takes her back to the newest.
        click(on_screen(call_window, role="text", name="Message"))
        subprocess.run(["xdotool", "type", "--delay", "20", "ada is back"], env=env, check=True, timeout=20)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Return"], env=env, check=True, timeout=10)
        wait_for(lambda: self.in_view(call_window, "ada is back"), timeout=10, what="ada's own message in view once sent")
        screenshot(self.xvfb.display, "chat-own-message.png")
        bob.stop()


if __name__ == "__main__":
    unittest.main()


class SidebarKeepsItsWidthInAWideWindow(MediaCallTestCase):
    """Seen as a user: in a window 1260 px wide the people and chat sidebar took 630 px of it,
    half the video's room. It keeps a sidebar's width and the video gets the rest, in the
    people list and in a chat with a long message."""
    server_args = ("--open-calls",)

    def test_at1260_thePeopleAndTheChatSidebarAreAtMost400Wide_andTheVideoHasTheRest(self):
        title = "wide – Confab"
        bob, call_window = self.call_bob("wide", ["--duration", "60"])
        tile = find(call_window, name_contains="bob, ")
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        subprocess.run(["xdotool", "search", "--name", f"^{title}$", "windowsize", "1260", "800"], env=env, check=True, timeout=10)
        wait_for(lambda: abs(box(call_window)[2] - 1260) <= 20, what="the window at 1260 px")
        press_keys(self.xvfb.display, title, "ctrl+p")
        subprocess.run(["xdotool", "keyup", "ctrl"], env=env, check=True, timeout=10)
        sidebar = wait_for(lambda: on_screen(call_window, name="People and chat"), what="the sidebar")
        time.sleep(1)
        self.assertLessEqual(box(sidebar)[2], 400, f"the people list is wider than a sidebar: {box(sidebar)}")
        self.assertGreaterEqual(box(tile)[2], 800, f"bob's tile did not get the rest of the window: {box(tile)}")
        people_width = box(sidebar)[2]

        dave = Peer(self.server, "dave", ["join", "default:wide", "--duration", "40", "--chat-after", "2",
                                          "--chat", "a long line about the quarterly numbers that nobody wrapped by hand, " * 3])
        self.addCleanup(dave.stop)
        click(wait_for(lambda: on_screen(call_window, role="page tab", name="Chat"), what="the Chat tab"))
        wait_for(lambda: on_screen(call_window, name_contains="quarterly numbers"), timeout=30, what="dave's message")
        time.sleep(1)
        screenshot(self.xvfb.display, "sidebar-wide.png")
        self.assertLessEqual(box(sidebar)[2], 400, f"the chat with a long message is wider than a sidebar: {box(sidebar)}")
        # One width whatever it shows: the video's tiles do not jump as a page or a line changes.
        self.assertEqual(box(sidebar)[2], people_width, "the sidebar changed width from the people list to the chat")
