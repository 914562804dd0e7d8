"""Parallel diagnostics for parallel=True functions, in the spirit of Numba's
levels, from the records the compiler keeps per signature
(Specialization.parallel, made by jit/parallel/parallel_lower.c).

    f.parallel_diagnostics(level=1..4)   prints the report (Numba's method)
    f.parallel_report(signature=None)    a ParallelReport: .loops (data),
                                         .text(level), and an HTML view of the
                                         source with every prange loop marked
    cell_reports(functions)              those reports for a %%jit --parallel cell

Each loop record is a dict: kind ('prange'; 'array expression' or
'whole-array reduction' for the split loop of an elementwise expression or
of np.sum and the like, 'whole-array reductions in one pass' for several of
one array in one statement, 'elements through the iterations' for a prange
loop kept serial whose array statements run element by element across
threads, with min_elements), function,
filename, line, index (the loop variable, None for an expression), parallel (bool), reason and reason_line (why it stays serial),
reductions [(name, '+=' | '-=' | '*=' | 'min' | 'max', line)], private and
shared (local names), nested (lines of prange loops inside, run serially),
allocations (lines making an array of the same size in every iteration),
warning (the ParallelSafetyWarning's text for a loop kept serial, or None;
a cache hit warns with it again)."""
import html

import _kiln

_LEVELS = (1, 2, 3, 4)
# a prange loop kept serial whose elementwise body runs element by element
# across threads (jit/parallel/parallel_interchange.c)
_INSIDE_OUT = "elements through the iterations"


class ParallelReport:
    """The prange loops of one compiled signature and what Kiln did with them."""

    def __init__(self, function_name, signature, loops, source):
        self.function_name = function_name
        self.signature = signature
        self.loops = loops          # list of dicts (see the module doc)
        self.source = source        # [(line, text)] of the function

    @property
    def parallel_loops(self):
        return [lp for lp in self.loops if lp["parallel"]]

    @property
    def serial_loops(self):
        return [lp for lp in self.loops if not lp["parallel"]]

    def text(self, level=1):
        """The report as text; level 1 (loops found, which ran in parallel, why
        not) to 4 (reductions, variables, nesting, hoisting, threads)."""
        if level not in _LEVELS:
            raise ValueError(f"level must be 1, 2, 3 or 4, got {level!r}")
        sig = ", ".join(str(t) for t in self.signature)
        out = [f"Parallel diagnostics for {self.function_name}({sig})", "=" * 72]
        if not self.loops:
            out.append("No parallel loops were found (use kiln.prange or array expressions in a parallel=True "
                       "function).")
            return "\n".join(out)
        out.append(f"{len(self.loops)} loop(s) found, {len(self.parallel_loops)} running in parallel "
                   f"on up to {_kiln.get_num_threads()} thread(s).")
        for k, lp in enumerate(self.loops, 1):
            kind = lp.get("kind", "prange")
            what = (f"for {lp['index']} in prange" if kind == "prange" else
                    f"{kind}, split from {lp.get('min_elements', 0):,} elements"
                    + (" x iterations" if kind == _INSIDE_OUT else ""))
            where = f"{lp['function']}, line {lp['line']}, {what}"
            if lp["parallel"]:
                out.append(f"  loop #{k} ({where}): PARALLEL")
            else:
                out.append(f"  loop #{k} ({where}): SERIAL")
                out.append(f"      why (line {lp['reason_line']}): {lp['reason']}")
            if level >= 2:
                if lp["reductions"]:
                    for name, op, line in lp["reductions"]:
                        out.append(f"      reduction: {name} ({op}) at line {line}, one partial per thread, "
                                   f"combined after the loop")
                        if op in ("+=", "-=", "*="):
                            out.append("        (floats: each thread adds its chunks in the order that vectorizes, "
                                       "so the total may differ from the serial loop's by rounding)")
                elif lp["parallel"]:
                    out.append("      reductions: none")
                if kind == _INSIDE_OUT:
                    out.append("      each thread takes a block of elements and runs every iteration of the loop "
                               "on it in order:")
                    out.append("      the same operations in the same order as the serial loop")
            if level >= 3:
                out.append(f"      private per iteration: {', '.join(lp['private']) or '-'}")
                out.append(f"      shared (read only): {', '.join(lp['shared']) or '-'}")
            if level >= 4:
                for line in lp["nested"]:
                    out.append(f"      nested prange at line {line}: runs serially inside this loop")
                for line in lp.get("allocations", []):
                    out.append(f"      allocation at line {line}: a new array of the same size in every iteration; "
                               f"make it once before the loop if it can be reused")
                out.append("      allocation hoisting: none (Kiln leaves allocations where they are written)")
        if level >= 4:
            out.append("")
            out.append("Kiln runs a prange loop in parallel only when it can clear it of dependences "
                       "between iterations;")
            out.append("two names for one array, or writes inside called functions, are not checked.")
        return "\n".join(out)

    def __str__(self):
        return self.text(1)

    __repr__ = __str__   # what a notebook shows where HTML is not rendered

    def _repr_html_(self):
        return render_html(self)


