"""Found by `python3 -m tests.fuzz --seed 2026` (program 439), shrunk.

in function 'f' (/tmp/kiln_fuzz_hucvbyo7/prog_1.py, line 12, col 23):
        arg0 = (np.zeros((arg0.shape[0], arg0.shape[1]), dtype=np.int8) + arg0)
                          ^
none has no attribute 'shape' in compiled code
"""
import math
import operator
import numpy as np
from kiln import prange

def f(arg0, arg2):
    if arg0 is None:
        return bool(np.all(arg2))
    arg0 = np.zeros((arg0.shape[0], arg0.shape[1]), dtype=np.int8)
    a8 = np.empty_like(arg0)
    a8.fill(float(arg0[5 % arg0.shape[0], 9 % arg0.shape[1]]))
    return bool(np.all(arg0))
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((None,), {'arg2': np.array([], dtype=np.float32).reshape((0,))})]


KIND = 'compile_error'
SIG = "TypingError: none has no attribute 'shape' in compiled code"
