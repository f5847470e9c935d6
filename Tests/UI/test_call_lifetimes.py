"""What lives as long as a call, checked with real media the way a user sees it: the other
person's video survives minimize and restore (pixels that move, not window titles), the small
window shows their live picture, the call's duration keeps counting across windows, the
participants sidebar opens and closes every time, and a message from one call never shows in the
next call's lobby. Runs inside `meson-helpers/netns-run` (Janus ignores loopback)."""
import os
import re
import subprocess
import time
import unittest

import pyatspi

from confab_ui import (MediaCallTestCase, Peer, click, find, find_all, on_screen, press_keys, screenshot, top_level_window,
                       ring_from_home, type_text, wait_for, MEDIA_ADDRESS)
from janus_relay import HoldingRelay, PlainJanus, ResumeIgnoringRelay


def join_with_tile(test, call_window, user, call_id, arguments):
    """A confab-peer `user` joining `call_id` with test media and `arguments`, once its tile is
    in `call_window`. Five participants' media on two cores: under CI's load a join has taken
    over 20 s (2026-11-27). What the peer said goes with a timeout, to tell slow from broken."""
    peer = Peer(test.server, user, ["join", call_id, "--media", "test", *arguments, "--media-address", MEDIA_ADDRESS])
    test.addCleanup(peer.stop)
    try:
        wait_for(lambda: find(call_window, name_contains=f"{user}, "), timeout=45, what=f"{user}'s tile")
    except AssertionError as error:
        raise AssertionError(f"{error}; {user} printed:\n{peer.output()[-3000:]}") from None
    return peer


def video_requests(app):
    """What the app said it asked of Janus about videos (paused, resumed, asked again, refused),
    to tell a request never made from one Janus did not act on."""
    return [line for line in app.output().splitlines()
            if any(word in line for word in ("video paused", "video resumed", "asking Janus again", "did not take"))]


def paused_feeds(requests):
    """The feeds (Janus's ids) of the "video paused" lines among `requests` (video_requests)."""
    return {re.search(r"feed=(\d+)", line).group(1) for line in requests if "video paused" in line}


def box(node):
    """A widget's rectangle on screen (x, y, width, height)."""
    extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return extents.x, extents.y, extents.width, extents.height


def crop(path, rectangle, inset=4):
    x, y, width, height = rectangle
    return f"{path}[{width - 2 * inset}x{height - 2 * inset}+{x + inset}+{y + inset}]"


def changed_pixels(first, second, rectangle):
    """How many pixels of `rectangle` differ between two screenshots (ImageMagick compare)."""
    result = subprocess.run(["compare", "-metric", "AE", "-fuzz", "8%", crop(first, rectangle), crop(second, rectangle), "null:"],
                            capture_output=True, text=True)
    return int(float(result.stderr.split()[0]))


def changed_in_a_second(display, rectangle, name):
    """How many pixels of `rectangle` change between two screenshots a second apart (saved
    as NAME-1.png and NAME-2.png), and the second of them: a picture that plays changes
    hundreds or thousands, a frozen one none."""
    first = screenshot(display, f"{name}-1.png")
    time.sleep(1)
    second = screenshot(display, f"{name}-2.png")
    return changed_pixels(first, second, rectangle), second


def mean_colour(path, rectangle):
    """The average (r, g, b) of a rectangle of a screenshot."""
    out = subprocess.run(["convert", crop(path, rectangle), "-resize", "1x1!", "-format",
                          "%[fx:int(255*r)],%[fx:int(255*g)],%[fx:int(255*b)]", "info:"],
                         check=True, capture_output=True, text=True).stdout
    return tuple(int(v) for v in out.strip().split(","))


def seconds(duration_label):
    """“Call duration 1:05” → 65."""
    match = re.search(r"(\d+):(\d\d)(?::(\d\d))?", duration_label)
    assert match, f"no duration in {duration_label!r}"
    parts = [int(p) for p in match.groups() if p is not None]
    total = 0
    for part in parts:
        total = total * 60 + part
    return total


