"""Kiln reads a compiled function's source from its file when it first
compiles it (through linecache, as inspect does). A file edited after the
import may hold another function at that line by then: that is an error
which says so, not the other function's code compiled under this name."""
import importlib
import sys

import pytest

import kiln

MODULE = '''import kiln


@kiln.jit
def double(x):
    return 2 * x


@kiln.jit
def negate(x):
    return -x
'''


def test_an_edit_that_moves_the_function_is_an_error_not_other_code(tmp_path, monkeypatch):
    path = tmp_path / "edited_module.py"
    path.write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("edited_module")
    try:
        path.write_text(MODULE.replace("import kiln\n", "import kiln\n\n\n\n\n\n"))   # negate's old line now holds double
        with pytest.raises(kiln.TypingError, match="the source of negate changed since it was defined") as info:
            module.negate(3)
        assert "importlib.reload" in str(info.value)
        assert importlib.reload(module).negate(3) == -3   # compiled from the file as it is now
    finally:
        sys.modules.pop("edited_module", None)
