"""The owned-memory runtime seen from Python: arrays made by compiled code
are NumPy arrays on the runtime's blocks, which live exactly as long as
something refers to them; nothing leaks on any path out of a function."""
import gc

import numpy as np
import pytest

import _kiln
import kiln
from np_diff import live


@kiln.jit
def make(n):
    return np.arange(n) * 2.0


@kiln.jit
def view_of_new(n):
    a = np.ones(n)
    return a[1:]


@kiln.jit
def pass_along(n):
    a = make(n)          # a kiln function returning an array: no copy
    b = a                # a second reference to the same block
    b[0] = -1.0
    return a, b


@kiln.jit
def raises_after_allocating(n):
    a = np.zeros(n)
    b = a * 2
    if n > 2:
        raise ValueError("too big")
    return b


@kiln.jit
def loop_rebinding(n):
    v = np.linspace(-1.0, 1.0, 8)
    for i in range(n):
        v = np.sin(v)          # the old array is given back each time
        v = np.arcsin(v)
    return v


def test_returned_array_keeps_its_block_alive():
    before = live()
    a = make(5)
    assert isinstance(a, np.ndarray) and a.tolist() == [0, 2, 4, 6, 8]
    assert type(a.base).__name__ == "OwnedMemory"
    assert live()[0] == before[0] + 1
    v = a[2:]
    del a
    gc.collect()
    assert live()[0] == before[0] + 1 and v.tolist() == [4, 6, 8]   # the view holds the block
    del v
    assert live() == before


def test_view_of_new_array_shares_memory():
    before = live()
    v = view_of_new(4)
    assert v.tolist() == [1, 1, 1]
    del v
    assert live() == before


def test_arrays_pass_between_kiln_functions_without_copies():
    before = live()
    a, b = pass_along(3)
    assert a.tolist() == [-1, 2, 4] and b.tolist() == [-1, 2, 4]
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    s = _kiln.nrt_stats()
    del a, b
    assert live() == before
    assert s["alloc"] - before[0] >= 1


def test_exception_gives_back_temporaries_and_locals():
    before = live()
    with pytest.raises(ValueError, match="too big"):
        raises_after_allocating(5)
    assert live() == before
    assert raises_after_allocating(2).tolist() == [0, 0]
    assert live() == before


def test_rebinding_in_a_loop_frees_each_old_array():
    start = live()
    before = _kiln.nrt_stats()
    v = loop_rebinding(1000)
    after = _kiln.nrt_stats()
    assert after["alloc"] - before["alloc"] == 1 + 2 * 1000   # linspace, then sin and arcsin per pass
    assert after["free"] - before["free"] == 2 * 1000          # only v is still alive
    assert np.allclose(v, loop_rebinding.py_func(1000))
    del v
    assert live() == start


def test_argument_arrays_are_never_counted():
    a = np.ones(4)
    before = live()
    out = kiln.jit(lambda x: x[1:])(a)
    assert out.base is a                 # the view keeps the argument alive, as NumPy's views do
    assert live() == before


@kiln.njit
def make_then_fail(n):
    tmp = np.ones(n) * 3.0
    if n > 3:
        raise ValueError("n too big")
    return tmp.sum()


@kiln.njit(boundscheck=True)
def caught_with_arrays_alive(a, fail):
    s = 0.0
    try:
        t = a * 2.0
        u = np.zeros(a.shape[0])
        s = make_then_fail(a.shape[0])       # raises in the callee, its temporary alive
        if fail:
            s += t[a.shape[0] + 5]           # IndexError, with t and u alive
        s += t.sum() + u.sum()
    except (ValueError, IndexError):
        s = -1.0
    return s


def test_an_exception_caught_in_compiled_code_gives_back_the_arrays_of_the_try_body():
    before = live()
    for n, fail in ((2, False), (2, True), (5, False)):
        a = np.arange(float(n))
        assert caught_with_arrays_alive(a, fail) == caught_with_arrays_alive.py_func(a, fail)
    assert live() == before


@kiln.jit
def filled(n, v):
    return np.full(n, v)


@kiln.jit
def zeroed(n):
    return np.zeros(n)


def test_large_blocks_given_back_are_reused_without_sharing_memory():
    """Freed multi-megabyte blocks wait for the next request of about their
    size (no page faults on each call); a reused block never backs two live
    arrays, and np.zeros on one reads zeros, not what it held before."""
    n = 1_000_000   # 8 MB: recycled
    before = live()
    first = filled(n, 1.5)
    address = first.__array_interface__["data"][0]
    del first
    again = filled(n, 2.5)
    assert again.__array_interface__["data"][0] == address   # the same memory, given back and taken again
    other = filled(n, 3.5)   # the first still alive: other memory
    assert other.__array_interface__["data"][0] != address
    assert (again == 2.5).all() and (other == 3.5).all()
    del again, other
    z = zeroed(n)
    assert not z.any()
    smaller = filled(n - 1000, -1.0)   # about the same size: may take a kept block
    assert (smaller == -1.0).all() and smaller.shape == (n - 1000,) and not z.any()
    del z, smaller
    assert live() == before
