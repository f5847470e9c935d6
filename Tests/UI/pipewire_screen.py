"""A real PipeWire daemon (with WirePlumber to link streams) and one video source node standing in
for the compositor's screen-cast stream: a solid colour at a size no other source in the tests has,
so a receiver can tell the portal path apart from the X display and the test pattern."""
import json
import os
import shutil
import subprocess
import tempfile
import time

NODE_NAME = "confab-test-screen"


class PipeWireScreen:
    def __init__(self, width, height, argb):
        self.width, self.height = width, height
        self.runtime = tempfile.mkdtemp(prefix="confab-pipewire-")
        os.chmod(self.runtime, 0o700)
        self.socket = os.path.join(self.runtime, "pipewire-0")
        self.log = open(os.path.join(self.runtime, "log.txt"), "w")
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, PIPEWIRE_RUNTIME_DIR=self.runtime)
        self.processes = []
        try:
            self.processes.append(self.spawn(["pipewire"]))
            self.wait(lambda: os.path.exists(self.socket), "the PipeWire socket")
            self.processes.append(self.spawn(["wireplumber"]))
            # Screen casts come as BGRx (a 24-bit format does not negotiate through PipeWire 0.3.65).
            self.processes.append(self.spawn([
                "gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "pattern=solid-color", f"foreground-color={argb:#010x}",
                "!", f"video/x-raw,format=BGRx,width={width},height={height},framerate=15/1",
                "!", "pipewiresink", "mode=provide", f"stream-properties=props,media.class=Video/Source,node.name={NODE_NAME}"]))
            self.node_id = self.wait(self.find_node, "the screen node in PipeWire")
        except Exception:
            self.stop()
            raise

    def spawn(self, command):
        return subprocess.Popen(command, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def find_node(self):
        dump = subprocess.run(["pw-dump"], env=self.env, capture_output=True, text=True, timeout=10).stdout
        for entry in json.loads(dump or "[]"):
            props = (entry.get("info") or {}).get("props") or {}
            if entry.get("type") == "PipeWire:Interface:Node" and props.get("node.name") == NODE_NAME:
                return entry["id"]
        return None

    def wait(self, condition, what, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"{process.args[0]} exited ({process.returncode}) while waiting for {what}: {self.output()}")
            value = condition()
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"no {what} after {timeout} s: {self.output()}")

    def output(self):
        self.log.flush()
        with open(self.log.name) as log:
            return log.read()[-3000:]

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes = []
        self.log.close()
        shutil.rmtree(self.runtime, ignore_errors=True)
