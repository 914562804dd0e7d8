"""Found by `python3 -m tests.fuzz --seed 50000` (program 40671), shrunk.

CPython ([205], array([0., 0.]), [0.0])
Kiln    ([205], array([0., 0.]), [nan])
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1):
    return ([float(np.prod(arg1))],)
JIT = {'f': {'signature': '(uint8[:], Optional(float64[:, :]))'}}
ENTRY = 'f'

def ARGS():
    return [((), {'arg0': np.array([1, 1, 1, 1, 1], dtype=np.uint8).reshape((5,))[::-1], 'arg1': np.asfortranarray(np.array([-6.935, 20.504, -15.195, 1e+300, 4.838, 1e+300, 6.429, -15.793, -4.716, 0.352, 0.096, -1.454, 24.896, 0.989, -9.815, -15.236, -5.562, 1e+300, 11.874, 18.969, -0.0, -14.635, -4.889, -1.867, 0.5], dtype=np.float64).reshape((5, 5)))})]


KIND = 'mismatch'
SIG = 'value'
