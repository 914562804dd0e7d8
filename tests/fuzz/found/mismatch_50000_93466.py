"""Found by `python3 -m tests.fuzz --seed 50000` (program 93466), shrunk by hand.

CPython raised ZeroDivisionError: float modulo; Kiln returned a value. np.argmax(np.sin(a)) of
[2, 0, 0, 0, 2] was 4, not 0: the vectorized loop took sin(2) from libmvec in its vector lanes
and from libm in its scalar remainder, an ulp apart, so the two equal maxima were not equal.
"""
import numpy as np


def f(arg0):
    x7 = int(np.argmax(np.sin(arg0)))
    return 1.0 % x7


JIT = {'f': {}}
ENTRY = 'f'


def ARGS():
    return [
        ((np.array([2, 0, 0, 0, 2], dtype=np.int64), ), {}),
        ((np.array([2.0, 0.5, 0.5, 0.5, 2.0, 0.5, 0.5, 0.5, 2.0], dtype=np.float64), ), {}),
        ((np.array([-1.0, 2.0, 3.0, 2.0, -1.0, 2.0, 3.0, 2.0, 3.0], dtype=np.float32), ), {}),
    ]


KIND = 'mismatch'
SIG = 'no ZeroDivisionError'
