"""The course pack as the main job leaves it: the five course notebooks (notebooks/courses/),
executed through the Kiln kernel, exported to HTML, and listed by scripts/notebook_index.py's
index page; the index and one course opened in headless Chromium. Every course is a row whose
link opens its page, none failed, and the course's views are laid out, none cut off."""
import glob
import os
import subprocess
import sys

import nbformat
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_view import export, look_at, mn  # noqa: E402

COURSES = sorted(glob.glob(os.path.join(mn.NOTEBOOKS, "courses", "*.ipynb")))


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    """A folder as build/notebooks/ after the main job: each course executed, with its HTML, and index.html."""
    work = tmp_path_factory.mktemp("course-pack")
    executed = []
    for path in COURSES:
        stem = os.path.splitext(os.path.basename(path))[0]
        nb = mn.execute(f"courses/{stem}.ipynb")
        executed.append(str(work / f"{stem}.ipynb"))
        nbformat.write(nb, executed[-1])
        export(nb, work / f"{stem}.html")
    subprocess.run([sys.executable, os.path.join(mn.ROOT, "scripts", "notebook_index.py"), str(work), *executed],
                   check=True, capture_output=True)
    return work


def test_the_pack_holds_the_five_courses():
    assert len(COURSES) == 5
    for path in COURSES:
        course = nbformat.read(path, as_version=4).metadata["kiln_course"]
        assert course["title"] and course["summary"] and course["gpu"], path


def test_the_index_lists_every_course_with_a_link_to_its_page(pack):
    seen = look_at(pack / "index.html", "course_index")
    (table,) = seen["courseIndex"]
    assert table["visible"] and not table["overflows"]
    rows = table["rows"][1:]   # under the header
    assert len(rows) == len(COURSES)
    assert all(r["visible"] and "ran without errors" in r["text"] for r in rows), rows
    titles = [nbformat.read(p, as_version=4).metadata["kiln_course"]["title"] for p in COURSES]
    assert [link["text"] for link in seen["courseLinks"]] == titles
    for link in seen["courseLinks"]:
        assert link["visible"] and (pack / link["href"]).is_file(), link


def test_a_course_page_shows_kilns_views_laid_out(pack):
    seen = look_at(pack / "01_introduction.html", "course_01_introduction")
    footers = seen["footers"]
    assert footers and all(f["visible"] and f["text"].startswith("kiln") for f in footers)
    assert seen["tables"] and all(t["visible"] and not t["overflows"] for t in seen["tables"])
    assert seen["charts"] and all(c["visible"] for c in seen["charts"])
    assert seen["annotations"] and all(a["visible"] for a in seen["annotations"])
