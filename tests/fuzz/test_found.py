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
    "mismatch_8_837.py":
        "complex division by a number of tiny or huge modulus: 3 / (1j * -1e-300) is nan+infj "
        "(CPython 3e300j), 3 / 1e300j is -0j (CPython -3e-300j): c*c + d*d under- or overflows, "
        "where CPython (and Numba, which ports it) scales the division",
    "compile_error_7_1201.py":
        "an Optional array known not None as the value of a slice assignment, `b[...] = a`, is a "
        "TypingError ('assigning optional(array) to the view array is not supported yet')",
    "compile_error_2026_141.py":
        "names read only in code after `if True: raise ...` are TypingErrors (\"name 's13' is not "
        "defined\"): CPython's compiler drops that dead code, Kiln types it (after a plain `raise` "
        "it no longer does)",
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
