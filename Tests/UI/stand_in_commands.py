"""The loop the test stand-ins (fake portals) run: JSON commands from stdin, one a line, each
handed to `on_command` as a dict, until stdin closes (the test is done with the stand-in)."""
import json
import sys

from gi.repository import GLib


def serve(on_command):
    loop = GLib.MainLoop()

    def readable(channel, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        on_command(json.loads(line))
        return True

    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, readable)
    loop.run()
