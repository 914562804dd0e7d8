"""Found by `python3 -m tests.fuzz --seed 20311` (program 197), shrunk: not a bug of Kiln's. The
prange sum started at 1e10, which the pool adds to its parts' total and a serial loop to each term
in turn (both right); `%` then magnified the last bits past the tolerance. The generator now starts
a prange float sum at 0.0 (gen_stmt.py's rules), as this program does.

CPython {100: 16.050003051757812}
Kiln    {100: 16.049999237060547}
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1, arg2, arg3):
    x1 = float(np.sum(arg0))
    x6 = 0.0
    for i5 in prange(arg1.shape[0]):
        x6 += x1
    return {100: x6 % float(np.mean(arg3))}
JIT = {'f': {'parallel': True, 'signature': '(Optional(float64[:]), bool_[:], complex128, int8[:])'}}
ENTRY = 'f'

def ARGS():
    return [((np.array([1.777, -0.009, 1.505, 3.927], dtype=np.float64).reshape((4,)), np.array([True, True, True, True], dtype=np.bool_).reshape((4,))[::-1], complex(2.38, -1.76), np.array([1, 1, 1, 1], dtype=np.int8).reshape((4,))), {})]


KIND = 'mismatch'
SIG = 'value'
