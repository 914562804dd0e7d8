"""Reading the C profiler (_kiln.profiler_*): compile records since a
snapshot, the calls of the current recording, as plain Python objects the
renderers take."""
from dataclasses import dataclass, field

import _kiln
from kiln import worker_records

PHASES = tuple(_kiln.profiler_phases)


def _title(function, signature):
    """How a user names one specialization: f(float64, int64)."""
    return function + (signature if signature.startswith("(") else f"({signature})")


@dataclass(frozen=True)
class Compile:
    """One finished compile of one function for one signature, or, with
    from_cache, its machine code loaded from the disk cache instead (one
    phase then: cache_load)."""

    function: str
    signature: str
    target: str
    phases: dict  # phase name -> seconds, in PHASES order
    from_cache: bool = False
    worker: int = None   # the pid of the worker process that did it (kiln.worker_records), None here

    @property
    def seconds(self):
        return sum(self.phases.values())

    @property
    def title(self):
        return _title(self.function, self.signature)


@dataclass(frozen=True)
class SameTitle:
    """The compiles (or cache loads) of one specialization in a Delta: more
    than one where code made a new compiled function from the same Python
    function each time, as kiln.njit(f)(x) in a loop or a timed statement
    does (each dispatcher compiles on its first call, as Numba's)."""

    title: str
    times: int
    seconds: float  # all of them together
    phases: dict  # phase name -> seconds, all of them together


def by_title(compiles):
    """[SameTitle] of a list of Compile, in the order each title first came."""
    groups = {}
    for c in compiles:
        g = groups.get(c.title)
        if g is None:
            groups[c.title] = SameTitle(c.title, 1, c.seconds, dict(c.phases))
        else:
            phases = {p: g.phases.get(p, 0.0) + c.phases.get(p, 0.0) for p in PHASES}
            groups[c.title] = SameTitle(c.title, g.times + 1, g.seconds + c.seconds, phases)
    return list(groups.values())


@dataclass(frozen=True)
class FunctionCalls:
    """One specialization's calls in the current recording. `calls` is
    exact; `seconds` is too unless `estimated`: calls under a microsecond
    are timed on a sample and the rest estimated (profiler/profiler.h).
    `untimed` calls were made in loops that time themselves."""

    function: str
    signature: str
    calls: int
    seconds: float
    estimated: bool
    untimed: int

    @property
    def title(self):
        return _title(self.function or "?", self.signature or "()")


@dataclass(frozen=True)
class Snapshot:
    compiles: int  # index of the next compile record


@dataclass
class Delta:
    """What compiled code did: compiles and cache loads since a snapshot,
    and each function's calls in the current recording."""

    compiles: list = field(default_factory=list)  # Compile, compiled now
    loads: list = field(default_factory=list)  # Compile, from the disk cache
    functions: list = field(default_factory=list)  # FunctionCalls
    workers: list = field(default_factory=list)  # Compile, in worker processes this one sent functions

    @property
    def compile_seconds(self):
        return sum(c.seconds for c in self.compiles)

    @property
    def calls(self):
        return sum(f.calls for f in self.functions)

    @property
    def call_seconds(self):
        return sum(f.seconds for f in self.functions)

    @property
    def estimated(self):
        """Whether call_seconds is partly estimated from samples."""
        return any(f.estimated for f in self.functions)

    @property
    def untimed_calls(self):
        return sum(f.untimed for f in self.functions)

    def __bool__(self):
        return bool(self.compiles or self.loads or self.calls or self.untimed_calls or self.workers)


class _Switch:
    """A nesting on/off switch of the dispatcher's call records: usable as
    `with`, or as start() and stop() by callers whose begin and end are
    separate hooks."""

    _flip = None  # the _kiln function that adds (True) or removes (False) a user

    def start(self):
        self._flip(True)

    def stop(self):
        self._flip(False)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


class recording_calls(_Switch):
    """Within it the dispatcher counts every call of compiled code and times
    them (sampling calls under a microsecond); outside any such block calls
    cost nothing extra and are not counted (profiler/profiler.h says why).
    The outermost block starts a new recording, which calls() reads until
    the next one starts. kiln.ipython records each cell."""

    _flip = _kiln.profiler_record_calls


class untimed_calls(_Switch):
    """Within it, while recording, calls are counted (FunctionCalls.untimed)
    but not timed: for loops that time themselves, so that they measure the
    dispatch a script gets."""

    _flip = _kiln.profiler_untime_calls


def snapshot():
    return Snapshot(_kiln.profiler_compile_count())


def calls():
    """[FunctionCalls] of the current (or last) recording."""
    return [FunctionCalls(**r) for r in _kiln.profiler_calls()]


def _compile(r, worker=None):
    return Compile(r["function"], r["signature"], r["target"], r["phases"], r["from_cache"], worker)


def since(before):
    """The Delta of compiles and cache loads from snapshot `before` to now,
    with the calls of the current recording."""
    records = [_compile(r) for r in _kiln.profiler_compiles(before.compiles)]
    return Delta(compiles=[c for c in records if not c.from_cache],
                 loads=[c for c in records if c.from_cache],
                 functions=calls())


def from_workers():
    """[Compile] that worker processes told since the last call (kiln.worker_records)."""
    return [_compile(r, r["pid"]) for r in worker_records.collect()]
