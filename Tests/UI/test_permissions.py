"""UI tests of the permissions banner: GNOME's privacy switches flipped with `gsettings set`
while the real app runs, read back through AT-SPI.

The app and `gsettings` share a private GSettings backend (GLib's keyfile backend in the app's
temporary XDG_CONFIG_HOME), inside the suite's private D-Bus session, so the developer's own
settings are never touched. "Open Settings" runs a recording stand-in for gnome-control-center
placed first on PATH: the one process boundary we cannot run here.
"""
import datetime
import glob
import json
import os
import sys
import time
import shutil
import stat
import subprocess
import tempfile
import unittest

from confab_ui import (MEDIA_ADDRESS, App, Peer, Server, XvfbTestCase, application, click, find, screenshot, top_level_window,
                       ring_from_home, wait_for)

UNREACHABLE_SERVER = "ws://127.0.0.1:9"
CAMERA = "Camera access required"
MICROPHONE = "Microphone access required"
BOTH = "Camera and microphone access required"


def has_privacy_schema():
    result = subprocess.run(["gsettings", "list-keys", "org.gnome.desktop.privacy"], capture_output=True, text=True)
    return result.returncode == 0 and "disable-camera" in result.stdout.split()


@unittest.skipUnless(shutil.which("gsettings") and has_privacy_schema(), "needs gsettings-desktop-schemas")
class PermissionsBannerTestCase(XvfbTestCase):
    app_args = ["--test-devices", "--call", "default:permissions-test", "--server", UNREACHABLE_SERVER]
    stand_in_status = 0
    desktop = "GNOME"
    device_preferences = None

    def app_arguments(self):
        return self.app_args

    def before_launch(self):
        """Extra environment for the app; subclasses start their stand-ins here."""
        return {}

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="confab-permissions-")
        bin_dir = os.path.join(self.scratch, "bin")
        os.makedirs(bin_dir)
        self.record = os.path.join(self.scratch, "control-center-calls")
        stand_in = os.path.join(bin_dir, "gnome-control-center")
        with open(stand_in, "w") as file:
            file.write(f'#!/bin/sh\necho "$*" >> "{self.record}"\nexit {self.stand_in_status}\n')
        os.chmod(stand_in, os.stat(stand_in).st_mode | stat.S_IXUSR)
        # The panels GNOME 43 (Debian 12) installs: camera and microphone, no privacy hub.
        applications = os.path.join(self.scratch, "data", "applications")
        os.makedirs(applications)
        for panel in ("camera", "microphone", "sound"):
            open(os.path.join(applications, f"gnome-{panel}-panel.desktop"), "w").close()
        env = {
            "GSETTINGS_BACKEND": "keyfile",
            "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
            "XDG_CURRENT_DESKTOP": self.desktop,
            "XDG_DATA_HOME": os.path.join(self.scratch, "data"),
        }
        env.update(self.before_launch())
        self.app = App(self.xvfb, self.app_arguments(), env, self.device_preferences)
        self.gsettings_env = dict(os.environ, GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=self.app.config_home)
        self.accessible = wait_for(lambda: application(self.app.process.pid), what="the app on the AT-SPI bus")
        self.window = self.home_window()

    def tearDown(self):
        failed = self.app.exited()
        output = self.app.output()
        self.app.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)
        self.assertFalse(failed, f"confab exited during the test:\n{output}")

    def home_window(self):
        return wait_for(lambda: top_level_window(self.accessible, name_contains="permissions-"), what="the lobby window")

    def set_privacy(self, key, value):
        subprocess.run(["gsettings", "set", "org.gnome.desktop.privacy", key, "true" if value else "false"],
                       env=self.gsettings_env, check=True, timeout=10)

    def wait_banner(self, title):
        """`title` shown (the other titles gone), or no banner at all when title is None."""
        def matches():
            shown = [text for text in (CAMERA, MICROPHONE, BOTH) if find(self.window, role="label", name=text)]
            return shown == ([title] if title else [])
        wait_for(matches, what=f"banner {title!r}")
        if title:
            wait_for(lambda: find(self.window, role="push button", name="Open Settings"), what="Open Settings")
            wait_for(lambda: find(self.window, role="push button", name="Dismiss"), what="Dismiss")

    def calls_recorded(self):
        if not os.path.exists(self.record):
            return []
        with open(self.record) as file:
            return file.read().splitlines()


