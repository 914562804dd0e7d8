"""Found by `python3 -m tests.fuzz --seed 1` (program 162), shrunk.

in function 'f' (/tmp/kiln_fuzz_p98_2_d7/prog_1.py, line 21, col 5):
        def g13(p14):
        ^
cannot find the code of the inner function g13
Hint: Define the function at module level and decorate it with @kiln.jit.
"""
import math
import numpy as np
from kiln import prange

def helper1(b2, y4, y5=0.001):
    pass

def f(arg0):
    raise KeyError('generated e11')

    def g13(p14):
        pass
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((0.0,), {})]


KIND = 'unsupported'
SIG = 'UnsupportedError: cannot find the code of the inner function V'
