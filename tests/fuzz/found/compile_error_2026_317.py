"""Found by `python3 -m tests.fuzz --seed 2026` (program 317), shrunk (the helper's raise put back and
an index put back in bounds: the shrinker had dropped the one, leaving a program Kiln refuses as
ill-typed, and cut the other's `% a.shape[k]`, leaving a read past the end; it keeps both now).

in function 'f' (/tmp/kiln_fuzz_uxw81drg/prog_1.py, line 46, col 30):
            d24 = {(i25 - i25): (int(arg1[(i25) % arg1.shape[0], (i25) % arg1.shape[1]]) - helper1(float(arg2[(3) % arg2.shape[0], (i25) % arg2.shape[1]]), (int(arg1[(i25) % arg1.shape[0], (i25) % arg1.shape[1]]) * int(np.sum(arg3))))) for i25 in range(1 % 5)}
                                 ^
unsupported operand types for this operator: int64 and none
"""
import math
import numpy as np
from kiln import prange

def helper1(y2, y3):
    raise ValueError('generated')

def f(arg0, arg1, arg2, arg3):
    x16 = 1.0
    if 2147483648 < x16:
        pass
    elif False:
        a20.fill(3.0)
    else:
        d24 = {i25: int(arg1[i25, i25]) - helper1(float(arg2[1, i25]), int(arg1[i25, i25])) for i25 in range(1)}
JIT = {'helper1': {}, 'f': {'parallel': True, 'signature': '(Optional(int8[:, :]), uint8[:, :], float32[:, :], int64[:, :])'}}
ENTRY = 'f'

def ARGS():
    return [((np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.int8).reshape((4, 4))[::2], np.array([1, 1, 1, 1, 1, 1, 1, 1], dtype=np.uint8).reshape((2, 4)), np.array([1, 1, 1, 1], dtype=np.float32).reshape((2, 2)).T, np.array([1, 1, 1, 1], dtype=np.int64).reshape((2, 2))), {})]


KIND = 'compile_error'
SIG = 'TypingError: unsupported operand types for this operator: intN and none'
