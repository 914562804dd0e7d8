"""Shared test set-up: the kiln package from python/ and the extension from
the build folder (KILN_BUILD_DIR, default build/) come first on sys.path.
KILN_BUILD_DIR is exported as an absolute path, so that kernels and child
processes the tests start find the same build whatever their working folder."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build")))
os.environ["KILN_BUILD_DIR"] = BUILD
for path in (os.path.join(BUILD, "python"), os.path.join(ROOT, "python")):
    if path not in sys.path:
        sys.path.insert(0, path)
