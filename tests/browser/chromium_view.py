"""Opening HTML in headless Chromium (check_notebook.mjs) for the browser tests: what it saw of
Kiln's views, as JSON, and a screenshot in <build>/browser/ for a person to look at."""
import json
import os
import subprocess
import sys

from nbconvert import HTMLExporter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "magics"))
import magics_notebook as mn  # noqa: E402  (shared notebook runner)


def export(nb, html_path):
    """Writes notebook node `nb` as nbconvert's HTML export (the lab template, as the main job's)."""
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    with open(html_path, "w", encoding="utf-8") as f:
        f.write(body)


def look_at(html_path, name):
    """What headless Chromium saw of the page at html_path; its screenshot is <build>/browser/<name>.png."""
    shots = os.path.join(mn.BUILD, "browser")
    os.makedirs(shots, exist_ok=True)
    done = subprocess.run(["node", os.path.join(HERE, "check_notebook.mjs"), str(html_path),
                           os.path.join(shots, f"{name}.png")],
                          cwd=HERE, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"headless Chromium failed (run scripts/setup.sh?):\n{done.stderr}"
    return json.loads(done.stdout)


def look(nb, name, work):
    """What headless Chromium saw of notebook node `nb` exported to HTML (in folder `work`)."""
    html_path = os.path.join(work, f"{name}.html")
    export(nb, html_path)
    return look_at(html_path, name)
