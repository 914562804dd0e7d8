"""The child process of public_numba_vs_numba.py (one per case and engine
for first calls, one per module for steady timing), so that a crash or a
hang costs one measurement, not the run.

  first ENGINE MODULE_FILE CASE_INDEX OUT_PICKLE
      In a fresh process: load the module (its eager signatures compile
      here), build the case's inputs, call the function once. Pickles the
      load and first-call times and the outcome: the returned value and the
      arguments as the call left them, or the exception raised.
  steady KILN_FILE NUMBA_FILE CASE_INDICES OUT_JSONL
      Both copies of a module in one process; per case, the best of several
      timed batches of calls, Kiln's and Numba's batches taking turns.
      Writes one JSON line per case (and a "running" line before each, so
      the parent can tell which case a crash hit)."""
import importlib.util
import json
import math
import os
import pickle
import re
import sys
import time

import numpy as np

BATCH_S = 2e-3        # a timed batch lasts at least this long (dispatch noise)
ENGINE_BUDGET_S = 0.4  # timed work per engine and case, in all batches together
MAX_BATCH = 2000
SLOW_CALL_S = 0.5
FRESH_INPUT_BYTES = 50e6   # cap on fresh inputs built ahead of a batch of a mutating function


def load(path):
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module   # compilers look their functions' globals up through it
    spec.loader.exec_module(module)
    return module


def first_line(error):
    """The exception's type and its message's first line; for a message that
    quotes the offending source line and points a caret at it (Kiln's), the
    line after the caret, and the source line."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(error))   # Numba colours its messages
    lines = [line for line in text.splitlines() if line.strip()]
    caret = next((i for i, line in enumerate(lines) if set(line.strip()) <= set("^~")), None)
    if caret is not None and 0 < caret < len(lines) - 1:
        message = f"{lines[caret + 1].strip()} — at `{lines[caret - 1].strip()}`"
    else:
        message = lines[0].strip() if lines else ""
    return f"{type(error).__name__}: {message}"[:300]


def compile_errors(engine):
    """The exception classes that mean `engine` refused to compile."""
    if engine == "numba":
        from numba.core.errors import NumbaError
        return (NumbaError,)
    import kiln
    return (kiln.TypingError, kiln.UnsupportedError)


def plain(value):
    """The value with the engine's own types taken out, for pickling and
    comparing: arrays copied, NumPy scalars as Python's, tuples, namedtuples
    and lists (a typed List too) tagged, functions as a placeholder."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return value
    if callable(value):
        return ("function",)
    if isinstance(value, tuple):
        items = [plain(v) for v in value]
        if hasattr(value, "_fields"):
            return ("namedtuple", type(value).__name__, tuple(value._fields), items)
        return ("tuple", items)
    if isinstance(value, list) or type(value).__name__ == "List":
        return ("list", [plain(v) for v in value])
    return ("object", type(value).__name__)


def run_first(engine, path, index, out_path):
    __import__(engine)   # the engine's import is not the function's first call
    errors = compile_errors(engine)
    start = time.perf_counter()
    try:
        module = load(path)
    except Exception as error:
        outcome = ("load_error", first_line(error))
        record = {"load_s": time.perf_counter() - start, "first_s": 0.0, "outcome": outcome}
    else:
        load_s = time.perf_counter() - start
        name, make = module.CASES[index]
        function = getattr(module, name)
        args = make()
        start = time.perf_counter()
        try:
            outcome = ("value", plain(function(*args)), plain(args))
        except errors as error:
            outcome = ("compile_error", first_line(error))
        except Exception as error:
            outcome = ("raised", type(error).__name__, first_line(error))
        record = {"load_s": load_s, "first_s": time.perf_counter() - start, "outcome": outcome}
    with open(out_path, "wb") as out:
        pickle.dump(record, out)


def arrays_in(value):
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from arrays_in(item)


def mutates(function, make):
    """Whether a call changes any array among its arguments."""
    args = make()
    before = [a.tobytes() for a in arrays_in(args)]
    function(*args)
    return any(a.tobytes() != b for a, b in zip(arrays_in(args), before))


def batch_inputs(make, count, fresh):
    if not fresh:
        args = make()
        return [args] * count
    return [make() for _ in range(count)]


def time_batch(function, inputs):
    start = time.perf_counter()
    for args in inputs:
        function(*args)
    return (time.perf_counter() - start) / len(inputs)


def steady_case(modules, index):
    engines = {}
    for engine, module in modules.items():
        name, make = module.CASES[index]
        function = getattr(module, name)
        function(*make())   # compiles
        engines[engine] = (function, make)
    fresh = mutates(*engines["numba"])
    input_bytes = sum(a.nbytes for a in arrays_in(engines["numba"][1]()))
    one = max(time_batch(f, batch_inputs(m, 1, fresh)) for f, m in engines.values())
    count = min(MAX_BATCH, max(1, math.ceil(BATCH_S / one)))
    if fresh:
        count = min(count, max(1, int(FRESH_INPUT_BYTES // max(input_bytes, 1))))
    # best of 3 at least, unless a call takes so long that one is telling (and three would take minutes)
    repeats = 1 if one * count > SLOW_CALL_S else min(15, max(3, int(ENGINE_BUDGET_S / (one * count))))
    best = {engine: math.inf for engine in engines}
    order = list(engines)
    for _ in range(repeats):
        for engine in order:
            function, make = engines[engine]
            best[engine] = min(best[engine], time_batch(function, batch_inputs(make, count, fresh)))
        order.reverse()
    return {"case": index, "kiln_s": best["kiln"], "numba_s": best["numba"], "batch": count,
            "repeats": repeats, "fresh_inputs": fresh}


def run_steady(kiln_path, numba_path, indices, out_path):
    modules = {"kiln": load(kiln_path), "numba": load(numba_path)}
    with open(out_path, "a") as out:
        for index in indices:
            out.write(json.dumps({"running": index}) + "\n")
            out.flush()
            try:
                record = steady_case(modules, index)
            except Exception as error:
                record = {"case": index, "error": first_line(error)}
            out.write(json.dumps(record) + "\n")
            out.flush()


def main(argv):
    if argv[0] == "first":
        run_first(argv[1], argv[2], int(argv[3]), argv[4])
    else:
        run_steady(argv[1], argv[2], [int(i) for i in argv[3].split(",")], argv[4])


if __name__ == "__main__":
    main(sys.argv[1:])