# The rules outweigh JupyterLab's right-aligned cells and striped rows
# (:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td, ... tbody tr:nth-child(odd)):
# source reads left to right, and the marks colour the cells themselves.
_STYLE = ("<style>.kiln-par{font-family:monospace;font-size:12px;border-collapse:collapse}"
          ".kiln-par table.kiln-par td{padding:0 6px;white-space:pre;vertical-align:top;text-align:left}"
          ".kiln-par tr.par td{background:#d9f2d9}.kiln-par tr.ser td{background:#fde2c8}"
          ".kiln-par tr.red td{background:#e3ecfb}.kiln-par tr.why td{background:#f9c9c9}"
          ".kiln-par .note{color:#555;font-style:italic}"
          # a reason is a sentence: it wraps in its column rather than running past the right edge
          ".kiln-par table.kiln-par td.note{white-space:normal;min-width:20em}</style>")


def render_html(report):
    """The function's source, each prange loop line marked green (parallel)
    or orange (serial, with the reason on the line it points at),
    reductions blue."""
    marks = {}

    def mark(line, cls, note):
        old = marks.get(line)
        marks[line] = (cls if old is None or cls == "why" else old[0], (old[1] + "; " if old else "") + note)

    for lp in report.loops:
        if lp["parallel"]:
            mark(lp["line"], "par", f"parallel loop over {lp['index']}" if lp["index"] else
                 f"{lp['kind']} split across threads")
        else:
            mark(lp["line"], "ser", "runs serially")
            mark(lp["reason_line"] or lp["line"], "why", lp["reason"])
        for name, op, line in lp["reductions"]:
            mark(line, "red", f"reduction {name} ({op})")
    rows = []
    for line, text in report.source:
        cls, note = marks.get(line, ("", ""))
        rows.append(f"<tr class='{cls}'><td>{line}</td><td>{html.escape(text)}</td>"
                    f"<td class='note'>{html.escape(note)}</td></tr>")
    head = html.escape(report.text(1).splitlines()[2] if report.loops else "No parallel loops.")
    return (f"{_STYLE}<div class='kiln-par'><b>{html.escape(report.function_name)}</b>: {head}"
            f"<table class='kiln-par'>{''.join(rows)}</table></div>")


def cell_reports(functions):
    """What %%jit --parallel shows under a cell: the ParallelReport of each
    compiled signature of each parallel=True function among `functions`
    (dispatchers), in definition order."""
    return [parallel_report(f, sig) for f in functions
            if getattr(f, "_kiln_options", {}).get("parallel") for sig in f._kiln_specs]


def _spec(self, signature):
    if not self._kiln_specs:
        raise ValueError(f"{self.py_func.__qualname__} has not been compiled yet: call it first")
    sig = tuple(signature) if signature is not None else list(self._kiln_specs)[-1]
    return sig, self._kiln_specs[sig]


def parallel_report(self, signature=None):
    """A ParallelReport for one compiled signature (the latest if None)."""
    sig, spec = _spec(self, signature)
    source = [(line, text) for line, text, _types in spec.annotations]
    return ParallelReport(self.py_func.__qualname__, sig, [dict(lp) for lp in spec.parallel], source)


def parallel_diagnostics(self, signature=None, level=1):
    """Prints what happened to each prange loop (Numba's method): level 1
    loops and verdicts with reasons, 2 reductions, 3 private and shared
    variables, 4 nesting and hoisting. Every compiled signature if None."""
    sigs = [signature] if signature is not None else list(self._kiln_specs)
    if not sigs:
        raise ValueError(f"{self.py_func.__qualname__} has not been compiled yet: call it first")
    for sig in sigs:
        print(parallel_report(self, sig).text(level))


_kiln.install_dispatcher_methods({"parallel_report": parallel_report,
                                  "parallel_diagnostics": parallel_diagnostics})
