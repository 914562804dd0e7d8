"""Kiln: compile numeric Python functions with LLVM, for the CPU and NVIDIA GPUs.

Numba's shapes, so that course code ports by changing the import:
    import kiln
    @kiln.jit
    def f(x): ...
kiln.cuda (the GPU) is loaded on first use, so `import kiln` stays quick."""
import _kiln  # the C extension; built into <build>/python

from . import config, types
from .dispatcher import jit, njit, typeof
from .cfunc import cfunc
from .ufunc import DUFunc, GUFunc, guvectorize, vectorize
from .unused_work import UnusedWorkWarning
from .parallel import ParallelReport   # also installs parallel_diagnostics / parallel_report on dispatchers
from .types import (Array, Optional, Signature, Tuple, UniTuple, b1, bool_, boolean, c8, c16, complex64,
                    complex128, double, f4, f8, float32, float64, float_, i1, i2, i4, i8, int8, int16,
                    int32, int64, int_, intp, none, single, u1, u2, u4, u8, uint8, uint16, uint32, uint64,
                    uintp, void)

__version__ = "0.1.0"   # as CMakeLists.txt's project() says (tests/kernel/test_version.py)

TypingError = _kiln.TypingError
UnsupportedError = _kiln.UnsupportedError
MemoryFault = _kiln.MemoryFault
Dispatcher = _kiln.Dispatcher

set_num_threads = _kiln.set_num_threads
get_num_threads = _kiln.get_num_threads

# range whose iterations may run in parallel in a parallel=True function; range everywhere else
prange = _kiln.prange
ParallelSafetyWarning = _kiln.ParallelSafetyWarning


def annotate(function):
    """The compiled function's source with inferred types per line, coloured by
    cost (Python objects, loops LLVM did not vectorize and why, runtime checks,
    vectorized loops), like Cython's `%%cython -a`. Shows as HTML in Jupyter,
    as marked text when printed. Same as %kiln_annotate."""
    from .magics.annotate import render
    return render(function)


def chart(*results, **named):
    """Timings drawn as %compare draws its own: a table with each one's
    speedup over the first and a log-scale bar chart, from `%timeit -o`
    results (or seconds). Rows are named by keyword, else by the variable
    holding them: kiln.chart(t_python, t_jit, t_parallel) after
    t_python = %timeit -o f(a) and so on. Shows as HTML in Jupyter, as text
    when printed."""
    import sys
    from .magics.timing_chart import draw
    return draw(results, named, sys._getframe(1))


def __getattr__(name):
    """kiln.cuda and the other heavier subpackages, imported on first use."""
    if name in ("cuda", "magics", "ipython", "sysinfo"):
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'kiln' has no attribute {name!r}")
