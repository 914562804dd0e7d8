"""Found by `python3 -m tests.fuzz --seed 50000` (program 61923), shrunk.

in function 'f' (/tmp/kiln_fuzz_uxrcj_2l/prog_1.py, line 108, col 41):
        return (len([(h38 + h38) for c68 in range((h38) % 5)]), ((h38 if bool(np.all(a39)) else h38) * x37.real),), ((h38 * helper1((h38 // arg0.shape[0]))) <= max(h38, h38)), {arg0.shape[0]}
                                            ^
a comprehension cannot loop over never
Hint: Loop over range(), an array, a list, enumerate(), zip(), np.ndindex() or np.ndenumerate().
"""
import math
import numpy as np
from kiln import prange

def helper1(y2):
    raise KeyError('generated e3')
    return y2

def f():
    h38 = helper1(5)
    return (([h38 for c68 in h38], h38),)
JIT = {'helper1': {}, 'f': {}}
ENTRY = 'f'

def ARGS():
    return [((), {})]


KIND = 'compile_error'
SIG = 'TypingError: a comprehension cannot loop over never'
