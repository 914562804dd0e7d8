"""Found by `python3 -m tests.fuzz --seed 1599` (program 865), shrunk.

argument 1 after the call: CPython array([[-2.5000000e-01],
       [ 3.5945669e-01],
       [-2.5000000e-01],
       [-2.4771419e+00],
       [-2.5000000e-01],
       [ 5.4654685e-31]], dtype=float32)
Kiln array([[-2.5000000e-01],
       [ 3.5945794e-01],
       [-2.5000000e-01],
       [-2.4758577e+00],
       [-2.5000000e-01],
       [ 5.4654798e-31]], dtype=float32)
"""
import math
import numpy as np
from kiln import prange

def f(arg1):
    a15 = np.cumsum(arg1)
    for x16 in a15:
        arg1 *= np.sin(arg1)
    return [np.zeros((2,), dtype=np.float64)]
JIT = {'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((np.array([-13.934, -8.757, -1.704, -22.677, 6.41, -4.033], dtype=np.float32).reshape((6, 1)),), {})]


KIND = 'mismatch'
SIG = 'argument'
