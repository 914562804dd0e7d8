"""Found by `python3 -m tests.fuzz --seed 50000` (program 57717), shrunk.

in function 'f' (/tmp/kiln_fuzz_3fpqpezh/prog_1.py, line 50, col 13):
                d31[(k30 if h26 else x29) % 5] = math.fabs((1e10 % x29))
                ^
a dict in compiled code cannot have never keys
Hint: Keys are numbers or tuples of ints; use a NumPy array for anything else.
"""
import math
import numpy as np
from kiln import prange

def helper6(y7=0.001, y8=0.001):
    raise KeyError('generated e11')
    return math.isinf(h9)

def f(arg0):
    h26 = helper6(0.5, 0.5)
    l27 = [arg0]
    for k30, x29 in enumerate(l27):
        d31 = {}
        d31[k30 if h26 else x29] = math.fabs(10000000000.0)
    return ()
JIT = {'helper6': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((13,), {})]


KIND = 'compile_error'
SIG = 'TypingError: a dict in compiled code cannot have never keys'
