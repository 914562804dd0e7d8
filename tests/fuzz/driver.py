"""A pool of worker processes (worker.py) fed programs over pipes. A worker
that dies (a signal, an abort in compiled code) is a crash of the program it
was running, one that runs past the time limit a hang; either way the pool
starts a new worker and the campaign goes on. A worker that cannot import
kiln (the extension being rebuilt) is not a crash: the program waits and
runs again."""
import json
import os
import selectors
import signal
import subprocess
import sys
import time

from . import BUILD, ROOT
from .worker import CANNOT_START

TIMEOUT_S = 60
START_RETRIES = 60   # workers that cannot import kiln: five minutes of waiting, then crashes


class Worker:
    def __init__(self):
        # what workers print, and the traceback of one that dies of a Python error
        os.makedirs(os.path.join(BUILD, "fuzz"), exist_ok=True)
        with open(os.path.join(BUILD, "fuzz", "workers.log"), "a") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "tests.fuzz.worker"], cwd=ROOT,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=log, text=True, bufsize=1)
        self.job = None      # (id, source, started)

    def send(self, job_id, source):
        self.job = (job_id, source, time.monotonic())
        self.proc.stdin.write(json.dumps({"id": job_id, "source": source}) + "\n")
        self.proc.stdin.flush()

    def stop(self):
        """Ends the worker: at the end of its input when it is idle (it
        removes its folder), killed when it is running a program."""
        if self.job is None and self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class Pool:
    def __init__(self, n=2):
        self.workers = [Worker() for _ in range(n)]
        self.next_id = 0

    def close(self):
        for w in self.workers:
            w.stop()

    def run(self, sources):
        """Yields (index, result) for each source, in the order they finish."""
        todo = list(enumerate(sources))[::-1]
        busy = {}
        waited = 0
        sel = selectors.DefaultSelector()
        while todo or busy:
            for w in self.workers:
                if w.job is None and todo:
                    idx, src = todo.pop()
                    self.next_id += 1
                    try:
                        w.send(self.next_id, src)
                    except BrokenPipeError:
                        self._replace(w)
                        todo.append((idx, src))
                        continue
                    busy[w] = idx
                    sel.register(w.proc.stdout, selectors.EVENT_READ, w)
            events = sel.select(timeout=1.0)
            for key, _ in events:
                w = key.data
                line = w.proc.stdout.readline()
                sel.unregister(w.proc.stdout)
                idx = busy.pop(w)
                if line:
                    res = json.loads(line)
                else:
                    code = w.proc.wait()
                    if code == CANNOT_START and waited < START_RETRIES:
                        waited += 1   # kiln did not import (a rebuild of the extension): the same program again
                        time.sleep(5)
                        self._replace(w)
                        w.job = None
                        todo.append((idx, sources[idx]))
                        continue
                    res = {"kind": "crash", "detail": f"worker died: {self._death(code)}", "set": None,
                           "sig": self._death(code)}
                    self._replace(w)
                w.job = None
                yield idx, res
            now = time.monotonic()
            for w in list(busy):
                if w.job and now - w.job[2] > TIMEOUT_S:
                    sel.unregister(w.proc.stdout)
                    idx = busy.pop(w)
                    self._replace(w)
                    yield idx, {"kind": "hang", "detail": f"no answer in {TIMEOUT_S} s", "set": None, "sig": "hang"}

    @staticmethod
    def _death(code):
        if code < 0:
            return f"signal {signal.Signals(-code).name}"
        return f"exit status {code}"

    def _replace(self, w):
        w.stop()
        i = self.workers.index(w)
        self.workers[i] = Worker()
        w.job = None

    def run_one(self, source):
        for _, res in self.run([source]):
            return res

