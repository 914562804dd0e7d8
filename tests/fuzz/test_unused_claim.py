"""The harness checks each UnusedWorkWarning Kiln gives a generated program
(a loop optimized away as unused) against CPython run without that loop:
a true claim passes, a false one is a mismatch."""
from .harness import _check_unused_claim, run_program

SOURCE = '''import numpy as np


def f(arg0):
    s = 0.0
    for x in arg0:
        s += x
    for i in range(arg0.shape[0]):
        arg0[i] = 1.0
    return
JIT = {'f': {}}
ENTRY = 'f'


def ARGS():
    return [((np.arange(3.0),), {}), ((np.zeros(0),), {})]
'''


def test_a_program_whose_unused_loop_kiln_names_passes(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(SOURCE)
    assert run_program(SOURCE, str(path))["kind"] == "pass"
    assert _check_unused_claim(SOURCE, str(path), 6) is None   # the sum: nothing of it is used


def test_a_false_claim_of_an_unused_loop_is_a_mismatch(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(SOURCE)
    res = _check_unused_claim(SOURCE, str(path), 8)   # the loop that writes the argument
    assert (res["kind"], res["sig"], res["set"]) == ("mismatch", "unused loop", 0)
    assert "argument 0 after the call" in res["detail"]
