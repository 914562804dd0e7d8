"""The dispatcher's fast path (jit/dispatch/dispatch.c) against CPython: arguments of
every integer width stored as the signature says, floats and their
subclasses, and arrays returned as they came being the very same object, as
Python returns them, while changed views are new arrays."""
import threading

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


def total_of(a):
    s = 0.0
    for v in a:
        s += v
    return s


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


# Specializations taking and returning only numbers take call_scalars, one
# 8-byte slot per argument, from their first call on; the rest take
# call_buffered's laid-out buffer.

def mix(a, b, c, d):
    return a * 2 + b - c + d


def positive(x):
    return x > 0


def nothing(x):
    x + 1


def quotient(a, b):
    return a // b


def nine(a, b, c, d, e, f, g, h, i):
    return a - b + c - d + e - f + g - h + i * 0.5


@pytest.mark.parametrize("sig, args", [
    ("float32(int8, float32, uint16, boolean)", (-128, 1.5, 65535, True)),
    ("int64(int32, int64, uint8, int16)", (-2**31, 2**62, 255, -32768)),
    ("float64(float64, int64, float32, uint32)", (-0.0, -7, 3.25, 2**32 - 1)),
])
def test_mixed_numbers_arrive_in_their_slots(sig, args):
    f = kiln.jit(sig)(mix)
    expect = np.float32(mix(*args)) if sig.startswith("float32") else mix(*args)
    assert f(*args) == expect


def test_bool_and_none_results():
    p = kiln.jit(positive)
    assert p(3) is True and p(-3.5) is False
    assert kiln.jit(nothing)(5) is None


def test_an_int64_too_large_is_an_overflow_error_and_the_function_still_works():
    f = kiln.jit("int64(int64)")(ident)
    with pytest.raises(OverflowError, match="does not fit in int64"):
        f(2**63)
    assert f(-2**63) == -2**63 and f(np.int64(-4)) == -4


def test_an_exception_from_a_scalar_call_reaches_python():
    f = kiln.jit(quotient)
    assert f(-7, 2) == -4
    with pytest.raises(ZeroDivisionError):
        f(1, 0)
    assert f(7.5, -2.0) == quotient(7.5, -2.0)


def test_more_arguments_than_slots_take_the_general_path():
    f = kiln.jit(nine)
    args = (1, -2, 3.5, 4, -5, 6, 7, 8, 9)
    assert f(*args) == nine(*args)


def test_nogil_scalar_calls():
    f = kiln.jit(nogil=True)(mix)
    assert f(1, 2.5, -3, True) == mix(1, 2.5, -3, True)


@kiln.njit(boundscheck=True)
def read_through_an_inner_function(a, i):
    def read(j):
        return a[j]
    return read(i)


def test_the_options_are_the_dispatchers_and_inner_functions_take_them():
    f = kiln.njit(fastmath=True, boundscheck=True)(plus_one)
    opts = f._kiln_options
    assert opts["fastmath_flags"] == 127 and opts["boundscheck"] and not opts["parallel"] and not opts["cache"]
    with pytest.raises(KeyError, match="not one of kiln.jit's options"):
        f._kiln_options = {"boundscheck": False, "bogus": True}
    assert f._kiln_options == opts   # refused whole: nothing of it was set
    with pytest.raises(TypeError):
        f._kiln_options["boundscheck"] = False   # a view: options change only as a whole
    assert f(1) == 2
    a = np.arange(3.0)
    assert read_through_an_inner_function(a, -1) == 2.0
    with pytest.raises(IndexError):   # the inner function compiled with its definer's boundscheck
        read_through_an_inner_function(a, 3)


def test_fastmath_takes_numbas_spellings_of_its_flags():
    # fastmath={'fast'} is Numba's (and LLVM's) every flag; a set of names picks some
    assert kiln.njit(fastmath={"fast"})(plus_one)._kiln_options["fastmath_flags"] == 127
    assert kiln.njit(fastmath={"nnan", "ninf"})(plus_one)._kiln_options["fastmath_flags"] == 6
    summed = kiln.njit(fastmath={"fast"})(total_of)
    a = np.linspace(-1, 1, 1001)
    assert summed(a) == pytest.approx(np.sum(a), abs=1e-12)
    with pytest.raises(ValueError, match="unknown fastmath flag.*'quick'.*'fast' for all of them"):
        kiln.njit(fastmath={"quick"})(plus_one)


