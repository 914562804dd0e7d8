"""Executing Kiln's notebooks for the notebook and browser tests, and
finding outputs in them by cell tag.

The notebooks run with nbclient through the real Kiln kernel,
$KILN_BUILD_DIR/kiln-kernel, which loads kiln.ipython at start-up. Its
kernelspec is installed into a temporary JUPYTER_PATH, once per process."""
import functools
import os
import re
import subprocess
import sys
import tempfile

import nbformat
from nbclient import NotebookClient

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build"))
NOTEBOOKS = os.path.join(ROOT, "notebooks")


@functools.lru_cache(maxsize=None)
def install_kernelspec():
    """Installs the "kiln" kernelspec of this build where only this process
    (and the kernels it starts) will look; IPython's history goes there too."""
    exe = os.path.join(BUILD, "kiln-kernel")
    if not os.access(exe, os.X_OK):
        raise RuntimeError(f"{exe} is missing: build it first (scripts/setup.sh)")
    prefix = tempfile.mkdtemp(prefix="kiln-notebook-tests-")
    subprocess.run([exe, "install", "--prefix", prefix], check=True, capture_output=True)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
    os.environ["IPYTHONDIR"] = os.path.join(prefix, "ipython")
    return prefix


@functools.lru_cache(maxsize=None)
def execute(name):
    """The executed copy of notebooks/<name>, run once per test process
    (the notebook and browser tests read the same run; do not modify it).
    Raises CellExecutionError, with the failing cell's traceback."""
    return execute_cells(nbformat.read(os.path.join(NOTEBOOKS, name), as_version=4))


def execute_cells(nb, allow_errors=False):
    """Runs notebook node `nb` in place, in a new Kiln kernel (which
    inherits this process's environment), and returns it. allow_errors:
    a cell that raises does not stop the run."""
    install_kernelspec()
    client = NotebookClient(nb, kernel_name="kiln", timeout=300, allow_errors=allow_errors,
                            resources={"metadata": {"path": tempfile.mkdtemp(prefix="kiln-notebook-run-")}})
    client.execute()
    return nb


def new_notebook(*sources):
    """A notebook node of code cells with these sources."""
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])


def cell(nb, tag):
    """The one code cell tagged `tag`."""
    found = [c for c in nb.cells if tag in c.get("metadata", {}).get("tags", [])]
    assert len(found) == 1, f"expected one cell tagged {tag!r}, found {len(found)}"
    return found[0]


def outputs(nb, tag, mime):
    """Every `mime` payload the cell tagged `tag` produced, in order
    (display data, results, and for text/plain also stream text). An empty
    one, a progress line emptied when its magic printed (kiln/magics/progress.py),
    shows nothing and is left out."""
    out = []
    for o in cell(nb, tag).outputs:
        if o.output_type == "stream" and mime == "text/plain":
            out.append(o.text)
        elif o.output_type in ("display_data", "execute_result") and o.data.get(mime):
            out.append(o.data[mime])
    return out


UNITS = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}


def seconds(text):
    """Seconds from a duration as Kiln prints it: "9.58 ms"."""
    value, unit = text.split()
    return float(value) * UNITS[unit]


def table_rows(plain):
    """{label: {column: cell}} from %compare's text/plain table."""
    lines = plain.splitlines()
    header = re.split(r"\s{2,}", lines[0].strip())
    rows = {}
    for line in lines[2:]:
        if not line.strip() or line.startswith("best and median"):
            break
        cells = re.split(r"\s{2,}", line.strip())
        rows[cells[0]] = dict(zip(header, cells))
    return rows


def report_field(text, key):
    """The value of `key` in a `key    : value` report (%kiln_sysinfo)."""
    match = re.search(rf"^{re.escape(key)} +: (.*)$", text, re.M)
    assert match, f"no {key!r} in the report"
    return match.group(1)


def errors(nb):
    """(tag or index, ename) for every cell whose outputs hold an error."""
    bad = []
    for i, c in enumerate(nb.cells):
        for o in c.get("outputs", []):
            if o.output_type == "error":
                bad.append((c.metadata.get("tags", [i]), o.ename))
    return bad


GPU_LINE = re.compile(r"^  gpu: (.*)$", re.M)


def footer(nb, tag):
    """Kiln's footer under the cell tagged `tag` (its last text/plain output), as text."""
    text = outputs(nb, tag, "text/plain")[-1]
    assert text.startswith("kiln: "), f"no footer under {tag!r}: {text!r}"
    return text


def gpu_lines(nb, tag):
    """The footer's GPU lines ("  gpu: ..."), without their indent."""
    return GPU_LINE.findall(footer(nb, tag))


def speedup(text):
    """A speedup as %compare and kiln.chart write it ("1,234×"), as a number."""
    return float(text.rstrip("×").replace(",", ""))


if __name__ == "__main__":  # run one notebook by hand: python magics_notebook.py NAME OUT.ipynb
    nbformat.write(execute(sys.argv[1]), sys.argv[2])
