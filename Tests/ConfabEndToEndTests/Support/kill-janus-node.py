#!/usr/bin/env python3
"""A media-call.sh controller for calls over several Janus nodes (MEDIA_CALL_JANUS_NODES):
after DELAY seconds, finds in the server's /metrics the node the call's room is on (the one with
participants), checks both peers were admitted there, kills that Janus as a crash would (SIGKILL)
and writes the time to OUT/janus-node-killed-at (ISO 8601). Then waits until /metrics shows the
killed node down and the call's room on another node, and writes that time to
OUT/janus-call-moved-at; fails when that does not happen within 10 s.
Arguments: DELAY SERVER_URL OUT."""
import datetime, os, re, signal, sys, time, urllib.request

delay, url, out = float(sys.argv[1]), sys.argv[2], sys.argv[3]
host_port = url[len("ws://"):].split("/")[0]
pids = dict(pair.rsplit("=", 1) for pair in os.environ["MEDIA_CALL_JANUS_PIDS"].split())


# The server is on this namespace's loopback: never through a proxy from the environment.
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def metrics():
    with opener.open(f"http://{host_port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    values = {}
    for line in text.splitlines():
        found = re.match(r'confab_janus_node_(\w+)\{node="([^"]+)"\} (\S+)$', line)
        if found:
            values[(found.group(1), found.group(2))] = float(found.group(3))
    return values


def stamp(name):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    with open(os.path.join(out, name), "w") as file:
        file.write(now + "\n")
    return now


time.sleep(delay)
before = metrics()
print("before:", before, flush=True)
placed = [node for node in pids if before.get(("participants", node), 0) >= 2]
if len(placed) != 1:
    sys.exit(f"expected the call's two peers on one node, /metrics says {before}")
node = placed[0]
os.kill(int(pids[node]), signal.SIGKILL)
print("killed", node, "at", stamp("janus-node-killed-at"), flush=True)

deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    after = metrics()
    others = [other for other in pids if other != node and after.get(("rooms", other), 0) >= 1]
    if after.get(("up", node)) == 0 and others:
        print("moved to", others[0], "at", stamp("janus-call-moved-at"), after, flush=True)
        break
    time.sleep(0.1)
else:
    sys.exit(f"the call's room did not move off the killed node within 10 s: {metrics()}")

# Both peers renew their media on the live node (its participants, once they have).
deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    after = metrics()
    if after.get(("participants", others[0]), 0) >= 2:
        print("both peers renewed at", stamp("janus-peers-renewed-at"), after, flush=True)
        break
    time.sleep(0.1)
else:
    sys.exit(f"the peers did not renew their media on the live node within 10 s: {metrics()}")
