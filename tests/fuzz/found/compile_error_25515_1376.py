"""Found by `python3 -m tests.fuzz --seed 25515` (program 1376), shrunk by hand.

in function 'f' (...):
    for k39 in d36:
cannot loop over dict(undefined)
"""
import math
import numpy as np
from kiln import prange

def helper1(y2):
    if (not False):
        raise ZeroDivisionError("generated e22")
    return y2

def f(arg0):
    d36 = {(i37 * arg0): helper1(0.0) for i37 in range(2 % 1)}
    for k39 in d36:
        arg0 += 1
    return helper1(float(arg0))
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((16,), {})]


KIND = 'compile_error'
SIG = 'TypingError: cannot loop over dict(undefined)'
