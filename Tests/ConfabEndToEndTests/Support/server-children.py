#!/usr/bin/env python3
"""A media-call.sh controller for the children end-to-end tests (issue 16, item 3). Arguments:
CID MODE URL OUT, with MODE `term` or `kill`.

As the call's host it records and broadcasts, then:
 1. stops the broadcast and measures how long the gst-launch-1.0 pipeline and its folder last;
 2. broadcasts again and ends confab-server with SIGTERM (`term`) or SIGKILL (`kill`) while it
    records and broadcasts; notes which of its children outlive it (after 3 s) and which of its
    temporary files are left;
 3. starts confab-server again on the same port and database (the peers reconnect, and a server
    that finds a killed one's leftovers must clean them), notes the files again, keeps that
    server up for a few seconds, then tells the peers to leave (their 45 s are for a slow
    machine's sake: waiting them out took half of each call) and keeps it up until they have.
Writes OUT/children.json."""
import json, os, signal, subprocess, sys, time, urllib.error, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coordinator_ws import Coordinator

cid, mode, url, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
server_pid = int(os.environ["MEDIA_CALL_SERVER_PID"])
server_binary = os.readlink(f"/proc/{server_pid}/exe")
summary = {"mode": mode}


def peer_pids():
    """This call's confab-peers: those writing their reports into OUT."""
    pids = []
    for entry in os.listdir("/proc"):
        try:
            arguments = open(f"/proc/{entry}/cmdline").read().split("\0") if entry.isdigit() else []
        except OSError:
            continue
        if arguments and os.path.basename(arguments[0]) == "confab-peer" and any(a.startswith(f"{out}/") for a in arguments):
            pids.append(int(entry))
    return pids


def write_summary():
    json.dump(summary, open(f"{out}/children.json", "w"), indent=1)


def stat(pid):
    """(command name, parent pid) of a running process, or None."""
    try:
        text = open(f"/proc/{pid}/stat").read()
    except OSError:
        return None
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    return None if fields[0] == "Z" else (name, int(fields[1]))


