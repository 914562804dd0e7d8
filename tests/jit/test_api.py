"""The kiln.jit API in Numba's shapes: decorator and call forms, signatures
(objects, tuples, lists, strings), type objects, options, the dispatcher's
introspection, kiln.typeof."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import kiln


def average(x, y):
    return (x + y) / 2.0


def test_decorator_and_call_forms():
    assert kiln.jit(average)(1, 2) == 1.5
    assert kiln.njit(average)(1, 2) == 1.5
    assert kiln.jit()(average)(1, 2) == 1.5
    assert kiln.jit(nopython=True)(average)(1, 2) == 1.5
    assert kiln.njit(nogil=True)(average)(3.0, 4) == 3.5


def test_signature_object_converts_arguments():
    f = kiln.jit(kiln.float64(kiln.int32, kiln.int32))(average)
    assert f.signatures == [(kiln.int32, kiln.int32)]
    assert f(3, 4) == 3.5
    assert f(np.int64(3), True) == 2.0
    assert kiln.jit(kiln.f8(kiln.i4, kiln.i4))(average)(1, 2) == 1.5


def test_string_signatures_and_lists():
    f = kiln.jit("float64(int32, int32)")(average)
    assert f(1, 2) == 1.5
    g = kiln.jit(["float64(float64, float64)", "float64(int64, int64)"])(average)
    assert len(g.signatures) == 2

    @kiln.jit("Tuple((float64[:], float64[:], float64))(float64[:,:])", nopython=True)
    def first_two(points):
        return points[0], points[1], points[0][0] + points[1][1]
    pts = np.arange(6.0).reshape(3, 2)
    a, b, s = first_two(pts)
    assert np.array_equal(a, pts[0]) and np.array_equal(b, pts[1]) and s == 3.0
    a[0] = 99.0   # a view of the argument
    assert pts[0, 0] == 99.0


def test_tuple_of_array_types():
    def mm(A, B, C):
        n = len(A[0])
        for i in range(n):
            for j in range(n):
                tmp = 0.
                for k in range(n):
                    tmp += A[i, k] * B[k, j]
                C[i, j] = tmp
    f = kiln.jit((kiln.f8[:, :], kiln.f8[:, :], kiln.f8[:, :]))(mm)
    A, B, C = np.random.rand(4, 4), np.random.rand(4, 4), np.zeros((4, 4))
    f(A, B, C)
    assert np.allclose(C, A @ B)
    f(A.T, B[::-1], C)   # any layout
    assert np.allclose(C, A.T @ B[::-1])


def test_type_objects():
    assert str(kiln.f4[:]) == "array(float32, 1d, A)"
    assert str(kiln.float64[:, ::1]) == "array(float64, 2d, C)"
    assert str(kiln.f8[::1, :]) == "array(float64, 2d, F)"
    assert str(kiln.uint8[:, :, :]) == "array(uint8, 3d, A)"
    assert str(kiln.intp) == "int64" and str(kiln.u1) == "uint8" and str(kiln.c16) == "complex128"
    assert str(kiln.boolean) == "bool" and str(kiln.void) == "none"
    assert str(kiln.Tuple((kiln.f8, kiln.i8))) == "Tuple(float64, int64)"
    assert str(kiln.UniTuple(kiln.f8, 3)) == "UniTuple(float64 x 3)"
    assert str(kiln.float64(kiln.int32, kiln.int32)) == "float64(int32, int32)"
    assert kiln.float32(1.5) == np.float32(1.5)


def test_c_contiguous_signature_refuses_strided():
    f = kiln.jit(kiln.float64(kiln.f8[::1]))(lambda a: a[0])
    assert f(np.arange(3.0)) == 0.0
    with pytest.raises(TypeError):
        f(np.arange(6.0)[::2])


def test_typeof():
    assert str(kiln.typeof(1)) == "int64"
    assert str(kiln.typeof(1.0)) == "float64"
    assert str(kiln.typeof(True)) == "bool"
    assert str(kiln.typeof(1j)) == "complex128"
    assert str(kiln.typeof(np.float32(1))) == "float32"
    assert str(kiln.typeof(np.zeros((2, 3)))) == "array(float64, 2d, C)"
    assert str(kiln.typeof(np.zeros((2, 3), order="F"))) == "array(float64, 2d, F)"
    assert str(kiln.typeof(np.zeros((2, 3))[:, ::2])) == "array(float64, 2d, A)"
    assert str(kiln.typeof((1, 2.0))) == "Tuple(int64, float64)"
    ro = np.zeros(2)
    ro.flags.writeable = False
    assert str(kiln.typeof(ro)) == "readonly array(float64, 1d, C)"
    assert str(kiln.typeof("text")) == "str"
    assert str(kiln.typeof([1, 2])) == "list(int64)"   # passed as Numba's reflected lists are
    assert str(kiln.typeof([(1, 2.5)])) == "list(Tuple(int64, float64))"
    with pytest.raises(ValueError, match="Kiln cannot type an empty list"):
        kiln.typeof([])
    with pytest.raises(ValueError, match=r"Kiln cannot type a list of mixed items \(float, int\)"):
        kiln.typeof([1, 2.0])


def test_buffer_protocol_arguments_without_copy():
    @kiln.jit
    def fill(a):
        for i in range(len(a)):
            a[i] = i * 2
    buf = bytearray(4)
    fill(memoryview(buf))
    assert list(buf) == [0, 2, 4, 6]


def test_introspection():
    @kiln.jit
    def f(a):
        s = 0.0
        for x in a:
            s += x
        return s
    f(np.arange(4.0))
    f(np.arange(4))
    assert len(f.signatures) == 2
    sig = f.signatures[0]
    assert str(sig[0]) == "array(float64, 1d, C)"
    assert set(f.stats[sig]) == {"parse", "typing", "lowering", "optimize", "codegen"}
    assert all(v >= 0 for v in f.stats[sig].values())
    llvm = f.inspect_llvm()
    assert set(llvm) == set(f.signatures) and "define" in llvm[sig]
    assert "ret" in f.inspect_asm(sig)
    types = f.inspect_types(pretty=False)[sig]
    by_line = {src.strip(): names for _, src, names in types}
    assert by_line["s += x"] == {"s": "float64", "x": "float64"}
    assert by_line["def f(a):"] == {"a": "array(float64, 1d, C)"}
    remarks = f.inspect_remarks(sig)
    assert remarks and all(set(r) == {"line", "kind", "message"} for r in remarks)
    assert all(r["kind"] in ("vectorized", "missed", "analysis", "ordered") for r in remarks)
    assert f.py_func.__name__ == "f" and f.__name__ == "f"


def test_nogil_runs_threads_in_parallel_correctly():
    @kiln.njit(nogil=True)
    def work(a, lo, hi):
        for i in range(lo, hi):
            a[i] = i * 0.5
    a = np.zeros(100_000)
    threads = [threading.Thread(target=work, args=(a, k * 25_000, (k + 1) * 25_000)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.array_equal(a, np.arange(100_000) * 0.5)


def test_cuda_is_lazy():
    code = "import sys, kiln; print('kiln.cuda' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=":".join(p for p in sys.path if p)))
    assert out.stdout.strip() == "False", out.stderr


def test_compile_ahead():
    @kiln.jit
    def f(x):
        return x * 2
    f.compile("int64(int64)")
    assert f.signatures == [(kiln.int64,)]
    assert f(21) == 42
