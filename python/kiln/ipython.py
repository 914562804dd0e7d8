"""Kiln's IPython extension: loaded by the Kiln kernel at start-up, and in
any IPython or ipykernel with `%load_ext kiln.ipython`.

It adds %%jit, %compare, %kiln_annotate, %kiln_llvm, %kiln_asm and
%kiln_sysinfo, makes %timeit say when it timed a compilation, and puts one
compile-against-run line under every cell that compiled or called Kiln code.
The work is done in kiln.magics; this module only wires it into a shell."""
import sys

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, line_magic, cell_magic, magics_class, needs_local_scope
from IPython.display import display

from kiln import sysinfo
from kiln.magics import cell_footer, compare_parse, compare_run, compare_view, timeit_note

# The CellWatch of the shell this extension was loaded into (one per process:
# a kernel runs one shell); unloading removes its callbacks.
_watch = None


def _namespace(shell, local_ns):
    """Where statements run: the user's namespace, or a function's locals
    when a magic is used inside a function."""
    if local_ns is None or local_ns is shell.user_ns:
        return shell.user_ns
    merged = dict(shell.user_ns)
    merged.update(local_ns)
    return merged


@magics_class
class KilnMagics(Magics):
    def __init__(self, shell, timeit_original):
        super().__init__(shell)
        self._timeit_original = timeit_original

    @needs_local_scope
    @line_cell_magic
    def compare(self, line, cell=None, local_ns=None):
        """Time several statements like %timeit and show them side by side.

            %compare [-n LOOPS] [-r RUNS] [-o] [-c EXPR] [label:] stmt; [label:] stmt; ...
            %%compare [options]      (then one [label:] stmt per line)

        The first call of each is timed alone (it includes any compilation,
        shown in its own column); then runs of LOOPS calls give the best and
        median per call. Speedups are against the first statement. Results
        must agree with the first statement's (its return value, or EXPR
        evaluated after each first call with -c, for functions that write
        into an argument). -o returns the numbers: r.best, r["label"].median...
        """
        try:
            opts, entries = compare_parse.parse(line, cell)
        except compare_parse.CompareUsageError as exc:
            raise UsageError(str(exc)) from None
        namespace = _namespace(self.shell, local_ns)
        result = compare_run.CompareResult()
        for entry in entries:
            try:
                result.append(compare_run.run_row(entry, opts, namespace))
            except Exception:
                # IPython 8.5 prints no exception notes: say which row, then its traceback.
                print(f"%compare: statement {entry.label!r} ({entry.source}) raised:", file=sys.stderr)
                raise
        compare_run.finish(result)
        display(compare_view.render(result).bundle(), raw=True)
        return result if opts.output else None

    @line_magic
    def kiln_sysinfo(self, line):
        """What Kiln sees of this machine (like `numba -s`): CPU and the
        features LLVM uses, LLVM / Python / NumPy versions, CUDA, cache, threads."""
        if line.strip():
            raise UsageError("%kiln_sysinfo takes no arguments")
        display(sysinfo.render().bundle(), raw=True)

    @needs_local_scope
    @line_cell_magic
    def timeit(self, line, cell=None, local_ns=None):
        """IPython's %timeit, plus a line when Kiln compiled during it."""
        return timeit_note.run(self.shell, self._timeit_original, line, cell, local_ns)


def load_ipython_extension(ip):
    global _watch
    if _watch is not None:
        return
    timeit_original = ip.find_line_magic("timeit")
    # After %reload_ext the registered %timeit is ours: wrap IPython's, not it.
    timeit_original = getattr(timeit_original.__self__, "_timeit_original", timeit_original)
    ip.register_magics(KilnMagics(ip, timeit_original))
    _watch = cell_footer.CellWatch()
    ip.events.register("pre_run_cell", _watch.pre_run_cell)
    ip.events.register("post_run_cell", _watch.post_run_cell)


def unload_ipython_extension(ip):
    global _watch
    if _watch is None:
        return
    ip.events.unregister("pre_run_cell", _watch.pre_run_cell)
    ip.events.unregister("post_run_cell", _watch.post_run_cell)
    _watch = None
