"""A stand-in for xdg-desktop-portal's Camera portal and its permission store, on the test's
private session bus (the real portal needs a desktop session and a sandbox).

Reads JSON commands from stdin, one a line:
  {"permission": "yes" | "no" | "ask" | null}   set (or delete) the devices/camera entry; emits Changed
  {"present": true | false}                     IsCameraPresent; emits PropertiesChanged
  {"response": 0 | 1 | 2}                       the answer AccessCamera's request gets
Prints "ready" once it owns its names, and "AccessCamera" each time it is called.
"""
import sys

from gi.repository import Gio, GLib

import stand_in_commands

APP_ID = sys.argv[1]
PORTAL_PATH = "/org/freedesktop/portal/desktop"
STORE_PATH = "/org/freedesktop/impl/portal/PermissionStore"
CAMERA_XML = """<node><interface name='org.freedesktop.portal.Camera'>
  <method name='AccessCamera'><arg type='a{sv}' name='options' direction='in'/><arg type='o' name='handle' direction='out'/></method>
  <property name='IsCameraPresent' type='b' access='read'/>
  <property name='version' type='u' access='read'/>
</interface></node>"""
STORE_XML = """<node><interface name='org.freedesktop.impl.portal.PermissionStore'>
  <method name='Lookup'><arg type='s' name='table' direction='in'/><arg type='s' name='id' direction='in'/>
    <arg type='a{sas}' name='permissions' direction='out'/><arg type='v' name='data' direction='out'/></method>
  <signal name='Changed'><arg type='s' name='table'/><arg type='s' name='id'/><arg type='b' name='deleted'/>
    <arg type='v' name='data'/><arg type='a{sas}' name='permissions'/></signal>
</interface></node>"""

state = {"permission": None, "present": True, "response": 0}
connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def say(line):
    print(line, flush=True)


def permissions():
    return {} if state["permission"] is None else {APP_ID: [state["permission"]]}


def emit_changed():
    connection.emit_signal(None, STORE_PATH, "org.freedesktop.impl.portal.PermissionStore", "Changed",
                           GLib.Variant("(ssbva{sas})", ("devices", "camera", state["permission"] is None,
                                                         GLib.Variant("b", True), permissions())))


def camera_call(connection, sender, path, interface, method, parameters, invocation):
    say(method)
    token = parameters.unpack()[0].get("handle_token", "t")
    handle = f"/org/freedesktop/portal/desktop/request/{sender[1:].replace('.', '_')}/{token}"
    invocation.return_value(GLib.Variant("(o)", (handle,)))

    def respond():
        response = state["response"]
        state["permission"] = "yes" if response == 0 else "no"
        connection.emit_signal(sender, handle, "org.freedesktop.portal.Request", "Response",
                               GLib.Variant("(ua{sv})", (response, {})))
        emit_changed()
        return False
    GLib.timeout_add(100, respond)


def camera_property(connection, sender, path, interface, name):
    return GLib.Variant("b", state["present"]) if name == "IsCameraPresent" else GLib.Variant("u", 1)


def store_call(connection, sender, path, interface, method, parameters, invocation):
    if state["permission"] is None:
        invocation.return_dbus_error("org.freedesktop.portal.Error.NotFound", "No entry for camera")
    else:
        invocation.return_value(GLib.Variant("(a{sas}v)", (permissions(), GLib.Variant("b", True))))


def command(change):
    state.update(change)
    if "permission" in change:
        emit_changed()
    if "present" in change:
        connection.emit_signal(None, PORTAL_PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                               GLib.Variant("(sa{sv}as)", ("org.freedesktop.portal.Camera",
                                                           {"IsCameraPresent": GLib.Variant("b", state["present"])}, [])))


connection.register_object(PORTAL_PATH, Gio.DBusNodeInfo.new_for_xml(CAMERA_XML).interfaces[0], camera_call, camera_property, None)
connection.register_object(STORE_PATH, Gio.DBusNodeInfo.new_for_xml(STORE_XML).interfaces[0], store_call, None, None)
owned = []
for name in ("org.freedesktop.portal.Desktop", "org.freedesktop.impl.portal.PermissionStore"):
    Gio.bus_own_name_on_connection(connection, name, Gio.BusNameOwnerFlags.NONE,
                                   lambda *_: (owned.append(1), len(owned) == 2 and say("ready")), None)
stand_in_commands.serve(command)
