"""Found by `python3 -m tests.fuzz --seed 1342` (program 1454), shrunk.

in function 'f' (/tmp/kiln_fuzz_1vbc12yb/prog_1.py, line 49, col 20):
            for x30 in sorted(s23):
                       ^
the items of this set or dict have no type yet
Hint: Add to it first.
"""
import math
import numpy as np
from kiln import prange

def helper1(y2, y3):
    raise IndexError('generated e4')
    return y2

def f(arg0, arg1, arg2):
    s23 = {helper1(i24, i24) for i24 in range(1)}
    for x30 in sorted(s23):
        pass
    return s23
JIT = {'helper1': {}, 'f': {'signature': '(Optional(float64[:]), float64, float32[:])'}}
ENTRY = 'f'

def ARGS():
    return [((None, 2.117, np.array([-0.709], dtype=np.float32).reshape((1,))[::-1]), {})]


KIND = 'compile_error'
SIG = 'TypingError: the items of this set or dict have no type yet'