class PrivacySwitches(PermissionsBannerTestCase):
    def test_privacySwitchesFlipped_bannerFollowsLive(self):
        self.wait_banner(None)
        self.set_privacy("disable-camera", True)
        self.wait_banner(CAMERA)
        self.assertIsNotNone(find(self.window, role="label", name_contains="can't see you"), "says why")
        screenshot(self.xvfb.display, "permissions-banner-camera.png")

        self.set_privacy("disable-microphone", True)
        self.wait_banner(BOTH)
        screenshot(self.xvfb.display, "permissions-banner-both.png")

        self.set_privacy("disable-camera", False)
        self.wait_banner(MICROPHONE)

        self.set_privacy("disable-microphone", False)
        self.wait_banner(None)

    def test_dismiss_hidesBannerForTheRestOfTheCall(self):
        self.set_privacy("disable-camera", True)
        self.wait_banner(CAMERA)
        click(find(self.window, role="push button", name="Dismiss"))
        self.wait_banner(None)
        self.set_privacy("disable-microphone", True)
        self.assertRaises(AssertionError, lambda: wait_for(lambda: find(self.window, role="label", name=BOTH), timeout=2))

    def test_openSettings_camera_opensCameraPanel(self):
        self.set_privacy("disable-camera", True)
        self.wait_banner(CAMERA)
        click(find(self.window, role="push button", name="Open Settings"))
        wait_for(lambda: self.calls_recorded() == ["camera"], what="gnome-control-center camera")

    def test_openSettings_microphone_opensMicrophonePanel(self):
        self.set_privacy("disable-microphone", True)
        self.wait_banner(MICROPHONE)
        click(find(self.window, role="push button", name="Open Settings"))
        wait_for(lambda: self.calls_recorded() == ["microphone"], what="gnome-control-center microphone")


class SilentMicrophone(PermissionsBannerTestCase):
    """A microphone that is on but sends digital silence is most likely muted by the system."""
    device_preferences = {"microphone": "test:microphone-silent"}

    def test_silentMicrophone_bannerSaysLikelyMuted_opensSoundSettings(self):
        self.wait_banner(MICROPHONE)
        self.assertIsNotNone(find(self.window, role="label", name_contains="probably muted"))
        click(find(self.window, role="push button", name="Open Settings"))
        wait_for(lambda: self.calls_recorded() == ["sound"], what="gnome-control-center sound")


class FailingSettings(PermissionsBannerTestCase):
    stand_in_status = 3

    def test_openSettings_programFails_toastSaysSo(self):
        self.set_privacy("disable-camera", True)
        self.wait_banner(CAMERA)
        click(find(self.window, role="push button", name="Open Settings"))
        wait_for(lambda: find(self.window, name_contains="Settings closed with an error"), what="the failure toast")


class OtherDesktop(PermissionsBannerTestCase):
    desktop = "XFCE"

    def test_openSettings_unknownDesktop_showsWhereToLook(self):
        self.set_privacy("disable-camera", True)
        self.wait_banner(CAMERA)
        click(find(self.window, role="push button", name="Open Settings"))
        dialog = wait_for(lambda: next((window for window in (self.accessible.getChildAtIndex(index)
                                                               for index in range(self.accessible.childCount))
                                        if window is not None and find(window, name_contains="look under Privacy")), None),
                          what="the help dialog")
        screenshot(self.xvfb.display, "permissions-help-dialog.png")
        self.assertEqual(self.calls_recorded(), [], "nothing launched on a desktop we do not know")
        click(wait_for(lambda: find(dialog, role="push button", name_contains="Close"), what="Close"))


class CameraPortal(PermissionsBannerTestCase):
    """Sandboxed (a stand-in .flatpak-info), the camera goes through the portal: a stand-in portal
    on the private bus answers IsCameraPresent, the permission store and AccessCamera."""
    initial = {"permission": "no"}

    def before_launch(self):
        info = os.path.join(self.scratch, "flatpak-info")
        with open(info, "w") as file:
            file.write("[Application]\nname=org.confab.Confab\n")
        self.portal = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_camera_portal.py"),
                                        "org.confab.Confab"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.tell_portal(self.initial)
        self.assertEqual(self.portal.stdout.readline().strip(), "ready")
        return {"CONFAB_FLATPAK_INFO": info}

    def tearDown(self):
        super().tearDown()
        self.portal.stdin.close()
        self.portal.wait(5)
        self.portal.stdout.close()

    def tell_portal(self, change):
        self.portal.stdin.write(json.dumps(change) + "\n")
        self.portal.stdin.flush()

    def test_portalRefuses_bannerShown_grantedInSettings_bannerGoes(self):
        self.wait_banner(CAMERA)
        self.assertIsNotNone(find(self.window, role="label", name_contains="for Confab was refused"))
        self.tell_portal({"permission": "yes"})
        self.wait_banner(None)

    def test_noCameraBehindThePortal_isUnavailable(self):
        self.wait_banner(CAMERA)
        self.tell_portal({"present": False})
        self.wait_banner(None)
        wait_for(lambda: "permission camera: unavailable" in self.app.output(), what="camera reported unavailable")


class CameraPortalNotAskedYet(CameraPortal):
    initial = {"permission": None, "response": 1}

    def test_lobby_asksThePortal_refusalShowsBanner(self):
        self.assertEqual(wait_for(lambda: self.portal.stdout.readline().strip(), what="a portal call"), "AccessCamera")
        self.wait_banner(CAMERA)  # the refusal comes back as "cancelled"; it counts as a refusal

    test_portalRefuses_bannerShown_grantedInSettings_bannerGoes = None
    test_noCameraBehindThePortal_isUnavailable = None


