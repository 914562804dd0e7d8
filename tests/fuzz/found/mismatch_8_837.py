"""Found by `python3 -m tests.fuzz --seed 8` (program 837), shrunk.

CPython ((-9.999999999999999e+299+3e+300j), {7: array([[1, 1],
       [1, 1]])})
Kiln    ((-inf+infj), {7: array([[1, 1],
       [1, 1]])})
"""
import math
import numpy as np
from kiln import prange

def f(arg2):
    return (3 / (1j * arg2),)
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((), {'arg2': -1e-300})]


KIND = 'mismatch'
SIG = 'value'
