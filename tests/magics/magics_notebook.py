"""Executing Kiln's notebooks for the notebook and browser tests, and
finding outputs in them by cell tag.

The notebooks run through a real kernel with nbclient. Debian's ipykernel
runs them, with kiln on its path: every notebook starts with
`%load_ext kiln.ipython`, which the Kiln kernel (that loads the extension
at start-up) treats as a no-op, so the same notebooks also run there."""
import os
import sys

import nbformat
from nbclient import NotebookClient

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build"))
NOTEBOOKS = os.path.join(ROOT, "notebooks")


def execute(name, workdir):
    """The executed copy of notebooks/<name>; raises CellExecutionError,
    with the failing cell's traceback, when a cell fails."""
    nb = nbformat.read(os.path.join(NOTEBOOKS, name), as_version=4)
    paths = [os.path.join(BUILD, "python"), os.path.join(ROOT, "python")]
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(paths + ([old] if old else []))
    try:
        client = NotebookClient(nb, kernel_name="python3", timeout=300,
                                resources={"metadata": {"path": str(workdir)}})
        client.execute()
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    return nb


def cell(nb, tag):
    """The one code cell tagged `tag`."""
    found = [c for c in nb.cells if tag in c.get("metadata", {}).get("tags", [])]
    assert len(found) == 1, f"expected one cell tagged {tag!r}, found {len(found)}"
    return found[0]


def outputs(nb, tag, mime):
    """Every `mime` payload the cell tagged `tag` produced, in order
    (display data, results, and for text/plain also stream text)."""
    out = []
    for o in cell(nb, tag).outputs:
        if o.output_type == "stream" and mime == "text/plain":
            out.append(o.text)
        elif o.output_type in ("display_data", "execute_result") and mime in o.data:
            out.append(o.data[mime])
    return out


def errors(nb):
    """(tag or index, ename) for every cell whose outputs hold an error."""
    bad = []
    for i, c in enumerate(nb.cells):
        for o in c.get("outputs", []):
            if o.output_type == "error":
                bad.append((c.metadata.get("tags", [i]), o.ename))
    return bad


if __name__ == "__main__":  # run one notebook by hand: python magics_notebook.py NAME OUT.ipynb
    nbformat.write(execute(sys.argv[1], os.getcwd()), sys.argv[2])
