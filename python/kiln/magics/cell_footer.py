"""The per-cell bookkeeping behind the footer: a snapshot when a cell
starts, the Delta and the footer line when it ends. Registered as IPython's
pre_run_cell / post_run_cell callbacks by kiln.ipython. The dispatcher counts
and times calls only while a cell runs (records.recording_calls, one
recording per cell): the footer is what shows them, and outside a shell
nothing pays for it."""
import sys
import time

from IPython.display import display

from kiln import unused_work

from . import cell_warnings, footer, gpu_records, records


class CellWatch:
    """Holds the start of the running cell; a shell runs one cell at a time."""

    def __init__(self):
        self._start = None
        self._before = None
        self._recording = records.recording_calls()
        self._warnings = cell_warnings.FooterWarnings()
        self.listeners = []  # callables(delta) told after every cell

    def pre_run_cell(self, info=None):
        if self._before is not None:  # a cell that raised before post_run_cell left it on
            self._recording.stop()
        self._recording.start()  # a new recording: this cell's calls only
        self._before = records.snapshot()
        unused_work.take()  # what compiles outside any cell told
        self._warnings.start()
        self._start = time.perf_counter()

    def post_run_cell(self, result=None):
        if self._before is None:  # loaded in the middle of a cell
            return
        elapsed = time.perf_counter() - self._start
        delta = records.since(self._before)
        delta.workers = records.from_workers()
        self._before = None
        self._recording.stop()
        try:
            gpu = gpu_records.take()
        except Exception as exc:  # the cell's own result stands; only the report is short
            print(f"kiln: GPU records unavailable ({type(exc).__name__}: {exc})", file=sys.stderr)
            gpu = None
        # Every cell: a function may gain a signature without a compile
        # record (cache=True loads machine code from disk).
        for listener in self.listeners:
            listener(delta)
        unused = unused_work.take()
        warned = self._warnings.take()
        if not delta and gpu is None and not unused and not warned:
            return
        display(footer.render(delta, elapsed, gpu, unused, warned).bundle(), raw=True)

    def close(self):
        """Called when unloaded: a cell still running stops recording now,
        since its post_run_cell will not come; Kiln's warnings go to stderr again."""
        self._warnings.close()
        if self._before is not None:
            self._before = None
            self._recording.stop()
