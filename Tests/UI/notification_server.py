"""A stand-in for the desktop's notification server and session manager, for tests only.

Owns org.freedesktop.Notifications (and org.gnome.SessionManager) on the test's private session
bus, records every Notify, CloseNotification, Inhibit and Uninhibit call as one JSON line in
RECORD_FILE, and can emit ActionInvoked as if the user had clicked a notification's button:

    gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
        --method org.confab.TestHooks.InvokeAction ID ACTION_KEY

Usage: python3 notification_server.py RECORD_FILE   (prints "ready" once it owns its names)
"""
import json
import sys

from gi.repository import Gio, GLib

INTERFACES = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
  </interface>
  <interface name="org.confab.TestHooks">
    <method name="InvokeAction"><arg type="u" direction="in"/><arg type="s" direction="in"/></method>
  </interface>
</node>
"""

SESSION_MANAGER = """
<node>
  <interface name="org.gnome.SessionManager">
    <method name="Inhibit">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="u" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="Uninhibit"><arg type="u" direction="in"/></method>
    <method name="IsInhibited"><arg type="u" direction="in"/><arg type="b" direction="out"/></method>
    <method name="RegisterClient">
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="o" direction="out"/>
    </method>
  </interface>
</node>
"""

NOTIFICATIONS_PATH = "/org/freedesktop/Notifications"


class StandIn:
    def __init__(self, record_path):
        self.record_path = record_path
        self.next_id = 1
        self.inhibitors = {}
        self.connection = None

    def record(self, entry):
        with open(self.record_path, "a") as file:
            file.write(json.dumps(entry) + "\n")

    def on_notifications_call(self, connection, sender, path, interface, method, parameters, invocation):
        if method == "Notify":
            app_name, replaces_id, icon, summary, body, actions, hints, timeout = parameters.unpack()
            notification_id = replaces_id or self.next_id
            self.next_id += 1
            # actions alternate key, label: ["app.accept-call", "Accept", …]
            self.record({"call": "Notify", "id": notification_id, "app_name": app_name, "summary": summary,
                         "body": body, "actions": dict(zip(actions[1::2], actions[0::2])), "hints": sorted(hints)})
            invocation.return_value(GLib.Variant("(u)", (notification_id,)))
        elif method == "CloseNotification":
            self.record({"call": "CloseNotification", "id": parameters.unpack()[0]})
            invocation.return_value(None)
        elif method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["actions", "body"],)))
        elif method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("confab-test", "confab", "1", "1.2")))
        elif method == "InvokeAction":
            notification_id, key = parameters.unpack()
            connection.emit_signal(None, NOTIFICATIONS_PATH, "org.freedesktop.Notifications", "ActionInvoked",
                                   GLib.Variant("(us)", (notification_id, key)))
            invocation.return_value(None)

    def on_session_manager_call(self, connection, sender, path, interface, method, parameters, invocation):
        if method == "Inhibit":
            app_id, _, reason, flags = parameters.unpack()
            cookie = len(self.inhibitors) + 1
            self.inhibitors[cookie] = True
            self.record({"call": "Inhibit", "cookie": cookie, "app_id": app_id, "reason": reason, "flags": flags})
            invocation.return_value(GLib.Variant("(u)", (cookie,)))
        elif method == "Uninhibit":
            cookie = parameters.unpack()[0]
            self.inhibitors.pop(cookie, None)
            self.record({"call": "Uninhibit", "cookie": cookie})
            invocation.return_value(None)
        elif method == "RegisterClient":  # GtkApplication registers with the session at start-up
            invocation.return_value(GLib.Variant("(o)", ("/org/gnome/SessionManager/Client1",)))
        elif method == "IsInhibited":
            invocation.return_value(GLib.Variant("(b)", (bool(self.inhibitors),)))

    def start(self):
        self.connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        notifications = Gio.DBusNodeInfo.new_for_xml(INTERFACES)
        for interface in notifications.interfaces:
            self.connection.register_object(NOTIFICATIONS_PATH, interface, self.on_notifications_call, None, None)
        session = Gio.DBusNodeInfo.new_for_xml(SESSION_MANAGER)
        self.connection.register_object("/org/gnome/SessionManager", session.interfaces[0], self.on_session_manager_call, None, None)
        for name in ("org.freedesktop.Notifications", "org.gnome.SessionManager"):
            reply = self.connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                              "RequestName", GLib.Variant("(su)", (name, 4)),  # DO_NOT_QUEUE
                                              GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, -1, None)
            if reply.unpack()[0] not in (1, 4):  # primary owner, or already ours
                print(f"could not own {name}", flush=True)
                sys.exit(1)
        print("ready", flush=True)


if __name__ == "__main__":
    stand_in = StandIn(sys.argv[1])
    stand_in.start()
    GLib.MainLoop().run()
