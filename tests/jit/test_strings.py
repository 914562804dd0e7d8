"""Strings passed to compiled code, beyond the corpus (corpus_strings.py):
what cannot be passed or done is a clear error, kernels take no strings,
and many kept f-strings in one call stay intact and are let go after it."""
import numpy as np
import pytest

import kiln
from kiln import cuda


@kiln.njit
def echo(s):
    return s


def test_a_string_holding_a_nul_is_refused_and_others_round_trip():
    with pytest.raises(ValueError, match=r"cannot pass a string holding a NUL character"):
        echo("a\0b")
    for s in ("", "plain", "ünïcödé ✓", "x" * 5000):
        assert echo(s) == s
    assert str(kiln.typeof("word")) == "str"


@pytest.mark.parametrize("function,message", [
    (lambda s: s[0], "str cannot be indexed"),
    (lambda s: s < "b", "strings compare with == and != to strings only"),
    (lambda s: s == 1, "strings compare with == and != to strings only"),
    (lambda s: s.upper(), "str has no method 'upper'"),
    (lambda s: s in (1, 2), "or a string and a tuple of strings, got str and UniTuple"),
], ids=["index", "order", "number", "method", "in numbers"])
def test_what_strings_do_not_support_is_a_typing_error(function, message):
    with pytest.raises(kiln.TypingError, match=message):
        kiln.njit(function)("a")


def test_a_kernel_takes_no_string():
    @cuda.jit
    def kernel(tag, out):   # refused before it compiles
        out[0] = 1.0

    with pytest.raises(TypeError, match="a kernel cannot take a str"):
        kernel[1, 1]("tag", np.zeros(1))


def test_many_kept_strings_in_one_call_stay_intact():
    @kiln.njit
    def labels(n):
        first = f"first {n}"
        total = 0
        for i in range(n):
            kept = f"label number {i} of {n}"
            total += len(kept)
        return first, total

    n = 20_000   # more than one chunk of kept strings (rt_print.c)
    first, total = labels(n)
    assert first == f"first {n}"
    assert total == sum(len(f"label number {i} of {n}") for i in range(n))
    for _ in range(3):   # the next calls start afresh
        assert labels(5) == ("first 5", sum(len(f"label number {i} of 5") for i in range(5)))


def test_strings_kept_in_a_parallel_loop_stay_in_it():
    @kiln.njit(parallel=True)
    def lengths(n):
        out = np.empty(n, dtype=np.int64)
        for i in kiln.prange(n):
            s = f"item {i}"
            s += "!"
            out[i] = len(s)
        return out

    np.testing.assert_array_equal(lengths(10_000), [len(f"item {i}!") for i in range(10_000)])


def test_strings_kept_by_a_ufunc_kernel_and_a_cfunc_are_let_go_after_each_call():
    @kiln.vectorize(["int64(float64)"])
    def width(x):
        s = f"{x:.3f}"
        s += "|"
        return len(s)

    @kiln.cfunc("int64(float64)")
    def c_width(x):
        s = f"{x:.3f}"
        return len(s)

    a = np.linspace(-50.0, 50.0, 70_001)   # more kept strings than one chunk of the arena holds
    want = np.array([len(f"{x:.3f}|") for x in a])
    for _ in range(2):   # the second call starts from an empty arena
        np.testing.assert_array_equal(width(a), want)
    assert [c_width(x) for x in a[::7001]] == [len(f"{x:.3f}") for x in a[::7001]]
