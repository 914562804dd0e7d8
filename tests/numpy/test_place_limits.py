"""np.take_along_axis, np.fill_diagonal and np.broadcast_to (jit/numpy/np_place.c):
what NumPy refuses when the program runs is the same exception in compiled code,
with the array left as it was, and what compiled code needs to know when it
compiles (the axis, wrap) is refused with what to write instead. The results are
in the corpus (corpus_np_index.py)."""
import numpy as np
import pytest

import kiln


@kiln.njit
def take_along_rows(a, idx):
    return np.take_along_axis(a, idx, axis=1)


@kiln.njit
def take_along_axis_of(a, idx, axis):
    return np.take_along_axis(a, idx, axis)


@kiln.njit
def take_along_with_floats(a):
    return np.take_along_axis(a, a, 1)


@kiln.njit
def fill(a, v):
    np.fill_diagonal(a, v)
    return a


@kiln.njit
def fill_wrapping_when(a, wrap):
    np.fill_diagonal(a, 1.0, wrap)


@kiln.njit
def broadcast(x, rows):
    return np.broadcast_to(x, (rows, 4))


@kiln.njit
def broadcast_and_write(x):
    v = np.broadcast_to(x, (3, 4))
    v[0, 0] = 1.0


def test_what_numpy_refuses_at_run_time_is_the_same_exception():
    a = np.arange(12.0).reshape(3, 4)
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        take_along_rows(a, np.array([[4, 0]]))
    with pytest.raises(IndexError, match="shape mismatch: indexing arrays could not be broadcast together"):
        take_along_rows(a, np.ones((2, 2), np.int64))
    with pytest.raises(ValueError, match="All dimensions of input must be of equal length"):
        fill(np.zeros((2, 2, 3)), 1.0)
    with pytest.raises(ValueError, match="could not be broadcast together"):
        broadcast(np.arange(3.0), 3)
    with pytest.raises(ValueError, match="must be non-negative"):
        broadcast(np.arange(4.0), -1)
    for f, args in ((take_along_rows, (a, np.array([[4, 0]]))), (broadcast, (np.arange(3.0), 3))):
        with pytest.raises(Exception) as kiln_error:
            f(*args)
        with pytest.raises(Exception) as numpy_error:
            f.py_func(*args)
        assert type(kiln_error.value) is type(numpy_error.value)
    kept = np.zeros((2, 2, 3))
    with pytest.raises(ValueError):
        fill(kept, 5.0)
    assert not kept.any()


def test_what_compiled_code_needs_when_it_compiles_is_refused_with_a_hint():
    a = np.arange(12.0).reshape(3, 4)
    with pytest.raises(kiln.TypingError, match="np.take_along_axis takes a constant axis here") as e:
        take_along_axis_of(a, np.zeros((3, 1), np.int64), 1)
    assert "axis=1" in str(e.value)
    with pytest.raises(kiln.TypingError, match="`indices` must be an integer array"):
        take_along_with_floats(a)
    with pytest.raises(kiln.TypingError, match="np.fill_diagonal takes a constant wrap here"):
        fill_wrapping_when(np.zeros((3, 3)), True)
    with pytest.raises(kiln.TypingError, match="cannot write to a read-only array"):
        fill(np.broadcast_to(np.zeros(3), (3, 3)), 1.0)
    with pytest.raises(kiln.TypingError, match="read-only"):
        broadcast_and_write(np.zeros(4))


def test_a_broadcast_view_is_read_only_and_shares_memory_as_numpy_s():
    x = np.arange(4.0)
    v = broadcast(x, 3)
    assert not v.flags.writeable and v.strides == (0, 8)
    assert np.shares_memory(v, x)
    assert (v == np.broadcast_to(x, (3, 4))).all()
