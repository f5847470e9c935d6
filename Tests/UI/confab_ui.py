"""Drive the real Confab app the way a user does: under Xvfb, through AT-SPI.

Run inside a private D-Bus session (dbus-run-session): the accessibility bus and registry are
activated there, so nothing leaks into the developer's desktop. Used by the UI suites and the
lobby benchmark.
"""
import atexit
import json
import os
import shutil
import signal
import select
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import pyatspi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def confab_binary():
    path = os.environ.get("CONFAB_BIN") or os.path.join(ROOT, ".build", "debug", "confab")
    if not os.path.exists(path):
        raise RuntimeError(f"confab not built at {path} (run `make build` or set CONFAB_BIN)")
    return path


# Where failed tests leave a digest of themselves (see `MediaCallTestCase.write_failure_digest`),
# among the artifacts; meson-helpers/test-suites-together prints it last.
FAILURE_DIGESTS = "failure-digests.txt"


def artifacts_dir():
    path = os.environ.get("CONFAB_ARTIFACTS") or os.path.join(ROOT, ".build", "ui-artifacts")
    os.makedirs(path, exist_ok=True)
    return path


class Xvfb:
    """A private X server on a display number it picks itself.

    Xvfb chooses a free number and writes it back (`-displayfd`): picking one by looking for
    lock files raced when two runs started X servers at once (two UI runs side by side, tried
    for `make test`), and the loser could go on to drive the winner's display."""

    def __init__(self, width=1280, height=900):
        read_end, write_end = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write_end,))
        os.close(write_end)
        written = b""
        try:
            deadline = time.time() + 10
            while not written.endswith(b"\n") and time.time() < deadline:
                ready, _, _ = select.select([read_end], [], [], max(0.0, deadline - time.time()))
                chunk = os.read(read_end, 16) if ready else b""
                if not chunk:
                    break
                written += chunk
        finally:
            os.close(read_end)
        if not written.strip().isdigit():
            self.stop()
            raise RuntimeError(f"could not start Xvfb (it wrote {written!r})")
        self.display = f":{written.strip().decode()}"

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(5)
        self.process = None


def app_environment(xvfb, config_home, extra=None):
    """The environment a confab under test runs in: the private X server, the accessibility
    bus, its own config folder, and criticals made fatal."""
    env = dict(os.environ)
    env.update({
        "DISPLAY": xvfb.display,
        "GTK_A11Y": "atspi",
        "GSK_RENDERER": "cairo",       # llvmpipe GL dominates CPU under Xvfb
        "G_DEBUG": "fatal-criticals",  # a GLib/GTK critical is a bug, not noise
        "XDG_CONFIG_HOME": config_home,
        "NO_AT_BRIDGE": "0",
    })
    env.pop("WAYLAND_DISPLAY", None)
    env.update(extra or {})
    return env


# Every process a test starts, so none outlives the run: a setUp that fails after starting a
# server gets no tearDown, and its server (with Janus) would be left with parent 1.
_started = []


@atexit.register
def _stop_leftovers():
    for started in reversed(_started):
        try:
            started.stop()
        except Exception:
            pass
        # A peer's report nobody read (a report is read after the peer stops, so not sooner):
        # hundreds were left in /tmp by a UI run.
        report = getattr(started, "report_path", None)
        if report and os.path.exists(report):
            os.remove(report)