class MinimizeAndRestoreWithMedia(MediaCallTestCase):
    # dave joins call A by its id without being rung into it or holding its link: calls are
    # private (issue 16, item 8), so this suite's server keeps the old open rule for him.
    server_args = ("--open-calls",)
    def video_of_bob(self, window):
        picture = wait_for(lambda: find(window, name="Video of bob"), what="bob's video")
        wait_for(lambda: box(picture)[2] > 40 and box(picture)[3] > 40, what="bob's video laid out")
        return picture

    def assert_moving(self, picture, name):
        """Two captures a second apart differ inside bob's picture: his video plays."""
        rectangle = box(picture)
        changed, second = changed_in_a_second(self.xvfb.display, rectangle, name)
        self.assertGreater(changed, 200, f"{name}: bob's video is frozen ({changed} pixels changed in {rectangle})")
        return second, rectangle

    def duration(self, window):
        label = wait_for(lambda: find(window, name_contains="Call duration"), what="the call duration")
        return seconds(label.name)

    def test_minimizeAndRestoreTwice_bobsVideoKeepsPlaying_andTheDurationKeepsCounting(self):
        bob, call_window = self.call_bob("mini-ui", ["--duration", "60", "--pattern", "ball", "--color", "ff0000"],
                                         tile="bob, ")
        wait_for(lambda: "camera off" not in find(call_window, name_contains="bob, ").name, what="bob's camera shown")
        self.assert_moving(self.video_of_bob(call_window), "call-before")
        time.sleep(2)
        last_duration = self.duration(call_window)
        self.assertGreaterEqual(last_duration, 2)

        for round_ in (1, 2):
            press_keys(self.xvfb.display, "mini-ui – Confab", "ctrl+m")
            minimized = wait_for(lambda: top_level_window(self.accessible, name="mini-ui (minimized) – Confab"),
                                 what="the minimized window")
            # The small window shows bob live, in his camera's colour (a white ball over red).
            shot, rectangle = self.assert_moving(self.video_of_bob(minimized), f"minimized-{round_}")
            red, green, blue = mean_colour(shot, rectangle)
            self.assertTrue(red > 150 and green < 110 and blue < 110,
                            f"the minimized window does not show bob's red camera: mean colour {(red, green, blue)}")
            self.assertGreaterEqual(self.duration(minimized), last_duration, "the duration restarted in the small window")

            if round_ == 1:
                click(find(minimized, role="push button", name="Restore call window"))
            else:
                # The app's shortcuts work in every window: Ctrl+M restores from the small one.
                press_keys(self.xvfb.display, r"mini-ui \(minimized\) – Confab", "ctrl+m")  # a regular expression
            call_window = wait_for(lambda: top_level_window(self.accessible, name="mini-ui – Confab"), what="the call window again")
            self.assert_moving(self.video_of_bob(call_window), f"restored-{round_}")
            now = self.duration(call_window)
            self.assertGreaterEqual(now, last_duration + 1, f"the duration restarted after restore ({last_duration} → {now})")
            last_duration = now
        bob.stop()

    def test_participantsSidebar_opensAndClosesEveryTime(self):
        bob, call_window = self.call_bob("panel-ui", ["--duration", "40"], tile="bob, ")
        window_box = box(call_window)

        def sidebar_shown():
            return on_screen(call_window, role="push button", name="Hide sidebar") is not None

        for round_, how in ((1, "Escape"), (2, "close button"), (3, "Ctrl+P")):
            press_keys(self.xvfb.display, "panel-ui – Confab", "ctrl+p")
            wait_for(sidebar_shown, what=f"the participants sidebar (round {round_})")
            wait_for(lambda: on_screen(call_window, role="label", name="bob"), what="bob listed in the sidebar")
            # The sidebar is part of the call window, not a window of its own.
            self.assertIsNone(top_level_window(self.accessible, name_contains="Participants"))

            def close_sidebar():
                if how == "Escape":
                    press_keys(self.xvfb.display, "panel-ui – Confab", "Escape")
                elif how == "close button":
                    click(wait_for(lambda: find(call_window, role="push button", name="Hide sidebar"),
                                   what="the sidebar's close button"))
                else:
                    press_keys(self.xvfb.display, "panel-ui – Confab", "ctrl+p")

            # Like a user, try again if the first key went astray (X focus without a window
            # manager is not instant); the bug was that nothing ever closed it.
            closed = False
            for _ in range(3):
                close_sidebar()
                try:
                    wait_for(lambda: not sidebar_shown(), timeout=5)
                    closed = True
                    break
                except AssertionError:
                    continue
            self.assertTrue(closed, f"the sidebar did not close by {how} (round {round_})")
        self.assertEqual(box(call_window)[2:], window_box[2:], "the window kept its size with the sidebar")
        # The Shortcuts window lists every shortcut the app has, Preferences and Quit included.
        press_keys(self.xvfb.display, "panel-ui – Confab", "ctrl+question")
        shortcuts = wait_for(lambda: top_level_window(self.accessible, name_contains="Shortcuts"), what="the Shortcuts window")
        for title in ("Show or hide the participants and chat", "Raise or lower your hand", "Minimize or restore the call", "Preferences", "Quit"):
            wait_for(lambda: find(shortcuts, role="label", name=title), what=f"“{title}” in the Shortcuts window")
        screenshot(self.xvfb.display, "shortcuts.png")
        click(wait_for(lambda: find(shortcuts, role="push button", name="Close"), what="the Shortcuts window's close button"))
        wait_for(lambda: top_level_window(self.accessible, name_contains="Shortcuts") is None, what="the Shortcuts window closed")
        bob.stop()

    def test_aMessageFromOneCall_isNotShownInTheNextCallsLobby(self):
        bob, call_window = self.call_bob("toast-a", ["--duration", "40"], tile="bob, ")
        dave = Peer(self.server, "dave", ["join", "default:toast-a", "--duration", "8", "--media", "test",
                                          "--media-address", MEDIA_ADDRESS])
        self.addCleanup(dave.stop)
        wait_for(lambda: find(call_window, name_contains="dave, "), timeout=20, what="dave's tile")
        dave.stop_and_report()
        wait_for(lambda: find(call_window, role="label", name="dave left"), what="“dave left” in call A")
        click(find(call_window, role="push button", name="Hang up"))
        home = wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="home")
        type_text(find(home, role="text", name="Call name"), "toast-b")
        click(find(home, role="push button", name="Join…"))
        lobby = wait_for(lambda: top_level_window(self.accessible, name="toast-b – Confab"), what="the lobby of call B")
        wait_for(lambda: find(lobby, role="push button", name_contains="Join"), what="the Join button")
        deadline = time.time() + 3
        while time.time() < deadline:
            self.assertIsNone(find(lobby, name_contains="dave left"), "“dave left” from call A shows in call B's lobby")
            time.sleep(0.2)
        screenshot(self.xvfb.display, "lobby-after-call.png")
        bob.stop()


