"""`mjtable bench hall`: a hall at scale on loopback (issue 29 item 4).

The hall's brokers as `mjtable hall broker-config` writes them (tools/bench/hall_loopback.py:
Mosquitto with the ACL, passwords and bridge; the viewers' broker, Aedes under Node.js, MQTT
over WebSockets) and the real `mjtable hub` reading every table. One real table first: `mjtable
run --fast --deals 1` publishes a deal into the hall, and what it published (view, events,
status, the delayed broadcast) is recorded. Then `--tables` simulated tables (real
`MqttPublisher`s, one connection each, in `--procs` processes, plus one table alone in a
process of its own: the measured Pi) replay it at `--move-s` a move, and:

- **phase 1**, `--seconds` with no viewer: the measured table's publisher process CPU;
- **phase 2**, `--viewers` WebSocket viewers (paho, two processes), each watching one table's
  view and events on the viewers' broker, for `--seconds`: the measured table's CPU again
  (it publishes once, whoever watches), the viewers' latency from the table's publish call
  to the viewer's receipt (p50, p99, wall clocks of one machine), the messages a viewer
  missed (every view and event its table published while it was subscribed, bar the last
  2 s), the CPU (% of one core, utime + stime from /proc/PID/stat) and resident memory of
  Mosquitto, the viewers' broker and the hub.

Targets: p99 ≤ 1 s, the hub ≤ 10 % of a core, no message lost. A tiny run for the tests:
`--tables 3 --viewers 20 --seconds 3`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho

from tools.bench.hall_loopback import HallPartMissing, LoopbackHall

TARGETS = {"p99_ms": 1000.0, "hub_cpu_percent": 10.0, "lost": 0}
HALL = "bench"
RECORDED = "T0"  # the real table that plays the recorded deal
TAIL_S = 2.0  # publishes this close to the end of phase 2 are not counted as lost
CLK_TCK = os.sysconf("SC_CLK_TCK")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=200, help="simulated tables (200)")
    parser.add_argument("--viewers", type=int, default=2000, help="WebSocket viewers (2000)")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="each phase's length, seconds (60)"
    )
    parser.add_argument(
        "--move-s", type=float, default=2.0, help="a table's pace: seconds a move (2.0)"
    )
    parser.add_argument(
        "--delay-s", type=float, default=30.0, help="the broadcast delay, seconds (30)"
    )
    parser.add_argument("--procs", type=int, default=4, help="processes for the tables (4)")
    parser.add_argument("--seed", type=int, default=3, help="the recorded deal's seed (3)")
    parser.add_argument("--dir", type=Path, help="scratch folder (default: temp)")


class _Proc:
    """A child of the bench: its pid's CPU seconds and memory from /proc."""

    def __init__(self, argv: list[str], cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)  # fmt: skip
        self.lines: list[str] = []
        self.said = threading.Condition()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self.said:
                self.lines.append(line.strip())
                self.said.notify_all()

    def wait_for(self, prefix: str, timeout_s: float) -> str:
        with self.said:
            ok = self.said.wait_for(
                lambda: (
                    any(x.startswith(prefix) for x in self.lines) or self.proc.poll() is not None
                ),
                timeout_s,
            )
            found = next((x for x in self.lines if x.startswith(prefix)), None)
        if not ok or found is None:
            err = (
                self.proc.stderr.read() if self.proc.poll() is not None and self.proc.stderr else ""
            )
            raise RuntimeError(f"{self.proc.args[:4]} did not say {prefix!r}: {err[-2000:]}")
        return found

    def stop(self, timeout_s: float = 60.0) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime


