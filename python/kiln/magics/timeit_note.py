"""%timeit, as IPython has it, plus one line when Kiln compiled during it
(or loaded machine code from the disk cache): which function, how long, and
whether the timed runs include it. That line replaces IPython's guess that
an intermediate result is being cached, which the seed's "slowest run took
43.84 times longer" was about."""
import contextlib

from . import records, simulated
from .progress import Progress
from .records import by_title
from .rich import fmt_seconds


# (what Kiln did, what the share of the slowest run is called, what it did again and again)
COMPILED = ("compiling {what}", "compilation", "compiled {what}")
LOADED = ("loading {what} from the disk cache", "loading", "loaded {what} from the disk cache")


def _line(done, kind, number_given, result):
    """The note for `done` (Compile records) while timing, or None."""
    if not done:
        return None
    again = [g for g in by_title(done) if g.times > 1]
    if again:   # a new function each time the statement runs: no run, nor a later %timeit, is free of it
        g = again[0]
        timed_calls = result.loops * result.repeat
        which = "every call timed above" if g.times >= timed_calls else "some of the runs above"
        return (f"kiln: the timed statement {kind[2].format(what=g.title)} {g.times:,} times "
                f"({fmt_seconds(g.seconds)} in all, {fmt_seconds(g.seconds / g.times)} each): it makes a new "
                f"compiled function each time it runs, so {which} included {kind[1]}; make the "
                f"function once, outside %timeit, and time only its call.")
    doing = kind[0].format(what=", ".join(f"{c.title} ({fmt_seconds(c.seconds)})" for c in done))
    total = fmt_seconds(sum(c.seconds for c in done))
    if number_given:
        slowest = fmt_seconds(max(result.all_runs))
        if len(result.all_runs) == 1:   # -r 1: no other run to read instead
            return (f"kiln: the only run ({slowest}) included {doing}: {total} of it was {kind[1]}; "
                    f"run %timeit again to time compiled code only.")
        return (f"kiln: the slowest run ({slowest}) included {doing}: {total} of it was {kind[1]}; "
                f"the best run is compiled code only.")
    return (f"kiln: {doing} took {total}, in the calibration loop before the timed runs; "
            f"the timings above are compiled code only.")


def note(delta, number_given, result):
    """The lines to print after %timeit, or None when nothing was compiled
    or loaded from the disk cache. `result` is IPython's TimeitResult."""
    lines = [_line(delta.compiles, COMPILED, number_given, result),
             _line(delta.loads, LOADED, number_given, result)]
    return "\n".join(line for line in lines if line) or None


def spread_line(result):
    """A line on runs far apart (the slowest over four times the best), or
    None. IPython guesses that an intermediate result is being cached;
    where Kiln compiled during the runs its note says what happened
    instead, so this is printed only where it did not."""
    best, worst = min(result.all_runs) / result.loops, max(result.all_runs) / result.loops
    if best <= 0 or worst <= 4 * best or worst <= 1e-6:
        return None
    return (f"The slowest run took {worst / best:.2f} times as long as the fastest: "
            f"something the first runs computed may be kept (cached) for the later ones.")


@contextlib.contextmanager
def _runs_told(progress):
    """IPython's %timeit, its runs told to `progress` one by one: its Timer
    class (IPython.core.magics.execution) swapped for one whose repeat()
    reports each run, for the length of one %timeit."""
    from IPython.core.magics import execution

    base = execution.Timer

    class ToldTimer(base):
        def repeat(self, repeat, number):
            runs = []
            for _ in range(repeat):
                runs.append(self.timeit(number))
                progress.show(f"%timeit: run {len(runs)} of {repeat}, {number:,} loop{'s' if number != 1 else ''} "
                              f"each", len(runs) / repeat)
            return runs

    execution.Timer = ToldTimer
    try:
        yield
    finally:
        execution.Timer = base


def run(original, line, cell, local_ns):
    """Runs IPython's own %timeit, quietly, and prints its result with the
    note; returns what it returns. Runs that take seconds show a progress
    line meanwhile."""
    opts, _ = original.__self__.parse_options(line, "n:r:tcp:qo", posix=False, strict=False,
                                              preserve_non_opts=True)
    wants_result = "o" in opts
    before, sim_before = records.snapshot(), simulated.snapshot()
    progress = Progress(original.__self__.shell)
    with records.untimed_calls(), _runs_told(progress):  # it times the statement: as a script would see it
        result = original("-o -q " + line, cell, local_ns)
    progress.finish()
    if result is None:
        return None
    text = note(records.since(before), "n" in opts, result)
    sim = simulated.since(sim_before)
    if "q" not in opts:
        spread = None if text else spread_line(result)
        if spread:
            print(spread)
        print(result)
        if result.compile_time > 0.1:   # IPython's threshold for saying it
            print(f"Python compiled the timed statement in {result.compile_time:.2f} s, not timed")
        if text:
            print(text)
        if sim:
            print(simulated.timeit_line(sim))
    return result if wants_result else None
