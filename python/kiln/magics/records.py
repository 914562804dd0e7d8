"""Reading the C profiler (_kiln.profiler_*): snapshots and what happened
between two of them, as plain Python objects the renderers take."""
from dataclasses import dataclass, field

import _kiln

PHASES = tuple(_kiln.profiler_phases)


@dataclass(frozen=True)
class Compile:
    """One finished compile of one function for one signature."""

    function: str
    signature: str
    target: str
    phases: dict  # phase name -> seconds, in PHASES order

    @property
    def seconds(self):
        return sum(self.phases.values())

    @property
    def title(self):
        """How a user names it: f(float64, int64)."""
        sig = self.signature
        return self.function + (sig if sig.startswith("(") else f"({sig})")


@dataclass(frozen=True)
class Snapshot:
    calls: int
    call_ns: int
    compiles: int  # index of the next compile record
    untimed_calls: int = 0


@dataclass
class Delta:
    """What compiled code did between two snapshots. `calls` were timed (in
    call_seconds); `untimed_calls` were only counted, in loops that time
    themselves (%timeit, %compare)."""

    calls: int = 0
    call_seconds: float = 0.0
    compiles: list = field(default_factory=list)
    untimed_calls: int = 0

    @property
    def compile_seconds(self):
        return sum(c.seconds for c in self.compiles)

    def __bool__(self):
        return bool(self.calls or self.compiles or self.untimed_calls)


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
    """Within it the dispatcher times and counts every call of compiled code,
    so that a Delta's calls and call_seconds are exact; outside any such
    block calls cost nothing extra and are not counted (profiler/profiler.h
    says why). kiln.ipython records each cell."""

    _flip = _kiln.profiler_record_calls


class untimed_calls(_Switch):
    """Within it, while recording, calls are counted (Delta.untimed_calls) but
    not timed: for loops that time themselves, so that they measure the
    dispatch a script gets, not the two clock reads per call of recording."""

    _flip = _kiln.profiler_untime_calls


def snapshot():
    calls, call_ns, compiles, untimed = _kiln.profiler_counters()
    return Snapshot(calls, call_ns, compiles, untimed)


def since(before):
    """The Delta from snapshot `before` to now."""
    now = snapshot()
    records = _kiln.profiler_compiles(before.compiles)
    return Delta(
        calls=now.calls - before.calls,
        call_seconds=(now.call_ns - before.call_ns) * 1e-9,
        compiles=[Compile(r["function"], r["signature"], r["target"], r["phases"]) for r in records],
        untimed_calls=now.untimed_calls - before.untimed_calls,
    )
