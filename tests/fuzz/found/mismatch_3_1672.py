"""Found by `python3 -m tests.fuzz --seed 3` (program 1672), shrunk.

argument 0 after the call: CPython array([[ -2.826,   2.826],
       [-23.558,  23.558],
       [-13.71 ,  13.71 ],
       [-13.71 ,  11.061]])
Kiln array([[ -4.695,   2.826],
       [-27.612,  23.558],
       [-14.382,  13.71 ],
       [-14.382,  11.061]])
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1, arg2, arg3):
    a8 = arg0[:, ::-1]
    a8 -= arg0
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.asfortranarray(np.array([-1.869, 0.957, -4.054, 19.504, -0.672, 13.038, -8.841, 2.22], dtype=np.float64).reshape((4, 2))), -7.789, False), {'arg3': np.array([6, 255, 2, 255], dtype=np.uint8).reshape((4,))})]


KIND = 'mismatch'
SIG = 'argument'
