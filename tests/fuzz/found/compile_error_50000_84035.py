"""Found by `python3 -m tests.fuzz --seed 50000` (program 84035), shrunk by hand.

in function 'f' (/tmp/kiln_fuzz_.../prog_84036.py, line 12, col 18):
        return x78 / g75(x78)
                     ^
name 'g75' is not defined

`if arg0 or True: raise ...` always raises, and CPython's compiler knows it:
it drops what follows, the inner def's code included. Kiln took `arg0 or True`
for a test it could not decide, so it compiled the code after it and found no
code to lift for g75.
"""
import math
import numpy as np
from kiln import prange

def f(arg0):
    x71 = -9223372036854775807
    if (arg0 or True):
        raise ZeroDivisionError("generated e72")
    a74 = np.ones((0,), dtype=np.bool_)
    def g75(p76):
        return ((a74.shape[0] >> 19) * len([x71, x71, x71]))
    x78 = 0.0
    for i77 in prange(a74.shape[0]):
        x78 += 3.0
    return x78 / g75(x78)
JIT = {'f': {'parallel': True}}
ENTRY = 'f'

def ARGS():
    return [((True,), {})]


KIND = 'compile_error'
SIG = "TypingError: name 'V' is not defined"
