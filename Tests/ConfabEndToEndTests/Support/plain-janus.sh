#!/usr/bin/env bash
# A plain Janus for runs that bring their own (janus-interop.sh, meson-helpers/bench-media):
# the WebSockets transport on 127.0.0.1:PORT and the VideoRoom, nothing else, ICE restricted
# to the network namespace's address (Janus never gathers loopback candidates,
# ARCHITECTURE.md). Unlike confab-server's managed Janus it has no admin key, so any client may
# create a room (a janus.js page, `confab-peer janus --create-room`, confab-server given
# `--janus ws://127.0.0.1:PORT`).
#
# Writes its configuration into CONFIG_DIR and then becomes Janus (exec): the caller's pid is
# Janus's, to stop as it likes. Run inside `meson-helpers/netns-run` (CONFAB_MEDIA_ADDRESS).
#
# Usage: plain-janus.sh CONFIG_DIR PORT [RTP_PORT_RANGE]
set -euo pipefail
config=$1 port=$2 rtp_ports=${3:-20000-20999}
: "${CONFAB_MEDIA_ADDRESS:?run me inside meson-helpers/netns-run}"

library=
for candidate in /usr/lib/x86_64-linux-gnu/janus /usr/lib/aarch64-linux-gnu/janus /usr/lib64/janus /usr/lib/janus; do
  if [ -e "$candidate/plugins/libjanus_videoroom.so" ]; then library=$candidate; break; fi
done
[ -n "$library" ] || { echo "no Janus VideoRoom plugin installed (Debian package janus)" >&2; exit 1; }
others() { (cd "$library/$1" && ls -- *.so 2>/dev/null | grep -vx "${2:-}" | paste -sd, -) || true; }
mkdir -p "$config"
cat >"$config/janus.jcfg" <<JCFG
general: {
	configs_folder = "$config"
	plugins_folder = "$library/plugins"
	transports_folder = "$library/transports"
	events_folder = "$library/events"
	loggers_folder = "$library/loggers"
	debug_level = 4
	debug_colors = false
}
media: {
	rtp_port_range = "$rtp_ports"
}
nat: {
	nice_debug = false
	ice_enforce_list = "$CONFAB_MEDIA_ADDRESS"
}
plugins: {
	disable = "$(others plugins libjanus_videoroom.so)"
}
transports: {
	disable = "$(others transports libjanus_websockets.so)"
}
loggers: {
	disable = "$(others loggers)"
}
events: {
	broadcast = false
}
JCFG
cat >"$config/janus.transport.websockets.jcfg" <<JCFG
general: {
	json = "compact"
	ws = true
	ws_port = $port
	ws_ip = "127.0.0.1"
	wss = false
}
admin: {
	admin_ws = false
	admin_wss = false
}
JCFG
echo 'general: {}' >"$config/janus.plugin.videoroom.jcfg"
exec janus --configs-folder="$config" --config="$config/janus.jcfg"
