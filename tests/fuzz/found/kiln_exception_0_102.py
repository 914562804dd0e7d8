"""Found by the generator (program seed 102, before the campaign numbering), shrunk.

compiling: RuntimeError: in function 'f' (/tmp/kiln_fuzz_ay8l7pxm/prog_1.py, line 0, col 1):
internal: Kiln made invalid LLVM IR: Invalid InsertValueInst operands!
  %787 = insertvalue { i1, { ptr, ptr, [1 x i64], [1 x i64] } } { i1 true, { ptr, ptr, [1 x i64], [1 x i64] } undef }, i64 %785, 1, !dbg !48
Invalid InsertValueInst operands!
  %788 = insertvalue { i1, { ptr, ptr, [1 x i64], [1 x i64] } } { i1 true, { ptr, ptr, [1 x i64], [1 x i64] } undef }, i64 %786, 1, !dbg !48
Integer arithmetic operators only work with integr
"""
import math
import numpy as np
from kiln import prange

def f(arg0, arg1):
    if arg1 is not None:
        x4 = float(np.sum(arg1))
        arg1 += arg1
JIT = {'f': {'signature': '(Optional(int64[:, :]), Optional(int64[:]))'}}
ENTRY = 'f'

def ARGS():
    return [((np.array([10, -36, -30, -15, 38, 49, -30, 43], dtype=np.int64).reshape((4, 2)), None), {})]


KIND = 'kiln_exception'
SIG = 'RuntimeError: Integer arithmetic operators only work with integr'