def descendants(root):
    """Every running process below `root`, as {pid: name}."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (info := stat(int(entry))):
            parents[int(entry)] = info
    found, frontier = {}, {root}
    while frontier:
        children = {pid for pid, (_, parent) in parents.items() if parent in frontier and pid not in found}
        for pid in children:
            found[pid] = parents[pid][0]
        frontier = children
    return found


def http_status(address):
    try:
        with urllib.request.urlopen(address, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def wait_for_playlist(address, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if http_status(address) == 200:
            return True
        coordinator.pump(0.3)
    return False


def files_under(folder):
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(path, name) for path, _, names in os.walk(folder) for name in names)


def pipeline_pids():
    return [pid for pid, name in descendants(server_pid).items() if name.startswith("gst-launch")]


coordinator = Coordinator(url)
coordinator.request("hello", {"protocolVersion": 1, "userId": "alice"})
# bob is a member, so whoever comes first (alice here, or bob's peer) makes a call both may join.
link_secret = coordinator.request("getOrCreateCall", {"cid": cid, "members": [{"userId": "bob"}]})["call"]["linkSecret"]
deadline = time.time() + 15
while time.time() < deadline:
    if len(coordinator.request("getCall", {"cid": cid})["call"]["session"]["participants"]) >= 2:
        break
    coordinator.pump(0.2)
coordinator.pump(1.5)

coordinator.request("startRecording", {"cid": cid})
live_folder = f"{out}/live"

# 1. Stop broadcast: the pipeline ends and its segments go.
playlist = coordinator.request("startBroadcasting", {"cid": cid})["call"]["hlsPlaylistUrl"]
summary["firstPlaylistServed"] = wait_for_playlist(playlist)
pipelines = pipeline_pids()
summary["pipelinesWhileBroadcasting"] = len(pipelines)

# Reading the broadcast needs readCall: carol, not a member, opens the call with its link
# secret and watches with her own playlist link until alice blocks her.
carol = Coordinator(url)
carol.request("hello", {"protocolVersion": 1, "userId": "carol"})
carols_playlist = carol.request("getCall", {"cid": cid, "linkSecret": link_secret})["call"].get("hlsPlaylistUrl")
summary["viewerLinksDiffer"] = carols_playlist is not None and carols_playlist != playlist
summary["carolPlaylistStatusBeforeBlock"] = http_status(carols_playlist) if carols_playlist else None
coordinator.request("blockUser", {"cid": cid, "userId": "carol"})
summary["carolPlaylistStatusAfterBlock"] = http_status(carols_playlist) if carols_playlist else None
summary["alicePlaylistStatusAfterBlock"] = http_status(playlist)
carol.close()
# …/live/NAME/VIEWER/KEY/playlist.m3u8: the files are in live/NAME.
broadcast_folder = os.path.join(live_folder, playlist.split("/live/", 1)[1].split("/")[0])
summary["segmentsBeforeStop"] = len(files_under(broadcast_folder))
stop_asked = time.time()
coordinator.request("stopBroadcasting", {"cid": cid})
while time.time() - stop_asked < 10 and (any(stat(pid) for pid in pipelines) or os.path.exists(broadcast_folder)):
    time.sleep(0.02)
summary["secondsUntilPipelineGoneAfterStop"] = time.time() - stop_asked
summary["pipelineAliveAfterStop"] = any(stat(pid) for pid in pipelines)
summary["broadcastFilesAfterStop"] = files_under(broadcast_folder)

# 2. The server ends while recording and broadcasting.
playlist = coordinator.request("startBroadcasting", {"cid": cid})["call"]["hlsPlaylistUrl"]
summary["secondPlaylistServed"] = wait_for_playlist(playlist)
children = descendants(server_pid)
summary["childrenBeforeDeath"] = sorted(children.values())
janus_folders = []
for pid, name in children.items():
    if name == "janus":
        arguments = open(f"/proc/{pid}/cmdline").read().split("\0")
        janus_folders.append(arguments[arguments.index("-F") + 1])
summary["janusFolders"] = janus_folders
coordinator.close()

os.kill(server_pid, signal.SIGTERM if mode == "term" else signal.SIGKILL)
deadline = time.time() + 15
while stat(server_pid) and time.time() < deadline:
    time.sleep(0.02)
summary["serverExited"] = stat(server_pid) is None
time.sleep(3)
survivors = {pid: stat(pid) for pid in children if stat(pid)}
summary["survivors"] = [{"pid": pid, "name": info[0], "parent": info[1]} for pid, info in survivors.items()]
summary["janusFilesAfterDeath"] = [f for folder in janus_folders for f in files_under(folder)]
summary["janusFoldersAfterDeath"] = [folder for folder in janus_folders if os.path.exists(folder)]
summary["liveFilesAfterDeath"] = files_under(live_folder)
write_summary()

# 3. A new server on the same port and database.
port = url.rsplit(":", 1)[1]
log = open(f"{out}/server-2.log", "w")
second = subprocess.Popen(
    [server_binary, "--host", "127.0.0.1", "--port", port, "--dev-auth",
     "--media-address", os.environ["CONFAB_MEDIA_ADDRESS"], "--db", f"{out}/server.sqlite"],
    stdout=subprocess.PIPE, stderr=log, text=True)
try:
    summary["restartedListening"] = (second.stdout.readline() or "").startswith("listening on")
    summary["janusFoldersAfterRestart"] = [folder for folder in janus_folders if os.path.exists(folder)]
    summary["liveFilesAfterRestart"] = files_under(live_folder)
    write_summary()
    # The peers reconnect to it, then leave (SIGTERM: a peer leaves its call and writes its report).
    time.sleep(float(os.environ.get("CHILDREN_KEEP_SERVER_SECONDS", "8")))
    peers = peer_pids()
    for pid in peers:
        os.kill(pid, signal.SIGTERM)
    deadline = time.time() + 15
    while any(stat(pid) for pid in peers) and time.time() < deadline:
        time.sleep(0.05)
finally:
    second.terminate()
    second.wait(timeout=15)
write_summary()
