"""Found by `python3 -m tests.fuzz --seed 2026` (program 190), shrunk.

worker died: signal SIGSEGV
"""
import math
import numpy as np
from kiln import prange

def helper1(y2, y3):
    if True:
        return 2147483648

def f(arg0, arg1):
    s5 = {arg1 for i6 in range(7)}
    if arg0 != arg1:
        pass
    elif arg0 == 1.0:
        pass
    elif helper1(7.5, arg1) in s5:
        pass
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((), {'arg0': 16, 'arg1': 10.683})]


KIND = 'crash'
SIG = 'signal SIGSEGV'
