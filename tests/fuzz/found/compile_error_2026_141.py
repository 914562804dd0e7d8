"""Found by `python3 -m tests.fuzz --seed 2026` (program 141), shrunk (its JIT options then dropped;
shrunk again after a first fix of dead code made the plain `raise` form pass).

in function 'f' (/tmp/kiln_fuzz_0f356t4h/prog_1.py, line 49, col 108):
        return np.zeros((2,), dtype=np.float64), ((len(s13) % (-w19)), x6,), complex((7.5 // helper1(x6)), max(g22(7.5, (x6 * 7.5)), x6))
                                                                                                               ^
name 'g22' is not defined
Hint: Assign it before use in this function, or define it before the first call.
"""
import math
import numpy as np
from kiln import prange

def f():
    if True:
        raise IndexError('generated e21')
    return ((s13, x6),)
JIT = {'f': {}}
ENTRY = 'f'

def ARGS():
    return [((), {})]


KIND = 'compile_error'
SIG = "TypingError: name 'V' is not defined"