class PeopleJoiningTogether(MediaCallTestCase):
    """Seen as a user: three people joining a call at once queued three toasts, "carol joined",
    "dave joined", "erin joined", shown one after the other for 15 s after all three were in.
    People coming within a toast's time are one message that grows in its place."""
    server_args = ("--open-calls",)

    def test_threeJoinAtOnce_oneToastNamesThemAll_andNoneIsLeftQueued(self):
        bob, call_window = self.call_bob("arrivals-ui", ["--duration", "60"], tile="bob, ")
        # "bob joined" has gone (5 s on screen) before the others come: they are news of their own.
        wait_for(lambda: not [label for label in find_all(call_window, role="label") if (label.name or "").endswith(" joined")],
                 timeout=10, what="“bob joined” gone")
        names = ("carol", "dave", "erin")
        for user in names:
            peer = Peer(self.server, user, ["join", "default:arrivals-ui", "--duration", "50"])
            self.addCleanup(peer.stop)
        for user in names:
            wait_for(lambda: find(call_window, name_contains=f"{user}, "), timeout=30, what=f"{user}'s tile")
        everyone = re.compile(r"^(carol|dave|erin), (carol|dave|erin) and (carol|dave|erin) joined$")
        shown = wait_for(lambda: [label.name for label in find_all(call_window, role="label") if (label.name or "").endswith(" joined")],
                         timeout=3, what="a toast saying who joined")
        screenshot(self.xvfb.display, "people-joining-together.png")
        self.assertTrue(any(everyone.match(name) for name in shown), f"no one toast names all three who joined: {shown}")
        # It goes after its 5 s like any toast, and nothing was left waiting behind it.
        wait_for(lambda: not [label for label in find_all(call_window, role="label") if (label.name or "").endswith(" joined")],
                 timeout=9, what="the toast gone, with no other joining toast after it")
        time.sleep(1)
        stale = [label.name for label in find_all(call_window, role="label") if (label.name or "").endswith(" joined")]
        self.assertEqual(stale, [], "a toast about someone joining was still queued")


