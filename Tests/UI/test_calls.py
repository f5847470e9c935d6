"""UI tests of ringing: the real app and a real confab-server, with a confab-peer on the other end."""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

import pyatspi

from confab_ui import (App, NotificationStandIn, Peer, Server, XvfbTestCase, application, box, click, find, on_screen, press_keys, screenshot,
                       top_level_window, ring_from_home, wait_for)


REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class CallsTestCase(XvfbTestCase):
    app_env = None

    def setUp(self):
        self.server = Server()
        self.peers = []
        # No --call: the app opens on its home page, signed in as ada and able to be rung.
        self.app = App(self.xvfb, ["--server", self.server.url, "--user", "ada", "--test-devices"], extra_env=self.app_env)
        self.accessible = wait_for(lambda: application(self.app.process.pid), what="the app on the AT-SPI bus")
        self.home = wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="the home window")
        self.server.wait_for_connections(1)  # the app is signed in, so it can be rung

    # A test that quits the app on purpose sets this: its exit is then not a crash.
    quits_app = False

    def tearDown(self):
        crashed = self.app.exited() and not (self.quits_app and self.app.process.returncode == 0)
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

    def wait_for_tile(self, window, name):
        """A participant tile: its accessible name starts with the name ("bob, connection good")."""
        return wait_for(lambda: find(window, name_contains=f"{name}, "), what=f"{name}'s tile in the call")

    def call_bob(self, name):
        """Rings a peer bob who answers, in a call named `name`; gives back the call window, his
        tile and our own."""
        self.peer("bob", "answer", "--accept", "--duration", "40", "--timeout", "30", "--pattern", "ball")
        self.server.wait_for_connections(2)
        ring_from_home(self.home, "bob", name)
        call_window = self.window(f"{name} – Confab")
        return call_window, self.wait_for_tile(call_window, "bob"), self.wait_for_tile(call_window, "You")

    def drag_with_mouse(self, start, end, steps=10):
        """Presses the left button at `start`, moves to `end` in steps and lets go (through the X server)."""
        env = dict(os.environ, DISPLAY=self.xvfb.display)
        subprocess.run(["xdotool", "mousemove", str(start[0]), str(start[1]), "mousedown", "1"], env=env, check=True, timeout=10)
        for step in range(1, steps + 1):
            subprocess.run(["xdotool", "mousemove", str(start[0] + step * (end[0] - start[0]) // steps),
                            str(start[1] + step * (end[1] - start[1]) // steps)], env=env, check=True, timeout=10)
            time.sleep(0.03)
        subprocess.run(["xdotool", "mouseup", "1"], env=env, check=True, timeout=10)

    @staticmethod
    def outcome(report):
        return json.dumps(report.get("outcome"))


class AppRingsPeer(CallsTestCase):
    def test_oneToOne_bobLarge_ourSelfViewSmallInHisCorner_andBesideHimWhenNarrow(self):
        """A one-to-one call shows the person you talk to over the whole area, your own picture
        small in its corner and clear of his name and pin button (the SDK's grid leaves the local
        user out up to three people). They were two portrait tiles side by side, each a strip
        cropped from a 16:9 video. In a phone-sized window the self-view joins the grid rather
        than hide him."""
        call_window, bob_tile, self_tile = self.call_bob("corner")
        pin = wait_for(lambda: find(call_window, role="push button", name="Pin bob"), what="the pin button on bob's tile")

        def overlap(a, b):
            ax, ay, aw, ah = box(a)
            bx, by, bw, bh = box(b)
            return min(ax + aw, bx + bw) > max(ax, bx) and min(ay + ah, by + bh) > max(ay, by)

        def self_in_bobs_corner():
            window_width = box(call_window)[2]
            (bx, by, bw, bh), (sx, sy, sw, sh) = box(bob_tile), box(self_tile)
            return (bw >= 0.8 * window_width and 0 < sw <= window_width / 3
                    and bx + bw / 2 < sx and by + bh / 2 < sy and sx + sw <= bx + bw and sy + sh <= by + bh)

        wait_for(self_in_bobs_corner, what=f"bob across the window, our self-view in his bottom-right corner "
                                          f"(bob {box(bob_tile)}, self {box(self_tile)}, window {box(call_window)})")
        self.assertFalse(overlap(pin, self_tile), f"the self-view covers bob's pin button ({box(pin)} under {box(self_tile)})")
        screenshot(self.xvfb.display, "one-to-one.png")

        # It may hide what matters under it: dragged towards the top left (a mouse, through the
        # X server), it settles in that corner and stays there.
        sx, sy, sw, sh = box(self_tile)
        bx, by, _, _ = box(bob_tile)
        self.drag_with_mouse((sx + sw // 2, sy + sh // 2), (sx + sw // 2 - (sx - bx), sy + sh // 2 - (sy - by)))
        wait_for(lambda: box(self_tile)[0] - box(bob_tile)[0] < 40 and box(self_tile)[1] - box(bob_tile)[1] < 40,
                 what=f"the self-view in bob's top-left corner after the drag (bob {box(bob_tile)}, self {box(self_tile)})")
        time.sleep(0.5)
        self.assertLess(box(self_tile)[0] - box(bob_tile)[0], 40, "the self-view left the corner it was dropped in")
        screenshot(self.xvfb.display, "one-to-one-dragged.png")

        subprocess.run(["xdotool", "search", "--name", "^corner – Confab$", "windowsize", "360", "640"], check=True,
                       env=dict(os.environ, DISPLAY=self.xvfb.display), timeout=10, stdout=subprocess.DEVNULL)
        wait_for(lambda: box(call_window)[2] < 400 and not overlap(bob_tile, self_tile) and box(self_tile)[2] > 100,
                 what=f"in a phone-sized window, the self-view beside bob (bob {box(bob_tile)}, self {box(self_tile)})")
        screenshot(self.xvfb.display, "one-to-one-narrow.png")

    def test_threeWayGrid_aPinnedPersonComesFirst_andGoesBackWhenUnpinned(self):
        """Pinning someone in the grid only put a badge on their tile: the grid kept join order
        (the SDK sorts pinned participants first). The pinned person now takes the grid's first
        place, and unpinned goes back to their place in join order."""
        for user in ("bob", "cleo"):
            self.peer(user, "answer", "--accept", "--duration", "40", "--timeout", "30", "--pattern", "ball")
        self.server.wait_for_connections(3)
        ring_from_home(self.home, "bob, cleo", "ui-pin")
        call_window = self.window("ui-pin – Confab")
        for name in ("bob", "cleo"):
            self.wait_for_tile(call_window, name)

        def reading_order():
            """The two tiles as a reader meets them: by row, then from the left."""
            places = {}
            for name in ("bob", "cleo"):
                tile = on_screen(call_window, name_contains=f"{name}, ")
                if tile is None or box(tile)[2] <= 0:
                    return None
                x, y, _, _ = box(tile)
                places[name] = (y // 20, x)
            return sorted(places, key=places.get)

        first, second = wait_for(reading_order, what="both tiles laid out")
        click(wait_for(lambda: find(call_window, role="push button", name=f"Pin {second}"), what=f"the pin button on {second}'s tile"))
        wait_for(lambda: reading_order() == [second, first],
                 what=f"{second}, pinned, in the grid's first place")
        self.assertIsNotNone(find(call_window, name_contains=f"{second}, pinned"), f"{second}'s tile does not say pinned")
        screenshot(self.xvfb.display, "grid-pinned-first.png")
        click(wait_for(lambda: find(call_window, role="push button", name=f"Unpin {second}"), what=f"the unpin button on {second}'s tile"))
        wait_for(lambda: reading_order() == [first, second], what=f"{second}, unpinned, back in join order")

    def test_appRingsBob_bobAccepts_bothInCall_thenHangUp(self):
        bob = self.peer("bob", "answer", "--accept", "--duration", "20", "--timeout", "30")
        self.server.wait_for_connections(2)  # the app and bob are both signed in

        ring_from_home(self.home, "bob", "ui-ring")

        call_window = self.window("ui-ring – Confab")
        self.wait_for_tile(call_window, "bob")
        screenshot(self.xvfb.display, "in-call.png")

        # Minimize (Ctrl+M) shows the small window; Restore brings the call window back.
        press_keys(self.xvfb.display, "ui-ring – Confab", "ctrl+m")
        minimized = self.window("ui-ring (minimized) – Confab")
        screenshot(self.xvfb.display, "minimized.png")
        click(find(minimized, role="push button", name="Restore call window"))
        call_window = self.window("ui-ring – Confab")

        click(find(call_window, role="push button", name="Hang up"))
        wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="back home after hanging up")
        bob.stop()

    def test_appTerminatedInACall_leavesItFirst_soBobIsToldAdaLeft_notThatHerConnectionDropped(self):
        """A log-out, a shutdown or `kill` (SIGTERM) in a call: the app leaves the call, then
        quits. Killed outright, it left bob to be told her connection dropped, and his
        one-to-one call waited a minute for her."""
        self.quits_app = True
        bob = self.peer("bob", "answer", "--accept", "--duration", "30", "--timeout", "30")
        self.server.wait_for_connections(2)
        ring_from_home(self.home, "bob", "ui-terminated")
        self.wait_for_tile(self.window("ui-terminated – Confab"), "bob")
        self.app.process.send_signal(signal.SIGTERM)
        status = self.app.process.wait(5)
        time.sleep(1)  # for the server to tell bob
        bob.stop()
        report = bob.report(timeout=10)
        left = [event for event in report["events"] if event["type"] == "participantLeft" and event.get("user") == "ada"]
        self.assertEqual(len(left), 1, f"bob was not told ada left: {report['events']}")
        self.assertIsNone(left[0].get("reason"), f"bob was told ada's connection dropped: {left[0]}")
        self.assertEqual(status, 0, "the app did not quit by itself on SIGTERM")

    def test_bobHangsUpAOneToOneCall_itEndsForAdaToo(self):
        bob = self.peer("bob", "ring", "default:ui-ended", "--members", "ada", "--timeout", "20", "--duration", "2")
        incoming = self.window("bob is calling")
        click(find(incoming, role="push button", name="Accept"))
        call_window = self.window("ui-ended – Confab")
        self.wait_for_tile(call_window, "bob")
        bob.report()  # bob stays 2 s, then hangs up
        # Not left alone in "Waiting for others to join…": the call is over, and says why.
        ended = self.window("Call ended – Confab")
        wait_for(lambda: find(ended, name_contains="bob hung up"), what="the reason on the call-ended page")
        self.assertIsNone(top_level_window(self.accessible, name="ui-ended – Confab"), "the call window is still open")


class SelfViewCornerRemembered(CallsTestCase):
    """The corner the user drags the self-view to is where the next call starts: kept in
    GSettings (the schema compiled from data/, a keyfile we can read and write)."""

    def setUp(self):
        self.settings_home = tempfile.mkdtemp(prefix="confab-corner-")
        schemas = os.path.join(self.settings_home, "schemas")
        os.makedirs(schemas)
        subprocess.run(["glib-compile-schemas", "--targetdir", schemas, os.path.join(REPOSITORY, "data")], check=True, timeout=30)
        self.keyfile = os.path.join(self.settings_home, "glib-2.0", "settings", "keyfile")
        os.makedirs(os.path.dirname(self.keyfile))
        # An earlier run left it in the top-left corner.
        with open(self.keyfile, "w") as file:
            file.write("[org/confab/Confab]\nself-view-corner='top-left'\n")
        self.server = Server()
        self.peers = []
        self.app = App(self.xvfb, ["--server", self.server.url, "--user", "ada", "--test-devices"],
                       extra_env={"GSETTINGS_SCHEMA_DIR": schemas, "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": self.settings_home})
        self.accessible = wait_for(lambda: application(self.app.process.pid), what="the app on the AT-SPI bus")
        self.home = wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="the home window")
        self.server.wait_for_connections(1)

    def tearDown(self):
        super().tearDown()
        shutil.rmtree(self.settings_home, ignore_errors=True)

    def test_callStartsWithTheSelfViewWhereItWasLeft_andAMoveIsRemembered_byMouseOrKeys(self):
        """It stayed for the call only: every call put it back in the bottom-right corner. And
        only a mouse could move it."""
        call_window, bob_tile, self_tile = self.call_bob("remembered")

        def in_corner(horizontal, vertical):
            (bx, by, bw, bh), (sx, sy, sw, sh) = box(bob_tile), box(self_tile)
            if not (sw <= bw / 3 and bx <= sx and sx + sw <= bx + bw and by <= sy and sy + sh <= by + bh):
                return False
            left, top = sx + sw / 2 < bx + bw / 2, sy + sh / 2 < by + bh / 2
            return left == (horizontal == "left") and top == (vertical == "top")

        wait_for(lambda: in_corner("left", "top"),
                 what=f"the self-view in bob's top-left corner, where it was left (bob {box(bob_tile)}, self {box(self_tile)})")
        screenshot(self.xvfb.display, "corner-remembered.png")

        sx, sy, sw, sh = box(self_tile)
        bx, by, bw, bh = box(bob_tile)
        self.drag_with_mouse((sx + sw // 2, sy + sh // 2), (bx + bw - sw // 2, sy + sh // 2))
        wait_for(lambda: in_corner("right", "top"), what=f"the self-view in bob's top-right corner after the drag (self {box(self_tile)})")

        def saved(corner):
            with open(self.keyfile) as file:
                return f"self-view-corner='{corner}'" in file.read()
        wait_for(lambda: saved("top-right"), what="the top-right corner saved in GSettings")

        # Without a mouse: Tab to it (it says how to move it), then the arrow keys.
        self.assertIn("arrow key", self_tile.description)
        for _ in range(30):
            if self_tile.getState().contains(pyatspi.STATE_FOCUSED):
                break
            press_keys(self.xvfb.display, "remembered – Confab", "Tab")
        self.assertTrue(self_tile.getState().contains(pyatspi.STATE_FOCUSED), "Tab never reached the self-view")
        press_keys(self.xvfb.display, "remembered – Confab", "Down")
        wait_for(lambda: in_corner("right", "bottom"), what=f"the self-view in bob's bottom-right corner after Down (self {box(self_tile)})")
        press_keys(self.xvfb.display, "remembered – Confab", "Left")
        wait_for(lambda: in_corner("left", "bottom"), what=f"the self-view in bob's bottom-left corner after Left (self {box(self_tile)})")
        wait_for(lambda: saved("bottom-left"), what="the bottom-left corner saved in GSettings")
        screenshot(self.xvfb.display, "corner-moved-with-keys.png")


class HostActions(CallsTestCase):
    def test_participantsSidebar_hostPinsBobForEveryone_removesHimAfterConfirming_andLayoutSwitches(self):
        bob = self.peer("bob", "answer", "--accept", "--duration", "20", "--timeout", "30")
        self.server.wait_for_connections(2)
        ring_from_home(self.home, "bob", "ui-host")
        call_window = self.window("ui-host – Confab")
        self.wait_for_tile(call_window, "bob")

        # Ctrl+P: the sidebar lists bob; his menu has the actions a host (the caller) may take.
        # (No Mute: this server runs without media, so bob's microphone is not heard.)
        press_keys(self.xvfb.display, "ui-host – Confab", "ctrl+p")
        self.open_actions_for("bob", call_window)
        self.assertIsNone(find(self.accessible, role="push button", name="Mute bob"))
        for action in ("Pin for everyone bob", "Block bob", "Remove bob"):
            wait_for(lambda: find(self.accessible, role="push button", name=action), what=f"'{action}' in bob's menu")
        screenshot(self.xvfb.display, "participants-sidebar.png")
        click(find(self.accessible, role="push button", name="Pin for everyone bob"))
        wait_for(lambda: find(call_window, name_contains="bob, pinned"), what="bob's tile says pinned")
        self.open_actions_for("bob", call_window)
        wait_for(lambda: find(self.accessible, role="push button", name="Unpin for everyone bob"), what="bob pinned for everyone")
        press_keys(self.xvfb.display, "ui-host – Confab", "Escape")

        # More → Record: everyone is shown the call is recorded (this server records as a flag
        # without media; real recordings are checked in Production_EndToEndTests).
        click(wait_for(lambda: find(call_window, name="More"), what="the More menu"))
        click(wait_for(lambda: find(self.accessible, role="push button", name="Record"), what="Record in the More menu"))
        wait_for(lambda: find(call_window, name_contains="Recording. Call duration"), what="the recording indicator")
        screenshot(self.xvfb.display, "recording.png")

        # Ctrl+L cycles the layout; the grid's self-view tile stays reachable in every layout but full screen.
        press_keys(self.xvfb.display, "ui-host – Confab", "ctrl+l")
        wait_for(lambda: find(call_window, name_contains="bob, pinned"), what="bob still shown in the spotlight")

        # Remove asks first: Cancel keeps bob in the call; Remove takes him out, and the toast
        # says what we did (not "bob left").
        for answer in ("Cancel", "Remove"):
            self.open_actions_for("bob", call_window)
            click(wait_for(lambda: find(self.accessible, role="push button", name="Remove bob"), what="Remove bob"))
            dialog = wait_for(lambda: top_level_window(self.accessible, name_contains="Remove bob"), what="the confirmation")
            if answer == "Cancel":
                screenshot(self.xvfb.display, "remove-confirmation.png")
            click(wait_for(lambda: find(dialog, role="push button", name_contains=answer), what=f"{answer} in the dialog"))
            wait_for(lambda: top_level_window(self.accessible, name_contains="Remove bob") is None, what="the dialog closed")
            if answer == "Cancel":
                time.sleep(1)
                self.assertIsNotNone(find(call_window, name_contains="bob, "), "bob was removed although the host cancelled")
        wait_for(lambda: find(call_window, role="label", name="You removed bob"), what="“You removed bob”")
        wait_for(lambda: find(call_window, name_contains="bob, ") is None, what="bob's tile gone")
        bob.stop()

    def open_actions_for(self, name, call_window):
        """Opens one person's menu in the participants sidebar (opening the sidebar if needed)."""
        menu = wait_for(lambda: on_screen(call_window, name=f"Actions for {name}"), what=f"the menu of {name}")
        click(menu)


class QuitInACall(CallsTestCase):
    def test_ctrlQInACall_asksFirst_cancelKeepsTheCall_leaveAndQuitHangsUpAndQuits(self):
        """Ctrl+Q in a call quit at once, ending the call without a word (it sits beside the
        call's own Ctrl+ shortcuts). It now asks; Cancel keeps the call, Leave and Quit hangs up
        (bob sees ada leave) and quits cleanly."""
        call_window, _, _ = self.call_bob("quit-ui")
        bob = self.peers[-1]
        press_keys(self.xvfb.display, "quit-ui – Confab", "ctrl+q")
        dialog = wait_for(lambda: top_level_window(self.accessible, name_contains="Leave the call and quit?"), what="the question")
        screenshot(self.xvfb.display, "quit-in-a-call.png")
        click(wait_for(lambda: find(dialog, role="push button", name_contains="Cancel"), what="Cancel"))
        wait_for(lambda: top_level_window(self.accessible, name_contains="Leave the call and quit?") is None, what="the question gone")
        time.sleep(1)
        self.assertFalse(self.app.exited(), "Cancel quit the app")
        self.assertIsNotNone(find(call_window, name_contains="bob, "), "Cancel left the call")

        press_keys(self.xvfb.display, "quit-ui – Confab", "ctrl+q")
        dialog = wait_for(lambda: top_level_window(self.accessible, name_contains="Leave the call and quit?"), what="the question again")
        self.quits_app = True
        click(wait_for(lambda: find(dialog, role="push button", name_contains="Leave and Quit"), what="Leave and Quit"))
        self.assertEqual(self.app.process.wait(15), 0, self.app.output())
        # ada left the call before the app went (bob, asked to stop now, reports what he saw).
        left = [event for event in bob.stop_and_report().get("events", []) if event.get("type") == "participantLeft"]
        self.assertIn("ada", [event.get("user") for event in left], f"bob never saw ada leave: {left}")


class MissedCalls(CallsTestCase):
    def test_aRingWhileInACall_isToldThere_andLeftAsAMissedCall_whoseCallBackRingsTheCaller(self):
        """A ring that came while ada was in another call was rejected as busy and nothing showed
        it: she never learnt that cleo had called. Now her call window says so, and a "Missed call
        from cleo" notification stays in the desktop's list, whose Call Back rings cleo in a new
        call once this one is over (in the middle of it, it says to wait)."""
        stand_in = NotificationStandIn()
        self.addCleanup(stand_in.stop)
        call_window, _, _ = self.call_bob("busy-ui")
        cleo = self.peer("cleo", "ring", "default:cleo-ring", "--members", "ada", "--timeout", "20")
        wait_for(lambda: find(call_window, role="label", name="cleo called you and was told you are busy"),
                 what="the call window saying cleo called")
        cleo.wait_for_output("outcome rejected: busy by ada")
        notification = wait_for(lambda: next((n for n in stand_in.calls("Notify") if n["summary"] == "Missed call from cleo"), None),
                                what="a missed-call notification")
        self.assertEqual(notification["body"], "While you were in another call")
        self.assertIn("Call Back", notification["actions"])
        screenshot(self.xvfb.display, "missed-call-while-busy.png")

        stand_in.invoke(notification["id"], notification["actions"]["Call Back"])
        wait_for(lambda: find(call_window, role="label", name="You can call cleo back when this call ends"),
                 what="Call back in the middle of a call saying to wait")
        self.assertIsNotNone(top_level_window(self.accessible, name="busy-ui – Confab"), "Call back left the call")

        # Clicking a notification's button takes it away (GNOME does): in a call it is sent again.
        again = wait_for(lambda: [n for n in stand_in.calls("Notify") if n["summary"] == "Missed call from cleo"][1:],
                         what="the missed-call notification sent again")[-1]
        answering = self.peer("cleo", "answer", "--accept", "--duration", "20", "--timeout", "30")
        click(find(call_window, role="push button", name="Hang up"))
        answering.wait_for_output("connected as cleo")
        wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="ada back on her home page")
        stand_in.invoke(again["id"], again["actions"]["Call Back"])
        call_back = self.window("Call with cleo")
        self.wait_for_tile(call_back, "cleo")
        answering.wait_for_output("state inCall")

    def test_aRingThatRangOut_leavesAMissedCallNotification_andTheEndedPageCallsBack(self):
        stand_in = NotificationStandIn()
        self.addCleanup(stand_in.stop)
        self.peer("cleo", "ring", "default:rang-out", "--members", "ada", "--timeout", "3", "--audio-only")
        self.window("cleo")  # the incoming call
        notification = wait_for(lambda: next((n for n in stand_in.calls("Notify") if n["summary"] == "Missed call from cleo"), None),
                                what="a missed-call notification after the caller gave up")
        self.assertEqual(notification["body"], "Call")
        self.assertIn("Call Back", notification["actions"])

        # The page the ring leaves says so, and calls back too.
        ended = self.window("Call ended")
        wait_for(lambda: find(ended, name="Missed call from cleo"), what="the ended page saying the call was missed")
        screenshot(self.xvfb.display, "missed-call-ended-page.png")
        answering = self.peer("cleo", "answer", "--accept", "--duration", "20", "--timeout", "30")
        answering.wait_for_output("connected as cleo")
        click(wait_for(lambda: find(ended, role="push button", name="Call Back"), what="Call Back on the ended page"))
        self.wait_for_tile(self.window("Call with cleo"), "cleo")


class PeerRingsApp(CallsTestCase):
    app_env = {"CONFAB_TIMELINE": "1"}

    def timeline_marks(self, step):
        return [line for line in self.app.output().splitlines() if line.startswith(f"confab-timeline {step} ")]

    def test_bobRingsAda_adaAcceptsInApp_bothInCall(self):
        bob = self.peer("bob", "ring", "default:ui-incoming", "--members", "ada", "--timeout", "20", "--duration", "3")
        incoming = self.window("bob is calling")
        screenshot(self.xvfb.display, "incoming.png")
        # The call page is built while it rings (as in the lobby), so accepting only binds it.
        wait_for(lambda: self.timeline_marks("call-page-built-ahead"), what="the call page built while the ring shows")
        click(find(incoming, role="push button", name="Accept"))

        call_window = self.window("ui-incoming – Confab")
        self.wait_for_tile(call_window, "bob")
        self.assertEqual(self.timeline_marks("call-page-built-at-join"), [], "accepting built the call page")
        report = bob.report()
        self.assertIn("accepted", self.outcome(report))
        self.assertIn("ada", self.outcome(report))

    def test_bobCancelsRing_appShowsCallEndedPage_backGoesHome(self):
        bob = self.peer("bob", "ring", "default:ui-cancel", "--members", "ada", "--timeout", "20", "--cancel-after", "1.5")
        self.window("bob is calling")
        ended = self.window("Call ended – Confab")
        wait_for(lambda: find(ended, name_contains="Missed call from bob"), what="the reason on the call-ended page")
        screenshot(self.xvfb.display, "call-ended.png")
        click(find(ended, role="push button", name="Back"))
        wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="home after Back")
        self.assertIn("cancel", self.outcome(bob.report()))

    def test_bobRingsAda_adaDeclinesInApp_bobSeesDecline(self):
        bob = self.peer("bob", "ring", "default:ui-decline", "--members", "ada", "--timeout", "20")
        incoming = self.window("bob is calling")
        click(find(incoming, role="push button", name="Decline"))
        wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="back home after declining")
        report = bob.report()
        self.assertIn("decline", self.outcome(report))


if __name__ == "__main__":
    unittest.main(verbosity=2)
