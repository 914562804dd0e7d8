"""Kiln's work that can take seconds while holding no GIL (LLVM's part of a compile, a launch on
the CUDA simulator) runs inside `watching(describe)`, describe() saying what it does at the
moment (text, or text and the fraction done). kiln.ipython sets `watcher`, which shows that in a line under the cell
(magics/work_progress.py); elsewhere nothing is shown."""
import contextlib

watcher = None   # a context manager factory of describe, or None


def watching(describe):
    return watcher(describe) if watcher is not None else contextlib.nullcontext()
