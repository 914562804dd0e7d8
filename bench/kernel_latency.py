#!/usr/bin/env python3
"""Kiln's kernel against ipykernel, side by side in one run, on this machine.

For each kernel: start-to-ready time (median of 3 starts), round trip of an empty cell (execute
request sent -> reply and idle received; median and p99 over 500), seconds to stream 100,000
printed lines (checked intact), interrupt latency (SIGINT sent -> error reply, median of 5, a
cell in `while True: pass`) and the kernel process's RSS. Ratios are Kiln / ipykernel.

The client is jupyter_client's Session on plain ZeroMQ sockets, the same for both kernels, so
that its own overhead stays small and equal. Usage:
    KILN_BUILD_DIR=build /usr/bin/python3 bench/kernel_latency.py [--cells 500]"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import psutil
import zmq
from jupyter_client.manager import KernelManager
from jupyter_client.session import Session

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build")))
LINES = 100_000


class Kernel:
    """A started kernel and a thin client: a DEALER on shell, a SUB on iopub."""

    def __init__(self, name):
        t0 = time.perf_counter()
        self.km = KernelManager(kernel_name=name)
        self.km.start_kernel()
        kc = self.km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=120)
        self.ready_s = time.perf_counter() - t0
        kc.stop_channels()
        info = self.km.get_connection_info()
        self.session = Session(key=info["key"], signature_scheme=info["signature_scheme"])
        self.ctx = zmq.Context()
        self.shell = self.ctx.socket(zmq.DEALER)
        self.shell.connect(f"tcp://{info['ip']}:{info['shell_port']}")
        self.iopub = self.ctx.socket(zmq.SUB)
        self.iopub.setsockopt(zmq.SUBSCRIBE, b"")
        self.iopub.connect(f"tcp://{info['ip']}:{info['iopub_port']}")
        self.pid = self.km.provisioner.process.pid
        time.sleep(0.5)  # let the SUB subscription reach the kernel
        self.execute("pass")

    def execute(self, code, on_iopub=None):
        """Runs code; returns (seconds until reply and idle both arrived, reply content)."""
        content = {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                   "allow_stdin": False, "stop_on_error": True}
        t0 = time.perf_counter()
        msg_id = self.session.send(self.shell, "execute_request", content)["header"]["msg_id"]
        reply, idle = None, False
        poller = zmq.Poller()
        poller.register(self.shell, zmq.POLLIN)
        poller.register(self.iopub, zmq.POLLIN)
        while reply is None or not idle:
            for sock, _ in poller.poll(120_000):
                _, msg = self.session.recv(sock, mode=zmq.NOBLOCK)
                if msg is None or msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if sock is self.shell:
                    reply = msg["content"]
                elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    idle = True
                elif on_iopub:
                    on_iopub(msg)
        return time.perf_counter() - t0, reply

    def interrupt_latency(self):
        # stop_on_error off: ipykernel would abort the next cell, sent right after this one
        content = {"code": "while True: pass", "silent": False, "store_history": True,
                   "user_expressions": {}, "allow_stdin": False, "stop_on_error": False}
        msg_id = self.session.send(self.shell, "execute_request", content)["header"]["msg_id"]
        time.sleep(0.3)
        t0 = time.perf_counter()
        self.km.interrupt_kernel()
        while True:
            if not self.shell.poll(20_000):
                raise RuntimeError("no reply to the interrupted cell")
            _, msg = self.session.recv(self.shell)
            if msg["parent_header"].get("msg_id") == msg_id:
                latency = time.perf_counter() - t0
                assert msg["content"].get("ename") == "KeyboardInterrupt", msg["content"]
                time.sleep(0.2)  # let the kernel go idle before the next measurement
                return latency

    def rss_mib(self):
        return psutil.Process(self.pid).memory_info().rss / 2**20

    def close(self):
        self.shell.close(linger=0)
        self.iopub.close(linger=0)
        self.ctx.term()
        self.km.shutdown_kernel()


def measure(name, cells):
    starts = []
    for _ in range(2):
        k = Kernel(name)
        starts.append(k.ready_s)
        k.close()
    k = Kernel(name)
    starts.append(k.ready_s)
    trips = sorted(k.execute("")[0] for _ in range(cells))
    text = []

    def on_iopub(msg):
        if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
            text.append(msg["content"]["text"])
    stream_s, _ = k.execute(f"for i in range({LINES}):\n    print(i)", on_iopub)
    intact = "".join(text) == "".join(f"{i}\n" for i in range(LINES))
    interrupts = [k.interrupt_latency() for _ in range(5)]
    rss = k.rss_mib()
    k.close()
    return {
        "start-to-ready (s)": statistics.median(starts),
        "empty cell median (ms)": 1e3 * statistics.median(trips),
        "empty cell p99 (ms)": 1e3 * trips[min(len(trips) - 1, int(0.99 * len(trips)))],
        f"{LINES:,} lines (s)": stream_s,
        "interrupt (ms)": 1e3 * statistics.median(interrupts),
        "RSS (MiB)": rss,
        "lines intact": intact,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cells", type=int, default=500)
    args = ap.parse_args()
    kernel = os.path.join(BUILD, "kiln-kernel")
    with tempfile.TemporaryDirectory(prefix="kiln-bench-") as prefix:
        subprocess.run([kernel, "install", "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
        os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
        os.environ["IPYTHONDIR"] = os.path.join(prefix, "ipython")
        results = {"kiln": measure("kiln", args.cells), "ipykernel": measure("python3", args.cells)}
    kiln, ipk = results["kiln"], results["ipykernel"]
    print(f"{'':26s} {'kiln':>10s} {'ipykernel':>10s} {'kiln/ipyk':>10s}")
    for key in kiln:
        a, b = kiln[key], ipk[key]
        if isinstance(a, bool):
            print(f"{key:26s} {str(a):>10s} {str(b):>10s}")
        else:
            print(f"{key:26s} {a:10.3f} {b:10.3f} {a / b:10.2f}")
    print(f"(cells: {args.cells}; CPU cores: {os.cpu_count()}; python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
