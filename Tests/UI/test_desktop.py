"""Desktop integration of the installed app: files validated, background mode, notifications,
single instance with confab: links, preferences kept in GSettings across restarts.

Installs with meson into a temporary prefix, using the debug programs already built (no second
Swift build), then runs the installed `confab` as the desktop would. The notification server and
session manager are stand-ins (Tests/UI/notification_server.py) on the test's private D-Bus session:
the app's side of that boundary (GNotification, gtk_application_inhibit) is the real one."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from confab_ui import (ROOT, ConfabProcess, NotificationStandIn, Peer, Server, XvfbTestCase, app_environment, application, click, confab_binary,
                       find, is_checked, top_level_window, type_text, wait_for)

APP_ID = "org.confab.Confab"
PREFIX = None
BUILD = None


def setUpModule():
    global PREFIX, BUILD
    for tool in ("meson", "ninja", "desktop-file-validate", "appstreamcli", "gdbus"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"{tool} is missing (meson-helpers/install-deps --with-test-tools installs it)")
    BUILD = tempfile.mkdtemp(prefix="confab-meson-")
    PREFIX = tempfile.mkdtemp(prefix="confab-prefix-")
    programs = os.path.dirname(confab_binary())
    run(["meson", "setup", BUILD, os.path.join(ROOT, "meson-helpers"), f"--prefix={PREFIX}", f"-Dprebuilt_bin_dir={programs}"])
    run(["meson", "install", "-C", BUILD])


def tearDownModule():
    shutil.rmtree(BUILD, ignore_errors=True)
    shutil.rmtree(PREFIX, ignore_errors=True)


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result.stdout


def text_of(node):
    text = node.queryText()
    return text.getText(0, text.characterCount)


def installed(*path):
    return os.path.join(PREFIX, *path)


class InstalledFiles(unittest.TestCase):
    def test_desktopFiles_passDesktopFileValidate(self):
        for name in (f"{APP_ID}.desktop", f"{APP_ID}-background.desktop"):
            run(["desktop-file-validate", installed("share", "applications", name)])
        with open(installed("share", "applications", f"{APP_ID}.desktop")) as file:
            entry = file.read()
        self.assertIn("MimeType=x-scheme-handler/confab;", entry)
        self.assertIn("DBusActivatable=true", entry)
        self.assertIn("Categories=Network;VideoConference;", entry)
        # Translated through data/po like the app's own words.
        self.assertIn("GenericName[de]=Videoanrufe", entry)

    def test_translations_installed_andTheMetainfoCarriesThem(self):
        self.assertTrue(os.path.exists(installed("share", "locale", "de", "LC_MESSAGES", "confab.mo")))
        with open(installed("share", "metainfo", f"{APP_ID}.metainfo.xml")) as file:
            self.assertIn('xml:lang="de"', file.read())

    def test_metainfo_passesAppstreamValidate(self):
        run(["appstreamcli", "validate", "--no-net", installed("share", "metainfo", f"{APP_ID}.metainfo.xml")])

    def test_dbusService_startsTheInstalledAppInBackground(self):
        with open(installed("share", "dbus-1", "services", f"{APP_ID}.service")) as file:
            service = file.read()
        self.assertIn(f"Name={APP_ID}", service)
        self.assertIn(f"Exec={installed('bin', 'confab')} --gapplication-service", service)

    def test_schemaCompiled_iconsAndProgramsInstalled(self):
        self.assertTrue(os.path.exists(installed("share", "glib-2.0", "schemas", "gschemas.compiled")))
        keys = run(["gsettings", "--schemadir", installed("share", "glib-2.0", "schemas"), "list-keys", APP_ID]).split()
        for key in ("server-url", "user", "camera", "microphone", "speaker", "layout", "show-permissions-banner",
                    "window-width", "window-height", "window-maximized", "ring-volume"):
            self.assertIn(key, keys)
        self.assertTrue(os.path.exists(installed("share", "icons", "hicolor", "scalable", "apps", f"{APP_ID}.svg")))
        self.assertTrue(os.path.exists(installed("share", "icons", "hicolor", "symbolic", "apps", f"{APP_ID}-symbolic.svg")))
        for program in ("confab", "confab-server", "confab-peer"):
            self.assertTrue(os.access(installed("bin", program), os.X_OK), program)
        self.assertTrue(os.path.exists(installed("share", "confab", "confab.css")))
        # The pages' GtkBuilder layouts, where the installed app looks for them (ResourceLocator).
        for layout in ("home-page.ui", "call-ended-page.ui"):
            self.assertTrue(os.path.exists(installed("share", "confab", "ui", layout)), layout)


class InstalledApp(ConfabProcess):
    """The installed `confab`, with its settings in a keyfile under a temporary config home."""

    def __init__(self, xvfb, config_home, args):
        env = app_environment(xvfb, config_home, {
            # The installed schema, stored in a file we can read (never the developer's dconf).
            "XDG_DATA_DIRS": f"{installed('share')}:/usr/local/share:/usr/share",
            "GSETTINGS_BACKEND": "keyfile",
        })
        env.pop("CONFAB_DATA_DIR", None)
        super().__init__([installed("bin", "confab"), *args], env, os.path.join(config_home, f"confab-{time.monotonic_ns()}.log"))

    def activate_action(self, name):
        """Triggers an application action over D-Bus, as GNOME Shell's menus and notifications do."""
        run(["gdbus", "call", "--session", "--dest", APP_ID, "--object-path", "/org/confab/Confab",
             "--method", "org.gtk.Actions.Activate", name, "[]", "{}"])