class ConfabProcess:
    """One process of the test's (a confab, a Janus), its output kept in a log file, stopped at
    the latest when the test run ends."""

    def __init__(self, command, env, log_path):
        self.log_path = log_path
        self.log = open(log_path, "w")
        self.process = subprocess.Popen(command, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        _started.append(self)

    def output(self):
        self.log.flush()
        with open(self.log_path) as log:
            return log.read()

    def exited(self):
        return self.process.poll() is not None

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class App(ConfabProcess):
    """The built `confab` with its own config directory."""

    def __init__(self, xvfb, args, extra_env=None, device_preferences=None, wrapper=()):
        """`wrapper`: a command that runs the app in place of itself (`exec`), keeping its pid."""
        self.config_home = tempfile.mkdtemp(prefix="confab-ui-")
        if device_preferences is not None:
            # Choices remembered from an earlier run, in the app's own file format.
            os.makedirs(os.path.join(self.config_home, "confab"))
            with open(os.path.join(self.config_home, "confab", "devices.json"), "w") as file:
                json.dump(device_preferences, file)
        super().__init__([*wrapper, confab_binary(), *args], app_environment(xvfb, self.config_home, extra_env),
                         os.path.join(self.config_home, "confab.log"))

    def stop(self):
        super().stop()
        shutil.rmtree(self.config_home, ignore_errors=True)


class XvfbTestCase(unittest.TestCase):
    """Tests sharing one private X server per class."""

    @classmethod
    def setUpClass(cls):
        cls.xvfb = Xvfb()

    @classmethod
    def tearDownClass(cls):
        cls.xvfb.stop()


def wait_for(condition, timeout=15, interval=0.1, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            value = condition()
        except Exception:  # AT-SPI objects vanish while windows change; try again
            value = None
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def application(pid):
    """The AT-SPI application object of process `pid`."""
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def walk(node, depth=0, max_depth=40):
    if node is None or depth > max_depth:
        return
    yield node
    try:
        count = node.childCount
    except Exception:
        return
    for index in range(count):
        try:
            child = node.getChildAtIndex(index)
        except Exception:
            continue
        yield from walk(child, depth + 1, max_depth)


def matching(root, role=None, name=None, name_contains=None, showing=None):
    """The nodes under `root` that match, in tree order, as they are found."""
    for node in walk(root):
        try:
            if role is not None and node.getRoleName() != role:
                continue
            if name is not None and node.name != name:
                continue
            if name_contains is not None and name_contains not in (node.name or ""):
                continue
            if showing is not None and is_showing(node) != showing:
                continue
        except Exception:
            continue
        yield node


def find_all(root, **criteria):
    return list(matching(root, **criteria))


def find(root, **criteria):
    """The first match; the walk stops there (a call window's whole tree takes seconds)."""
    return next(matching(root, **criteria), None)


def is_showing(node):
    return node.getState().contains(pyatspi.STATE_SHOWING)


def box(node):
    """Where `node` is on screen: (x, y, width, height)."""
    extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return extents.x, extents.y, extents.width, extents.height


def is_inside(node, window):
    """Whether `node` is laid out within `window` on screen. (GTK 4.8 does not report the
    showing state of most widgets; a sidebar slid away keeps its widgets, off to the side.)"""
    (nx, ny, nw, nh), (wx, wy, ww, wh) = box(node), box(window)
    return nw > 0 and nh > 0 and wx <= nx and nx + nw <= wx + ww and wy <= ny and ny + nh <= wy + wh


def on_screen(window, **criteria):
    """The first node matching `criteria` that is laid out inside `window`, or None."""
    for node in find_all(window, **criteria):
        try:
            if is_inside(node, window):
                return node
        except Exception:
            continue
    return None


def is_checked(node):
    states = node.getState()
    return states.contains(pyatspi.STATE_CHECKED) or states.contains(pyatspi.STATE_PRESSED)


def click(node):
    """Invoke the node's first action ("click"), as a screen-reader user would. A composite
    control (GtkMenuButton) carries its name outside and its button inside: click that one."""
    try:
        actionable = node.queryAction().nActions > 0
    except NotImplementedError:
        actionable = False
    if not actionable:
        for child in walk(node):
            try:
                if child is not node and child.queryAction().nActions > 0:
                    node = child
                    break
            except NotImplementedError:
                continue
    action = node.queryAction()
    for index in range(action.nActions):
        if action.getName(index) in ("click", "press", "activate", "toggle"):
            action.doAction(index)
            return
    action.doAction(0)


def send_keys(display, keys):
    """Type keys into whatever has the keyboard focus now (a popover that holds it, say)."""
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "key", keys], env=env, check=True, timeout=10)


def press_keys(display, window_title, keys):
    """Type keys into a window through the X server (XTest), as a keyboard would, e.g.
    press_keys(":91", "lobby-test – Confab", "ctrl+d"). With no window manager running, the
    window is given the input focus first."""
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "search", "--sync", "--limit", "1", "--name", f"^{window_title}$", "windowfocus", "--sync"],
                   env=env, check=True, timeout=10, stdout=subprocess.DEVNULL)
    subprocess.run(["xdotool", "key", "--clearmodifiers", keys], env=env, check=True, timeout=10)


