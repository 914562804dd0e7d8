"""A fault in compiled code, run in a notebook cell through the Kiln kernel:
the cell ends with the error a student can act on, and the next cell finds
the kernel alive with every variable it had."""

import magics_notebook as mn

CELLS = [
    "import numpy as np\nimport kiln\nkept = [1, 2, 3]\na = np.arange(10.0)\n"
    "@kiln.jit\ndef peek(a, i):\n    return a[i]",
    "peek(a, 10**10)",
    "%%jit\ndef countdown(n):\n    if n < 0:\n        return 0\n    return 1 + countdown(n + 1)\ncountdown(0)",
    "kept, peek(a, 3), countdown(-1)",
]


def test_a_faulting_cell_raises_and_the_kernel_keeps_its_variables():
    nb = mn.new_notebook(*CELLS)
    for c in nb.cells[1:3]:
        c.metadata["tags"] = ["raises-exception"]   # nbclient goes on past these cells
    nb = mn.execute_cells(nb)
    (fault,) = [o for o in nb.cells[1].outputs if o.output_type == "error"]
    assert fault.ename == "MemoryFault"
    assert "index out of bounds" in fault.evalue and "%%jit --boundscheck" in fault.evalue
    (overflow,) = [o for o in nb.cells[2].outputs if o.output_type == "error"]
    assert overflow.ename == "RecursionError" and "compiled code" in overflow.evalue
    (result,) = [o for o in nb.cells[3].outputs if o.output_type == "execute_result"]
    assert result.data["text/plain"] == "([1, 2, 3], 3.0, 0)"
    assert not [o for o in nb.cells[3].outputs if o.output_type == "error"]
