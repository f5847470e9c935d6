#!/usr/bin/env python3
"""The host's controls in the production end-to-end test: over the coordinator's WebSocket (a
minimal client, standard library only; arguments CID SECONDS URL OUT), records SECONDS of the call, then broadcasts it,
copies the HLS playlist and segments to OUT/hls, stops, checks the playlist is gone, and
downloads the converted recordings to OUT/recordings. Writes OUT/host.json."""
import base64, json, os, socket, struct, sys, time, urllib.request, urllib.error

cid, record_seconds, url, out = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
host, port = url[len("ws://"):].split("/")[0].split(":")
base = f"http://{host}:{port}"
summary = {"events": []}

sock = socket.create_connection((host, int(port)), timeout=30)
key = base64.b64encode(os.urandom(16)).decode()
sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
buffer = b""
while b"\r\n\r\n" not in buffer:
    buffer += sock.recv(4096)
buffer = buffer.split(b"\r\n\r\n", 1)[1]

def send(obj):
    data = json.dumps(obj).encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    header += bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(data))
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

def read_exact(n):
    global buffer
    while len(buffer) < n:
        chunk = sock.recv(65536)
        if not chunk: raise SystemExit("coordinator closed the connection")
        buffer += chunk
    data, buffer = buffer[:n], buffer[n:]
    return data

def receive():
    while True:
        first, second = read_exact(2)
        length = second & 0x7F
        if length == 126: length = struct.unpack(">H", read_exact(2))[0]
        elif length == 127: length = struct.unpack(">Q", read_exact(8))[0]
        payload = read_exact(length)
        opcode = first & 0x0F
        if opcode == 9:  # ping → pong
            mask = os.urandom(4)
            sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            continue
        if opcode == 1:
            return json.loads(payload)

next_id = 0
def request(kind, payload):
    global next_id
    next_id += 1
    send({"kind": "request", "id": str(next_id), "type": kind, "payload": payload})
    while True:
        message = receive()
        if message.get("kind") == "event":
            note(message)
        elif message.get("id") == str(next_id):
            if message.get("kind") == "error": raise SystemExit(f"{kind} refused: {message}")
            return message["payload"]

def note(message):
    call = (message.get("payload") or {}).get("call") or {}
    summary["events"].append({"type": message.get("type"), "at": time.time(),
                              "recordingState": call.get("recordingState"), "hlsPlaylistUrl": call.get("hlsPlaylistUrl"),
                              "recordings": len(call.get("recordings") or []), "errors": call.get("recordingErrors")})

def wait_event(predicate, timeout):
    deadline = time.time() + timeout
    sock.settimeout(timeout)
    while time.time() < deadline:
        message = receive()
        if message.get("kind") == "event":
            note(message)
            if predicate(message): return message
    raise SystemExit("timed out waiting for an event")

def pump(seconds):
    """Reads events (and answers pings) for a while, so the coordinator keeps us connected."""
    sock.settimeout(seconds)
    try:
        message = receive()
        if message.get("kind") == "event": note(message)
    except socket.timeout:
        pass
    sock.settimeout(30)

def get(path):
    try:
        with urllib.request.urlopen(base + path if path.startswith("/") else path, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, b""

request("hello", {"protocolVersion": int(os.environ.get("CONFAB_PROTOCOL", "1")), "userId": "alice"})
# bob is a member, so whoever comes first (alice here, or bob's peer) makes a call both may join.
request("getOrCreateCall", {"cid": cid, "members": [{"userId": "bob"}]})
# Both peers publishing (Janus's participants are what gets recorded).
deadline = time.time() + 15
while time.time() < deadline:
    state = request("getCall", {"cid": cid})["call"]
    if len(state["session"]["participants"]) >= 2: break
    time.sleep(0.2)
time.sleep(1.5)

request("startRecording", {"cid": cid})
started = wait_event(lambda m: m.get("type") == "call.recording_started", 5)
summary["recordingStartedAt"] = time.time()
deadline = summary["recordingStartedAt"] + record_seconds
while time.time() < deadline: pump(max(0.01, min(0.5, deadline - time.time())))
request("stopRecording", {"cid": cid})
summary["recordingStoppedAt"] = time.time()
summary["recordedSeconds"] = summary["recordingStoppedAt"] - summary["recordingStartedAt"]

playlist_url = request("startBroadcasting", {"cid": cid})["call"].get("hlsPlaylistUrl")
summary["hlsPlaylistUrl"] = playlist_url
os.makedirs(f"{out}/hls", exist_ok=True)
segments = []
deadline = time.time() + 15
while time.time() < deadline and len(segments) < 3:
    status, body = get(playlist_url)
    if status == 200:
        segments = [line for line in body.decode().splitlines() if line and not line.startswith("#")]
    pump(0.3)
for name in segments:
    status, body = get(playlist_url.rsplit("/", 1)[0] + "/" + name)
    if status == 200:
        open(f"{out}/hls/{name}", "wb").write(body)
summary["segments"] = segments
request("stopBroadcasting", {"cid": cid})
time.sleep(0.5)
summary["playlistStatusAfterStop"] = get(playlist_url)[0]

converted = wait_event(lambda m: len(((m.get("payload") or {}).get("call") or {}).get("recordings") or []) > 0
                       or ((m.get("payload") or {}).get("call") or {}).get("recordingErrors"), 20)
call = converted["payload"]["call"]
summary["recordings"] = call.get("recordings") or []
summary["recordingErrors"] = call.get("recordingErrors") or []
os.makedirs(f"{out}/recordings", exist_ok=True)
for recording in summary["recordings"]:
    summary.setdefault("unauthenticatedStatus", get(recording["downloadURL"])[0])
    status, body = get(recording["downloadURL"] + "?user=alice")
    recording["downloadStatus"] = status
    name = recording["downloadURL"].rsplit("/", 1)[1]
    open(f"{out}/recordings/{name}", "wb").write(body)
    recording["file"] = f"{out}/recordings/{name}"
json.dump(summary, open(f"{out}/host.json", "w"), indent=1)