@unittest.skipIf(glob.glob("/dev/video*"), "this machine has a camera")
class NoCamera(PermissionsBannerTestCase):
    app_args = ["--call", "default:permissions-test", "--server", UNREACHABLE_SERVER]

    def test_noCamera_isUnavailable_notDenied(self):
        wait_for(lambda: "permission camera: unavailable" in self.app.output(), what="camera reported unavailable")
        self.set_privacy("disable-camera", True)
        self.assertRaises(AssertionError, lambda: wait_for(lambda: find(self.window, role="label", name=CAMERA), timeout=2))
        self.assertNotIn("permission camera: denied", self.app.output())


class InCall(PermissionsBannerTestCase):
    """The call window shows the banner only for what the call's capabilities let us send.
    The app rings bob (a confab-peer that answers) from its home page, as test_calls does."""

    def app_arguments(self):
        self.server = Server()
        return ["--test-devices", "--server", self.server.url, "--user", "ada"]

    def home_window(self):
        return wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="the home window")

    def tearDown(self):
        super().tearDown()
        if getattr(self, "bob", None):
            self.bob.stop()
        self.server.stop()

    def ring_bob(self, call_name):
        self.server.wait_for_connections(1)
        self.bob = Peer(self.server, "bob", ["answer", "--accept", "--duration", "20", "--timeout", "30"])
        self.server.wait_for_connections(2)
        home = self.window
        ring_from_home(home, "bob", call_name)
        self.window = wait_for(lambda: top_level_window(self.accessible, name=f"{call_name} – Confab"), what="the call window")
        wait_for(lambda: find(self.window, role="push button", name="Hang up"), what="Hang up")


class InDefaultCall(InCall):
    def test_inCall_bannerAtTheTop_followsSwitches(self):
        self.set_privacy("disable-camera", True)
        self.ring_bob("permissions-call")
        self.wait_banner(CAMERA)
        screenshot(self.xvfb.display, "permissions-banner-in-call.png")
        self.set_privacy("disable-camera", False)
        self.wait_banner(None)


def parse_time(text):
    """An ISO 8601 date from a confab-peer report, as seconds since the epoch."""
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


@unittest.skipUnless(MEDIA_ADDRESS, "needs a network namespace: run the UI suites through meson-helpers/netns-run")
class PrivacyObeyedInCall(InCall):
    """The privacy switch is obeyed, not only shown: with the camera refused mid-call, bob
    (a real peer through Janus) stops receiving ada's video; allowed again, it comes back."""

    def app_arguments(self):
        self.server = Server(["--media-address", MEDIA_ADDRESS], media=True)
        return ["--test-devices", "--server", self.server.url, "--user", "ada", "--media-address", MEDIA_ADDRESS]

    def test_cameraRefusedMidCall_bobStopsReceivingAdasVideo_andGetsItBackWhenAllowed(self):
        self.server.wait_for_connections(1)
        self.bob = Peer(self.server, "bob", ["answer", "--accept", "--duration", "16", "--timeout", "30", "--media", "test",
                                             "--media-address", MEDIA_ADDRESS])
        self.server.wait_for_connections(2)
        home = self.window
        ring_from_home(home, "bob", "privacy-call")
        self.window = wait_for(lambda: top_level_window(self.accessible, name="privacy-call – Confab"), what="the call window")
        wait_for(lambda: find(self.window, name_contains="bob, "), timeout=20, what="bob's tile")
        time.sleep(3)  # bob receives ada's camera for a while
        refused_at = time.time()
        self.set_privacy("disable-camera", True)
        self.wait_banner(CAMERA)
        time.sleep(4)
        allowed_at = time.time()
        self.set_privacy("disable-camera", False)

        report = self.bob.report(timeout=40)
        from_ada = [r for r in report.get("media", {}).get("remote", []) if r.get("userID") == "ada"]
        self.assertEqual(len(from_ada), 1, f"bob's view of ada: {json.dumps(from_ada)[:1500]}")
        samples = [(parse_time(s["at"]), s["framesReceived"]) for s in from_ada[0].get("samples", [])]

        def frames_between(start, end):
            inside = [frames for at, frames in samples if start <= at <= end]
            return (inside[-1] - inside[0]) if len(inside) >= 2 else None

        before = frames_between(refused_at - 2.5, refused_at)
        during = frames_between(refused_at + 1.0, allowed_at)
        after = frames_between(allowed_at + 2.0, allowed_at + 6.0)
        self.assertTrue(before and before > 10, f"bob received no video from ada before the switch: {samples}")
        self.assertEqual(during, 0, f"ada's camera kept sending after the privacy switch refused it: {samples}")
        self.assertTrue(after and after > 10, f"ada's camera did not come back when allowed again: {samples}")
