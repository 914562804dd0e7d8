"""Found by `python3 -m tests.fuzz --seed 1` (program 3), shrunk.

in function 'f' (/tmp/kiln_fuzz_5vlvbe2j/prog_1.py, line 13, col 26):
            x1 += (abs(float(arg1[(-1) % arg1.shape[0]])) // len([c3 for c3 in range((-1) % 2) if arg2]))
                             ^
optional(array(float64, 1d, A)) cannot be indexed
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1, arg2, arg3):
    x1 = np.sum(arg1)
    x1 += arg1[1]
JIT = {'f': {'signature': '(float32[:], Optional(float64[:]), boolean, uint8[:, :, :])'}}
ENTRY = 'f'

def ARGS():
    return [((np.array([13.013, -1e-300, -8.335, 6.108, -3.123], dtype=np.float32).reshape((5,)), np.array([8.574, 3.679, 5.045], dtype=np.float64).reshape((3,)), True, np.array([255, 82, 255, 119, 255, 252, 6, 255, 1, 7, 4, 173, 9, 85, 255, 166, 255, 53, 6, 4, 175, 7, 5, 255, 183, 255, 255, 2, 56, 255, 0, 255, 131, 206, 74, 8, 255, 204, 255, 255, 9, 245, 255, 26, 65, 90, 172, 47, 255, 255, 228, 2, 9, 12, 255, 3, 255, 161, 4, 0, 116, 5, 2, 250, 116, 5, 255, 2, 255, 255, 0, 255, 48, 255, 2], dtype=np.uint8).reshape((3, 5, 5)).T), {})]


KIND = 'compile_error'
SIG = 'TypingError: optional(array) cannot be indexed'
