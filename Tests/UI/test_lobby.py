"""UI tests of the lobby: the real `confab` under XvfbTestCase, driven through AT-SPI."""
import os
import subprocess
import time
import unittest

import pyatspi

from confab_ui import App, XvfbTestCase, application, box, click, find, is_checked, pixel, pixels, press_keys, screenshot, top_level_window, wait_for

# Nothing listens on the discard port: the lobby must cope with an unreachable server.
UNREACHABLE_SERVER = "ws://127.0.0.1:9"
LOBBY_TITLE = "lobby-test – Confab"


class LobbyTestCase(XvfbTestCase):
    app_args = ["--test-devices", "--call", "default:lobby-test", "--server", UNREACHABLE_SERVER]
    extra_env = {}
    device_preferences = None

    def setUp(self):
        self.app = App(self.xvfb, self.app_args, self.extra_env, self.device_preferences)
        self.accessible = wait_for(lambda: application(self.app.process.pid), what="the app on the AT-SPI bus")
        self.window = wait_for(lambda: top_level_window(self.accessible, name=LOBBY_TITLE), what="the lobby window")

    def tearDown(self):
        failed = self.app.exited()
        output = self.app.output()
        self.app.stop()
        self.assertFalse(failed, f"confab exited during the test:\n{output}")

    def control(self, role, name):
        return wait_for(lambda: find(self.window, role=role, name=name), what=f"{role} '{name}'")

    def press(self, keys):
        press_keys(self.xvfb.display, LOBBY_TITLE, keys)

    def wait_shown(self, role, name, shown=True):
        """GTK leaves hidden widgets (and the stack's hidden pages) out of the accessibility tree."""
        wait_for(lambda: (find(self.window, role=role, name=name) is not None) == shown,
                 what=f"{role} '{name}' {'shown' if shown else 'hidden'}")


