"""A float compared with an int constant that converts to it exactly (|i| <= 2**53) is one float
comparison, as in C and Numba, so a loop's `if z.real * z.real + z.imag * z.imag >= 4` costs no more
than with 4.0; an int that may not convert exactly keeps CPython's exact comparison. The results
themselves are checked against CPython in corpus_scalars.py (int_float_compare,
float_against_constant_ints)."""
import kiln


@kiln.njit
def escaped(x):
    return x * x >= 4


@kiln.njit
def beyond(x):
    return x >= 2**53 + 1


@kiln.njit
def against_a_variable(x, i):
    return x >= i


def ir_of(f, *args):
    f(*args)
    (ir,) = f.inspect_llvm().values()
    return ir


def test_a_constant_that_converts_exactly_is_one_float_comparison():
    ir = ir_of(escaped, 1.5)
    assert ir.count("fcmp") == 1 and "fptosi" not in ir, ir


def test_an_int_that_may_not_convert_exactly_compares_exactly():
    assert "fptosi" in ir_of(beyond, 1.5)
    assert "fptosi" in ir_of(against_a_variable, 1.5, 3)
    assert beyond(2.0**53) is False and beyond(2.0**53 + 2) is True
