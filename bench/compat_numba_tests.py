"""Numba's own test suite as Kiln's yardstick (issue 32).

Runs chosen modules of the tests Debian's python3-numba ships (numba/tests)
twice, each test module in processes of its own: as shipped (under Numba),
and with Numba's njit, jit, prange, vectorize, guvectorize and
compile_isolated replaced by Kiln's (compat_numba_shim.py). Reports per
module: tests, passed under Numba, passed under Kiln of those, failed for a
Kiln limitation (grouped by message across modules), out of scope, crashes.

In scope are the tests that pass under Numba. Out of scope, by rule, is a
test that under Kiln
  - asked for Numba's object mode (forceobj=True, or compile_isolated with
    force_pyobject): Kiln has none;
  - read a dispatcher attribute that is Numba's machinery (overloads,
    inspect_llvm, ...: compat_numba_shim.NUMBA_INTERNALS) and Kiln lacks;
  - called into numba.core's compiler directly (compile_extra, the typing
    and target contexts, a Compiler's pipeline), which the shim refuses;
  - failed only an assertion on the words of an error that was raised
    (assertIn(message, str(e)), assertRaisesRegex): Numba's wording. These
    are counted apart in the table, beside the out-of-scope total.
Everything else that fails counts as Kiln's failure.

A crash or a hang (no test finished for HANG_S seconds) is recorded against
the test that was running, and the module goes on from the next test.

Usage: /usr/bin/python3 bench/compat_numba_tests.py [--modules m1,m2]
           [--results FILE] [--fresh-numba]
Under Numba the outcomes are kept in build/compat/ (they change only with
Numba); --fresh-numba runs them again."""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build"))
HANG_S = 240

# the features Kiln covers, as the issue lists them
MODULES = ["test_array_exprs", "test_np_functions", "test_builtins", "test_mathlib", "test_operators",
           "test_lists", "test_dicts", "test_sets", "test_tuples", "test_array_manipulation",
           "test_array_methods", "test_ufuncs", "test_random", "test_linalg", "test_recursion",
           "test_closure", "test_generators", "test_parfors"]