def test_the_declared_signatures_cannot_be_changed_through_what_is_read():
    f = kiln.jit("float64(float64)")(plus_one)
    f._kiln_locked_sigs.clear()   # a copy
    assert f(1) == 2.0 and isinstance(f(1), float)
    with pytest.raises(TypeError, match="no matching definition"):
        f(np.zeros(2))


def test_the_specializations_are_one_per_signature_in_the_order_compiled():
    f = kiln.jit(plus_one)
    assert f(1) == 2 and f(1.5) == 2.5
    first = f.signatures
    assert [tuple(str(t) for t in sig) for sig in first] == [("int64",), ("float64",)]
    before = dict(f.stats)
    f.compile("float64(float64)")   # compiled already: the same specialization, nothing compiled again
    assert f.signatures == first and f.stats == before
    assert f(2.5) == 3.5


def test_threads_making_the_first_call_together_compile_once():
    # Dask's threaded scheduler calls a nogil function from several threads at once (seed 000's pi):
    # one compiles, the others wait for it and use it, as under Numba's compiler lock
    from kiln.magics import records

    @kiln.njit(nogil=True)
    def total(n):
        s = 0
        for i in range(n):
            s += i * i
        return s

    before = records.snapshot()
    start = threading.Barrier(4)
    results = []

    def first_call():
        start.wait()
        results.append(total(1000))

    threads = [threading.Thread(target=first_call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [sum(i * i for i in range(1000))] * 4
    (compiled,) = records.since(before).compiles
    assert compiled.title.endswith("total(int64)")
    assert len(total.signatures) == 1


def test_other_threads_run_while_llvm_optimizes_and_compiles_of_many_threads_agree():
    # LLVM's part of a compile runs without the GIL (a notebook's progress line needs it), one
    # compile's at a time: a thread watching sees the compile optimizing, and functions and
    # ufuncs compiled from several threads at once all give their right results
    import _kiln
    seen, compiling = set(), threading.Event()

    def watch():
        while compiling.is_set():
            seen.add(_kiln.compile_doing())

    def wave(a, b):
        s = 0.0
        for i in range(a.shape[0]):
            s += np.sin(a[i]) * np.exp(-a[i])
        for i in range(b.shape[0]):
            b[i] = np.sqrt(abs(b[i])) + a[i % a.shape[0]]
        return s + np.sum(b * 2.0) + np.max(a)

    compiling.set()
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        # the watcher needs a core while LLVM runs: on a loaded machine one compile may end
        # first, so up to three (without the GIL released, none would show it)
        for dtype in (np.float64, np.float32, np.int64):
            kiln.njit(wave)(np.ones(4, dtype), np.ones(5, dtype))
            if "optimizing" in seen:
                break
    finally:
        compiling.clear()
        watcher.join()
    assert "optimizing" in seen, seen

    def make(k):
        @kiln.njit
        def scaled(a):
            out = np.empty_like(a)
            for i in range(a.shape[0]):
                out[i] = a[i] * k + np.sqrt(abs(a[i]))
            return out

        @kiln.vectorize(["float64(float64)"])
        def shifted(x):
            return x + k

        return scaled, shifted

    pairs = [make(k) for k in range(6)]
    a = np.linspace(-3, 3, 101)
    results = {}
    start = threading.Barrier(len(pairs))

    def first_calls(k):
        start.wait()
        scaled, shifted = pairs[k]
        results[k] = (scaled(a), shifted(a))

    threads = [threading.Thread(target=first_calls, args=(k,)) for k in range(len(pairs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(len(pairs)):
        np.testing.assert_array_equal(results[k][0], a * k + np.sqrt(np.abs(a)))
        np.testing.assert_array_equal(results[k][1], a + k)
