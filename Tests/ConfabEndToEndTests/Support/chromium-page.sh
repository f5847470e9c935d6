#!/usr/bin/env bash
# Headless Chromium on one page with fake media devices (janus-interop.sh, meson-helpers/bench-media):
# root has no sandbox for Chromium; headless needs no display and no GPU. The fake devices give
# a test picture and a beep without asking; at 30 fps only when told (their default is 20).
# Local addresses are shown as they are (not as mDNS names), so that Janus can pair with the
# network namespace's address. The page's console lines go to standard error
# (--enable-logging=stderr). Becomes Chromium (exec); run it with setsid and stop the whole
# process group: its zygote, GPU and renderer processes must not outlive the caller.
#
# Usage: chromium-page.sh PROFILE_DIR URL [CHROMIUM_FLAG …] (e.g. --window-size=900,700)
set -euo pipefail
profile=$1 url=$2
shift 2
exec chromium --headless=new --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
  --user-data-dir="$profile" --use-fake-device-for-media-stream=fps=30 --use-fake-ui-for-media-stream \
  --autoplay-policy=no-user-gesture-required --disable-features=WebRtcHideLocalIpsWithMdns \
  --enable-logging=stderr --v=0 "$@" "$url"