class DesktopTestCase(XvfbTestCase):
    def setUp(self):
        self.stand_in = NotificationStandIn()
        self.server = Server()
        self.config_home = tempfile.mkdtemp(prefix="confab-desktop-")
        self.apps, self.peers = [], []
        # Saved as if in Preferences earlier: the app signs in with these, no options needed.
        self.write_settings({"server-url": f"'{self.server.url}'", "user": "'ada'"})

    def tearDown(self):
        outputs = [app.output() for app in self.apps]
        for app in self.apps:
            app.stop()
        for peer in self.peers:
            peer.stop()
        self.server.stop()
        self.stand_in.stop()
        shutil.rmtree(self.config_home, ignore_errors=True)
        # Killed by a signal other than our SIGTERM (an abort on a critical, a crash).
        crashed = [output for app, output in zip(self.apps, outputs)
                   if (app.process.returncode or 0) < 0 and app.process.returncode != -signal.SIGTERM]
        self.assertFalse(crashed, "confab crashed:\n" + "\n---\n".join(crashed))

    def write_settings(self, values):
        directory = os.path.join(self.config_home, "glib-2.0", "settings")
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "keyfile"), "w") as file:
            file.write("[org/confab/Confab]\n" + "".join(f"{key}={value}\n" for key, value in values.items()))

    def quit_and_read_settings(self, app):
        """Quits the app as its menu does and gives back what it saved (the keyfile's text)."""
        app.activate_action("quit")
        self.assertEqual(app.process.wait(15), 0, app.output())
        with open(os.path.join(self.config_home, "glib-2.0", "settings", "keyfile")) as file:
            return file.read()

    def launch(self, *args):
        app = InstalledApp(self.xvfb, self.config_home, ["--test-devices", *args])
        self.apps.append(app)
        return app

    def peer(self, user, *command):
        peer = Peer(self.server, user, list(command))
        self.peers.append(peer)
        return peer

    def window(self, app, name_contains):
        accessible = wait_for(lambda: application(app.process.pid), what="the app on the AT-SPI bus")
        return wait_for(lambda: top_level_window(accessible, name_contains=name_contains), timeout=30,
                        what=f"window '{name_contains}'")


class BackgroundMode(DesktopTestCase):
    def test_backgroundApp_rungByPeer_notifiesAndAcceptJoinsTheCall(self):
        app = self.launch("--gapplication-service")
        self.server.wait_for_connections(1)  # signed in as ada from the saved settings, no window
        self.assertIsNone(top_level_window(application(app.process.pid), name_contains="Confab")
                          if application(app.process.pid) else None)

        bob = self.peer("bob", "ring", "default:desk-ring", "--members", "ada", "--timeout", "40", "--duration", "30")
        notification = wait_for(lambda: next(iter(self.stand_in.calls("Notify")), None), timeout=30,
                                what="the incoming-call notification")
        self.assertEqual(notification["summary"], "bob is calling")
        self.assertIn("Accept", notification["actions"])
        self.assertIn("Decline", notification["actions"])

        self.stand_in.invoke(notification["id"], notification["actions"]["Accept"])
        call_window = self.window(app, "desk-ring – Confab")  # the call window opens on Accept
        # Suspend and idle are inhibited during the call, a log-out asks first (GNOME's session
        # flags: 1 log-out, 4 suspend, 8 idle), and all is released when the call ends.
        inhibit = wait_for(lambda: next(iter(self.stand_in.calls("Inhibit")), None), what="the session inhibited")
        self.assertEqual(inhibit["app_id"], APP_ID)
        self.assertEqual(inhibit["flags"], 1 | 4 | 8)
        self.assertEqual(inhibit["reason"], "In a call")
        click(wait_for(lambda: find(call_window, role="push button", name="Hang up"), what="the Hang up button"))
        wait_for(lambda: self.stand_in.calls("Uninhibit"), timeout=30, what="the inhibitor released after the call")
        self.assertIsNone(app.process.poll(), "the background app keeps running")