def screenshot(display, name):
    path = os.path.join(artifacts_dir(), name)
    subprocess.run(["import", "-display", display, "-window", "root", path], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return path


_READ_CLIPBOARD = """
import sys
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, Gtk
Gtk.init()
loop = GLib.MainLoop()
result = []
def done(clipboard, task):
    try:
        result.append(clipboard.read_text_finish(task) or "")
    except GLib.Error:
        result.append("")
    loop.quit()
Gdk.Display.get_default().get_clipboard().read_text_async(None, done)
GLib.timeout_add_seconds(5, loop.quit)
loop.run()
sys.stdout.write(result[0] if result else "")
"""


def read_clipboard(display):
    """The text on the X display's clipboard, read as another GTK app would paste it."""
    # Off the accessibility bus: the reader is no app under test, and a GTK app that joins and
    # leaves the bus mid-suite is one more thing for the registry to keep up with.
    env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11", GTK_A11Y="none", NO_AT_BRIDGE="1")
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(["/usr/bin/python3", "-c", _READ_CLIPBOARD], env=env, capture_output=True, text=True, timeout=20).stdout


def pixels(path, x, y, width, height):
    """Every (r, g, b) of a region of a screenshot, row by row, via ImageMagick."""
    out = subprocess.run(["convert", path, "-crop", f"{width}x{height}+{x}+{y}", "+repage", "-depth", "8", "rgb:-"],
                         check=True, capture_output=True).stdout
    return [tuple(out[i:i + 3]) for i in range(0, len(out) - 2, 3)]


def slate_corners(path, rectangle):
    """The corners of a tile at `rectangle` (x, y, width, height) in the screenshot at `path`
    (not the one with the name) that show the test camera's slate background (30,38,46): its
    moving ball covers one of them at most, so two or more say the tile shows the camera; and
    what each corner looked like, for the failure message."""
    x, y, width, height = rectangle
    def slate(corner):
        return sum(abs(r - 0x30) < 16 and abs(g - 0x38) < 16 and abs(b - 0x46) < 16 for r, g, b in corner) > 0.8 * len(corner)
    corners = [pixels(path, cx, cy, 12, 8) for cx, cy in
               ((x + 16, y + 12), (x + width - 28, y + 12), (x + width - 28, y + height - 20))]
    return sum(map(slate, corners)), [corner[:3] for corner in corners]


def pixel(path, x, y):
    """(r, g, b) of one pixel of a screenshot."""
    return pixels(path, x, y, 1, 1)[0]


class Server:
    """A real confab-server on a free loopback port, dev auth, temporary database.

    Without `media=True` it runs with `--no-media`: no managed Janus, so joins carry no media
    endpoint (these tests are about the windows; media needs a network namespace, see
    Tests/ConfabEndToEndTests/Media_EndToEndTests.swift)."""

    def __init__(self, extra_args=(), media=False):
        self.directory = tempfile.mkdtemp(prefix="confab-server-")
        binary = os.path.join(os.path.dirname(confab_binary()), "confab-server")
        self.log = open(os.path.join(self.directory, "server.log"), "w+")
        media_args = () if media else ("--no-media",)
        self.process = subprocess.Popen(
            [binary, "--host", "127.0.0.1", "--port", "0", "--dev-auth", "--db", os.path.join(self.directory, "calls.sqlite"),
             *media_args, *extra_args],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        _started.append(self)
        line = self.process.stdout.readline().strip()
        if not line.startswith("listening on "):
            raise RuntimeError(f"confab-server did not start: {line!r}")
        self.url = line[len("listening on "):]

    def health(self):
        import json as _json
        import urllib.request
        http = self.url.replace("ws://", "http://") + "/health"
        with urllib.request.urlopen(http, timeout=2) as response:
            return _json.loads(response.read())

    def stored_call(self, cid, column="cid"):
        """`column` of the call `cid` as the server stored it (its SQLite database), or None
        while there is no such call."""
        import sqlite3
        database = sqlite3.connect(os.path.join(self.directory, "calls.sqlite"))
        try:
            row = database.execute(f"SELECT {column} FROM call WHERE cid = ?", (cid,)).fetchone()
        finally:
            database.close()
        return row[0] if row else None

    def wait_for_connections(self, count):
        wait_for(lambda: self.health().get("connections") == count, what=f"{count} clients signed in to the server")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process.stdout.close()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


class Peer:
    """A headless `confab-peer` process; its JSON report is read when it finishes. What it
    prints is collected as it comes (by a thread), so a test can wait for a line while it runs."""

    def __init__(self, server, user, command):
        self.user = user
        self.report_path = tempfile.mktemp(prefix=f"confab-peer-{user}-", suffix=".json")
        binary = os.path.join(os.path.dirname(confab_binary()), "confab-peer")
        self.process = subprocess.Popen([binary, "--server", server.url, "--user", user, "--report", self.report_path, *command],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self._lines = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        _started.append(self)

    def _read(self):
        with self.process.stdout:
            for line in self.process.stdout:
                self._lines.append(line)

    def output(self):
        """Everything printed so far (all of it once the process has ended)."""
        if self.process.poll() is not None:
            self._reader.join(5)
        return "".join(self._lines)

    def wait_for_output(self, text, timeout=20):
        """Waits until the peer has printed `text` (a line's part); fails with what it printed."""
        deadline = time.monotonic() + timeout
        while text not in self.output():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"confab-peer never printed {text!r}; it printed:\n{self.output()}")
            time.sleep(0.2)

    def report(self, timeout=30):
        self.process.wait(timeout=timeout)
        output = self.output()
        try:
            with open(self.report_path) as file:
                return json.load(file)
        except (OSError, ValueError) as error:
            raise AssertionError(f"no report from confab-peer ({error}); output:\n{output}")
        finally:
            if os.path.exists(self.report_path):
                os.remove(self.report_path)

    def stop_and_report(self, timeout=30):
        """Asks the peer to leave now and reads its report: SIGTERM, on which it leaves its call
        and writes the report as at the end of its --duration. For a test whose checks need no
        more of the peer's time: waiting out a duration chosen for a slow machine cost up to
        30 s a test (~157 s in one run of the UI suites)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.report(timeout)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self._reader.join(5)


def type_text(node, text):
    """Replace an entry's text, as typing would."""
    node.queryEditableText().setTextContents(text)


def ring_from_home(home, people, call_name):
    """On the home page: who to ring (e.g. "bob, cleo") and the call's name, then Call."""
    type_text(find(home, role="text", name="People to call"), people)
    type_text(find(home, role="text", name="Call name"), call_name)
    click(find(home, role="push button", name="Call"))


def top_level_window(app, name=None, name_contains=None):
    """One of the app's windows, by title. (GTK 4.8 reports windows as "frame" or, for some
    windows that open while another is focused, as "filler"; the title is what identifies them.)"""
    for index in range(app.childCount):
        window = app.getChildAtIndex(index)
        if window is None:
            continue
        title = window.name or ""
        if (name is not None and title == name) or (name_contains is not None and name_contains in title):
            return window
    return None


class NotificationStandIn:
    """Tests/UI/notification_server.py on the session bus, and what it recorded."""

    def __init__(self):
        self.record_path = tempfile.mktemp(prefix="confab-notifications-", suffix=".jsonl")
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "notification_server.py")
        self.process = subprocess.Popen(["/usr/bin/python3", script, self.record_path], stdout=subprocess.PIPE, text=True)
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the notification stand-in did not start")

    def calls(self, name):
        if not os.path.exists(self.record_path):
            return []
        with open(self.record_path) as file:
            return [entry for entry in map(json.loads, file) if entry["call"] == name]

    def invoke(self, notification_id, action_key):
        subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                        "/org/freedesktop/Notifications", "--method", "org.confab.TestHooks.InvokeAction",
                        str(notification_id), action_key], check=True, capture_output=True, timeout=30)

    def stop(self):
        self.process.terminate()
        self.process.wait(5)
        self.process.stdout.close()
        if os.path.exists(self.record_path):
            os.remove(self.record_path)


