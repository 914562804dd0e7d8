"""Found by `python3 -m tests.fuzz --seed 1` (program 149), shrunk.

in function 'f' (/tmp/kiln_fuzz_nglfpfqd/prog_1.py, line 14, col 13):
                a1 *= np.arange(arg0.shape[0])
                ^
a1 is array(int32, 1d, C) on line 9 and array(int64, 1d, C) on line 14
Hint: Use a different name for each kind of value.
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1, arg2, arg3):
    a1 = arg2
    a1 *= np.arange(arg0.shape[0])
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([-1.61], dtype=np.float64).reshape((1, 1)).T, 4294967297, np.array([10], dtype=np.int32).reshape((1,))), {'arg3': 5})]


KIND = 'compile_error'
SIG = 'TypingError: V is array on line N and array on line N'
