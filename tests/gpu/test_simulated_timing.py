"""Simulated time is never shown as GPU time: %timeit and %compare of
statements that launch kernels on the CUDA simulator say their times are
the CPU's and what an H100 would roughly take (kiln.cuda.estimate), in a
real IPython shell. On a GPU the times are the GPU's and nothing is said."""
import re

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from kiln import cuda

pytestmark = pytest.mark.skipif(cuda.is_available(), reason="launches run on the GPU here, timed as they are")

SETUP = """
import numpy as np
from kiln import cuda

@cuda.jit
def add(x, y, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = x[i] + y[i]

x = np.ones(100_000, np.float32)
out = np.zeros_like(x)
add[391, 256](x, x, out)

def on_gpu():
    add[391, 256](x, x, out)
    return out

def with_numpy():
    return np.add(x, x, out=out)
"""

ESTIMATE = (r"an H100 would take about [\d.]+ µs \(an estimate from the launch, 1\.1 MiB moved and 100,000 float "
            r"operations\) plus about 240 µs copying NumPy arrays in and back\.")


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_cell("%load_ext kiln.ipython", store_history=False)
    ip.run_cell(SETUP, store_history=False)
    yield ip
    ip.run_cell("%unload_ext kiln.ipython", store_history=False)   # so a later %load_ext loads it again


def run(shell, code):
    """What the cell printed, then the text of what it displayed."""
    with capture_output() as cap:
        result = shell.run_cell(code, store_history=True)
    assert result.error_in_exec is None and result.error_before_exec is None
    return cap.stdout + "".join(o.data.get("text/plain", "") for o in cap.outputs)


def test_timeit_of_a_simulated_launch_says_it_is_not_gpu_time(shell):
    out = run(shell, "%timeit -n 2 -r 2 add[391, 256](x, x, out)")
    assert re.search(r"per loop .*\nkiln: the kernels timed ran on the CUDA simulator, on the CPU, so these are "
                     r"not GPU times; for each launch, " + ESTIMATE, out), out


def test_timeit_without_kernels_says_nothing_of_the_simulator(shell):
    assert "simulator" not in run(shell, "%timeit -n 2 -r 2 with_numpy()")


def test_compare_marks_the_simulated_row_and_estimates_one_call(shell):
    out = run(shell, "%compare -n 2 -r 2 numpy: with_numpy(); gpu: on_gpu()")
    table = out.splitlines()
    assert table[0].startswith("label ") and table[2].startswith("numpy ") and table[3].startswith("gpu (simulated) ")
    assert re.search(r"\ngpu: its kernels ran on the CUDA simulator, on the CPU, so its times are not GPU times; "
                     r"for one call, " + ESTIMATE, out), out
    assert "numpy (simulated)" not in out and "numpy: its kernels" not in out
