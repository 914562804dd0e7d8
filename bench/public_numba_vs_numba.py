"""Kiln against Numba on real, public Numba code (bench/public_numba/).

Each module there holds functions copied verbatim from an open-source
project (only the import line changed to Kiln's; its header names where each
came from) and CASES: (function name, zero-argument callable building fresh
inputs). The module is loaded twice: as written (Kiln), and with its import
lines swapped back to Numba's, each copy from a file of its own in a
temporary folder (compilers read their functions' source from it).

Per case:
  - first call, in a fresh process per engine: the module's load (which
    compiles any function given signatures as it is decorated) plus the
    case's first call (compile and run); caches go to an empty folder;
  - outcome: the returned value and the arguments as the call left them, or
    the exception raised. Numba refusing to compile puts the case out of
    scope; an exception the function raises itself under Numba is an
    outcome Kiln must match. Kiln "compiles" a case when its outcome is of
    the same kind as Numba's (a value, or the same exception type);
  - same results: arrays of the same shape and dtype, floats within
    rtol=1e-12 (1e-5 for float32/complex64, whose reductions both compilers
    may reorder under fastmath), NaN equal to NaN, exact for ints and bools;
    tuples, namedtuples (name and fields too) and lists item by item;
  - steady state: best of several timed batches in one process holding both
    copies, Kiln's and Numba's batches alternating; functions that change
    their arguments get fresh inputs for every call (built untimed).

Usage: /usr/bin/python3 bench/public_numba_vs_numba.py [--modules a,b] [--results FILE]
Prints a Markdown report (and writes it to FILE)."""
import argparse
import ast
import collections
import json
import math
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build"))
CORPUS = os.path.join(HERE, "public_numba")
CHILD = os.path.join(HERE, "public_numba_child.py")
FIRST_TIMEOUT_S = 240
STEADY_TIMEOUT_S = 600

# the import lines of a corpus module, and their Numba spelling
IMPORT_SWAPS = [(re.compile(r"^from kiln import ", re.M), "from numba import "),
                (re.compile(r"^import kiln as (\w+)$", re.M), r"import numba as \1")]


def case_ids(source):
    """The ids of a module's CASES, read from its syntax tree: the function
    name, with #2, #3... for further cases of the same function."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "CASES" for t in node.targets):
            names = [entry.elts[0].value for entry in node.value.elts]
            break
    ids, seen = [], collections.Counter()
    for name in names:
        seen[name] += 1
        ids.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return ids


def write_copies(module, folder):
    """The module as written (for Kiln) and with Numba's imports, as files in folder."""
    with open(os.path.join(CORPUS, module + ".py")) as f:
        source = f.read()
    numba_source = source
    for pattern, replacement in IMPORT_SWAPS:
        numba_source = pattern.sub(replacement, numba_source)
    if re.search(r"^(from|import) kiln\b", numba_source, re.M):
        raise SystemExit(f"{module}: an import of kiln that the swap does not cover")
    paths = {}
    for engine, text in (("kiln", source), ("numba", numba_source)):
        paths[engine] = os.path.join(folder, f"{module}__{engine}.py")
        with open(paths[engine], "w") as f:
            f.write(text)
    return source, paths