MEDIA_ADDRESS = os.environ.get("CONFAB_MEDIA_ADDRESS")


class MediaCallTestCase(XvfbTestCase):
    """The app signed in as ada against a real server with managed Janus, inside the network
    namespace that `meson-helpers/netns-run` made (Janus ignores loopback). Subclasses skip
    themselves, saying why, when run outside one."""

    @classmethod
    def setUpClass(cls):
        if not MEDIA_ADDRESS:
            raise unittest.SkipTest("needs a network namespace: run the UI suites through meson-helpers/netns-run")
        super().setUpClass()

    # More confab-server arguments, more of the app's environment, and a command the app is
    # run through (`App`'s wrapper), for subclasses.
    server_args = ()
    app_env = {}
    app_wrapper = ()
    app_device_preferences = None

    def setUp(self):
        # What this test starts from here on: its peers' output goes with a failure.
        self.first_started = len(_started)
        self.server = Server(["--media-address", MEDIA_ADDRESS, *self.server_args], media=True)
        self.addCleanup(self.server.stop)  # also when the rest of setUp fails
        # The app sends 360p at most here (up to five video pipelines share two cores; 720p
        # costs ~4x to encode) and prints what it receives each second (CONFAB_STATS).
        self.app = App(self.xvfb, ["--server", self.server.url, "--user", "ada", "--test-devices", "--media-address", MEDIA_ADDRESS,
                                   "--max-video-size", "640x360"], extra_env={"CONFAB_STATS": "1", **self.app_env},
                       device_preferences=self.app_device_preferences, wrapper=self.app_wrapper)
        self.addCleanup(self.app.stop)
        self.accessible = wait_for(lambda: application(self.app.process.pid), what="the app on the AT-SPI bus")
        self.home = wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="the home window")
        self.server.wait_for_connections(1)

    def call_bob(self, call_name, bob_arguments, tile="bob, "):
        """Rings bob (a confab-peer that answers with test media) from the home page; returns
        bob and the call window once bob's tile (whose name contains `tile`) is shown."""
        # bob's steady test tone is sent unprocessed: noise suppression would take it for noise
        # and lower it below what Janus counts as speaking, and the echo canceller would remove
        # it as echo of the app's test tone (the same 440 Hz sine, perfectly predictable).
        bob = Peer(self.server, "bob", ["answer", "--accept", "--timeout", "30", "--media", "test",
                                        "--no-noise-suppression", "--no-gain-control", "--no-echo-cancellation",
                                        "--media-address", MEDIA_ADDRESS, *bob_arguments])
        self.addCleanup(bob.stop)
        self.server.wait_for_connections(2)
        ring_from_home(self.home, "bob", call_name)
        call_window = wait_for(lambda: top_level_window(self.accessible, name=f"{call_name} – Confab"), what="the call window")
        wait_for(lambda: find(call_window, name_contains=tile), timeout=20, what=f"bob's tile ({tile})")
        return bob, call_window

    def reception(self, user, after=0):
        """The app's last `confab-stats: receiving` line for `user` among the lines after the
        first `after` of its output, as a dict (size, fps, kbps, paused), or None; and the
        number of lines read."""
        return self.last_stats(f"receiving user={user}", after)

    def last_stats(self, kind, after=0):
        """The app's last `confab-stats: KIND …` line (e.g. "sending", "self-view") among the
        lines after the first `after` of its output, its key=value pairs after KIND as a dict,
        or None; and the number of lines read."""
        lines = self.app.output().splitlines()
        prefix = f"confab-stats: {kind} "
        last = None
        for line in lines[after:]:
            if line.startswith(prefix):
                last = dict(part.split("=", 1) for part in line[len(prefix):].split() if "=" in part)
        return last, len(lines)

    def tearDown(self):
        crashed = self.app.exited()
        output = self.app.output()
        self.app.stop()
        self.server.stop()
        self.assertFalse(crashed, f"confab exited during the test:\n{output}")
        report = self.failure_report()
        if report is not None:
            # A failure on CI is all there is to go by: what the app said last, and in full
            # among the artifacts.
            lines = output.splitlines()
            print(f"\n--- the app's last {min(len(lines), 60)} lines of output ({len(lines)} in all) ---\n" + "\n".join(lines[-60:]),
                  file=sys.stderr)
            with open(os.path.join(artifacts_dir(), f"{self.id()}.app.log"), "w") as file:
                file.write(output)
            self.write_failure_digest(lines, report)
            self.keep_peers_output()

    def write_failure_digest(self, lines, report):
        """A few lines on this failure for the end of `make test`'s output, where CI shows only
        the last lines: the assertion, what the app said last, and its last media statistics
        (all of it is further up, and in the artifacts)."""
        assertion = ([line for line in report.splitlines() if line.strip()] or ["?"])[-1]
        said = [line for line in lines if not line.startswith("confab-stats:")][-8:]
        statistics = [line for line in lines if line.startswith("confab-stats: receiving") or line.startswith("confab-stats: sending")][-2:]
        with open(os.path.join(artifacts_dir(), FAILURE_DIGESTS), "a") as file:
            file.write(f"-- {self.id()}: {assertion}\n" + "".join(f"   {line[:220]}\n" for line in said + statistics))

    def keep_peers_output(self):
        """Each peer's output among the artifacts, and its last lines on standard error: a
        peer that was slow or failed (a camera that never came on, a join that took 40 s) is
        otherwise told from the app's side only (CI, 2026-12-01: erin's video never came, and
        nothing said whether she ever sent it)."""
        for peer in _started[self.first_started:]:
            if not isinstance(peer, Peer):
                continue
            output = peer.output()
            with open(os.path.join(artifacts_dir(), f"{self.id()}.{peer.user}.log"), "w") as file:
                file.write(output)
            lines = output.splitlines()
            print(f"\n--- {peer.user}'s last {min(len(lines), 15)} lines of output ({len(lines)} in all) ---\n" + "\n".join(lines[-15:]),
                  file=sys.stderr)

    def failure_report(self):
        """The traceback of this test's failure or error, or None when it has neither (read in
        tearDown: since Python 3.11 the result has it by then)."""
        result = getattr(self._outcome, "result", None)
        return next((text for test, text in getattr(result, "failures", []) + getattr(result, "errors", []) if test is self), None)
