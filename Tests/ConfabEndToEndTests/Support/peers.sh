# Sourced by media-call.sh and replica-call.sh: starting a call's confab-peer processes.
# Needs $bin (the binaries' folder), $out (the output folder) and the array peer_pids.

peers_started_ms=$(date +%s%3N)

# wait_until SECONDS: sleeps until SECONDS after the peers' start (not at all when past it).
wait_until() {
  local delay_ms pause_ms
  delay_ms=$(awk -v seconds="$1" 'BEGIN { printf "%d", seconds * 1000 }')
  pause_ms=$((peers_started_ms + delay_ms - $(date +%s%3N)))
  if [ "$pause_ms" -gt 0 ]; then sleep "$(awk -v ms="$pause_ms" 'BEGIN { printf "%.3f", ms / 1000 }')"; fi
}

# start_peer SERVERS USER ARGS: one confab-peer in the background, writing OUT/USER.json (its
# report), OUT/USER.log and OUT/USER.status (its exit code).
# Test microphones send steady tones, which noise suppression is built to remove and gain
# control to change: suites that check a tone's level and speaking check the transport, so by
# default they send it unprocessed (echo cancellation stays on). The peer's own arguments come
# later and win (the audio-processing suite turns them back on).
# Peers send 360p at most unless a suite asks for more (--max-video-size later wins): up
# to five encoders share this machine's two cores, and 720p costs each ~4x the CPU.
start_peer() {
  local servers=$1 user=$2 args=$3
  # shellcheck disable=SC2086 # the peer's arguments are words
  ( "$bin/confab-peer" --server "$servers" --user "$user" --report "$out/$user.json" --media test \
      --no-noise-suppression --no-gain-control --max-video-size 640x360 $args \
      2>"$out/$user.log"; echo $? >"$out/$user.status" ) &
  peer_pids+=($!)
}
