"""Found by `python3 -m tests.fuzz --seed 777` (program 155), shrunk.

in function 'f' (/tmp/kiln_fuzz_c8i6ksb4/prog_1.py, line 11, col 20):
            x1 = float(np.sum(arg1))
                       ^
np.sum needs an array here, got none
"""
import math
import numpy as np
from kiln import prange

def f(arg1, arg2):
    if arg1 is not None:
        x1 = float(np.sum(arg1))
        arg1 = arg1
        a2 = np.empty_like(arg2)
        a2.fill(3)
    return
JIT = {'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((), {'arg1': None, 'arg2': np.array([1, 1, 1], dtype=np.int32).reshape((3,))})]


KIND = 'compile_error'
SIG = 'TypingError: np.sum needs an array here, got none'
