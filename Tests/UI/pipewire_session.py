"""A real PipeWire daemon of the test's own (with WirePlumber to link streams and pick the
defaults), and nodes standing in for what a desktop has: the compositor's screen-cast stream
(`PipeWireScreen`), or microphones (`PipeWireSound`, with PipeWire's PulseAudio server, as a
GNOME session runs it)."""
import json
import os
import shutil
import subprocess
import tempfile
import time

NODE_NAME = "confab-test-screen"


class PipeWireSession:
    def __init__(self):
        self.runtime = tempfile.mkdtemp(prefix="confab-pipewire-")
        os.chmod(self.runtime, 0o700)
        self.socket = os.path.join(self.runtime, "pipewire-0")
        self.log = open(os.path.join(self.runtime, "log.txt"), "w")
        # Its own state and configuration too: WirePlumber keeps the defaults and where each
        # program's stream went (`~/.local/state/wireplumber`), and a run would start with the
        # last one's choices.
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, PIPEWIRE_RUNTIME_DIR=self.runtime,
                        XDG_STATE_HOME=os.path.join(self.runtime, "state"), XDG_CONFIG_HOME=os.path.join(self.runtime, "config"))
        self.processes = []
        try:
            self.processes.append(self.spawn(["pipewire"]))
            self.wait(lambda: os.path.exists(self.socket), "the PipeWire socket")
            self.processes.append(self.spawn(["wireplumber"]))
            self.add_nodes()
        except Exception:
            self.stop()
            raise

    def add_nodes(self):
        pass

    def dump(self):
        """PipeWire's objects now (`pw-dump`; only its first list: a change while it dumps
        can make it print another after it)."""
        output = subprocess.run(["pw-dump"], env=self.env, capture_output=True, text=True, timeout=10).stdout.strip()
        return json.JSONDecoder().raw_decode(output)[0] if output else []

    def find_node(self, name):
        for entry in self.dump():
            props = (entry.get("info") or {}).get("props") or {}
            if entry.get("type") == "PipeWire:Interface:Node" and props.get("node.name") == name:
                return entry["id"]
        return None

    def spawn(self, command):
        return subprocess.Popen(command, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

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


class PipeWireScreen(PipeWireSession):
    """One video source node standing in for the compositor's screen-cast stream: a solid colour
    at a size no other source in the tests has, so a receiver can tell the portal path apart
    from the X display and the test pattern."""

    def __init__(self, width, height, argb):
        self.width, self.height, self.argb = width, height, argb
        super().__init__()

    def add_nodes(self):
        # Screen casts come as BGRx (a 24-bit format does not negotiate through PipeWire 0.3.65).
        self.processes.append(self.spawn([
            "gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "pattern=solid-color", f"foreground-color={self.argb:#010x}",
            "!", f"video/x-raw,format=BGRx,width={self.width},height={self.height},framerate=15/1",
            "!", "pipewiresink", "mode=provide", f"stream-properties=props,media.class=Video/Source,node.name={NODE_NAME}"]))
        self.node_id = self.wait(lambda: self.find_node(NODE_NAME), "the screen node in PipeWire")


class PipeWireSound(PipeWireSession):
    """Microphones, each a steady tone of its own (name → Hz), and PipeWire's PulseAudio server,
    as on a GNOME desktop: GStreamer's device monitor then lists each microphone twice (PipeWire's
    entry first, without a word on the default; PulseAudio's saying which is). `env_for_clients`
    points a program at this session.

    Each microphone is a virtual source (a null sink, so it also drives the graph, as a sound
    card does: without a driver nothing flows) fed by a tone of its own, linked by hand
    (WirePlumber links playback streams to sinks, never to a source's input)."""

    def __init__(self, microphones, speakers=()):
        self.microphones = microphones
        self.speakers = speakers
        super().__init__()

    def add_nodes(self):
        self.processes.append(self.spawn(["pipewire-pulse"]))
        self.pulse_socket = os.path.join(self.runtime, "pulse", "native")
        self.wait(lambda: os.path.exists(self.pulse_socket), "PipeWire's PulseAudio socket")
        self.feeds = {}
        for name in self.microphones:
            self.plug(name)
        for name in self.speakers:
            # A null sink plays nowhere, and drives its graph as a sound card does.
            subprocess.run(["pw-cli", "create-node", "adapter",
                            f"{{ factory.name=support.null-audio-sink node.name={name} node.description={name} "
                            "media.class=Audio/Sink audio.position=[FL FR] object.linger=true }"],
                           env=self.env, check=True, capture_output=True, timeout=10)
            self.wait(lambda name=name: self.find_node(name), f"{name} in PipeWire")

    def plug(self, name):
        """The microphone `name` appears, its tone playing into it. The tone's stream is linked
        to its microphone only (`node.autoconnect=false`): left to WirePlumber, it was also
        linked to the default speaker, and in about one run in three the headset's node then
        gave digital silence to every program recording it (the app, and gst-launch beside it),
        with every link in place and every node running: the app was blamed for a test's fault."""
        subprocess.run(["pw-cli", "create-node", "adapter",
                        f"{{ factory.name=support.null-audio-sink node.name={name} node.description={name} "
                        "media.class=Audio/Source/Virtual audio.position=[MONO] object.linger=true }"],
                       env=self.env, check=True, capture_output=True, timeout=10)
        feed = self.spawn([
            "gst-launch-1.0", "-q", "audiotestsrc", "is-live=true", f"freq={self.microphones[name]}", "volume=0.5",
            "!", "audio/x-raw,rate=48000,channels=1", "!", "pipewiresink", f"stream-properties=props,node.name=feed-{name},node.autoconnect=false"])
        self.processes.append(feed)
        self.feeds[name] = feed
        self.wait(lambda: self.link(f"feed-{name}:output_MONO", f"{name}:input_MONO"), f"{name}'s tone linked to it")

    def unplug(self, name):
        """The microphone `name` goes away (its node and its tone), as a headset pulled out."""
        feed = self.feeds.pop(name)
        feed.terminate()
        feed.wait(timeout=5)
        self.processes.remove(feed)
        subprocess.run(["pw-cli", "destroy", str(self.find_node(name))], env=self.env, check=True, capture_output=True, timeout=10)
        self.wait(lambda: self.find_node(name) is None, f"{name} gone from PipeWire")

    def link(self, output, input):
        return subprocess.run(["pw-link", output, input], env=self.env, capture_output=True, timeout=10).returncode == 0

    @property
    def env_for_clients(self):
        return {"PIPEWIRE_RUNTIME_DIR": self.runtime, "PULSE_SERVER": f"unix:{self.pulse_socket}"}

    def set_default_microphone(self, name):
        """As Settings → Sound → Input does (WirePlumber keeps the choice and tells the clients)."""
        self.set_default("audio.source", name)

    def set_default_speaker(self, name):
        """As Settings → Sound → Output does."""
        self.set_default("audio.sink", name)

    def set_default(self, key, name):
        subprocess.run(["pw-metadata", "0", f"default.configured.{key}", json.dumps({"name": name}), "Spa:String:JSON"],
                       env=self.env, check=True, capture_output=True, timeout=10)
        self.wait(lambda: self.default(key) == name, f"{name} as the default ({key})")

    def default(self, key):
        said = subprocess.run(["pw-metadata", "0", f"default.{key}"], env=self.env, capture_output=True, text=True, timeout=10).stdout
        for name in [*self.microphones, *self.speakers]:
            if f'"name":"{name}"' in said.replace(" ", ""):
                return name
        return None

    def sinks_playing(self, pid):
        """The names of the sinks the process `pid` plays to now (its streams' links)."""
        dump = self.dump()
        nodes = {entry["id"]: (entry.get("info") or {}).get("props") or {} for entry in dump if entry.get("type") == "PipeWire:Interface:Node"}
        streams = {node for node, props in nodes.items()
                   if props.get("media.class") == "Stream/Output/Audio" and str(props.get("application.process.id")) == str(pid)}
        return {nodes.get(entry["info"]["input-node-id"], {}).get("node.name") for entry in dump
                if entry.get("type") == "PipeWire:Interface:Link" and entry["info"]["output-node-id"] in streams}