class PausedFeeds(MediaCallTestCase):
    """Receivers take only what they show (issue 14): with the minimized window showing one
    person, the other's video is paused at Janus — what the app receives of it falls to
    nothing — and comes back, moving, when the call window shows it again."""
    # carol joins by the call's id without being rung: this suite keeps the old open rule.
    server_args = ("--open-calls",)

    def test_minimizedOnOnePerson_theOthersVideoStops_andIsBackWhenShownAgain(self):
        bob, call_window = self.call_bob("paused-ui", ["--duration", "60", "--pattern", "ball"], tile="bob, ")
        carol = Peer(self.server, "carol", ["join", "default:paused-ui", "--duration", "55", "--media", "test", "--pattern", "ball",
                                            "--color", "00ff00", "--media-address", MEDIA_ADDRESS])
        self.addCleanup(carol.stop)
        wait_for(lambda: find(call_window, name_contains="carol, "), timeout=20, what="carol's tile")
        for user in ("bob", "carol"):
            wait_for(lambda: float((self.reception(user)[0] or {}).get("kbps", 0)) > 50, timeout=20,
                     what=f"{user}'s video received while both tiles are shown")

        press_keys(self.xvfb.display, "paused-ui – Confab", "ctrl+m")
        minimized = wait_for(lambda: top_level_window(self.accessible, name="paused-ui (minimized) – Confab"), what="the minimized window")
        picture = wait_for(lambda: find(minimized, name_contains="Video of "), what="the person the small window shows")
        shown = picture.name.replace("Video of ", "")
        hidden = "carol" if shown == "bob" else "bob"
        _, seen = self.reception(hidden)
        minimized_at = time.time()
        stopped = wait_for(lambda: (lambda r: r if r and r["paused"] == "1" and float(r["kbps"]) < 10 else None)(self.reception(hidden, seen)[0]),
                           timeout=6, what=f"{hidden}'s video to stop while the small window shows {shown}")
        print(f"paused feeds: {hidden}'s video fell to {stopped['kbps']} kbit/s {time.time() - minimized_at:.1f} s after minimizing")
        # The one shown is still received.
        wait_for(lambda: float((self.reception(shown, seen)[0] or {}).get("kbps", 0)) > 50, what=f"{shown}'s video still received")
        screenshot(self.xvfb.display, "paused-minimized.png")

        press_keys(self.xvfb.display, r"paused-ui \(minimized\) – Confab", "ctrl+m")
        call_window = wait_for(lambda: top_level_window(self.accessible, name="paused-ui – Confab"), what="the call window again")
        _, seen = self.reception(hidden)
        restored_at = time.time()
        back = wait_for(lambda: (lambda r: r if r and r["paused"] == "0" and float(r["fps"]) > 0 else None)(self.reception(hidden, seen)[0]),
                        timeout=5, what=f"{hidden}'s video back after restoring")
        print(f"paused feeds: {hidden}'s video back at {back['fps']} fps {time.time() - restored_at:.1f} s after restoring")
        # And it moves on screen: two captures a second apart differ inside the tile.
        tile = wait_for(lambda: find(call_window, name=f"Video of {hidden}"), what=f"{hidden}'s picture")
        wait_for(lambda: box(tile)[2] > 40 and box(tile)[3] > 40, what=f"{hidden}'s picture laid out")
        changed, _ = changed_in_a_second(self.xvfb.display, box(tile), "paused-restored")
        self.assertGreater(changed, 200, f"{hidden}'s video is frozen after restoring ({changed} pixels changed)")
        bob.stop()
        carol.stop()


class SelfViewCost(MediaCallTestCase):
    """Our own camera is converted only for a view that shows it, at that view's size (issue
    15): in the call window the self-view plays; while the small window shows bob no self-view frame is made at all
    (the camera still sends), and the frames come back with the call window."""

    def self_view(self, after=0):
        """The last `confab-stats: self-view` line (frames, size) after `after` lines."""
        return self.last_stats("self-view", after)

    def test_selfViewPlays_andNoneMadeWhileMinimized(self):
        bob, call_window = self.call_bob("self-ui", ["--duration", "60", "--pattern", "ball"], tile="bob, ")
        picture = wait_for(lambda: find(call_window, name="Video of You"), what="the self-view")
        wait_for(lambda: box(picture)[2] > 40 and box(picture)[3] > 40, what="the self-view laid out")
        wait_for(lambda: int((self.self_view()[0] or {}).get("frames", 0)) > 10, what="self-view frames in the call window")
        # Made at the self-view's own pixels (the corner's 240x135 here), not at the camera's
        # 640x360 for GTK to shrink.
        shown = f"{box(picture)[2]}x{box(picture)[3]}"
        made = wait_for(lambda: (lambda s: s if s and s.get("size") == shown else None)(self.self_view()[0]), timeout=5,
                        what=f"self-view frames at the picture's {shown} (last: {self.self_view()[0]})")
        print(f"self-view: frames made at {made['size']} for a {shown} picture")
        # Drawn: the test camera's ball moves inside the self-view.
        changed, _ = changed_in_a_second(self.xvfb.display, box(picture), "self-view")
        self.assertGreater(changed, 200, f"the self-view is frozen ({changed} pixels changed)")

        # Minimized on bob: no self-view frame is made (the camera still sends).
        press_keys(self.xvfb.display, "self-ui – Confab", "ctrl+m")
        wait_for(lambda: top_level_window(self.accessible, name="self-ui (minimized) – Confab"), what="the minimized window")
        time.sleep(1.5)
        before, seen = self.self_view()
        time.sleep(2.5)
        after, _ = self.self_view(seen)
        self.assertIsNotNone(after, "no self-view statistics while minimized")
        self.assertEqual(int(after["frames"]), int(before["frames"]), "self-view frames were made while no view showed them")
        sending, _ = self.last_stats("sending", seen)
        self.assertGreater(float((sending or {}).get("kbps", 0)), 50, f"the camera stopped sending while minimized: {sending}")

        # Restored: frames again.
        press_keys(self.xvfb.display, r"self-ui \(minimized\) – Confab", "ctrl+m")
        wait_for(lambda: top_level_window(self.accessible, name="self-ui – Confab"), what="the call window again")
        wait_for(lambda: int((self.self_view(seen)[0] or {}).get("frames", 0)) > int(after["frames"]) + 10,
                 what="self-view frames again after restoring")
        bob.stop()


