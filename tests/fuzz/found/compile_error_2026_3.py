"""Found by `python3 -m tests.fuzz --seed 2026` (program 3), shrunk.

in function 'f' (/tmp/kiln_fuzz_4whh1b8f/prog_1.py, line 16, col 12):
        arg0 = arg0[::-2]
               ^
none cannot be indexed
"""
import math
import operator
import numpy as np
from kiln import prange

def f(arg0):
    if arg0 is None:
        return ()
    arg0 = arg0[::2]
    return ()
JIT = {'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((None,), {})]


KIND = 'compile_error'
SIG = 'TypingError: none cannot be indexed'
