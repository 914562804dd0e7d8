"""print() inside a compiled function arrives in the notebook cell that
ran it: a real jupyter_client against the real kiln-kernel."""
import importlib.util
import os

import pytest

_spec = importlib.util.spec_from_file_location(
    "kernel_helpers", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kernel", "conftest.py"))
helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(helpers)   # installs the kernelspec of $KILN_BUILD_DIR into a temporary JUPYTER_PATH

CELL = '''
import numpy as np, kiln

@kiln.jit
def report(n):
    a = np.arange(n) * 1.5
    print("sum of", n, "values:", a.sum(), a)
    print(f"mean={a.mean():.2f}")
    return n

report(4)
'''


@pytest.fixture(scope="module")
def kc():
    km, client = helpers.start_kernel()
    yield client
    client.stop_channels()
    km.shutdown_kernel(now=True)


def test_print_in_compiled_code_reaches_the_cell(kc):
    reply, msgs = helpers.run(kc, CELL, timeout=120)
    assert reply["status"] == "ok", reply
    out = helpers.stream_text(msgs)
    assert "sum of 4 values: 9.0 [0.  1.5 3.  4.5]\nmean=2.25\n" in out
    results = helpers.of_type(msgs, "execute_result")
    assert results and results[0]["content"]["data"]["text/plain"] == "4"
