"""The dispatcher's fast path (jit/dispatch.c) against CPython: arguments of
every integer width stored as the signature says, floats and their
subclasses, and arrays returned as they came being the very same object, as
Python returns them, while changed views are new arrays."""
import numpy as np
import pytest

import kiln


def ident(x):
    return x


def first_row(A):
    return A[0]


def whole_slice(A):
    return A[:]


def plus_one(x):
    return x + 1


@pytest.mark.parametrize("sig, values", [
    ("int8(int8)", (-128, -1, 0, 127)),
    ("uint8(uint8)", (0, 200, 255)),
    ("int16(int16)", (-32768, -5, 32767)),
    ("uint16(uint16)", (0, 65535)),
    ("int32(int32)", (-2**31, -7, 2**31 - 1)),
    ("uint32(uint32)", (0, 2**32 - 1)),
    ("int64(int64)", (-2**63, -3, 2**63 - 1)),
    ("uint64(uint64)", (0, 2**63, 2**64 - 1)),
])
def test_integers_of_every_width_arrive_whole(sig, values):
    f = kiln.jit(sig)(ident)
    for v in values:
        assert f(v) == ident(v)
        assert f(np.int64(v) if -2**63 <= v < 2**63 else np.uint64(v)) == v  # through __index__


def test_int_arithmetic_on_narrow_signatures_wraps_like_the_width():
    f = kiln.jit("int8(int8)")(plus_one)
    assert f(127) == -128 and f(-5) == -4


def test_floats_exact_and_subclasses():
    f = kiln.jit(ident)
    for v in (0.0, -2.5, 1e308, float("inf")):
        assert f(v) == v
    assert f(np.float64(-3.25)) == -3.25  # a float subclass takes the general path
    assert np.isnan(f(float("nan")))


@pytest.mark.parametrize("make", [
    lambda: np.arange(12.0),
    lambda: np.arange(12.0).reshape(3, 4),
    lambda: np.asfortranarray(np.arange(12.0).reshape(3, 4)),
    lambda: np.arange(24.0).reshape(4, 6)[::2, 1::2],   # non-contiguous
    lambda: np.arange(0.0),                               # empty
])
def test_an_array_returned_as_it_came_is_the_same_object(make):
    A = make()
    f = kiln.jit(ident)
    assert f(A) is ident(A)
    ro = make()
    ro.flags.writeable = False
    assert f(ro) is ro and not f(ro).flags.writeable


def test_changed_views_are_new_arrays_on_the_same_memory():
    A = np.arange(12.0).reshape(3, 4)
    row = kiln.jit(first_row)(A)
    assert row is not A and row.base is not None
    np.testing.assert_array_equal(row, first_row(A))
    row[1] = -1.0
    assert A[0, 1] == -1.0
    same = kiln.jit(whole_slice)(A)
    np.testing.assert_array_equal(same, whole_slice(A))
    same[2, 3] = 99.0
    assert A[2, 3] == 99.0


def test_a_buffer_argument_returned_shares_its_memory():
    buf = bytearray(8 * 4)
    out = kiln.jit(ident)(memoryview(buf).cast("d"))
    out[2] = 1.5
    assert np.frombuffer(buf)[2] == 1.5
