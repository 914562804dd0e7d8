"""Found by `python3 -m tests.fuzz --seed 23628` (program 1788).

in function 'f' (/tmp/kiln_fuzz_ik5mq2r0/prog_1789.py, line 44, col 53):
        return {7: np.ones((2, 2,), dtype=np.int64)}, ((g16(-2.25) // min(g16(math.log(abs(1.0) + 1.0)), g16(arg0))), (3.0 - (arg0 // g16(arg0))),), {4611686018427387907: math.cos(arg0 % 6.25)}
                                                        ^
name 'g16' is not defined
Hint: Assign it before use in this function, or define it before the first call.
"""
import math
import numpy as np
from kiln import prange

def f():
    if True and True:
        raise IndexError('generated e1')
    return ((g16(2.25), 3.0),)
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((), {})]


KIND = 'compile_error'
SIG = "TypingError: name 'V' is not defined"