def memory_mb(pid: int) -> tuple[float, float]:
    """VmRSS and VmHWM (the peak), MB."""
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    rss, peak = (int(status[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))
    return rss, peak


class CpuWindow:
    """CPU % of one core of each pid between `start()` and `stop()`."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids
        self.t0 = time.monotonic()
        self.c0 = {k: cpu_s(p) for k, p in pids.items()}

    def stop(self) -> dict[str, float]:
        wall = time.monotonic() - self.t0
        return {k: 100 * (cpu_s(p) - self.c0[k]) / wall for k, p in self.pids.items()}


def record_deal(hall: LoopbackHall, folder: Path, seed: int, delay_s: float) -> Path:
    """`mjtable run --fast --deals 1` into the hall as table T0: what it published, in order."""
    heard: list[dict[str, Any]] = []
    lock = threading.Lock()
    ready = threading.Event()
    client = paho.Client(paho.CallbackAPIVersion.VERSION2)
    client.username_pw_set(hall.broker.hub_user, hall.password(hall.broker.hub_user))

    def take(c, u, msg) -> None:
        with lock:
            heard.append(
                {"channel": msg.topic.rsplit("/", 1)[1], "payload": json.loads(msg.payload)}
            )

    client.on_message = take
    client.on_connect = lambda c, u, f, rc, p: c.subscribe(
        [(f"mjtable/{HALL}/{RECORDED}/{ch}", 1) for ch in ("view", "event", "status", "broadcast")]
    )
    client.on_subscribe = lambda *a: ready.set()
    client.connect("127.0.0.1", hall.mqtt_port)
    client.loop_start()
    if not ready.wait(20):
        raise RuntimeError("the recorder could not subscribe to the hall broker")
    user = hall.broker.table_user(RECORDED)
    config = folder / "table.toml"
    config.write_text(
        f'[table]\nname = "{RECORDED}"\n[http]\nbroadcast-delay = {min(delay_s, 1.0)}\n'
        f'[mqtt]\nbroker = "127.0.0.1:{hall.mqtt_port}"\nhall = "{HALL}"\n'
        f'username = "{user}"\npassword = "{hall.password(user)}"\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "controller", "run", "--config", str(config), "--fast",
         "--deals", "1", "--seed", str(seed), "--journal", str(folder / "table.journal"),
         "--http", "127.0.0.1:0"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    time.sleep(1.5)  # the last broadcast view, released after its (short) delay
    client.disconnect()
    client.loop_stop()
    if done.returncode != 0:
        raise RuntimeError(f"the recorded table failed: {done.stderr[-2000:]}")
    path = folder / "deal.jsonl"
    with lock:
        path.write_text("".join(json.dumps(h) + "\n" for h in heard), encoding="utf-8")
        views = sum(h["channel"] == "view" for h in heard)
    if views < 10:
        raise RuntimeError(f"the recorded deal has {views} views")
    return path


def _spec(folder: Path, name: str, spec: dict[str, Any]) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


def _role(role: str, spec: Path) -> _Proc:
    return _Proc([sys.executable, "-m", "tools.bench.hall_roles", role, str(spec)])


def measure(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    names = [f"T{i}" for i in range(1, args.tables + 1)]
    hall = LoopbackHall(folder, HALL, (RECORDED, *names), max_viewers=args.viewers + 100)
    hall.start()
    hub = None
    procs: list[_Proc] = []
    try:
        moves = record_deal(hall, folder, args.seed, args.delay_s)
        hub_user = hall.broker.hub_user
        hub = _Proc([sys.executable, "-m", "controller", "hub", "--broker",
                     f"127.0.0.1:{hall.mqtt_port}", "--hall", HALL, "--username", hub_user,
                     "--password-file", str(hall.credentials[hub_user]), "--http",
                     "127.0.0.1:0", "--viewers-port", str(hall.ws_port)])  # fmt: skip
        base = {"hall": HALL, "port": hall.mqtt_port, "moves": str(moves),
                "move_s": args.move_s, "lag": max(1, round(args.delay_s / args.move_s))}  # fmt: skip
        # the measured Pi: one table alone in its process; the others share `--procs`
        groups = [names[:1]] + [names[1:][i :: args.procs] for i in range(args.procs)]
        groups = [g for g in groups if g]
        for i, group in enumerate(groups):
            spec = {**base, "tables": {t: hall.password(hall.broker.table_user(t)) for t in group},
                    "out": str(folder / f"published-{i}.json")}  # fmt: skip
            procs.append(_role("tables", _spec(folder, f"tables-{i}", spec)))
        for p in procs:
            p.wait_for("publishing", 120)
        pi = procs[0].proc.pid
        time.sleep(min(5.0, args.seconds))  # every table connected and publishing
        idle = CpuWindow({"pi": pi})
        time.sleep(args.seconds)
        figures = {"pi_cpu_percent_0": idle.stop()["pi"]}

        viewer_procs = 2 if args.viewers >= 100 else 1
        watch = [names[i % len(names)] for i in range(args.viewers)]
        viewers = []
        for i in range(viewer_procs):
            spec = {"hall": HALL, "ws_port": hall.ws_port, "watch": watch[i::viewer_procs],
                    "out": str(folder / f"viewers-{i}.json")}  # fmt: skip
            viewers.append(_role("viewers", _spec(folder, f"viewers-{i}", spec)))
        ready = max(float(v.wait_for("ready", 600).split()[1]) for v in viewers)
        pids = {"pi": pi, **hall.pids, "hub": hub.proc.pid}
        busy = CpuWindow(pids)
        phase_start = time.time()
        time.sleep(args.seconds)
        cpu = busy.stop()
        phase_end = time.time()
        figures["pi_cpu_percent_viewers"] = cpu["pi"]
        for name in ("mosquitto", "viewers", "hub"):
            figures[f"{name}_cpu_percent"] = cpu[name]
            figures[f"{name}_rss_mb"], figures[f"{name}_peak_mb"] = memory_mb(pids[name])
        for v in viewers:
            v.stop()
        for p in procs:
            p.stop()
        figures |= _deliveries(folder, len(groups), viewer_procs, ready, phase_start, phase_end)
        figures["tables"], figures["viewers"] = args.tables, args.viewers
        return figures
    finally:
        for p in procs:
            p.stop(5)
        if hub is not None:
            hub.stop(10)
        hall.stop()


def _deliveries(folder: Path, groups: int, viewer_procs: int, ready: float,
                start: float, end: float) -> dict[str, float]:  # fmt: skip
    """Latency of what the viewers received in phase 2, and what they missed."""
    sent: dict[tuple[str, str, int], float] = {}
    for i in range(groups):
        for table, channel, seq, t in json.loads((folder / f"published-{i}.json").read_text()):
            sent[(table, channel, seq)] = t
    latencies: list[float] = []
    lost = expected = 0
    for i in range(viewer_procs):
        got = json.loads((folder / f"viewers-{i}.json").read_text())["got"]
        for table, messages in got:
            seen = set()
            for channel, seq, t in messages:
                if (channel, seq) in seen:
                    continue  # a QoS 1 event sent twice: its first arrival counts
                seen.add((channel, seq))
                at = sent.get((table, channel, seq))
                if at is not None and start <= at <= end:
                    latencies.append(t - at)
            due = [(c, s) for (tb, c, s), t in sent.items()
                   if tb == table and ready < t <= end - TAIL_S]  # fmt: skip
            expected += len(due)
            lost += sum(1 for d in due if d not in seen)
    if not latencies:
        raise RuntimeError("the viewers received nothing in phase 2")
    latencies.sort()
    return {
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "max_ms": 1000 * latencies[-1],
        "delivered": len(latencies),
        "expected": expected,
        "lost": lost,
    }


ROWS = (
    ("viewer latency p50 (publish → viewer)", "p50_ms", "{:.0f} ms", ""),
    ("viewer latency p99", "p99_ms", "{:.0f} ms", "≤ 1000 ms"),
    ("viewer latency max", "max_ms", "{:.0f} ms", ""),
    ("messages delivered to viewers (phase 2)", "delivered", "{:.0f}", ""),
    ("messages a viewer missed", "lost", "{:.0f} of {expected:.0f}", "0"),
    ("Mosquitto CPU (one core)", "mosquitto_cpu_percent", "{:.1f} %", ""),
    ("Mosquitto memory (peak)", "mosquitto_rss_mb", "{:.0f} MB ({mosquitto_peak_mb:.0f})", ""),
    ("viewers' broker CPU (one core)", "viewers_cpu_percent", "{:.1f} %", ""),
    ("viewers' broker memory (peak)", "viewers_rss_mb", "{:.0f} MB ({viewers_peak_mb:.0f})", ""),
    ("hub CPU (one core)", "hub_cpu_percent", "{:.1f} %", "≤ 10 %"),
    ("hub memory (peak)", "hub_rss_mb", "{:.0f} MB ({hub_peak_mb:.0f})", ""),
    ("one table's publisher CPU, 0 viewers", "pi_cpu_percent_0", "{:.2f} %", ""),
    ("one table's publisher CPU, with viewers", "pi_cpu_percent_viewers", "{:.2f} %", "unchanged"),
)


def run(args: argparse.Namespace) -> int:
    if args.tables < 1 or args.viewers < 1 or args.seconds <= 0 or args.move_s <= 0:
        print("mjtable bench hall: --tables, --viewers, --seconds and --move-s are positive",
              file=sys.stderr)  # fmt: skip
        return 2
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        try:
            figures = measure(args, Path(tmp))
        except HallPartMissing as err:
            print(f"mjtable bench hall: {err}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps({k: round(v, 3) for k, v in figures.items()}))
        return 0
    print(f"{args.tables} tables at {args.move_s} s a move, {args.viewers} WebSocket viewers, "
          f"{args.seconds:.0f} s a phase")  # fmt: skip
    for name, key, fmt, target in ROWS:
        print(f"{name:42} {fmt.format(figures[key], **figures):>22}  {target}")
    return 0
