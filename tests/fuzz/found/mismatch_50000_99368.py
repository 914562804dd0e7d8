"""Found by `python3 -m tests.fuzz --seed 50000` (program 99368), shrunk.

Kiln said the loop at line 11 computes nothing used, but CPython differs without it (shown as Kiln's): CPython raised ZeroDivisionError: generated e3; Kiln returned None
"""
import math
import numpy as np
from kiln import prange

def f():
    w2 = 0
    while w2 < 5:
        w2 += 1
    if w2 >= -w2 < w2:
        raise ZeroDivisionError('generated e3')
    return
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((), {})]


KIND = 'mismatch'
SIG = 'unused loop'
