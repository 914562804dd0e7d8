"""One process of compat_numba_tests.py: runs the tests of one numba.tests
module from the start-th on, under Numba or Kiln, and writes one JSON line
per step to the out file (the test list first, then before each test which
one is running, then its outcome), flushed, so that the parent can tell which
test a crash or a hang took down.

usage: compat_numba_child.py MODULE numba|kiln START OUT"""
import importlib
import json
import re
import sys
import traceback
import unittest
import warnings

# an assertion on the text of an error (assertIn(msg, str(e)), assertRaisesRegex)
WORDING = re.compile(r"' not found in '|\" not found in \"|' not found in \"|\" not found in '|Regex didn't match")


def flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from flatten(t)
        else:
            yield t


class Outcome(unittest.TestResult):
    """The first error, failure or skip of one test (subtests included)."""

    def __init__(self, shim):
        super().__init__()
        self.shim = shim
        self.outcome, self.why = "pass", ""

    def _bad(self, err, kind):
        if self.outcome != "pass":
            return
        exc = err[1]
        if self.shim is not None and self._out_of_scope(exc):
            self.outcome, self.why = "out_of_scope", f"{type(exc).__name__}: {exc}"
            return
        if self.shim is not None and kind == "fail" and WORDING.search(str(exc)):
            # the call was refused or raised as expected; only Numba's words for it differ
            self.outcome, self.why = "wording", str(exc)
            return
        self.outcome = kind
        self.why = "".join(traceback.format_exception_only(err[0], exc)).strip()

    def _out_of_scope(self, exc):
        while exc is not None:
            if isinstance(exc, self.shim.OutOfScope):
                return True
            if isinstance(exc, AttributeError):
                m = re.search(r"has no attribute '(\w+)'", str(exc))
                if m and m.group(1) in self.shim.NUMBA_INTERNALS:
                    return True
            exc = exc.__cause__ or exc.__context__
        return False

    def addError(self, test, err):
        self._bad(err, "error")

    def addFailure(self, test, err):
        self._bad(err, "fail")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._bad(err, "fail" if issubclass(err[0], test.failureException) else "error")

    def addSkip(self, test, reason):
        if self.outcome == "pass":
            self.outcome, self.why = "skip", reason

    def addExpectedFailure(self, test, err):
        self.outcome, self.why = "xfail", ""

    def addUnexpectedSuccess(self, test):
        self.outcome, self.why = "xpass", ""


def main():
    module, engine, start, out_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    warnings.simplefilter("ignore")
    shim = None
    if engine == "kiln":
        import compat_numba_shim as shim
        shim.install()
    out = open(out_path, "a")

    def say(record):
        out.write(json.dumps(record) + "\n")
        out.flush()

    mod = importlib.import_module(f"numba.tests.{module}")
    tests = list(flatten(unittest.defaultTestLoader.loadTestsFromModule(mod)))
    say({"tests": [t.id() for t in tests]})
    for t in tests[start:]:
        say({"running": t.id()})
        result = Outcome(shim)
        unittest.TestSuite([t]).run(result)   # with its class's setUpClass, as a runner would
        say({"id": t.id(), "outcome": result.outcome, "why": result.why[:2000]})


if __name__ == "__main__":
    main()