class LobbyWithTestDevices(LobbyTestCase):
    def test_controls_haveAccessibleNamesAndRoles(self):
        join = self.control("push button", "Join call")
        microphone = self.control("push button", "Microphone")
        camera = self.control("push button", "Camera")
        self.assertTrue(is_checked(microphone), "microphone should start on")
        self.assertTrue(is_checked(camera), "camera should start on")
        self.assertTrue(join.getState().contains(pyatspi.STATE_FOCUSABLE))
        self.control("level bar", "Microphone level")
        for title in ("Camera", "Microphone", "Speaker"):
            self.assertIsNotNone(find(self.window, name=title, role="combo box") or find(self.window, name=title, role="list item")
                                 or find(self.window, name=title), f"device picker {title}")
        self.wait_shown("image", "Camera preview")
        # Unreachable server: said as such (not as a poor connection), with what to do.
        wait_for(lambda: find(self.window, role="label", name_contains="Can’t reach the call server"),
                 what="the server called unreachable")
        self.assertIsNone(find(self.window, role="label", name="Please check your internet connection."),
                          "a server that doesn't answer is called a bad internet connection")
        time.sleep(0.5)  # let a few more preview frames land before the picture is taken
        print("screenshot:", screenshot(self.xvfb.display, "lobby.png"))

    def test_cameraToggleClicked_previewReplacedByAvatar_andBackAgain(self):
        camera = self.control("push button", "Camera")
        self.wait_shown("image", "Camera preview")

        click(camera)
        wait_for(lambda: not is_checked(camera), what="camera toggle off")
        self.wait_shown("image", "Camera preview", shown=False)
        avatar = wait_for(lambda: find(self.window, name_contains="camera is off"), what="avatar with 'camera is off'")
        self.assertEqual(avatar.name, "me, camera is off")
        screenshot(self.xvfb.display, "lobby-camera-off.png")

        click(camera)
        wait_for(lambda: is_checked(camera), what="camera toggle on")
        self.wait_shown("image", "Camera preview")
        self.assertIsNone(find(self.window, name_contains="camera is off"))

    def test_preview_showsTheWholeCameraFrame_withTheTogglesInView_atEverySize(self):
        """The lobby is where people check what the others will see: the preview has the
        camera's 16:9 shape, filled by its frames, as large as the window allows with the
        toggles still in view above Join. (It was a 584x158 strip at the default size, the
        frame cropped to a band across the face.)"""
        preview = self.control("image", "Camera preview")
        toggles = [self.control("push button", "Microphone"), self.control("push button", "Camera")]
        join = self.control("push button", "Join call")

        def box(node):
            extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            return extents.x, extents.y, extents.width, extents.height

        def has_camera_shape():
            _, _, width, height = box(preview)
            return height > 0 and abs(width / height - 16 / 9) < 0.02

        def toggles_above_join():
            return all(box(toggle)[1] + box(toggle)[3] <= box(join)[1] for toggle in toggles)

        for width, height in ((900, 700), (650, 505), (360, 480)):
            subprocess.run(["xdotool", "search", "--name", f"^{LOBBY_TITLE}$", "windowsize", str(width), str(height)], check=True,
                           env=dict(os.environ, DISPLAY=self.xvfb.display), timeout=10, stdout=subprocess.DEVNULL)
            # Laid out anew (the window's extents leave out the few pixels of its client-side border).
            wait_for(lambda: abs(box(self.window)[2] - width) < 12 and abs(box(self.window)[3] - height) < 12 and has_camera_shape()
                     and toggles_above_join(),
                     what=f"a 16:9 preview with the toggles above Join in a {width}x{height} window (preview {box(preview)}, "
                          f"toggles {[box(toggle) for toggle in toggles]}, Join {box(join)})")
            x, y, preview_width, preview_height = box(preview)
            self.assertGreaterEqual(preview_width, 280, "the smallest preview")
            time.sleep(0.5)  # frames scaled to the new size
            # The test camera's background (0x303846) in both top corners, inside the rounded
            # edge: the frame fills the preview, no bars beside it. The moving ball and its
            # cross-hair lines pass by now and then: a few points per corner, a few shots.
            corners = {"left": x + 14, "right": x + preview_width - 34}
            seen = {}
            for attempt in range(4):
                shot = screenshot(self.xvfb.display, f"lobby-{width}x{height}.png")
                for corner, corner_x in corners.items():
                    points = [pixel(shot, corner_x + 5 * k, y + 14 + 5 * k) for k in range(5)]
                    seen.setdefault(corner, []).append(points)
                if all(any(sum(abs(r - 0x30) < 12 and abs(g - 0x38) < 12 and abs(b - 0x46) < 12 for r, g, b in points) >= 3
                           for points in seen[corner]) for corner in corners):
                    break
                time.sleep(0.25)
            else:
                self.fail(f"the camera's frame does not fill the preview's top corners at {width}x{height}: {seen}")

    def test_cairoRenderer_loadsNoGL(self):
        """Under the cairo renderer (the suites' GSK_RENDERER=cairo, as on a machine without a
        GPU) GTK 4.8 loaded Mesa's software GL and LLVM anyway, to pick a visual for GL windows
        that never come: ~20 MiB of the app's footprint. The preview is drawn all the same."""
        self.wait_shown("image", "Camera preview")
        with open(f"/proc/{self.app.process.pid}/maps") as maps:
            gl = sorted({line.split()[-1] for line in maps
                         if any(name in line for name in ("libLLVM", "_dri.so", "libEGL_mesa", "libGLX_mesa", "libgallium"))})
        self.assertEqual(gl, [], "GL libraries loaded under the cairo renderer")

    def test_lobby_hasTheCallsPluginsLoaded_beforeJoin(self):
        """GStreamer loads a plugin the first time one of its elements is made: the SRTP plugin
        (whose load runs libsrtp's self-test through NSS, 25-35 ms) inside the first answer of a
        join, on the way to the first frame. The app loads what a call needs as it starts."""
        self.wait_shown("image", "Camera preview")
        def loaded():
            with open(f"/proc/{self.app.process.pid}/maps") as maps:
                return {line.split()[-1].rsplit("/", 1)[-1] for line in maps if "gstreamer-1.0/libgst" in line}
        wanted = {"libgstsrtp.so", "libgstnice.so"}
        wait_for(lambda: wanted <= loaded(), what=f"{sorted(wanted)} loaded in the lobby", timeout=10)

    def test_ctrlD_and_ctrlE_toggleMicrophoneAndCamera(self):
        microphone = self.control("push button", "Microphone")
        camera = self.control("push button", "Camera")
        self.press("ctrl+d")
        wait_for(lambda: not is_checked(microphone), what="microphone off after Ctrl+D")
        self.assertTrue(is_checked(camera))
        self.press("ctrl+e")
        wait_for(lambda: not is_checked(camera), what="camera off after Ctrl+E")
        self.press("ctrl+d")
        wait_for(lambda: is_checked(microphone), what="microphone on again")

    def test_enterWithoutServer_staysInLobby_andSaysWhy(self):
        self.press("Return")
        wait_for(lambda: find(self.window, name_contains="Not connected to a call server"), what="toast saying why")
        self.assertIsNotNone(find(self.window, role="push button", name="Join call"))

    def test_enterWithoutServer_atPhoneSize_theToastSaysItAll_onMoreLines(self):
        """Seen as a user: in a call made 360 px wide, the toast saying the media connection had
        dropped read "The network connection d…": libadwaita's toast cuts its title to one line.
        A toast's words now wrap where one line does not hold them, beside its close button."""
        subprocess.run(["xdotool", "search", "--name", f"^{LOBBY_TITLE}$", "windowsize", "360", "640"], check=True,
                       env=dict(os.environ, DISPLAY=self.xvfb.display), timeout=10, stdout=subprocess.DEVNULL)
        wait_for(lambda: abs(box(self.window)[2] - 360) < 12, what="the lobby at 360 px")
        self.press("Return")
        words = "Not connected to a call server. Check the server address and try again."
        toast = wait_for(lambda: find(self.window, role="label", name=words), what="the toast saying why")
        time.sleep(0.5)  # its slide in
        shot = screenshot(self.xvfb.display, "lobby-toast-360.png")
        x, y, width, height = box(toast)
        wx, wy, window_width, window_height = box(self.window)
        self.assertTrue(wx <= x and x + width <= wx + window_width, f"the toast's words at {box(toast)} overflow the window at {box(self.window)}")
        # On one line the words ended in "…", the label as tall as the toast's pill (34 px); at
        # this width they take three lines (~55 px).
        self.assertGreater(height, 40, f"the toast's words are on one line ({box(toast)}), so cut short")
        # The close button's white cross, right of the words and inside the window (a wrapping
        # title once pushed it out of the toast).
        beside = pixels(shot, x + width, y, wx + window_width - 12 - (x + width), height)
        self.assertTrue([p for p in beside if min(p) > 200], "no close button beside the toast's words")

    def test_escape_closesLobby_andReturnsToIdle(self):
        self.press("Escape")
        wait_for(lambda: top_level_window(self.accessible, name=LOBBY_TITLE) is None, what="lobby window closed")
        home = wait_for(lambda: top_level_window(self.accessible, name="Confab"), what="home window")
        screenshot(self.xvfb.display, "home.png")
        # The home page's ☰ main menu has Preferences, Keyboard Shortcuts and About.
        click(wait_for(lambda: find(home, name="Main Menu"), what="the main menu button"))
        for item in ("Keyboard Shortcuts", "About Confab"):
            wait_for(lambda: find(self.accessible, name=item), what=f"“{item}” in the main menu")
        screenshot(self.xvfb.display, "main-menu.png")
        click(wait_for(lambda: find(self.accessible, name="Preferences"), what="Preferences in the main menu"))
        wait_for(lambda: top_level_window(self.accessible, name="Preferences"), what="the Preferences window")


