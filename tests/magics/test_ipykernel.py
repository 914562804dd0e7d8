"""kiln.ipython outside the Kiln kernel: `%load_ext kiln.ipython` in
Debian's ipykernel gives the same magics and the same footer."""
import os

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

import magics_notebook as mn


def test_extension_works_in_ipykernel(tmp_path, monkeypatch):
    paths = [os.path.join(mn.BUILD, "python"), os.path.join(mn.ROOT, "python")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    nb = new_notebook(cells=[
        new_code_cell("%load_ext kiln.ipython\nimport kiln, numpy as np"),
        new_code_cell("@kiln.njit\ndef twice(x):\n    return 2 * x\ntwice(21)"),
        new_code_cell("%compare -r 2 py: twice.py_func(4); kiln: twice(4)"),
    ])
    NotebookClient(nb, kernel_name="python3", timeout=120,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert mn.errors(nb) == []
    result, footer = nb.cells[1].outputs
    assert result.data["text/plain"] == "42"
    assert footer.data["text/plain"].startswith("kiln: compiled twice(int64) in ")
    rows = mn.table_rows(nb.cells[2].outputs[0].data["text/plain"])
    assert list(rows) == ["py", "kiln"] and rows["kiln"]["result"] == "agrees"
