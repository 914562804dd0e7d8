"""Found by `python3 -m tests.fuzz --seed 7` (program 1201), shrunk, then
written with a second array as the target (the shrunk form assigned the Optional array to itself).

in function 'f' (/tmp/kiln_fuzz_ru03dg78/prog_1202.py, line 29, col 13):
                arg1[...] = arg1
                ^
assigning optional(array(bool, 1d, A)) to the view array(bool, 1d, A) is not supported yet
Hint: Copy element by element in a loop.
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1):
    if arg1 is not None:
        arg0[...] = arg1
    return arg0


JIT = {'f': {'signature': '(float64[:], Optional(float64[:]))'}}
ENTRY = 'f'


def ARGS():
    return [((np.zeros(3), np.arange(3.0)), {}), ((np.zeros(2), None), {})]


KIND = 'compile_error'
SIG = 'TypingError: assigning optional(array) to the view array is not supported yet'
