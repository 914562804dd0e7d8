"""kiln.config: the settings that code written for numba.config reads, taken
from KILN_ environment variables once, at import, as Numba takes its NUMBA_
ones (set them before `import kiln`):

  DISABLE_JIT                KILN_DISABLE_JIT=1: kiln.jit and kiln.njit give back the
                             Python function itself (prange is then range), to step
                             through it in a debugger; 0 by default
  NUMBA_NUM_THREADS          KILN_NUM_THREADS, or the CPUs this process may run on:
                             the threads parallel code starts with
  NUMBA_DEFAULT_NUM_THREADS  the CPUs this process may run on
  BOUNDSCHECK                KILN_BOUNDSCHECK=1 or 0: boundscheck on or off for every
                             function, whatever its option says; None: each its own
  CACHE_DIR                  KILN_CACHE_DIR: where cache=True keeps machine code
                             ("": $XDG_CACHE_HOME/kiln or ~/.cache/kiln)
  SHOW_KILN_FRAMES           KILN_SHOW_FRAMES=1: tracebacks in IPython and the Kiln
                             kernel keep the frames of Kiln's own Python code, which
                             they leave out by default (also settable at run time)"""
import os

import _kiln


def _flag(name):
    """0 or 1 from an environment variable, None when it is unset or empty."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    if value not in ("0", "1"):
        raise ValueError(f"{name} must be 0 or 1, not {value!r}")
    return int(value)


DISABLE_JIT = _flag("KILN_DISABLE_JIT") or 0
NUMBA_NUM_THREADS = _kiln.get_num_threads()
NUMBA_DEFAULT_NUM_THREADS = len(os.sched_getaffinity(0))
BOUNDSCHECK = _flag("KILN_BOUNDSCHECK")
CACHE_DIR = os.environ.get("KILN_CACHE_DIR", "")
SHOW_KILN_FRAMES = _flag("KILN_SHOW_FRAMES") or 0
