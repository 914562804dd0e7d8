#!/usr/bin/env python3
"""Executes a notebook through the Kiln kernel of a build with nbclient, and writes the executed
notebook and its HTML export under BUILD_DIR/notebooks/.

Usage: run_notebook.py NOTEBOOK BUILD_DIR

The kernel is the one in BUILD_DIR (a kernelspec written into a temporary JUPYTER_PATH), not
whatever kernelspec is installed, so the output always comes from the build just made. Cells
tagged "raises-exception" may fail; any other error stops the run with status 1."""
import os
import subprocess
import sys
import tempfile


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    notebook, build = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    kernel = os.path.join(build, "kiln-kernel")
    if not os.access(kernel, os.X_OK):
        print(f"run_notebook: {kernel} not found; build first (scripts/setup.sh)", file=sys.stderr)
        return 1
    out_dir = os.path.join(build, "notebooks")
    stem = os.path.splitext(os.path.basename(notebook))[0]
    executed = os.path.join(out_dir, stem + ".ipynb")
    for stale in (executed, os.path.join(out_dir, stem + ".html")):   # an index must not show an old run
        if os.path.exists(stale):
            os.remove(stale)
    with tempfile.TemporaryDirectory(prefix="kiln-run-") as prefix:
        subprocess.run([kernel, "install", "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
        os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
        import nbformat
        from nbclient import NotebookClient
        from nbconvert import HTMLExporter

        nb = nbformat.read(notebook, as_version=4)
        client = NotebookClient(nb, kernel_name="kiln", timeout=600,
                                resources={"metadata": {"path": os.path.dirname(notebook)}})
        status = 0
        try:
            client.execute()
        except Exception as e:   # a cell that raised, timed out, or a kernel that died: keep what ran
            print(f"run_notebook: {type(e).__name__}:\n{e}", file=sys.stderr)
            status = 1
    os.makedirs(out_dir, exist_ok=True)
    nbformat.write(nb, executed)
    html, _ = HTMLExporter().from_notebook_node(nb)
    with open(os.path.join(out_dir, stem + ".html"), "w", encoding="utf-8") as f:
        f.write(html)
    print(f"executed notebook: {executed}\nHTML export: {os.path.join(out_dir, stem + '.html')}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