def run_module(module, engine, out_path):
    """Runs every test of module under engine ('numba' or 'kiln'), one
    process after another until all are done; returns {test id: outcome}."""
    outcomes = {}
    start = 0
    while True:
        if os.path.exists(out_path):
            os.remove(out_path)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([HERE, os.path.join(ROOT, "python"),
                                                           os.path.join(BUILD, "python")]))
        child = subprocess.Popen([sys.executable, os.path.join(HERE, "compat_numba_child.py"), module, engine,
                                  str(start), out_path], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        last, seen = time.monotonic(), 0
        while child.poll() is None:
            time.sleep(1)
            lines = read_lines(out_path)
            if len(lines) != seen:
                seen, last = len(lines), time.monotonic()
            elif time.monotonic() - last > HANG_S:
                child.kill()
                child.wait()
        lines = read_lines(out_path)
        listing = next((r for r in lines if "tests" in r), None)
        done = [r for r in lines if "id" in r]
        for r in done:
            outcomes[r["id"]] = r
        if listing is None:   # the module itself failed to import
            return {"<import>": {"id": "<import>", "outcome": "crash", "why": f"exit {child.returncode}"}}
        tests = listing["tests"]
        running = next((r["running"] for r in reversed(lines) if "running" in r), None)
        finished = {r["id"] for r in done}
        if child.returncode == 0 and all(t in outcomes for t in tests):
            return outcomes
        # the test that was running crashed or hung: record it, go on after it
        if running is not None and running not in finished:
            what = "hang" if child.returncode in (-9,) else f"crash (exit {child.returncode})"
            outcomes[running] = {"id": running, "outcome": "crash", "why": what}
        start = next((i for i, t in enumerate(tests) if t not in outcomes), len(tests))
        if start >= len(tests):
            return outcomes


def read_lines(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.endswith("\n")]
    except FileNotFoundError:
        return []


def message_group(why):
    """A failure's message with the names and numbers of the case taken out,
    so that one limitation met by many tests is one row."""
    lines = [ln for ln in why.strip().splitlines() if ln.strip() and not ln.startswith("Hint:")]
    if not lines:
        return "(no message)"
    kind = lines[0].split(":")[0] if ":" in lines[0] else ""
    first = lines[-1] if lines[-1].startswith(kind) else f"{kind}: {lines[-1]}"
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", first)
    first = re.sub(r"\b\d+(\.\d+)?\b", "N", first)
    first = re.sub(r"<[^>]*>", "<…>", first)
    first = re.sub(r"\b\w+\(\): ", "f(): ", first)
    return first[:160]


def summarize(modules, numba, kiln):
    rows, groups = [], collections.Counter()
    total = collections.Counter()
    for m in modules:
        n, k = numba[m], kiln[m]
        passing = [t for t, r in n.items() if r["outcome"] == "pass"]
        row = collections.Counter(tests=len(n), numba=len(passing))
        for t in passing:
            r = k.get(t, {"outcome": "missing", "why": "not run under Kiln"})
            o = r["outcome"]
            if o == "pass":
                row["kiln"] += 1
            elif o == "out_of_scope":
                row["out"] += 1
            elif o == "wording":
                row["out"] += 1
                row["wording"] += 1
            else:
                row["crash" if o == "crash" else "failed"] += 1
                groups[message_group(r.get("why", ""))] += 1
        row["scope"] = row["numba"] - row["out"]
        total.update(row)
        rows.append((m, row))
    return rows, total, groups


def report(rows, total, groups):
    out = ["| module | tests | pass under Numba | out of scope (of them: Numba's wording) | in scope | "
           "pass under Kiln | failed | crashed |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for m, r in rows + [("**all**", total)]:
        pct = f" ({100 * r['kiln'] / r['scope']:.0f}%)" if r["scope"] else ""
        out.append(f"| {m} | {r['tests']} | {r['numba']} | {r['out']} ({r['wording']}) | {r['scope']} | "
                   f"{r['kiln']}{pct} | {r['failed']} | {r['crash']} |")
    out += ["", "Kiln's failures, grouped by message (tests that pass under Numba):", "",
            "| tests | message |", "|---:|---|"]
    for msg, count in groups.most_common():
        cell = msg.replace("|", r"\|")
        out.append(f"| {count} | {cell} |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modules", default=",".join(MODULES))
    ap.add_argument("--results", help="write the report (Markdown) and the outcomes (.json beside it) here")
    ap.add_argument("--fresh-numba", action="store_true")
    args = ap.parse_args()
    modules = args.modules.split(",")
    keep = os.path.join(BUILD, "compat")
    os.makedirs(keep, exist_ok=True)
    numba, kiln = {}, {}
    for m in modules:
        kept = os.path.join(keep, f"numba_{m}.json")
        if os.path.exists(kept) and not args.fresh_numba:
            with open(kept) as f:
                numba[m] = json.load(f)
        else:
            numba[m] = run_module(m, "numba", os.path.join(keep, f"{m}.numba.lines"))
            with open(kept, "w") as f:
                json.dump(numba[m], f)
        kiln[m] = run_module(m, "kiln", os.path.join(keep, f"{m}.kiln.lines"))
        r = summarize([m], numba, kiln)[1]
        print(f"{m}: {r['numba']} pass under Numba, {r['scope']} in scope, {r['kiln']} pass under Kiln, "
              f"{r['crash']} crashed", flush=True)
    text = report(*summarize(modules, numba, kiln))
    print(text)
    if args.results:
        with open(args.results, "w") as f:
            f.write(text + "\n")
        with open(os.path.splitext(args.results)[0] + ".json", "w") as f:
            json.dump({"numba": numba, "kiln": kiln}, f, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
