"""Found by `python3 -m tests.fuzz --seed 1342` (program 397), shrunk.

argument 0 after the call: CPython array([          nan,           nan, 6.8608138e+09, 4.0524087e+03,
                 nan], dtype=float32)
Kiln array([         -inf,           nan, 6.8608138e+09, 4.0524087e+03,
                 nan], dtype=float32)
"""
import math
import numpy as np
from kiln import prange

def f(arg0):
    arg0 *= arg0 ** 0.5
    return ()
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([-14.527, -5.002, 0.67, 2.986, 4.864, 19.739, -21.417, -9.755, -0.219, -np.inf], dtype=np.float32).reshape((10,))[::-2],), {})]


KIND = 'mismatch'
SIG = 'argument'
