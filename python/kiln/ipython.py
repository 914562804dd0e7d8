"""Kiln's IPython extension: loaded by the Kiln kernel at start-up, and in
any IPython or ipykernel with `%load_ext kiln.ipython`.

It adds %%jit, %compare, %kiln_annotate, %kiln_llvm, %kiln_asm and
%kiln_sysinfo, makes %timeit say when it timed a compilation, and puts one
compile-against-run line under every cell that compiled or called Kiln code.
The work is done in kiln.magics; this module only wires it into a shell."""
import sys

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_cell_magic, line_magic, magics_class, needs_local_scope
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display

from kiln import long_work, sources, sysinfo
from kiln.magics import annotate, cell_footer, compare_parse, compare_run, compare_view, introspect, jitcell, timeit_note, tracebacks, work_progress
from kiln.magics.progress import Progress

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
        progress = Progress(self.shell)
        for k, entry in enumerate(entries):
            def ran(done, runs, label=entry.label, k=k):
                progress.show(f"%compare: {label}, run {done} of {runs} (statement {k + 1} of {len(entries)})",
                              (k + done / runs) / len(entries))
            try:
                result.append(compare_run.run_row(entry, opts, namespace, ran))
            except Exception:
                # IPython 8.5 prints no exception notes: say which row, then its traceback.
                print(f"%compare: statement {entry.label!r} ({entry.source}) raised:", file=sys.stderr)
                raise
        compare_run.finish(result)
        progress.finish(compare_view.render(result).bundle())
        return result if opts.output else None

    @magic_arguments()
    @argument("--parallel", action="store_true", help="parallel=True: prange loops run on threads")
    @argument("--fastmath", action="store_true", help="fastmath=True: reassociate floating point (vectorizes reductions)")
    @argument("--nogil", action="store_true", help="nogil=True: release the GIL while compiled code runs")
    @argument("--cache", action="store_true", help="cache=True: keep machine code on disk between sessions")
    @argument("--boundscheck", action="store_true", help="boundscheck=True: IndexError on out-of-range indices")
    @argument("--signature", action="append", metavar="SIG",
              help='a signature such as "float64(float64[:])"; repeat for several')
    @argument("--eager", action="store_true",
              help="compile the --signature(s) when the cell runs, so errors show here (needs --signature)")
    @cell_magic
    def jit(self, line, cell):
        """Compile every function defined at the top level of this cell with
        kiln.jit and the options given; decorators in the cell still apply."""
        args = parse_argstring(self.jit, line)
        if args.eager and not args.signature:
            raise UsageError("%%jit --eager compiles the given signatures: add --signature \"float64(float64[:])\"")
        import kiln

        jitcell.run(self.shell, kiln.jit, args, cell)

    @cell_magic
    def cuda(self, line, cell):
        """%%cuda [--fastmath] [--no-boundscheck]: kiln.cuda.jit on every top-level
        function of the cell (kiln/magics/cudacell.py)."""
        from kiln.magics import cudacell

        cudacell.run(self.shell, line, cell)

    def _function(self, magic, line, local_ns):
        """The kiln.jit function a line magic names (`f`, `module.f`)."""
        expr = line.strip()
        if not expr:
            raise UsageError(f"usage: %{magic} FUNCTION   (a kiln.jit function that has been compiled)")
        try:
            return eval(expr, _namespace(self.shell, local_ns))
        except Exception as exc:
            raise UsageError(f"%{magic}: cannot find {expr!r}: {type(exc).__name__}: {exc}") from None

    def _show(self, magic, make, line, local_ns):
        try:
            view = make(self._function(magic, line, local_ns))
        except ValueError as exc:
            raise UsageError(f"%{magic}: {exc}") from None
        display(view.bundle(), raw=True)

    @needs_local_scope
    @line_magic
    def kiln_annotate(self, line, local_ns=None):
        """The function's source with inferred types per line, coloured by
        cost: Python objects, loops not vectorized (and why), runtime checks,
        vectorized loops. Same as kiln.annotate(f)."""
        self._show("kiln_annotate", annotate.render, line, local_ns)

    @needs_local_scope
    @line_magic
    def kiln_llvm(self, line, local_ns=None):
        """The optimized LLVM IR of each compiled signature, highlighted."""
        self._show("kiln_llvm", lambda f: introspect.render(f, "llvm"), line, local_ns)

    @needs_local_scope
    @line_magic
    def kiln_asm(self, line, local_ns=None):
        """The machine code of each compiled signature, highlighted."""
        self._show("kiln_asm", lambda f: introspect.render(f, "asm"), line, local_ns)

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
        return timeit_note.run(self._timeit_original, line, cell, local_ns)


def load_ipython_extension(ip):
    global _watch
    if _watch is not None:
        return
    timeit_original = ip.find_line_magic("timeit")
    # After %reload_ext the registered %timeit is ours: wrap IPython's, not it.
    timeit_original = getattr(timeit_original.__self__, "_timeit_original", timeit_original)
    ip.register_magics(KilnMagics(ip, timeit_original))
    _watch = cell_footer.CellWatch()
    _watch.listeners.append(jitcell.refresh_all)
    ip.events.register("pre_run_cell", _watch.pre_run_cell)
    ip.events.register("post_run_cell", _watch.post_run_cell)
    # %%time and %%timeit parse their cell here, with no file name, then
    # compile it as '<timed exec>' or '<magic-timeit>': the text goes to
    # linecache under those names, where Kiln reads sources (kiln/sources.py)
    parse = ip.compile.ast_parse

    def ast_parse(source, filename="<unknown>", symbol="exec"):
        tree = parse(source, filename, symbol)
        if filename == "<unknown>":
            sources.register_shared(source)
        return tree

    ast_parse.kiln_wraps = parse
    ip.compile.ast_parse = ast_parse
    tracebacks.install(ip)
    long_work.watcher = work_progress.WorkProgress(ip)


def unload_ipython_extension(ip):
    global _watch
    if _watch is None:
        return
    ip.events.unregister("pre_run_cell", _watch.pre_run_cell)
    ip.events.unregister("post_run_cell", _watch.post_run_cell)
    ip.compile.ast_parse = ip.compile.ast_parse.kiln_wraps
    tracebacks.uninstall(ip)
    long_work.watcher = None
    _watch.close()
    _watch = None
