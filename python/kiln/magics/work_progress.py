"""A line under the cell while Kiln's long work runs past PROGRESS_AFTER seconds, saying what it
does and for how long ("compiling f: optimizing, 2.1 s", "simulating add[1024, 128]: block 300
of 1024, 4.0 s"), emptied when it ends; the cell's footer then gives its time. Before, a long
compile or simulator launch showed nothing until it ended.

That work holds no GIL while it runs (LLVM's optimization and machine code, jit/engine/engine.c;
a launch on the CUDA simulator), so a thread of this module can update the line meanwhile. Only
the work of the thread that runs the cell is shown, and of work within work, the outer one."""
import contextlib
import threading
import time

from . import progress
from .progress import Progress

TICK = 0.25   # seconds between updates of the line


class WorkProgress:
    """kiln.long_work.watcher: `with watch(describe): ...` around long work, describe() saying
    what it does now, and how much of it is done where that is known (text, or text and a
    fraction); called on this module's thread."""

    def __init__(self, shell):
        self.shell = shell
        self._cond = threading.Condition()
        self._current = None   # (describe, Progress) of the work being watched
        self._thread = None

    @contextlib.contextmanager
    def __call__(self, describe):
        if self._current is not None or threading.current_thread() is not threading.main_thread():
            yield
            return
        line = Progress(self.shell)
        with self._cond:
            self._current = (describe, line)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="kiln-work-progress", daemon=True)
                self._thread.start()
            # Woken now, the thread would take the GIL from the cell's thread at every compile,
            # however short (on a loaded machine that cost milliseconds); its own round finds
            # the work in time, unless the line is due at once.
            if progress.PROGRESS_AFTER <= 0:
                self._cond.notify()
        try:
            yield
        finally:
            with self._cond:   # not while the thread is showing the line
                self._current = None
            line.finish()

    def _watch(self):
        with self._cond:
            while True:
                if self._current is None:
                    self._cond.wait(timeout=max(progress.PROGRESS_AFTER, TICK))
                    continue
                describe, line = self._current
                left = progress.PROGRESS_AFTER - (time.perf_counter() - line.start)
                if left > 0:
                    self._cond.wait(timeout=left)
                    continue
                said = describe()
                text, fraction = said if isinstance(said, tuple) else (said, None)
                line.show(f"{text}, {time.perf_counter() - line.start:.1f} s", fraction)
                self._cond.wait(timeout=TICK)
