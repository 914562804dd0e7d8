#!/usr/bin/env python3
"""Writes the index page of executed notebooks: OUT_DIR/index.html, one row per notebook linking
its HTML export (the same name with .html, beside it), with what it teaches, whether it needs a
GPU, how long its cells ran and whether any failed, all read from the executed notebooks.

Usage: notebook_index.py OUT_DIR EXECUTED_NOTEBOOK...   (rows in the order given)

A course notebook says what it is in its metadata ("kiln_course": title, summary, gpu); for
another, the title is its first Markdown heading. The run time is the span of nbclient's
per-cell timestamps (shell.execute_reply of the last cell less iopub.execute_input of the first)."""
import datetime
import html
import os
import sys

import nbformat

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
table.kiln-course-index { border-collapse: collapse; width: 100%; }
table.kiln-course-index th, table.kiln-course-index td { text-align: left; vertical-align: top;
  padding: 0.5em 0.75em; border-bottom: 1px solid #ddd; }
table.kiln-course-index th { white-space: nowrap; }
table.kiln-course-index td:first-child { width: 14em; }
table.kiln-course-index td.kiln-course-gpu { width: 13em; }
table.kiln-course-index td.kiln-course-time { white-space: nowrap; text-align: right; }
table.kiln-course-index td.kiln-course-result { white-space: nowrap; }
.kiln-course-failed { color: #b00020; font-weight: bold; }
.kiln-course-simulated { color: #555; font-size: 90%; }
"""


def _stamp(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def run_seconds(nb):
    """Seconds from the first code cell's start to the last one's reply; None if not recorded."""
    times = [c.metadata.get("execution", {}) for c in nb.cells if c.cell_type == "code"]
    times = [t for t in times if "iopub.execute_input" in t and "shell.execute_reply" in t]
    if not times:
        return None
    return (_stamp(times[-1]["shell.execute_reply"]) - _stamp(times[0]["iopub.execute_input"])).total_seconds()


def failed_cells(nb):
    """How many code cells show an error, not counting those tagged raises-exception."""
    return sum(1 for c in nb.cells if c.cell_type == "code"
               and "raises-exception" not in c.metadata.get("tags", [])
               and any(o.output_type == "error" for o in c.get("outputs", [])))


def cells_not_run(nb):
    """How many code cells with code in them the run never reached (a kernel that died, a timeout)."""
    return sum(1 for c in nb.cells if c.cell_type == "code" and c.source.strip() and c.get("execution_count") is None)


def simulated(nb):
    """Whether GPU work in it ran on the CUDA simulator (its footers say so)."""
    for c in nb.cells:
        for o in c.get("outputs", []):
            text = o.get("text", "") if o.output_type == "stream" else o.get("data", {}).get("text/plain", "")
            if "simulated on the CPU" in text:
                return True
    return False


def describe(nb, path):
    """(title, summary, gpu) of an executed notebook."""
    course = nb.metadata.get("kiln_course", {})
    title, summary = course.get("title"), course.get("summary", "")
    if not title:
        headings = [line for c in nb.cells if c.cell_type == "markdown"
                    for line in c.source.splitlines() if line.startswith("#")]
        title = headings[0].lstrip("#").strip() if headings else None
    return title or os.path.basename(path), summary, course.get("gpu", "none")


def row(path):
    if not os.path.exists(path):   # run_notebook.py wrote nothing: it could not start the run
        name = html.escape(os.path.basename(path))
        return (f'<tr><td>{name}</td><td></td><td class="kiln-course-gpu"></td><td class="kiln-course-time">'
                f'not run</td><td class="kiln-course-result"><span class="kiln-course-failed">not run</span></td></tr>')
    nb = nbformat.read(path, as_version=4)
    title, summary, gpu = describe(nb, path)
    page = os.path.splitext(os.path.basename(path))[0] + ".html"
    seconds, failed, unreached = run_seconds(nb), failed_cells(nb), cells_not_run(nb)
    ran = "not run" if seconds is None else f"{seconds:.0f} s"
    problems = [f"{n} cell{'s' if n != 1 else ''} {what}" for n, what in ((failed, "failed"), (unreached, "not run")) if n]
    status = (f'<span class="kiln-course-failed">{", ".join(problems)}</span>' if problems else "ran without errors")
    gpu_text = html.escape(gpu)
    if simulated(nb):
        gpu_text += '<br><span class="kiln-course-simulated">ran on the CUDA simulator here</span>'
    return (f'<tr><td><a class="kiln-course-link" href="{html.escape(page)}">{html.escape(title)}</a></td>'
            f'<td>{html.escape(summary)}</td><td class="kiln-course-gpu">{gpu_text}</td>'
            f'<td class="kiln-course-time">{ran}</td><td class="kiln-course-result">{status}</td></tr>')


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir, notebooks = argv[1], argv[2:]
    rows = "\n".join(row(p) for p in notebooks)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Kiln notebooks</title><style>{STYLE}</style></head>
<body><h1>Kiln notebooks</h1>
<p>Each notebook as it ran through the Kiln kernel on this machine, with every output.</p>
<table class="kiln-course-index">
<tr><th>Notebook</th><th>What it teaches</th><th>GPU</th><th>Ran in</th><th>Result</th></tr>
{rows}
</table></body></html>
"""
    index = os.path.join(out_dir, "index.html")
    with open(index, "w", encoding="utf-8") as f:
        f.write(page)
    print(f"index of the notebooks: {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