class LobbyForAnotherUser(LobbyTestCase):
    """`make run USER=bob` beside your own Confab: its own instance, still opening --call."""
    app_args = ["--test-devices", "--call", "default:lobby-test", "--server", UNREACHABLE_SERVER, "--user", "carol"]

    def test_explicitUser_opensTheCallsLobby_asThatUser(self):
        camera = self.control("push button", "Camera")
        click(camera)
        avatar = wait_for(lambda: find(self.window, name_contains="camera is off"), what="avatar with 'camera is off'")
        self.assertEqual(avatar.name, "carol, camera is off")


class LobbyWithSilentMicrophone(LobbyTestCase):
    device_preferences = {"microphone": "test:microphone-silent"}

    def test_rememberedSilentMicrophone_showsWarning(self):
        microphone_row_value = wait_for(lambda: find(self.window, name="Test Microphone (silence)"), what="remembered microphone selected")
        self.assertIsNotNone(microphone_row_value)
        self.assertIsNone(find(self.window, role="label", name="Your mic doesn't seem to be working."),
                          "the warning must wait for a few seconds of silence")
        self.wait_shown("label", "Your mic doesn't seem to be working.")
        screenshot(self.xvfb.display, "lobby-silent-mic.png")


class LobbyWithoutDevices(LobbyTestCase):
    app_args = ["--call", "default:lobby-test", "--server", UNREACHABLE_SERVER]
    # Hide every device provider: this is what a machine with no camera or sound card looks like.
    extra_env = {"GST_PLUGIN_FEATURE_RANK": "v4l2deviceprovider:NONE,pulsedeviceprovider:NONE,"
                 "alsadeviceprovider:NONE,pipewiredeviceprovider:NONE,libcameraprovider:NONE"}

    def test_noCameraNoMicrophone_saysSo_andShowsAvatar(self):
        wait_for(lambda: find(self.window, name_contains="no camera found"), what="avatar saying no camera")
        wait_for(lambda: find(self.window, role="label", name_contains="No microphone found. Plug one in"), what="no microphone message")
        self.assertIsNone(find(self.window, role="image", name="Camera preview"))
        self.assertIsNotNone(find(self.window, role="push button", name="Join call"))
        self.assertIsNone(find(self.window, role="alert"), "an error dialog appeared")
        screenshot(self.xvfb.display, "lobby-no-devices.png")


if __name__ == "__main__":
    unittest.main(verbosity=2)
