"""%%cuda in a real IPython shell: every top-level function of the cell is
compiled with kiln.cuda.jit, those the others call as device functions;
the kernels then launch from later cells."""
import numpy as np
import pytest

pytest.importorskip("IPython", reason="IPython is not installed (the GPU machine has none)")
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402


@pytest.fixture(scope="module")
def shell():
    ip = InteractiveShell.instance()
    ip.run_cell("%load_ext kiln.ipython", store_history=False)
    yield ip
    ip.run_cell("%unload_ext kiln.ipython", store_history=False)   # so a later %load_ext loads it again


def run(shell, code):
    with capture_output() as cap:
        result = shell.run_cell(code, store_history=True)
    return [o.data for o in cap.outputs], result.error_in_exec or result.error_before_exec


CELL = '''%%cuda
import math
from kiln import cuda

def polar_to_cartesian(rho, theta):
    return rho * math.cos(theta), rho * math.sin(theta)

def distance_kernel(rho, theta, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        x, y = polar_to_cartesian(rho[i], theta[i])
        out[i] = math.sqrt(x * x + y * y)
'''


def test_cuda_cell_makes_kernels_and_device_functions(shell):
    displays, error = run(shell, CELL)
    assert error is None
    text = displays[0]["text/plain"]
    assert "polar_to_cartesian: device function" in text
    assert "distance_kernel: kernel" in text
    shell.user_ns["rho"] = np.linspace(-2, 3, 500)
    shell.user_ns["theta"] = np.linspace(0, 7, 500)
    _, error = run(shell, "import numpy as np\nout = np.zeros(500)\ndistance_kernel[4, 128](rho, theta, out)")
    assert error is None
    np.testing.assert_allclose(shell.user_ns["out"], np.abs(shell.user_ns["rho"]), rtol=1e-12, atol=1e-12)


def test_cuda_cell_bad_option_is_a_usage_error_and_the_shell_goes_on(shell):
    _, error = run(shell, "%%cuda --turbo\ndef k(x):\n    pass\n")
    assert error is not None and "usage: %%cuda" in str(error)
    _, error = run(shell, "y = 1 + 1")
    assert error is None and shell.user_ns["y"] == 2
