"""Found by `python3 -m tests.fuzz --seed 23628` (program 103), shrunk.

CPython ((3-1j), {-1: 16.42799949645996}, 0.8414709848078965)
Kiln    ((3-1j), {-1: 16.42799949645996}, -0.8949893582285835)
"""
import math
import numpy as np
from kiln import prange

def f(arg1):
    return (math.sin(float(np.prod(arg1))),)
JIT = {'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((np.array([-7.904, 14.88, -15.981, 2.55, -4.023, 16.428, -2.934, -34.029, 7.959, 5.733, -3.867, -19.7, 5.055, -19.433, 4.353, -17.287, 4.512, 2.745, -7.644, 18.635], dtype=np.float32).reshape((5, 4)).T,), {})]


KIND = 'mismatch'
SIG = 'value'
