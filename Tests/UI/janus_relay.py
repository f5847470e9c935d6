"""A plain Janus of the test's own, reached through a relay that can make Janus ignore a request.

`PlainJanus` runs `Tests/ConfabEndToEndTests/Support/plain-janus.sh` (the WebSockets transport
and the VideoRoom, ICE on the network namespace's address) for a confab-server given `--janus`.

`ResumeIgnoringRelay` passes the WebSocket traffic between its clients and that Janus through
unchanged, except for one thing: the first request that resumes a paused video on a subscriber
handle (`configure` with `send: true` for a stream last configured with `send: false`) reaches
Janus as `send: false`. Janus answers it as usual and goes on forwarding nothing: the client is
told its resume was taken, as when Janus did not act on one (seen once in CI, 2026-11-27). What
the client does next, asking again or not, is what the test looks at.
"""
import json
import os
import socket
import struct
import tempfile
import threading
import time

from confab_ui import ConfabProcess

SUPPORT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ConfabEndToEndTests", "Support")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PlainJanus(ConfabProcess):
    """Janus on a free loopback port, its RTP ports away from the managed Janus's default range."""

    def __init__(self, rtp_ports="41000-41999"):
        directory = tempfile.mkdtemp(prefix="confab-plain-janus-")
        self.port = free_port()
        super().__init__(["bash", os.path.join(SUPPORT, "plain-janus.sh"), directory, str(self.port), rtp_ports],
                         env=None, log_path=os.path.join(directory, "janus.log"))
        deadline = time.monotonic() + 20
        while True:
            if self.exited():
                raise RuntimeError(f"Janus exited at start:\n{self.output()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"Janus did not listen on {self.port} within 20 s:\n{self.output()[-2000:]}")
                time.sleep(0.1)


def _read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def _read_frame(connection):
    """One WebSocket frame as (its bytes as received, FIN, opcode, unmasked payload)."""
    head = _read_exactly(connection, 2)
    fin, opcode = head[0] & 0x80, head[0] & 0x0F
    masked, length = head[1] & 0x80, head[1] & 0x7F
    extra = b""
    if length == 126:
        extra = _read_exactly(connection, 2)
        length = struct.unpack("!H", extra)[0]
    elif length == 127:
        extra = _read_exactly(connection, 8)
        length = struct.unpack("!Q", extra)[0]
    mask = _read_exactly(connection, 4) if masked else b""
    payload = _read_exactly(connection, length)
    raw = head + extra + mask + payload
    if masked:
        payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return raw, bool(fin), opcode, payload


def _client_text_frame(text):
    """A final, masked text frame (clients must mask what they send)."""
    payload = text.encode()
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        head = struct.pack("!BB", 0x81, 0x80 | length)
    elif length < 1 << 16:
        head = struct.pack("!BBH", 0x81, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", 0x81, 0x80 | 127, length)
    return head + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


class ResumeIgnoringRelay:
    def __init__(self, janus_port):
        self.janus_port = janus_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        # (handle, mid) -> the last `send` asked for it; and the streams whose resume was turned.
        self.last_send = {}
        self.turned = []
        self.sockets = []
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}"

    def stop(self):
        self.stopped = True
        for each in [self.listener, *self.sockets]:
            try:
                each.close()
            except OSError:
                pass

    def _accept(self):
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                janus = socket.create_connection(("127.0.0.1", self.janus_port))
            except OSError:
                client.close()
                continue
            self.sockets += [client, janus]
            threading.Thread(target=self._copy, args=(janus, client), daemon=True).start()
            threading.Thread(target=self._requests, args=(client, janus), daemon=True).start()

    @staticmethod
    def _copy(source, destination):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                destination.sendall(data)
        except OSError:
            pass
        _shut(source, destination)

    def _requests(self, client, janus):
        try:
            # The HTTP upgrade request, as it is.
            handshake = b""
            while b"\r\n\r\n" not in handshake:
                data = client.recv(4096)
                if not data:
                    raise ConnectionError("closed")
                handshake += data
            end = handshake.index(b"\r\n\r\n") + 4
            janus.sendall(handshake[:end])
            pending = handshake[end:]
            if pending:
                # Frames sent right behind the handshake: put them back in front of the socket.
                client = _Prefixed(client, pending)
            while True:
                raw, fin, opcode, payload = _read_frame(client)
                text = payload.decode() if fin and opcode == 1 else None
                if text is not None:
                    turned = self._turn(text)
                    if turned is not None:
                        raw = _client_text_frame(turned)
                self._forward(janus, raw, text)
        except (OSError, ConnectionError):
            pass
        _shut(client, janus)

    def _forward(self, janus, raw, text):
        """Sends one frame from the client on to Janus (`text`: its text, if it is a text frame)."""
        janus.sendall(raw)

    def _turn(self, text):
        """The request to send instead of `text`, or None to send it as it is."""
        try:
            message = json.loads(text)
        except ValueError:
            return None
        body = message.get("body") if isinstance(message, dict) else None
        if not isinstance(body, dict) or body.get("request") != "configure" or not isinstance(body.get("streams"), list):
            return None
        handle = message.get("handle_id")
        changed = False
        with self.lock:
            for stream in body["streams"]:
                if not isinstance(stream, dict) or "send" not in stream:
                    continue
                key = (handle, stream.get("mid"))
                if stream["send"] is True and self.last_send.get(key) is False and key not in self.turned:
                    self.turned.append(key)
                    stream["send"] = False
                    changed = True
                self.last_send[key] = stream["send"]
        return json.dumps(message) if changed else None


def _shut(*connections):
    """Ends both directions of each connection (the other relay thread then stops too)."""
    for each in connections:
        try:
            each.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class _Prefixed:
    """A socket whose first bytes are read from `prefix`."""

    def __init__(self, connection, prefix):
        self.connection, self.prefix = connection, prefix

    def recv(self, count):
        if self.prefix:
            data, self.prefix = self.prefix[:count], self.prefix[count:]
            return data
        return self.connection.recv(count)

    def shutdown(self, how):
        self.connection.shutdown(how)


class HoldingRelay(ResumeIgnoringRelay):
    """Passes everything through unchanged, except that `hold()` keeps what the clients send
    from reaching Janus (a socket that no longer gets through: the network gone) until
    `release()`, which sends it all on, in order. Records when each request to forward a
    video (`configure` with `send: true`) reached Janus."""

    def __init__(self, janus_port):
        self.released = threading.Event()
        self.released.set()
        # (monotonic time it was sent on, handle) of each request to forward a video.
        self.forward_requests = []
        super().__init__(janus_port)

    def hold(self):
        self.released.clear()

    def release(self):
        self.released.set()

    def _turn(self, text):
        return None

    def _forward(self, janus, raw, text):
        self.released.wait()
        janus.sendall(raw)
        try:
            message = json.loads(text) if text else None
        except ValueError:
            return
        body = message.get("body") if isinstance(message, dict) else None
        if isinstance(body, dict) and body.get("request") == "configure" and any(
                isinstance(stream, dict) and stream.get("send") is True for stream in body.get("streams") or []):
            with self.lock:
                self.forward_requests.append((time.monotonic(), message.get("handle_id")))