class SelfViewWhileJanusIsAway(MediaCallTestCase):
    """The media server stops taking connections during a call (a Janus going down or not yet
    back after a restart: new connections to it are refused, the coordinator's own stays) and
    the media path dies with it (every UDP packet dropped). The app gives the connection up,
    says it is reconnecting and tries again, up to 8 s apart; each try is refused, and between
    tries it has no media connection: the self-view stood still on its last frame, as if the app
    had hung. It keeps showing the camera (nothing is sent), closing it for each try."""

    table = "confab_ui_janus_away"

    def setUp(self):
        self.janus = PlainJanus()
        self.addCleanup(self.janus.stop)
        self.server_args = ("--janus", f"ws://127.0.0.1:{self.janus.port}")
        super().setUp()

    def make_janus_unreachable(self, drop_udp=True):
        """Refuses new TCP connections to Janus, and drops every UDP packet."""
        if subprocess.run(["which", "nft"], capture_output=True).returncode != 0:
            self.skipTest("nft (Debian nftables) is not installed; `make test-deps` installs it")
        udp = "meta l4proto udp drop" if drop_udp else ""
        subprocess.run(["nft", "-f", "-"], text=True, check=True, input=f"""
            table inet {self.table} {{
                chain input {{
                    type filter hook input priority 0;
                    {udp}
                    tcp dport {self.janus.port} tcp flags & (syn | ack) == syn reject with tcp reset
                }}
            }}""")
        self.addCleanup(self.make_janus_reachable)

    def make_janus_reachable(self):
        subprocess.run(["nft", "delete", "table", "inet", self.table], capture_output=True)

    def assert_self_view_moves(self, picture, name, since, looks):
        for look in range(looks):
            changed, _ = changed_in_a_second(self.xvfb.display, box(picture), f"{name}-{look}")
            print(f"{name}, {time.time() - since:.1f} s in: {changed} pixels of the self-view changed in a second")
            self.assertGreater(changed, 200, f"the self-view stood still {time.time() - since:.1f} s in ({name})")
            time.sleep(1.5)

    def test_joinRefusedByJanus_theSelfViewShowsTheCamera_thenBobOnceJanusTakesConnections(self):
        """The call's first media connection refused: the self-view showed the avatar (which
        says the camera is off) over a camera that was on and showing."""
        self.make_janus_unreachable(drop_udp=False)
        bob = Peer(self.server, "bob", ["answer", "--accept", "--timeout", "30", "--media", "test", "--media-address", MEDIA_ADDRESS,
                                        "--duration", "60", "--pattern", "ball"])
        self.addCleanup(bob.stop)
        self.server.wait_for_connections(2)
        ring_from_home(self.home, "bob", "join-refused")
        call_window = wait_for(lambda: top_level_window(self.accessible, name="join-refused – Confab"), what="the call window")
        joined_at = time.time()
        wait_for(lambda: find(call_window, name_contains="Couldn’t connect audio and video"), timeout=10, what="the call to say media failed")
        you = wait_for(lambda: find(call_window, name_contains="You, "), what="the self-view's tile")
        picture = wait_for(lambda: find(you, name="Video of You") if "video interrupted" in (you.name or "") else None, timeout=10,
                           what="the self-view showing a picture (not the avatar) while its video is interrupted")
        wait_for(lambda: box(picture)[2] > 40 and box(picture)[3] > 40, what="the self-view laid out")
        self.assert_self_view_moves(picture, "join-refused", joined_at, looks=2)
        self.make_janus_reachable()
        wait_for(lambda: float((self.reception("bob")[0] or {}).get("fps", 0)) > 5, timeout=25, what="bob's video once Janus takes connections")
        print(f"join refused: bob's video received {time.time() - joined_at:.1f} s after the call window")
        bob.stop()

    def test_janusUnreachable_theSelfViewKeepsMoving_whileTheCallReconnects(self):
        bob, call_window = self.call_bob("janus-away", ["--duration", "60", "--pattern", "ball"])
        picture = wait_for(lambda: find(call_window, name="Video of You"), what="the self-view")
        wait_for(lambda: box(picture)[2] > 40 and box(picture)[3] > 40, what="the self-view laid out")
        wait_for(lambda: float((self.reception("bob")[0] or {}).get("kbps", 0)) > 50, timeout=20, what="bob's video received")
        _, seen = self.last_stats("self-view")
        self.make_janus_unreachable()
        cut_at = time.time()
        # Given up once nothing came for a while, then tried again a second later and refused.
        wait_for(lambda: "could not connect the call's media" in "\n".join(self.app.output().splitlines()[seen:]) or None, timeout=20,
                 what="a try refused by the media server")
        print(f"janus away: the first try refused {time.time() - cut_at:.1f} s after the cut")
        # The next tries come 2, 4 and 8 s apart: four looks over the next ~10 s.
        self.assert_self_view_moves(picture, "janus-away", cut_at, looks=4)
        self.assertIsNotNone(find(call_window, name_contains="Reconnecting"), "the call does not say it is reconnecting")
        bob.stop()


