"""Found by `python3 -m tests.fuzz --seed 1712` (program 1466), shrunk.

in function 'f' (/tmp/kiln_fuzz_o2z79aa3/prog_1467.py, line 27, col 9):
        if (max(sum(s8), helper1((arg0 * float(np.mean(arg2))), arg0)) < (arg1 * -9223372036854775807)):
            ^
max(int64, none) is not supported in compiled code
Hint: min and max take two or more numbers in compiled code.
"""
import math
import numpy as np
from kiln import prange

def helper1(y2=0.001, y3=7.5):
    raise ValueError('generated e4')

def f(arg0, arg1):
    s8 = set()
    s8.add(arg1)
    if max(sum(s8), helper1(arg0, arg0)) < arg1:
        pass
JIT = {'helper1': {}, 'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((1.123, -6), {})]


KIND = 'compile_error'
SIG = 'TypingError: max(intN, none) is not supported in compiled code'
