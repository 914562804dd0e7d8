"""Found by `python3 -m tests.fuzz --seed 23628` (program 625), shrunk.

CPython ((4249+49.464j), {-1}, array([[0., 0.],
       [0., 0.]]))
Kiln    ((3652+49.464j), {-1}, array([[0., 0.],
       [0., 0.]]))
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1, arg2, arg3):
    l10 = [int(arg3[5 % arg3.shape[0], 9 % arg3.shape[1]]), arg1.shape[0], int(np.sum(arg2))]
    x13 = 1
    t14 = (int(arg2[x13, x13]), float(np.prod(arg0)))
    u15, u16 = t14
    return (u16 % sum(l10),)
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((np.array([-21.453, -7.791, -15.785, -24.17, 3.097, -18.461, 3.577, 11.79, 13.789, 4.431, 16.708, -10.474, -1.217, -0.803, -7.345, 14.537, 7.471, -5.641, 25.236, -24.774, 12.323, -8.82, -8.958, 11.896, 12.206, 4.025, 1.686, 0.673, 0.925, -13.622, -9.704, 13.581, -5.763, 22.65, 1.815, -4.791, 6.203, -9.013, 13.196, 8.605, -13.185, -12.153, 4.419, -6.01, 7.242, 6.759, 18.173, 0.767, -15.569, -9.1, 6.318, 0.096, 6.736, -8.182, -0.867, 17.732, -1.208, 4.96, 7.848, -9.633, -5.054, 11.007, 2.263, 9.341, 10.478, 4.4, -4.272, 10.205, 3.437, -3.161, 6.924, -2.319, 5.34, 12.374, -3.903, 1.277, -2.4, -3.93, -12.301, -7.22], dtype=np.float64).reshape((4, 4, 5)).T, np.array([True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True], dtype=np.bool_).reshape((5, 4)), np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.uint8).reshape((5, 4))[::-1], np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.int8).reshape((10, 4))[::2]), {})]


KIND = 'mismatch'
SIG = 'value'