def snapshot_kiln(folder, tries=20, wait_s=30):
    """A copy of the kiln package and its extension, which every child
    imports: a build in the same checkout may replace them while this runs.
    A copy taken mid-build does not import; it is taken again a little later."""
    target = os.path.join(folder, "kiln_build")
    for _ in range(tries):
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "python", "kiln"), os.path.join(target, "kiln"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        for name in os.listdir(os.path.join(BUILD, "python")):
            if name.startswith("_kiln"):
                shutil.copy2(os.path.join(BUILD, "python", name), target)
        if subprocess.run([sys.executable, "-c", "import kiln"], env=child_env(folder)).returncode == 0:
            return
        time.sleep(wait_s)
    raise SystemExit("no importable Kiln build to copy")


def child_env(folder):
    cache = tempfile.mkdtemp(dir=folder)
    return dict(os.environ, PYTHONPATH=os.path.join(folder, "kiln_build"),
                NUMBA_CACHE_DIR=cache, KILN_CACHE_DIR=cache)


def died(returncode, stderr=b""):
    """How a child ended: the signal, or the exit status and its stderr's last line."""
    if returncode < 0:
        return f"crash ({signal.Signals(-returncode).name})"
    last = [line for line in stderr.decode(errors="replace").splitlines() if line.strip()][-1:]
    return f"crash (exit {returncode}{': ' + last[0].strip()[:200] if last else ''})"


def first_call(engine, path, index, folder):
    """{load_s, first_s, outcome} of one case under one engine, in a fresh process."""
    out_path = os.path.join(folder, f"first_{engine}_{index}.pkl")
    try:
        child = subprocess.run([sys.executable, CHILD, "first", engine, path, str(index), out_path],
                               env=child_env(folder), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=FIRST_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"outcome": ("crash", f"timeout ({FIRST_TIMEOUT_S} s)")}
    if child.returncode != 0 or not os.path.exists(out_path):
        return {"outcome": ("crash", died(child.returncode, child.stderr))}
    with open(out_path, "rb") as f:
        return pickle.load(f)


def steady(paths, indices, folder):
    """{case index: steady record} for the cases given; a case a crash or a
    hang interrupted gets an error record and the rest run in a new process."""
    records, todo = {}, list(indices)
    while todo:
        out_path = os.path.join(folder, f"steady_{len(records)}_{os.path.basename(paths['kiln'])}.jsonl")
        why = None
        try:
            child = subprocess.run([sys.executable, CHILD, "steady", paths["kiln"], paths["numba"],
                                    ",".join(map(str, todo)), out_path],
                                   env=child_env(folder), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   timeout=STEADY_TIMEOUT_S)
            if child.returncode != 0:
                why = died(child.returncode, child.stderr)
        except subprocess.TimeoutExpired:
            why = f"timeout ({STEADY_TIMEOUT_S} s)"
        running = None
        if os.path.exists(out_path):
            with open(out_path) as f:
                for line in f:
                    entry = json.loads(line)
                    if "running" in entry:
                        running = entry["running"]
                    else:
                        records[entry["case"]] = entry
        if why is None:
            break
        if running is None or running in records:   # died before or between cases: give up on the rest
            running = todo[0] if running is None else running
            for index in todo:
                records.setdefault(index, {"case": index, "error": why})
            break
        records[running] = {"case": running, "error": why}
        todo = todo[todo.index(running) + 1:]
    return records


# ---- comparing outcomes ----
def float_rtol(dtype):
    return 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12


def compare_arrays(a, b, where):
    if a.shape != b.shape:
        return f"{where}shape {b.shape} (Kiln) vs {a.shape} (Numba)"
    if a.dtype != b.dtype:
        return f"{where}dtype {b.dtype} (Kiln) vs {a.dtype} (Numba)"
    if a.dtype.kind in "fc":
        try:
            np.testing.assert_allclose(b, a, rtol=float_rtol(a.dtype), atol=0, equal_nan=True)
        except AssertionError:
            with np.errstate(all="ignore"):
                bad = ~((a == b) | (np.isnan(a) & np.isnan(b)))
                first = tuple(int(i) for i in np.argwhere(bad)[0])
                diff = np.abs(b[bad] - a[bad])
                nonzero = a[bad] != 0
                rel = f", max rel. diff {np.nanmax(diff[nonzero] / np.abs(a[bad][nonzero])):.2g}" if nonzero.any() else ""
            return (f"{where}{int(bad.sum())} of {a.size} elements differ, first at {first}: "
                    f"{b[first]!r} (Kiln) vs {a[first]!r} (Numba), max abs. diff {np.nanmax(diff):.2g}{rel}")
        return None
    if not np.array_equal(a, b):
        bad = a != b
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        return f"{where}{int(bad.sum())} of {a.size} elements differ, first at {first}: {b[first]!r} (Kiln) vs {a[first]!r} (Numba)"
    return None


def compare(a, b, where=""):
    """None when Kiln's b is the same as Numba's a, else why not."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return f"{where}{type(b).__name__} (Kiln) vs {type(a).__name__} (Numba)"
        return compare_arrays(a, b, where)
    if type(a) is not type(b):
        return f"{where}{type(b).__name__} {b!r} (Kiln) vs {type(a).__name__} {a!r} (Numba)"[:300]
    if isinstance(a, (float, complex)):
        # a float32 result comes back as a Python float; both being float32
        # values stands for the dtype the value lost
        single = all(np.float32(v) == v for v in (a, b)) if isinstance(a, float) else False
        both_nan = all(np.isnan(v) for v in (a, b)) if isinstance(a, float) else False
        if a == b or both_nan or abs(a - b) <= float_rtol(np.float32 if single else np.float64) * abs(a):
            return None
        return f"{where}{b!r} (Kiln) vs {a!r} (Numba)"
    if isinstance(a, tuple) and a[0] in ("function", "object"):
        return None if a == b else f"{where}{b} (Kiln) vs {a} (Numba)"
    if isinstance(a, tuple):
        if a[:-1] != b[:-1]:   # the tag, and a namedtuple's name and fields
            return f"{where}{b[:-1]} (Kiln) vs {a[:-1]} (Numba)"
        items_a, items_b = a[-1], b[-1]
        if len(items_a) != len(items_b):
            return f"{where}{a[0]} of {len(items_b)} items (Kiln) vs {len(items_a)} (Numba)"
        for i, (x, y) in enumerate(zip(items_a, items_b)):
            why = compare(x, y, f"{where}[{i}] ")
            if why:
                return why
        return None
    return None if a == b else f"{where}{b!r} (Kiln) vs {a!r} (Numba)"


def judge(numba, kiln):
    """(status, detail): 'out of scope' when Numba does not compile and run
    the case; 'failed' when Kiln's outcome is not of Numba's kind; else
    'same' or 'different'."""
    n, k = numba["outcome"], kiln["outcome"]
    if n[0] in ("compile_error", "load_error", "crash"):
        return "out of scope", f"Numba: {n[1]}"
    if n[0] == "raised":
        if k[0] == "raised" and k[1] == n[1]:
            return "same", f"both raise {n[1]}"
        return "failed", k[-1] if k[0] != "value" else f"returns a value where Numba raises {n[2]}"
    if k[0] != "value":
        return "failed", k[-1]
    why = compare(n[1], k[1], "result: ") or compare(n[2], k[2], "arguments after the call: ")
    return ("different", why) if why else ("same", "")


# ---- the report ----
def geomean(values):
    values = [v for v in values if v and v > 0 and math.isfinite(v)]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def fmt_ratio(value):
    if value is None:
        return ""
    return f"{value:.2f}" if value >= 0.1 else f"{value:.2g}"


def fmt_time(seconds):
    if seconds is None:
        return ""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    return f"{seconds * 1e3:.3g} ms" if seconds < 1 else f"{seconds:.2f} s"


def failure_key(detail):
    """A Kiln failure message without where it happened and with the
    specifics of one function (numbers, quoted names) blanked, so that
    failures with one cause group together."""
    return re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'…'", detail.split(" — at ")[0]))


def report(rows, wall_s):
    lines = ["# Kiln against Numba on public Numba code", "",
             "Functions copied verbatim from open-source projects (bench/public_numba/, sources in each "
             "module's header); see bench/public_numba_vs_numba.py for the method. First call = the "
             "module's load plus the case's first call, each engine in a fresh process. Ratios are "
             "Kiln / Numba (below 1: Kiln faster).", "",
             "| module | case | Numba | Kiln | same | steady Numba | steady ratio | first call Numba | "
             "first-call ratio | note |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        numba_ok = r["status"] != "out of scope"
        kiln_ok = r["status"] in ("same", "different")
        lines.append("| " + " | ".join([
            r["module"], r["case"], "yes" if numba_ok else "no", ("yes" if kiln_ok else "**no**") if numba_ok else "",
            {"same": "yes", "different": "**NO**"}.get(r["status"], ""),
            fmt_time(r.get("steady_numba")), fmt_ratio(r.get("steady_ratio")),
            fmt_time(r.get("first_numba")), fmt_ratio(r.get("first_ratio")),
            r["detail"].replace("|", "\\|")]) + " |")
    scope = [r for r in rows if r["status"] != "out of scope"]
    compiled = [r for r in scope if r["status"] in ("same", "different")]
    same = [r for r in compiled if r["status"] == "same"]
    functions = collections.defaultdict(list)
    for r in scope:
        functions[(r["module"], r["function"])].append(r["status"] in ("same", "different"))
    functions_ok = sum(all(v) for v in functions.values())
    steady_ratios = [r["steady_ratio"] for r in compiled if r.get("steady_ratio")]
    first_ratios = [r["first_ratio"] for r in compiled if r.get("first_ratio")]
    pct = lambda a, b: f"{100 * a / b:.1f}%" if b else "n/a"
    lines += ["", "## Totals", "",
              f"- cases: {len(rows)} in {len({r['module'] for r in rows})} modules; Numba compiles and runs "
              f"{len(scope)} ({len(rows) - len(scope)} out of scope)",
              f"- compiled under Kiln / compiled under Numba: {len(compiled)}/{len(scope)} cases "
              f"({pct(len(compiled), len(scope))}); {functions_ok}/{len(functions)} functions "
              f"({pct(functions_ok, len(functions))})",
              f"- same results: {len(same)}/{len(compiled)} of the cases Kiln compiles "
              f"({pct(len(same), len(compiled))}); {len(same)}/{len(scope)} of Numba's "
              f"({pct(len(same), len(scope))})",
              f"- steady-state time, geometric mean of Kiln/Numba: {geomean(steady_ratios):.2f} "
              f"over {len(steady_ratios)} cases",
              f"- first call (load + compile + run), geometric mean of Kiln/Numba: {geomean(first_ratios):.2f} "
              f"over {len(first_ratios)} cases",
              f"- this run took {wall_s / 60:.1f} min"]
    different = [r for r in compiled if r["status"] == "different"]
    if different:
        lines += ["", "## Different results", ""]
        lines += [f"- {r['module']}.{r['case']}: {r['detail']}" for r in different]
    groups = collections.defaultdict(list)
    for r in scope:
        if r["status"] == "failed":
            groups[failure_key(r["detail"])].append(r)
    if groups:
        lines += ["", "## Kiln's failures, grouped by message", ""]
        for key, members in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            cases = ", ".join(f"{r['module']}.{r['case']}" for r in members)
            lines.append(f"- {len(members)} × {members[0]['detail']}: {cases}")
    out_of_scope = [r for r in rows if r["status"] == "out of scope"]
    if out_of_scope:
        lines += ["", "## Out of scope (Numba does not compile or run them)", ""]
        lines += [f"- {r['module']}.{r['case']}: {r['detail']}" for r in out_of_scope]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", help="comma-separated module names (default: all in bench/public_numba)")
    parser.add_argument("--results", help="also write the report to this file")
    options = parser.parse_args()
    modules = (options.modules.split(",") if options.modules else
               sorted(f[:-3] for f in os.listdir(CORPUS) if f.endswith(".py") and not f.startswith("_")))
    started = time.monotonic()
    folder = tempfile.mkdtemp(prefix="public_numba_")
    rows = []
    try:
        snapshot_kiln(folder)
        for module in modules:
            source, paths = write_copies(module, folder)
            module_rows = []
            for index, case in enumerate(case_ids(source)):
                numba = first_call("numba", paths["numba"], index, folder)
                kiln = first_call("kiln", paths["kiln"], index, folder)
                status, detail = judge(numba, kiln)
                row = {"module": module, "case": case, "function": case.split("#")[0], "index": index,
                       "status": status, "detail": detail}
                if status in ("same", "different"):
                    n_first = numba["load_s"] + numba["first_s"]
                    row["first_numba"] = n_first
                    row["first_ratio"] = (kiln["load_s"] + kiln["first_s"]) / n_first
                module_rows.append(row)
                print(f"{module}.{case}: {status} {detail}", file=sys.stderr, flush=True)
            timed = [r for r in module_rows if r["status"] in ("same", "different")
                     and not r["detail"].startswith("both raise")]
            for index, record in steady(paths, [r["index"] for r in timed], folder).items():
                row = next(r for r in module_rows if r["index"] == index)
                if "error" in record:
                    row["detail"] = (row["detail"] + "; " if row["detail"] else "") + f"steady: {record['error']}"
                else:
                    row["steady_numba"] = record["numba_s"]
                    row["steady_ratio"] = record["kiln_s"] / record["numba_s"]
            rows += module_rows
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    text = report(rows, time.monotonic() - started)
    print(text)
    if options.results:
        with open(options.results, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
