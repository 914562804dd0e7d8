"""Functions defined in notebook cells compile (their source comes from the
cell, through linecache), and errors name the cell and its line."""
import numpy as np
import pytest

IPython = pytest.importorskip("IPython")


@pytest.fixture(scope="module")
def shell():
    from IPython.core.interactiveshell import InteractiveShell
    return InteractiveShell.instance()


def test_cell_function_compiles_and_runs(shell):
    result = shell.run_cell(
        "import kiln, numpy as np\n"
        "@kiln.jit\n"
        "def total(a):\n"
        "    s = 0.0\n"
        "    for x in a:\n"
        "        s += x\n"
        "    return s\n"
        "cell_value = total(np.arange(5.0))\n")
    assert result.success, result.error_in_exec
    assert shell.user_ns["cell_value"] == 10.0
    assert shell.user_ns["total"].inspect_types(pretty=False)


def test_cell_error_names_the_cell_line(shell):
    result = shell.run_cell(
        "@kiln.jit\n"
        "def g(n):\n"
        "    x = n\n"
        "    x = (n, n)\n"
        "    return x\n"
        "g(1)\n")
    err = result.error_in_exec
    assert type(err).__name__ == "TypingError"
    msg = str(err)
    assert "<ipython-input-" in msg or "ipykernel" in msg or ".py" in msg
    assert "line 4" in msg and "x is int64 on line 3 and UniTuple(int64 x 2) on line 4" in msg
