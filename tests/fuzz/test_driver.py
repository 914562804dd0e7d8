"""The campaign's machinery tells failures apart: a program that kills its
worker is a crash with the signal named, and the pool goes on with the next
program; a value that differs is a mismatch, an exception of another type a
wrong exception."""
from .driver import Pool

HEAD = "import os\nimport signal\nimport numpy as np\nfrom kiln import prange\n\n"


def program(body, args="((3,), {})"):
    return HEAD + f"def f(n):\n{body}\n\nJIT = {{'f': {{}}}}\nENTRY = 'f'\n\ndef ARGS():\n    return [{args}]\n"


def test_a_dead_worker_is_a_crash_and_the_campaign_goes_on():
    pool = Pool(1)
    try:
        crash = program("    return n", "((os.kill(os.getpid(), signal.SIGSEGV),), {})")
        results = dict(pool.run([crash, program("    return np.arange(n) * 2")]))
    finally:
        pool.close()
    assert results[0]["kind"] == "crash" and "SIGSEGV" in results[0]["detail"]
    assert results[1]["kind"] == "pass"


def test_differences_are_classified():
    pool = Pool(1)
    try:
        # int(x) of a NaN: CPython raises ValueError, Kiln gives INT64_MIN (as Numba)
        got = pool.run_one(program("    return int(n * np.nan)"))
        # the generator's own mistake (CPython's TypeError) is not counted against Kiln
        invalid = pool.run_one(program("    return n + 'x'"))
    finally:
        pool.close()
    assert got["kind"] == "mismatch" and got["sig"] == "no ValueError"
    assert invalid["kind"] == "invalid"
