"""Found by `python3 -m tests.fuzz --seed 2` (program 622), shrunk.

CPython raised ValueError: attempt to get argmax of an empty sequence; Kiln returned ({6000000007: 7.5}, nan)
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1):
    a6 = np.argmax(arg0, 0)
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([], dtype=np.int32).reshape((0, 0))[::-1],), {'arg1': np.array([], dtype=np.int8).reshape((0,))})]


KIND = 'mismatch'
SIG = 'no ValueError'
