"""Issue 18 in the app: chat both ways with a confab-peer, and a peer's reaction on its tile."""

import os
import subprocess
import unittest

from confab_ui import (MediaCallTestCase, Peer, click, find, screenshot, top_level_window, wait_for, MEDIA_ADDRESS)


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

    def test_appAndPeer_exchangeChatMessages_andThePeersReactionShowsOnItsTile(self):
        bob, call_window = self.call_bob("chat-ui", ["--duration", "60"], tile="bob, ")
        dave = Peer(self.server, "dave", ["join", "default:chat-ui", "--duration", "14", "--media", "test",
                                          "--media-address", MEDIA_ADDRESS, "--chat", "hello from dave https://example.org/x",
                                          "--chat-after", "3", "--react", "🎉"])
        self.addCleanup(dave.stop)
        wait_for(lambda: find(call_window, name_contains="dave, "), timeout=20, what="dave's tile")

        # The reaction floats over dave's tile and is part of what the tile says.
        wait_for(lambda: find(call_window, name_contains="reacted 🎉"), timeout=15, what="dave's reaction on his tile")

        # dave's message arrives while the chat is hidden: the People button counts it.
        wait_for(lambda: find(call_window, role="push button", name_contains="1 unread message"), timeout=15,
                 what="the unread badge on the People button")
        click(find(call_window, role="push button", name_contains="Participants ("))
        wait_for(lambda: find(call_window, name_contains="hello from dave"), what="dave's message in the chat pane")

        self.type_into_window("chat-ui – Confab", "hi dave from ada")
        wait_for(lambda: find(call_window, name_contains="You at"), what="ada's own message in the chat pane")
        screenshot(self.xvfb.display, "chat-pane.png")

        report = dave.report(timeout=30)
        texts = [entry["text"] for entry in report.get("chat", [])]
        self.assertIn("hi dave from ada", texts, f"dave's report: {report}")
        bob.stop()


if __name__ == "__main__":
    unittest.main()
