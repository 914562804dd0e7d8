"""Found by `python3 -m tests.fuzz --seed 1712` (program 1444), shrunk.

in function 'f' (/tmp/kiln_fuzz_o2z79aa3/prog_1445.py, line 36, col 137):
            return ((arg0 // arg0) if (helper1(math.sqrt(abs(0.0))) != helper1(1.0)) else (arg0 * arg0)), (arg0, max(helper1(abs((3-1j))), (helper1((--1e-3)) % arg0)),)
                                                                                                                                            ^
unsupported operand types for this operator: none and int64
"""
import math
import numpy as np
from kiln import prange

def helper1(y2=0.5):
    raise ZeroDivisionError('generated e9')

def f(arg0):
    return ((arg0, helper1(0.001) % arg0),)
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((9223372036854775807,), {})]


KIND = 'compile_error'
SIG = 'TypingError: unsupported operand types for this operator: none and intN'
