"""Kiln's program generator (issue 30): random well-typed functions over the
subset Kiln compiles, run by CPython and by Kiln and compared, with the
runtime's live blocks counted; failures shrunk to reproducers in found/.

    python3 -m tests.fuzz --programs N --seed S

Importing the package puts python/ and $KILN_BUILD_DIR/python (default
build/) first on sys.path, as tests/conftest.py does, so that the worker
processes find the same kiln."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build")))
os.environ["KILN_BUILD_DIR"] = BUILD
for _path in (os.path.join(BUILD, "python"), os.path.join(ROOT, "python")):
    if _path not in sys.path:
        sys.path.insert(0, _path)
