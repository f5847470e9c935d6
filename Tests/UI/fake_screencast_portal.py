"""A stand-in for xdg-desktop-portal's ScreenCast portal on the test's private session bus: the
real one needs a compositor (GNOME Shell, KWin…) to show its dialog and produce the stream.

Usage: fake_screencast_portal.py PIPEWIRE_SOCKET NODE_ID WIDTH HEIGHT

It answers like the real portal: every method returns a Request path and the result comes as a
Response signal; Start "picks" the PipeWire node NODE_ID (a real stream the test made), and
OpenPipeWireRemote hands over a real connection to the PipeWire daemon at PIPEWIRE_SOCKET.

Reads JSON commands from stdin, one a line:
  {"response": 0 | 1 | 2}   the answer Start gets (0 shares, 1 is the user pressing Cancel)
  {"close": true}           the desktop ends the share (its sharing indicator's stop button):
                            emits Session.Closed
Prints "ready" once it owns its name, each method as it is called (with SelectSources' options
as JSON), and "Close" when the app closes the session.
"""
import json
import socket
import sys

from gi.repository import Gio, GLib

import stand_in_commands

PIPEWIRE_SOCKET, NODE_ID, WIDTH, HEIGHT = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
PORTAL_PATH = "/org/freedesktop/portal/desktop"
SCREENCAST_XML = """<node><interface name='org.freedesktop.portal.ScreenCast'>
  <method name='CreateSession'><arg type='a{sv}' name='options' direction='in'/><arg type='o' name='handle' direction='out'/></method>
  <method name='SelectSources'><arg type='o' name='session_handle' direction='in'/><arg type='a{sv}' name='options' direction='in'/>
    <arg type='o' name='handle' direction='out'/></method>
  <method name='Start'><arg type='o' name='session_handle' direction='in'/><arg type='s' name='parent_window' direction='in'/>
    <arg type='a{sv}' name='options' direction='in'/><arg type='o' name='handle' direction='out'/></method>
  <method name='OpenPipeWireRemote'><arg type='o' name='session_handle' direction='in'/><arg type='a{sv}' name='options' direction='in'/>
    <arg type='h' name='fd' direction='out'/></method>
  <property name='AvailableSourceTypes' type='u' access='read'/>
  <property name='AvailableCursorModes' type='u' access='read'/>
  <property name='version' type='u' access='read'/>
</interface></node>"""
SESSION_XML = """<node><interface name='org.freedesktop.portal.Session'>
  <method name='Close'/>
  <signal name='Closed'><arg type='a{sv}' name='details'/></signal>
</interface></node>"""

state = {"response": 0, "sessions": {}}
connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
session_interface = Gio.DBusNodeInfo.new_for_xml(SESSION_XML).interfaces[0]


def say(line):
    print(line, flush=True)


def sender_path(sender):
    return sender[1:].replace(".", "_")


def respond_later(sender, handle, response, results):
    def respond():
        connection.emit_signal(sender, handle, "org.freedesktop.portal.Request", "Response",
                               GLib.Variant("(ua{sv})", (response, results)))
        return False
    GLib.timeout_add(50, respond)


def session_call(connection, sender, path, interface, method, parameters, invocation):
    say("Close")
    close_session(path, emit=False)
    invocation.return_value(None)


def close_session(path, emit):
    registration = state["sessions"].pop(path, None)
    if registration is None:
        return
    sender, registration_id = registration
    connection.unregister_object(registration_id)
    if emit:
        connection.emit_signal(sender, path, "org.freedesktop.portal.Session", "Closed", GLib.Variant("(a{sv})", ({},)))


def screencast_call(connection, sender, path, interface, method, parameters, invocation):
    arguments = parameters.unpack()
    if method == "OpenPipeWireRemote":
        say(method)
        if arguments[0] not in state["sessions"]:
            invocation.return_dbus_error("org.freedesktop.portal.Error.NotAllowed", "no such session")
            return
        remote = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        remote.connect(PIPEWIRE_SOCKET)
        invocation.return_value_with_unix_fd_list(GLib.Variant("(h)", (0,)), Gio.UnixFDList.new_from_array([remote.detach()]))
        return
    options = arguments[-1]
    if method == "SelectSources":
        say("SelectSources " + json.dumps(options, sort_keys=True))
    else:
        say(method)
    handle = f"{PORTAL_PATH}/request/{sender_path(sender)}/{options.get('handle_token', 't')}"
    invocation.return_value(GLib.Variant("(o)", (handle,)))
    if method == "CreateSession":
        session = f"{PORTAL_PATH}/session/{sender_path(sender)}/{options['session_handle_token']}"
        state["sessions"][session] = (sender, connection.register_object(session, session_interface, session_call, None, None))
        respond_later(sender, handle, 0, {"session_handle": GLib.Variant("s", session)})
    elif method == "SelectSources":
        respond_later(sender, handle, 0, {})
    elif method == "Start":
        response = state["response"]
        streams = GLib.Variant("a(ua{sv})", [(NODE_ID, {"size": GLib.Variant("(ii)", (WIDTH, HEIGHT)),
                                                         "source_type": GLib.Variant("u", 1)})])
        respond_later(sender, handle, response, {"streams": streams} if response == 0 else {})


def screencast_property(connection, sender, path, interface, name):
    return GLib.Variant("u", {"AvailableSourceTypes": 3, "AvailableCursorModes": 3, "version": 4}[name])


def command(change):
    if change.get("close"):
        for path in list(state["sessions"]):
            close_session(path, emit=True)
    if "response" in change:
        state["response"] = change["response"]


connection.register_object(PORTAL_PATH, Gio.DBusNodeInfo.new_for_xml(SCREENCAST_XML).interfaces[0],
                           screencast_call, screencast_property, None)
Gio.bus_own_name_on_connection(connection, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE,
                               lambda *_: say("ready"), None)
stand_in_commands.serve(command)
