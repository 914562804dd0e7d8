"""A campaign: generate programs from a seed, run them in the worker pool,
count outcomes by kind, shrink the first failure of each kind and reason
not yet kept, and write it to found/."""
import os
import re
import time
from collections import Counter

from . import BUILD
from .driver import Pool
from .gen_program import generate
from .shrink import shrink

FOUND = os.path.join(os.path.dirname(os.path.abspath(__file__)), "found")
# not counted against Kiln: the generator's own mistakes
NOT_FAILURES = {"pass", "invalid"}
KINDS = ["mismatch", "wrong_exception", "kiln_exception", "compile_error", "unsupported", "leak", "crash", "hang"]


def program_seed(seed, n):
    return seed * 1_000_003 + n


def kept_signatures():
    """(kind, sig) of every reproducer in found/, read from its header."""
    out = set()
    if os.path.isdir(FOUND):
        for name in os.listdir(FOUND):
            if name.endswith(".py"):
                text = open(os.path.join(FOUND, name)).read()
                m = re.search(r"^KIND = '(.*)'\nSIG = (.*)$", text, re.M)
                if m:
                    out.add((m.group(1), eval(m.group(2))))
    return out


def _generate(seed, log, avoid=()):
    """The program of seed; a generator bug becomes a program that fails
    as 'invalid' (counted, not against Kiln), so the campaign goes on."""
    try:
        return generate(seed, avoid)
    except Exception as exc:   # the generator's own bug, reported with its seed
        log(f"generator failed on seed {seed}: {type(exc).__name__}: {exc}")
        return f"raise RuntimeError({f'generator failed: {exc!r}'!r})\n"


def reproducer_text(source, failure, seed, n, shrunk=True):
    head = (f'"""Found by `python3 -m tests.fuzz --seed {seed}` (program {n}){", shrunk" if shrunk else ""}.\n\n'
            + "\n".join(failure["detail"].replace('"""', "'''").splitlines()[:12]) + '\n"""\n')
    source = "".join(ln for ln in source.splitlines(True) if not ln.startswith(("KIND = ", "SIG = ")))
    return head + source + f"\n\nKIND = {failure['kind']!r}\nSIG = {failure['sig']!r}\n"


def run(programs, seed, workers=2, keep=True, shrink_limit=12, log=print, start=0, avoid=()):
    """(Counter of outcomes, [(n, source, result)] of the failures); writes
    reproducers when keep. avoid: constructs the generator leaves out."""
    counts = Counter()
    failures = []
    t0 = time.monotonic()
    pool = Pool(workers)
    raw_dir = os.path.join(BUILD, "fuzz", f"seed{seed}")
    try:
        sources = (_generate(program_seed(seed, n), log, avoid) for n in range(start, start + programs))
        batch_size = 64
        n0 = start
        while True:
            batch = [s for _, s in zip(range(batch_size), sources)]
            if not batch:
                break
            for idx, res in pool.run(batch):
                counts[res["kind"]] += 1
                n = n0 + idx
                if res["kind"] not in NOT_FAILURES:
                    failures.append((n, batch[idx], res))
                    os.makedirs(raw_dir, exist_ok=True)
                    with open(os.path.join(raw_dir, f"{res['kind']}_{n}.py"), "w") as f:
                        f.write(reproducer_text(batch[idx], res, seed, n, shrunk=False))
                    log(f"program {n}: {res['kind']}: {res['sig']}")
            n0 += len(batch)
        elapsed = time.monotonic() - t0
        if keep:
            seen = kept_signatures()
            shrunk = 0
            first = ["crash", "hang", "leak", "mismatch", "wrong_exception", "kiln_exception"]
            order = sorted(failures, key=lambda f: (f[2]["kind"] not in first, f[0]))
            for n, src, res in order:
                key = (res["kind"], res["sig"])
                if res["sig"] in ("value", "argument"):   # a wrong value says nothing of its cause: each is shrunk
                    key += (n,)
                if key in seen or shrunk >= shrink_limit:
                    continue
                seen.add(key)
                shrunk += 1
                small = shrink(src, res, pool)
                path = os.path.join(FOUND, f"{res['kind']}_{seed}_{n}.py")
                os.makedirs(FOUND, exist_ok=True)
                with open(path, "w") as f:
                    f.write(reproducer_text(small, res, seed, n))
                log(f"kept {os.path.relpath(path)} ({len(small.splitlines())} lines)")
    finally:
        pool.close()
    counts["_seconds"] = elapsed
    return counts, failures


def summary(counts, programs):
    passed = counts["pass"]
    lines = [f"programs run: {programs}, passed: {passed}, invalid (generator): {counts['invalid']}, "
             f"in {counts['_seconds']:.1f} s ({programs / max(counts['_seconds'], 1e-9):.1f} programs/s)"]
    for k in KINDS:
        lines.append(f"  {k}: {counts[k]}")
    lines.append(f"failures: {sum(counts[k] for k in KINDS)} "
                 f"(compile errors of constructs Kiln says it lacks, 'unsupported': {counts['unsupported']})")
    return "\n".join(lines)


def shrink_file(path):
    """Shrinks the program in path into found/ (named after the file);
    None when it does not fail."""
    source = open(path).read()
    pool = Pool(2)
    try:
        res = pool.run_one(source)
        if res["kind"] in NOT_FAILURES:
            return None
        small = shrink(source, res, pool)
    finally:
        pool.close()
    out = os.path.join(FOUND, f"{res['kind']}_{os.path.splitext(os.path.basename(path))[0]}.py")
    with open(out, "w") as f:
        f.write(reproducer_text(small, res, "?", os.path.basename(path)))
    return out
