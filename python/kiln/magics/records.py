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


@dataclass
class Delta:
    """What compiled code did between two snapshots."""

    calls: int = 0
    call_seconds: float = 0.0
    compiles: list = field(default_factory=list)

    @property
    def compile_seconds(self):
        return sum(c.seconds for c in self.compiles)

    def __bool__(self):
        return bool(self.calls or self.compiles)


class recording_calls:
    """Within `with recording_calls():` the dispatcher times and counts every
    call of compiled code, so that a Delta's calls and call_seconds are
    exact; outside any such block calls cost nothing extra and are not
    counted (profiler/profiler.h says why). Blocks nest; start() and stop()
    are the two halves for callers whose begin and end are separate hooks."""

    def start(self):
        _kiln.profiler_record_calls(True)

    def stop(self):
        _kiln.profiler_record_calls(False)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def snapshot():
    calls, call_ns, compiles = _kiln.profiler_counters()
    return Snapshot(calls, call_ns, compiles)


def since(before):
    """The Delta from snapshot `before` to now."""
    now = snapshot()
    records = _kiln.profiler_compiles(before.compiles)
    return Delta(
        calls=now.calls - before.calls,
        call_seconds=(now.call_ns - before.call_ns) * 1e-9,
        compiles=[Compile(r["function"], r["signature"], r["target"], r["phases"]) for r in records],
    )