class SpotlightStripOverflow(MediaCallTestCase):
    """A spotlight strip with more people than fit (issue 14): in a 360 px window the strip
    under the spotlight shows two thumbnails; the video of whoever is scrolled out of view is
    paused at Janus, and received again once the window is wide enough to show everyone. Both
    ways out of view: someone joining a narrow spotlight (a new tile at the strip's end, with no
    size yet when the strip first says how much of it shows), and the spotlight window narrowed
    (the strip says its new size before its tiles get theirs)."""
    server_args = ("--open-calls",)

    def test_narrowSpotlight_theTileOutOfView_isNotReceived_untilTheWindowWidens(self):
        # Silent peers: the spotlight follows the speaker, which would reorder the strip.
        quiet = ["--pattern", "ball", "--volume", "0"]
        bob, call_window = self.call_bob("strip", ["--duration", "180", *quiet], tile="bob, ")
        everyone = ["bob", "carol", "dave", "erin"]
        for user in ["carol", "dave"]:
            join_with_tile(self, call_window, user, "default:strip", ["--duration", "170", *quiet])
        press_keys(self.xvfb.display, "strip – Confab", "ctrl+l")
        self.resize(360, 640)

        def wait_for_paused(seen, what):
            def paused_users():
                states = {user: self.reception(user, seen)[0] for user in everyone}
                if any(state is None for state in states.values()):
                    return None
                return sorted(user for user, state in states.items() if state["paused"] == "1" and float(state["kbps"]) < 10)
            try:
                # Paused within 1–2 s when it works; a missed update never pauses anyone.
                return wait_for(lambda: paused_users() or None, timeout=15, what=what)
            except AssertionError as error:
                screenshot(self.xvfb.display, "strip-none-paused.png")
                raise AssertionError(f"{error}; last reports: {[self.reception(user, seen)[0] for user in everyone]}; "
                                     f"the app's video requests: {video_requests(self.app)[-20:]}") from None

        # Someone joins the narrow spotlight: her tile comes at the strip's end, out of view.
        time.sleep(1)
        _, seen = self.reception("bob")
        join_with_tile(self, call_window, "erin", "default:strip", ["--duration", "170", *quiet])
        paused = wait_for_paused(seen, "the tile of someone joining a narrow spotlight, out of view, to be paused")
        print(f"spotlight strip: erin joined at 360 px, paused {paused}")
        self.assertEqual(paused, ["erin"], "the strip shows carol and dave; only erin's tile is out of view")
        time.sleep(2)
        erins_feed = paused_feeds(video_requests(self.app))
        self.assertEqual(len(erins_feed), 1, f"a video in view was paused as erin joined: {video_requests(self.app)}")
        screenshot(self.xvfb.display, "strip-narrow.png")
        self.assert_received_again_when_widened(paused)

        # The spotlight window narrowed. While a window is resized, the strip passes through
        # sizes it does not stay at and says its new size before its tiles have theirs: read
        # then, carol's or dave's video was paused and resumed within the second.
        requests_before = len(video_requests(self.app))
        self.resize(360, 640)
        _, seen = self.reception("bob")
        paused = wait_for_paused(seen, "a tile scrolled out of the strip to be paused when the window narrows")
        print(f"spotlight strip: narrowed to 360 px, paused {paused}")
        self.assertEqual(paused, ["erin"], "the strip shows carol and dave; only erin's tile is out of view")
        time.sleep(2)
        requests = video_requests(self.app)[requests_before:]
        self.assertEqual(paused_feeds(requests), erins_feed, f"a video in view was paused as the window narrowed: {requests}")
        self.assert_received_again_when_widened(paused)
        screenshot(self.xvfb.display, "strip-wide.png")
        bob.stop()

    def resize(self, width, height):
        subprocess.run(["xdotool", "search", "--name", "^strip – Confab$", "windowsize", str(width), str(height)],
                       check=True, env={**os.environ, "DISPLAY": self.xvfb.display})

    def assert_received_again_when_widened(self, paused):
        self.resize(1400, 800)
        _, seen = self.reception("bob")
        widened = time.monotonic()
        # 2.4 s on an idle machine, 4.3 s beside two busy loops; CI's load once took over 10 s
        # (2026-11-27). A timeout says what the app last reported for each of them.
        try:
            wait_for(lambda: (lambda states: all(s and s["paused"] == "0" and float(s["fps"]) > 0 for s in states))(
                [self.reception(user, seen)[0] for user in paused]), timeout=30, what=f"{paused} received again in a wide window")
        except AssertionError as error:
            # (A resume once went unanswered for 30 s in CI, 2026-11-27: see ResumeJanusDidNotActOn.)
            raise AssertionError(f"{error}; last reports: {[self.reception(user, seen)[0] for user in paused]}; "
                                 f"the app's video requests: {video_requests(self.app)[-20:]}") from None
        print(f"spotlight strip: {paused} received again {time.monotonic() - widened:.1f} s after the window widened")


