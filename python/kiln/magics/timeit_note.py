"""%timeit, as IPython has it, plus one line when Kiln compiled during it
(or loaded machine code from the disk cache): which function, how long, and
whether the timed runs include it. The seed's "slowest run took 43.84 times
longer" then explains itself."""
from . import records
from .rich import fmt_seconds


# (what Kiln did, what the share of the slowest run is called)
COMPILED = ("compiling {what}", "compilation")
LOADED = ("loading {what} from the disk cache", "loading")


def _line(done, kind, number_given, result):
    """The note for `done` (Compile records) while timing, or None."""
    if not done:
        return None
    doing = kind[0].format(what=", ".join(f"{c.title} ({fmt_seconds(c.seconds)})" for c in done))
    total = fmt_seconds(sum(c.seconds for c in done))
    if number_given:
        slowest = fmt_seconds(max(result.all_runs))
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


def run(original, line, cell, local_ns):
    """Runs IPython's own %timeit and prints the note; returns what it returns."""
    opts, _ = original.__self__.parse_options(line, "n:r:tcp:qo", posix=False, strict=False,
                                              preserve_non_opts=True)
    wants_result = "o" in opts
    before = records.snapshot()
    with records.untimed_calls():  # it times the statement: as a script would see it
        result = original("-o " + line, cell, local_ns)
    text = note(records.since(before), "n" in opts, result) if result is not None else None
    if text and "q" not in opts:
        print(text)
    return result if wants_result else None
