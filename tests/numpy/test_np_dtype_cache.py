"""The element types of NumPy operations in compiled code are asked of NumPy
once per kind of operands and kept (jit/core/np_dtype.c). An int8 array plus an
int64 array is int64; an int8 array plus the constant 1 stays int8 (NumPy
1.x's value-based casting): the answer to one must not be taken for the
other, whichever is asked first."""
import numpy as np

import kiln


@kiln.njit
def plus_array(a, b):
    return a + b


@kiln.njit
def plus_one(a):
    return a + 1


def test_an_array_operand_is_not_taken_for_the_constant_one():
    a = np.arange(3, dtype=np.int8)
    assert plus_array(a, np.arange(3)).dtype == np.int64 == plus_array.py_func(a, np.arange(3)).dtype
    assert plus_one(a).dtype == np.int8 == plus_one.py_func(a).dtype
