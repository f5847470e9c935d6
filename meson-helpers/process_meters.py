"""What a process or a process tree costs over a window, from /proc: CPU (utime+stime), PSS, and
CPU by thread name. Shared by meson-helpers/bench-media, bench-lobby and bench-drawing."""
import os
import re
import time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid):
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()


def process_tree(root):
    """`root` and every process descending from it (by parent pid), as a list of pids."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            parent = int(_stat_fields(entry)[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def cpu_ticks(pids):
    """utime+stime of each pid (processes that are gone are left out)."""
    ticks = {}
    for pid in pids:
        try:
            fields = _stat_fields(pid)
            ticks[pid] = int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return ticks


def pss_mib(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            pass
    return total / 1024


class TreeMeter:
    """CPU of a process tree over a window: the tree is read again at the end, so processes
    started during the window (Chromium starts helpers as it likes) count from zero."""

    def __init__(self, root):
        self.root = root

    def start(self):
        self.started = time.monotonic()
        self.before = cpu_ticks(process_tree(self.root))

    def stop(self):
        tree = process_tree(self.root)
        after = cpu_ticks(tree)
        elapsed = time.monotonic() - self.started
        used = sum(ticks - self.before.get(pid, 0) for pid, ticks in after.items())
        return 100 * used / CLOCK_TICKS / elapsed, pss_mib(tree), len(tree)


class ThreadMeter:
    """CPU of each thread of one process over a window, summed by thread name with its digits
    left out (GStreamer names a streaming thread after the pad that runs it: `vp8enc0:sink`,
    `queue3:src`), so a profile of where the process's CPU goes reads without perf. With
    `tree`, the threads of the whole process tree (a Chromium's renderer, GPU and utility
    processes), each main thread named after its process's command. Beside each thread's CPU,
    how often it was switched a second (voluntary and not, from /proc/.../status): a thread
    woken for every buffer costs the kernel's switching too, which a profile shows only spread
    over everything else."""

    def __init__(self, pid, tree=False):
        self.pid = pid
        self.tree = tree

    def _threads(self):
        ticks = {}
        for pid in (process_tree(self.pid) if self.tree else [self.pid]):
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tids:
                try:
                    with open(f"/proc/{pid}/task/{tid}/stat") as stat:
                        text = stat.read()
                    name = text[text.index("(") + 1:text.rindex(")")]
                    if tid == str(pid):
                        name = "main thread" if pid == self.pid else f"{name} main"
                    else:
                        name = re.sub(r"\d+", "N", name)
                    fields = text.rsplit(")", 1)[1].split()
                    switches = 0
                    with open(f"/proc/{pid}/task/{tid}/status") as status:
                        for line in status:
                            if "ctxt_switches:" in line:  # voluntary and not
                                switches += int(line.split()[-1])
                    ticks[tid] = (name, int(fields[11]) + int(fields[12]), switches)
                except (OSError, ValueError, IndexError):
                    pass
        return ticks

    def start(self):
        self.started = time.monotonic()
        self.before = self._threads()

    def stop(self, top=12):
        elapsed = time.monotonic() - self.started
        by_name = {}
        for tid, (name, ticks, switches) in self._threads().items():
            _, ticks_before, switches_before = self.before.get(tid, (name, 0, 0))
            cpu, rate = by_name.get(name, (0, 0))
            by_name[name] = (cpu + 100 * (ticks - ticks_before) / CLOCK_TICKS / elapsed,
                             rate + (switches - switches_before) / elapsed)
        self.switches_per_second = sum(rate for _, rate in by_name.values())
        # Each name's CPU in % of a core, for a caller that wants one thread's figure.
        self.cpu_by_name = {name: cpu for name, (cpu, _) in by_name.items()}
        busiest = sorted(by_name.items(), key=lambda item: -item[1][0])[:top]
        # Each thread's CPU and how often it was switched in a second: waking up costs too.
        return ", ".join(f"{name} {cpu:.1f} ({rate:.0f}/s)" for name, (cpu, rate) in busiest if cpu >= 0.05) \
            + f"; all threads switched {self.switches_per_second:.0f}/s"