class ResumeJanusDidNotActOn(MediaCallTestCase):
    """A video paused before any of it came, then resumed, when Janus takes the resume and
    forwards nothing (CI, 2026-11-27: erin's video, resumed, did not come for 30 s). Janus is
    reached through a relay that turns the first resume of each video into a pause
    (`janus_relay`); the app must notice that the video it asked for does not come and ask
    again, until it does."""

    def setUp(self):
        self.janus = PlainJanus()
        self.addCleanup(self.janus.stop)
        self.relay = ResumeIgnoringRelay(self.janus.port)
        self.addCleanup(self.relay.stop)
        self.server_args = ("--open-calls", "--janus", self.relay.url)
        super().setUp()

    def test_aVideoPausedBeforeItCame_resumed_butNotForwarded_isAskedForAgain(self):
        # Silent peers: the spotlight follows the speaker, which would reorder the strip.
        quiet = ["--pattern", "ball", "--volume", "0"]
        bob, call_window = self.call_bob("resume", ["--duration", "150", *quiet], tile="bob, ")

        for user in ["carol", "dave"]:
            join_with_tile(self, call_window, user, "default:resume", ["--duration", "140", *quiet])
        # A spotlight strip in a narrow window: whoever joins now lands out of view, and their
        # video is paused (as in SpotlightStripOverflow). erin joins with her camera off and
        # turns it on 30 s into the call, so none of her video can come before the pause (under
        # CI's load a join has taken over 20 s, 2026-11-27).
        press_keys(self.xvfb.display, "resume – Confab", "ctrl+l")
        subprocess.run(["xdotool", "search", "--name", "^resume – Confab$", "windowsize", "360", "640"], check=True,
                       env={**os.environ, "DISPLAY": self.xvfb.display})
        time.sleep(1)
        join_with_tile(self, call_window, "erin", "default:resume", ["--duration", "140", *quiet, "--join-camera-off", "--camera-on-after", "30"])
        erin = wait_for(lambda: (lambda r: r if r and r["paused"] == "1" else None)(self.reception("erin")[0]), timeout=30,
                        what="erin's video paused in the narrow window")
        self.assertEqual(erin["size"], "-", f"erin's video came before it was paused: {erin}")

        subprocess.run(["xdotool", "search", "--name", "^resume – Confab$", "windowsize", "1400", "800"], check=True,
                       env={**os.environ, "DISPLAY": self.xvfb.display})
        _, seen = self.reception("erin")
        widened = time.monotonic()
        try:
            back = wait_for(lambda: (lambda r: r if r and r["paused"] == "0" and float(r["fps"]) > 0 else None)(self.reception("erin", seen)[0]),
                            timeout=60, what="erin's video received in the wide window, once her camera is on")
        except AssertionError as error:
            raise AssertionError(f"{error}; last report: {self.reception('erin', seen)[0]}; resumes the relay turned into pauses: "
                                 f"{self.relay.turned}; the app's video requests: {video_requests(self.app)[-20:]}") from None
        print(f"resume not acted on: erin's video came {time.monotonic() - widened:.1f} s after the window widened "
              f"({back['fps']} fps); the relay turned {len(self.relay.turned)} resume(s) into pauses")
        # The case under test happened: Janus was told to pause instead of resume at least once.
        self.assertGreater(len(self.relay.turned), 0, "no resume reached the relay: the window's widening resumed nothing")
        screenshot(self.xvfb.display, "resume-not-acted-on.png")
        bob.stop()