class SingleInstance(DesktopTestCase):
    def test_secondLaunchWithLink_opensTheLobbyInTheFirstInstance(self):
        first = self.launch("--gapplication-service")
        self.server.wait_for_connections(1)
        second = self.launch("confab://join/default/desk-link")
        self.assertEqual(second.process.wait(30), 0, second.output())
        self.window(first, "desk-link – Confab")
        self.server.wait_for_connections(1)  # the second launch never signed in itself

    def test_badLink_isRefusedWithAClearMessage(self):
        app = self.launch("https://example.org/not-a-call")
        self.assertNotEqual(app.process.wait(30), 0)
        self.assertIn("not a Confab link", app.output())


class WindowStateKept(DesktopTestCase):
    """The main window opens as it was left, as GNOME's guidelines ask: at its size, and
    maximized if it was."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if shutil.which("openbox") is None:
            raise RuntimeError("openbox is missing (meson-helpers/install-deps --with-test-tools installs it)")

    def x(self, *command):
        return subprocess.run(command, env=dict(os.environ, DISPLAY=self.xvfb.display), check=True,
                              capture_output=True, text=True, timeout=15).stdout

    def main_window(self):
        # GTK's own leader window carries the title too; the toplevel is the last one made.
        return self.x("xdotool", "search", "--sync", "--name", "^Confab$").split()[-1]

    def test_resizedWindow_quit_opensAtThatSizeAgain(self):
        app = self.launch()
        self.window(app, "Confab")
        # Resized as a window manager would for a user dragging its edge (Xvfb has none).
        self.x("xdotool", "windowsize", "--sync", self.main_window(), "1000", "640")
        time.sleep(0.5)
        saved = self.quit_and_read_settings(app)
        # Quit, not a close: the size was kept all the same.
        self.assertIn("window-width=1000", saved)
        self.assertIn("window-height=640", saved)
        self.assertIn("window-maximized=false", saved)

        again = self.launch()
        self.window(again, "Confab")
        self.assertIn("Geometry: 1000x640", self.x("xdotool", "getwindowgeometry", self.main_window()))

    def test_maximizedByTheUser_opensMaximizedAgain_andRestoresToItsOwnSize(self):
        # A window manager for this test (Xvfb has none; maximizing is its job): openbox, which
        # follows GTK's request and sets the window's state as GNOME Shell's would.
        wm = subprocess.Popen(["openbox", "--sm-disable"], env=dict(os.environ, DISPLAY=self.xvfb.display),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: (wm.terminate(), wm.wait(10)))
        wait_for(lambda: "_NET_SUPPORTING_WM_CHECK(WINDOW)" in self.x("xprop", "-root", "_NET_SUPPORTING_WM_CHECK"),
                 what="openbox managing the screen")
        app = self.launch()
        home = self.window(app, "Confab")
        click(wait_for(lambda: find(home, role="push button", name="Maximize"), what="the window's Maximize button"))
        wait_for(lambda: "MAXIMIZED_HORZ" in self.x("xprop", "-id", self.main_window(), "_NET_WM_STATE"), what="the window maximized")
        saved = self.quit_and_read_settings(app)
        self.assertIn("window-maximized=true", saved)
        # The size kept is the window's own, not the screen's.
        self.assertIn("window-width=900", saved)

        again = self.launch()
        home = self.window(again, "Confab")
        wait_for(lambda: "MAXIMIZED_HORZ" in self.x("xprop", "-id", self.main_window(), "_NET_WM_STATE"),
                 what="the window opened maximized")
        self.assertIn("Geometry: 1280x900", self.x("xdotool", "getwindowgeometry", self.main_window()))
        # Restored (the same button, still named Maximize in GTK 4.8), it has that size again.
        click(wait_for(lambda: find(home, role="push button", name="Maximize"), what="the window's Maximize button"))
        wait_for(lambda: "Geometry: 900x700" in self.x("xdotool", "getwindowgeometry", self.main_window()),
                 what="the window back at 900x700")


class PreferencesKept(DesktopTestCase):
    def open_preferences(self, app):
        wait_for(lambda: subprocess.run(["gdbus", "introspect", "--session", "--dest", APP_ID, "--object-path",
                                         "/org/confab/Confab"], capture_output=True).returncode == 0,
                 what="the app on the session bus")
        app.activate_action("preferences")
        return self.window(app, "Preferences")

    def test_preferencesWindow_changes_readBackAfterRestart(self):
        app = self.launch("--gapplication-service")
        self.server.wait_for_connections(1)
        preferences = self.open_preferences(app)
        user = wait_for(lambda: find(preferences, role="text", name="User id"), what="the User id field")
        self.assertEqual(text_of(user), "ada")
        type_text(user, "grace")
        type_text(find(preferences, role="text", name="Sign-in token"), "secret-token")
        camera_on = find(preferences, role="check box", name_contains="Camera on when joining")
        self.assertTrue(camera_on is not None, "the camera-on-joining switch")
        click(camera_on)
        wait_for(lambda: not is_checked(camera_on), what="the camera-on-joining switch off")
        saved = self.quit_and_read_settings(app)
        self.assertIn("user='grace'", saved)
        self.assertIn("token='secret-token'", saved)
        self.assertIn("camera-on-join=false", saved)

        again = self.launch("--gapplication-service")
        preferences = self.open_preferences(again)
        user = wait_for(lambda: find(preferences, role="text", name="User id"), what="the User id field")
        self.assertEqual(text_of(user), "grace")

    def test_voiceSwitches_areOnByDefault_andEachIsSavedOffOnItsOwn(self):
        app = self.launch("--gapplication-service")
        self.server.wait_for_connections(1)
        preferences = self.open_preferences(app)
        switches = {name: wait_for(lambda name=name: find(preferences, role="check box", name_contains=name), what=f"the {name} switch")
                    for name in ["Echo cancellation", "Noise suppression", "Automatic microphone level"]}
        for name, switch in switches.items():
            self.assertTrue(is_checked(switch), f"{name} is off by default")
        click(switches["Echo cancellation"])
        wait_for(lambda: not is_checked(switches["Echo cancellation"]), what="echo cancellation off")
        saved = self.quit_and_read_settings(app)
        self.assertIn("echo-cancellation=false", saved)
        self.assertNotIn("noise-suppression=false", saved)
        self.assertNotIn("automatic-gain-control=false", saved)

        again = self.launch("--gapplication-service")
        preferences = self.open_preferences(again)
        echo = wait_for(lambda: find(preferences, role="check box", name_contains="Echo cancellation"), what="the echo switch")
        self.assertFalse(is_checked(echo), "echo cancellation came back on after a restart")

    def test_startAtLogin_switch_writesAValidAutostartEntry_andRemovesIt(self):
        app = self.launch("--gapplication-service")
        self.server.wait_for_connections(1)
        preferences = self.open_preferences(app)
        at_login = wait_for(lambda: find(preferences, role="check box", name_contains="Start in the background at login"),
                            what="the start-at-login switch")
        self.assertFalse(is_checked(at_login))
        entry_path = os.path.join(self.config_home, "autostart", f"{APP_ID}-background.desktop")

        click(at_login)
        wait_for(lambda: os.path.exists(entry_path), what="the autostart entry written")
        run(["desktop-file-validate", entry_path])
        with open(entry_path) as file:
            entry = file.read()
        # It starts this Confab (the installed one), hidden and signed in.
        self.assertIn(f"Exec={installed('bin', 'confab')} --gapplication-service\n", entry)
        self.assertIn("NoDisplay=true", entry)

        click(at_login)
        wait_for(lambda: not os.path.exists(entry_path), what="the autostart entry removed")
        self.assertFalse(is_checked(at_login))


if __name__ == "__main__":
    unittest.main()
