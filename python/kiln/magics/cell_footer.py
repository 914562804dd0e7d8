"""The per-cell bookkeeping behind the footer: a snapshot when a cell
starts, the Delta and the footer line when it ends. Registered as IPython's
pre_run_cell / post_run_cell callbacks by kiln.ipython."""
import time

from IPython.display import display

from . import footer, records


class CellWatch:
    """Holds the start of the running cell; a shell runs one cell at a time."""

    def __init__(self):
        self._start = None
        self._before = None
        self.listeners = []  # callables(delta) told after every cell that compiled

    def pre_run_cell(self, info=None):
        self._before = records.snapshot()
        self._start = time.perf_counter()

    def post_run_cell(self, result=None):
        if self._before is None:  # loaded in the middle of a cell
            return
        elapsed = time.perf_counter() - self._start
        delta = records.since(self._before)
        self._before = None
        if not delta:
            return
        if delta.compiles:
            for listener in self.listeners:
                listener(delta)
        display(footer.render(delta, elapsed).bundle(), raw=True)
