"""A minimal client of the confab coordinator for end-to-end controllers (standard library only):
a WebSocket over a plain socket that answers pings, sends requests and waits for their answers,
keeping the events it reads on the way."""
import base64, json, os, socket, struct, time


class Coordinator:
    def __init__(self, url, timeout=30):
        host, port = url[len("ws://"):].split("/")[0].split(":")
        self.base = f"http://{host}:{port}"
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(4096)
        self.buffer = self.buffer.split(b"\r\n\r\n", 1)[1]
        self.next_id = 0
        self.events = []

    def _frame(self, opcode, data):
        mask = os.urandom(4)
        header = bytes([0x80 | opcode])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read_exact(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the coordinator closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive(self):
        """The next text frame as JSON; pings are answered on the way."""
        while True:
            first, second = self._read_exact(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read_exact(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read_exact(8))[0]
            payload = self._read_exact(length)
            opcode = first & 0x0F
            if opcode == 9:
                self._frame(0xA, payload)
            elif opcode == 8:
                raise ConnectionError("the coordinator closed the connection")
            elif opcode == 1:
                return json.loads(payload)

    def request(self, kind, payload):
        """Sends a request and returns its answer's payload; an error answer raises."""
        self.next_id += 1
        self._frame(0x1, json.dumps({"kind": "request", "id": str(self.next_id), "type": kind, "payload": payload}).encode())
        while True:
            message = self.receive()
            if message.get("kind") == "event":
                self.events.append(message)
            elif message.get("id") == str(self.next_id):
                if message.get("kind") == "error":
                    raise RuntimeError(f"{kind} refused: {message}")
                return message["payload"]

    def pump(self, seconds):
        """Reads events (and answers pings) for a while, so the coordinator keeps us connected."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.time()))
            try:
                message = self.receive()
                if message.get("kind") == "event":
                    self.events.append(message)
            except socket.timeout:
                pass
        self.sock.settimeout(30)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
