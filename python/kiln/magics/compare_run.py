"""Running %compare's statements the way %timeit runs one: the first call
alone (it carries any compilation, which the profiler measures), then
timed runs of a loop of calls, each row checked against the first row."""
import copy
import math
import statistics
import time
import timeit
from dataclasses import dataclass, field

from . import records, simulated

DEFAULT_REPEAT = 7
TARGET_RUN = 0.2       # seconds per run at least, as %timeit aims for
SLOW_CALL = 0.5        # seconds per call above which fewer runs are made...
SLOW_REPEAT = 3        # ...so the seed's 3-second loops take 10 s, not 25


@dataclass
class CompareRow:
    """One statement's numbers, in seconds (per call, except `runs`)."""

    label: str
    source: str
    first: float         # the first call, compilation included
    compile: float       # compilation recorded by the profiler during it
    best: float
    median: float
    loops: int           # calls per timed run
    runs: list = field(default_factory=list)  # each timed run's total seconds
    speedup: float = 1.0  # the first row's best / this best
    agrees: object = None  # True / False, or None when nothing was returned
    value: object = field(default=None, repr=False)
    simulated: object = None  # (work, launches) of the CUDA simulator's launches in one call, or None


class CompareResult(list):
    """The rows of one %compare, in order; also indexable by label
    (`r["jit"].best`) and with per-column lists (`r.best`, `r.median`...)."""

    def __getitem__(self, key):
        if isinstance(key, str):
            for row in self:
                if row.label == key:
                    return row
            raise KeyError(key)
        return super().__getitem__(key)

    def _column(name):  # noqa: N805  (builds properties below)
        return property(lambda self: [getattr(row, name) for row in self],
                        doc=f"Each row's {name}, in order.")

    best = _column("best")
    median = _column("median")
    first = _column("first")
    compile = _column("compile")
    speedup = _column("speedup")
    labels = _column("label")
    del _column

    def __repr__(self):
        return "<CompareResult " + ", ".join(f"{r.label}: best {r.best:.3g} s" for r in self) + ">"


def _agree(a, b):
    """Results equal as numbers are (np.allclose tolerances), else by ==."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - NumPy is part of Kiln's set-up
        np = None
    if np is not None and (isinstance(a, np.ndarray) or isinstance(b, np.ndarray)):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        if a.dtype.kind in "biufc" and b.dtype.kind in "biufc":
            return bool(np.allclose(a, b, equal_nan=True))
        return bool(np.array_equal(a, b))
    if isinstance(a, (int, float, complex)) and isinstance(b, (int, float, complex)):
        if isinstance(a, complex) or isinstance(b, complex):
            return abs(a - b) <= 1e-8 + 1e-5 * abs(b)
        if math.isnan(a) and math.isnan(b):
            return True
        return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-8)
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_agree(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:  # an == that itself fails means they do not compare equal
        return False


def _compile_code(source):
    """(code, is_expression): an expression's value becomes the row's result."""
    try:
        return compile(source, "<compare>", "eval"), True
    except SyntaxError:
        return compile(source, "<compare>", "exec"), False


def run_row(entry, opts, namespace, ran=None):
    """Times one Entry in `namespace`; the first call's exception propagates.
    Calls are counted, not timed, by the profiler meanwhile: the row's times
    are what a script would see. ran(done, runs), if given, hears of each
    timed run as it ends."""
    with records.untimed_calls():
        return _run_row(entry, opts, namespace, ran or (lambda done, runs: None))


def _run_row(entry, opts, namespace, ran):
    code, is_expr = _compile_code(entry.source)
    before, sim_before = records.snapshot(), simulated.snapshot()
    start = time.perf_counter()
    value = eval(code, namespace) if is_expr else exec(code, namespace)
    first = time.perf_counter() - start
    compiled = records.since(before).compile_seconds
    one_call_simulated = simulated.since(sim_before)
    if opts.check:
        # A copy: later rows may write into the same array the check reads.
        value = copy.deepcopy(eval(opts.check, namespace))

    timer = timeit.Timer(entry.source, globals=namespace)
    number = opts.number
    if not number:
        # The first call, less its compilation, tells a slow statement at once;
        # faster ones are calibrated like %timeit: runs of at least TARGET_RUN.
        per_call = max(first - compiled, 0.0)
        if per_call >= TARGET_RUN:
            number = 1
        else:
            number, taken = timer.autorange()
            per_call = taken / number
    else:
        per_call = max(first - compiled, 0.0)
    repeat = opts.repeat or (SLOW_REPEAT if per_call >= SLOW_CALL else DEFAULT_REPEAT)
    runs = []
    for _ in range(repeat):   # timer.repeat's loop, told run by run
        runs.append(timer.timeit(number))
        ran(len(runs), repeat)
    per_call = [r / number for r in runs]
    return CompareRow(label=entry.label, source=entry.source, first=first, compile=compiled,
                      best=min(per_call), median=statistics.median(per_call), loops=number,
                      runs=runs, value=value, simulated=one_call_simulated)


def finish(result):
    """Fills in each row's speedup and agreement against the first row."""
    reference = result[0]
    for row in result:
        row.speedup = reference.best / row.best if row.best > 0 else math.inf
        if reference.value is None:
            row.agrees = None  # nothing to compare against; -c EXPR gives something
        else:
            row.agrees = row is reference or _agree(row.value, reference.value)
