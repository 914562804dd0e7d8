"""Found by `python3 -m tests.fuzz --seed 778` (program 129), shrunk.

in function 'f' (/tmp/kiln_fuzz_ci9x_vrb/prog_1.py, line 23, col 18):
        return l9, ((sum(l9) + arg0.shape[0]) in l9), (arg1, x6,)
                     ^
the items of this list have no type yet
Hint: Add to it first.
"""
import math
import numpy as np
from kiln import prange

def helper1(y2, y3=1):
    raise KeyError('generated e4')
    return y3 < 6000000007 == y3

def f(arg0, arg1, arg3):
    a5 = arg3
    h7 = helper1(float(np.mean(a5)))
    l9 = [arg0.shape[1] if h7 else int(np.prod(arg3)) for c10 in range(arg1)]
    return (sum(l9) in l9,)
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([1, 1, 1, 1, 1, 1], dtype=np.float32).reshape((6, 1))[::-2], 0, np.array([1, 1, 1], dtype=np.int8).reshape((3,))), {})]


KIND = 'compile_error'
SIG = 'TypingError: the items of this list have no type yet'