class AskingForAStalledVideoWhileJanusIsAway(MediaCallTestCase):
    """bob's video stops (every UDP packet dropped) while nothing the app sends reaches Janus
    (a relay holds it: the network gone). The app asks Janus for the stalled video every 0.3 s;
    the same request while the first still waits for its answer adds nothing, and is not
    queued: about ten of them piled up behind the first in 3 s, and went to Janus one after the
    other once it was reachable again (or failed together, fifteen warnings at once, when its
    socket closed)."""

    def setUp(self):
        self.janus = PlainJanus()
        self.addCleanup(self.janus.stop)
        self.relay = HoldingRelay(self.janus.port)
        self.addCleanup(self.relay.stop)
        self.addCleanup(self.relay.release)
        self.server_args = ("--janus", self.relay.url)
        super().setUp()

    def test_videoStalls_whileJanusIsAway_theAsksAreNotQueued_andTheVideoComesBack(self):
        bob, call_window = self.call_bob("held", ["--duration", "60", "--pattern", "ball"])
        wait_for(lambda: float((self.reception("bob")[0] or {}).get("fps", 0)) >= 20, timeout=20, what="bob's video at 20 fps or more")
        self.relay.hold()
        subprocess.run(["nft", "-f", "-"], input="table inet stalled { chain input { type filter hook input priority 0; meta l4proto udp drop; }; }",
                       text=True, check=True)
        restored = []
        self.addCleanup(lambda: restored or subprocess.run(["nft", "delete", "table", "inet", "stalled"]))
        time.sleep(3)
        before = len(self.relay.forward_requests)
        self.relay.release()
        released = time.monotonic()
        time.sleep(1)
        subprocess.run(["nft", "delete", "table", "inet", "stalled"], check=True)
        restored.append(True)
        # Per subscription (Janus handle): what reached Janus within 0.25 s of its return.
        burst = {}
        for at, handle in self.relay.forward_requests[before:]:
            if at - released < 0.25:
                burst[handle] = burst.get(handle, 0) + 1
        print(f"stalled video while Janus was away: requests to forward it that reached Janus within 0.25 s of its return, "
              f"by subscription: {sorted(burst.values())}; {len(self.relay.forward_requests) - before} within 1 s")
        self.assertTrue(burst, "the app did not ask Janus for the stalled video")
        # The one waiting when Janus went away, and at most the watch's next ask after its answer.
        self.assertLessEqual(max(burst.values()), 2, f"asks queued while Janus was away reached it all at once: {burst}")
        _, seen = self.reception("bob")
        wait_for(lambda: float((self.reception("bob", seen)[0] or {}).get("fps", 0)) >= 20, timeout=20,
                 what="bob's video back once the network is")


class MediaPathLost(MediaCallTestCase):
    """The network under a call goes away and comes back (issue 14): every UDP packet is dropped
    for 8 s (nftables, inside the test's network namespace; signalling is TCP and stays). The
    call says it is reconnecting its audio and video while nothing gets through, makes a new
    media connection by itself, and stops saying so once bob's video is received again."""

    table = "confab_ui_udp_drop"

    def drop_udp(self):
        subprocess.run(["nft", "add", "table", "inet", self.table], check=True)
        self.addCleanup(lambda: subprocess.run(["nft", "delete", "table", "inet", self.table], capture_output=True))
        subprocess.run(["nft", f"add chain inet {self.table} input {{ type filter hook input priority 0; }}"], check=True)
        subprocess.run(["nft", "add", "rule", "inet", self.table, "input", "meta", "l4proto", "udp", "drop"], check=True)

    def restore_udp(self):
        subprocess.run(["nft", "delete", "table", "inet", self.table], check=True)

    def test_udpGone_callSaysReconnecting_thenBobsVideoIsBack_andItStopsSaying(self):
        if subprocess.run(["which", "nft"], capture_output=True).returncode != 0:
            self.skipTest("nft (Debian nftables) is not installed; `make test-deps` installs it")
        bob, call_window = self.call_bob("path-lost", ["--duration", "60", "--pattern", "ball"], tile="bob, ")
        wait_for(lambda: float((self.reception("bob")[0] or {}).get("kbps", 0)) > 50, timeout=20, what="bob's video received")
        reconnecting = "Audio and video lost. Reconnecting…"
        self.assertIsNone(find(call_window, name=reconnecting), "says reconnecting before anything was lost")

        self.drop_udp()
        dropped_at = time.time()
        wait_for(lambda: find(call_window, name=reconnecting), timeout=8, what="the call to say it is reconnecting")
        print(f"media path lost: 'Reconnecting' shown {time.time() - dropped_at:.1f} s after UDP was dropped")
        screenshot(self.xvfb.display, "path-lost-reconnecting.png")
        time.sleep(max(0, 8 - (time.time() - dropped_at)))
        self.restore_udp()
        restored_at = time.time()
        _, seen = self.reception("bob")
        wait_for(lambda: (lambda r: r if r and float(r["fps"]) > 5 else None)(self.reception("bob", seen)[0]),
                 timeout=20, what="bob's video received again")
        wait_for(lambda: find(call_window, name=reconnecting) is None, timeout=10, what="the reconnecting notice to go")
        print(f"media path lost: bob's video and the call back to normal {time.time() - restored_at:.1f} s after UDP came back")
        bob.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
