"""print() and f-strings in compiled code write what Python writes for the
same function (to sys.stdout, so a notebook cell shows it), and raise
takes f-string messages."""
import numpy as np
import pytest

import kiln
from np_diff import live


def printing(n, x):
    a = np.arange(n) * 0.5
    print("text", n, x, -x, True, None, (1, 2.5), a, np.float32(0.1), [i for i in range(n)])
    print(f"n={n} x={x:.3f} e={x * 1e20} tiny={x / 1e6} w={n:5d} z={n:03d} {x:10.2e}|{x:g}")
    print(1, 2, 3, sep="-", end="!\n")
    print(x / 3, 1e16, 1e15 + 0.5, 123456.0, -0.0, 1e-5, 0.0001)
    print(np.float32(x) / 3, np.ones((2, 2), np.int32), np.zeros(0))
    print([(i, i * x, (i > 1, -i)) for i in range(n)], "after", [(x, n)])
    d = {i: i * x for i in range(n)}
    d[(n * 7) % 5] = -x
    seen = {i * 7 % 10 for i in range(n)}
    print(d, seen, {(n, 1): (x, True)}, {}, set(), sep=" | ")   # the dict in insertion order, the set as Python orders it
    s = "same"
    if s == "same" and s != "other":
        print(s)
    print()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")   # float32(1e300) overflows, on both sides
@pytest.mark.parametrize("args", [(3, 2.0), (0, -1.25), (5, 1e300), (1, float("nan")), (2, float("-inf"))])
def test_print_writes_what_python_writes(capsys, args):
    printing(*args)
    expected = capsys.readouterr().out
    before = live()
    kiln.jit(printing)(*args)
    assert capsys.readouterr().out == expected
    assert live() == before


def test_raise_with_fstring_message():
    @kiln.jit
    def check(x, n):
        if x < 0:
            raise ValueError(f"x must be non-negative, got {x} at step {n}")
        return x
    with pytest.raises(ValueError) as info:
        check(-2.5, 7)
    assert str(info.value) == "x must be non-negative, got -2.5 at step 7"
    assert check(1.5, 0) == 1.5


def test_unsupported_format_spec_is_a_typing_error():
    @kiln.jit
    def f(x):
        print(f"{x:,}")
    with pytest.raises(kiln.TypingError) as info:
        f(1000)
    assert "format spec" in str(info.value)


def test_print_from_nogil_function(capsys):
    @kiln.jit(nogil=True)
    def f(n):
        print("from nogil", n)
        return n
    assert f(4) == 4
    assert capsys.readouterr().out == "from nogil 4\n"
