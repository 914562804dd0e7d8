"""Every reproducer the generator kept (found/*.py) runs again under CPython
and Kiln, each in a worker process (a crash fails the test, not pytest),
and must now agree and free every block.

A reproducer of a bug still open is listed in KNOWN_OPEN with what is wrong:
its test must still fail (and is reported as xfailed), so the suite stays green while the
bug is there and turns red when it is fixed, telling the fixer to take the
line out of KNOWN_OPEN. (It must still fail the way it was kept: another
failure is a failure of the test.)"""
import os

import pytest

from .campaign import FOUND
from .driver import Pool

KNOWN_OPEN = {
    "mismatch_6942_482.py":
        "x in [x] of a NaN float x: CPython's list containment tests identity before equality, and the "
        "list holds the same float object, so it is True; compiled code (Kiln's, as Numba's) has floats as "
        "values with no identity and compares them, and NaN equals nothing",
    "mismatch_50000_75811.py":
        "np.sum(a) // np.mean(a) of a transposed float64 view: NumPy adds its 20 values in another order "
        "than compiled code does, so the sums differ in the last bit (42.69999999999999 against 42.7, the "
        "exact sum lying between), and floor division, which jumps at whole numbers, turns that bit into "
        "20.0 against 19.0. Both sums are right to rounding; no summation order matches NumPy's for every "
        "layout",
}

FILES = sorted(f for f in os.listdir(FOUND) if f.endswith(".py")) if os.path.isdir(FOUND) else []


@pytest.fixture(scope="module")
def pool():
    p = Pool(1)
    yield p
    p.close()


def test_known_open_lists_only_kept_files():
    assert set(KNOWN_OPEN) <= set(FILES), set(KNOWN_OPEN) - set(FILES)


def recorded(source):
    """(KIND, SIG) the reproducer was kept with."""
    ns = {}
    exec(compile("\n".join(l for l in source.splitlines() if l.startswith(("KIND =", "SIG ="))), "<kept>", "exec"), ns)
    return ns["KIND"], ns["SIG"]


@pytest.mark.parametrize("name", FILES)
def test_reproducer_agrees_with_cpython(name, pool):
    with open(os.path.join(FOUND, name)) as f:
        source = f.read()
    res = pool.run_one(source)
    if name in KNOWN_OPEN:
        assert res["kind"] != "pass", f"{name} passes now: the bug is fixed, take it out of KNOWN_OPEN"
        assert (res["kind"], res["sig"]) == recorded(source), (
            f"{name} fails otherwise than when kept: {res['kind']}: {res['detail'][:2000]}")
        pytest.xfail(KNOWN_OPEN[name])
    assert res["kind"] == "pass", f"{name}: {res['kind']}: {res['detail'][:2000]}"
