"""scripts/notebook_index.py, the main job's index page, on executed notebooks made here: each row
says what its notebook's run left (ran without errors, cells failed, cells never reached, or not
run at all), so a run that broke cannot pass for one that worked."""
import os
import re
import subprocess
import sys

import nbformat

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "scripts", "notebook_index.py")


def executed(path, title, outputs_per_cell):
    """An executed course notebook at path: one code cell per entry, None for a cell never run."""
    nb = nbformat.v4.new_notebook(metadata={"kiln_course": {"title": title, "summary": "s", "gpu": "none"}})
    for i, outputs in enumerate(outputs_per_cell):
        cell = nbformat.v4.new_code_cell("x = 1")
        if outputs is not None:
            cell.execution_count = i + 1
            cell.outputs = outputs
            cell.metadata["execution"] = {"iopub.execute_input": f"2026-12-07T10:00:0{i}.000000Z",
                                          "shell.execute_reply": f"2026-12-07T10:00:0{i}.500000Z"}
        nb.cells.append(cell)
    nbformat.write(nb, path)
    return str(path)


def rows(tmp_path, *notebooks):
    subprocess.run([sys.executable, SCRIPT, str(tmp_path), *notebooks], check=True, capture_output=True)
    page = (tmp_path / "index.html").read_text()
    return [[re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr><td.*?</tr>", page)]


def test_each_row_says_how_its_run_ended(tmp_path):
    error = nbformat.v4.new_output("error", ename="ValueError", evalue="no", traceback=[])
    got = rows(tmp_path,
               executed(tmp_path / "good.ipynb", "Good", [[], []]),
               executed(tmp_path / "broken.ipynb", "Broken", [[], [error]]),
               executed(tmp_path / "died.ipynb", "Died", [[], None, None]),
               str(tmp_path / "missing.ipynb"))
    assert [(r[0], r[-2], r[-1]) for r in got] == [
        ("Good", "2 s", "ran without errors"), ("Broken", "2 s", "1 cell failed"), ("Died", "0 s", "2 cells not run"),
        ("missing.ipynb", "not run", "not run")]
