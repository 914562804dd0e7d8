"""%timeit, as IPython has it, plus one line when Kiln compiled during it:
which function, how long, and whether the timed runs include it. The seed's
"slowest run took 43.84 times longer" then explains itself."""
from . import records
from .rich import fmt_seconds


def note(delta, number_given, result):
    """The line to print after %timeit, or None when nothing compiled.
    `result` is IPython's TimeitResult."""
    if not delta.compiles:
        return None
    what = ", ".join(f"{c.title} ({fmt_seconds(c.seconds)})" for c in delta.compiles)
    total = fmt_seconds(delta.compile_seconds)
    if number_given:
        slowest = fmt_seconds(max(result.all_runs))
        return (f"kiln: the slowest run ({slowest}) included compiling {what}: {total} of it was "
                f"compilation; the best run is compiled code only.")
    return (f"kiln: compiling {what} took {total}, in the calibration loop before the timed runs; "
            f"the timings above are compiled code only.")


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
