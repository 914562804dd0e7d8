"""Corpus: 0-d arrays (np.array(2.5)) in compiled code, as NumPy has them:
operators and ufuncs of 0-d arrays and numbers give numbers (typed as
NumPy types them), with a 1-d array they broadcast, reductions and a[()]
read the element, creation with the shape () makes one."""
import numpy as np

from np_diff import case

Z = [(np.array(2.5),), (np.array(-3.0, np.float32),), (np.array(-7, np.int32),), (np.array(200, np.uint8),),
     (np.array(True),), (np.array(np.nan),), (np.array(-0.0),), (np.array(1.5 - 2j),), (np.array(np.int64(2**62)),)]
ZPAIRS = [(np.array(2.5), np.array(-4.0)), (np.array(7, np.int8), np.array(100, np.int8)),
          (np.array(3, np.int32), np.array(2.0, np.float32)), (np.array(5), np.array(0)),
          (np.array(1.0), np.arange(4.0)), (np.array(-2, np.int16), np.arange(3, dtype=np.int16)),
          (np.array(0.5, np.float32), np.array([[1.0], [2.0]], np.float32))]


@case(*Z[:4], *Z[5:])   # -True: NumPy raises TypeError when it runs, Kiln when it compiles
def z_negate(a): return -a
@case(*Z)
def z_add_number(a): return a + 1, 2 * a, a - 0.5
@case(*Z[:7], *Z[8:])
def z_compare(a): return a > 0, a == 2.5, a != a
@case(*Z[:3], *Z[5:7])   # of uint8 and bool NumPy gives float16, which compiled code has not
def z_ufuncs(a): return np.abs(a), np.sin(a), np.sqrt(np.abs(a)), np.isnan(a), np.maximum(a, 1)
@case(*ZPAIRS)
def z_pair(a, b): return a + b, a * b, a - b
@case(*ZPAIRS[:5])
def z_divide(a, b): return a / b, a // b, a % b
@case(*Z[:4])
def z_chain(a): return np.exp(-a * a / 2.0) * 0.3989422804014327 + a
@case(*Z)
def z_reduce(a): return a.sum(), np.sum(a), a[()], a.ndim, a.size
@case(*Z[:7])
def z_minmax(a): return a.max(), np.min(a), a.mean()
@case(*Z)
def z_copy(a): return a.copy(), a.reshape(1), a.ravel(), a.astype(np.float64)
@case((2.5,), (-1.0,))
def z_create(v): return np.zeros(()), np.full((), v), np.ones(()) * v
@case((np.array(4.0), np.arange(5.0)), (np.array(-1.0), np.zeros((2, 3))))
def z_write(a, b):
    a[()] = a[()] + 1
    b[1:] = a
    return a, b * a
