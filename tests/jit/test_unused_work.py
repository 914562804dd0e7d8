"""A function returning None whose loop computes nothing it keeps (seed 000's
average_sqrt) gets a UnusedWorkWarning when it compiles, at the loop's line,
since the optimizer removes the loop and its time measures nothing; a loop
that writes an argument, raises, prints or feeds the result gets none."""
import inspect
import math
import warnings

import numpy as np
import pytest

import kiln


def average_sqrt(Mat, avg):   # seed 000, as the course writes it
    avg = 0.
    for x in Mat:
        avg += math.sqrt(x)
    avg = avg / len(Mat)


def nested_sum(a):
    t = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            t += a[i, j]


def fills(a):
    for i in range(len(a)):
        a[i] = 0.0


def returns_the_sum(a):
    s = 0.0
    for x in a:
        s += math.sqrt(x)
    return s


def checks(a):
    for x in a:
        if x < 0:
            raise ValueError("negative")


def prints_large(a):
    for x in a:
        if x > 0.99:
            print(x)


def accumulates_into_an_argument(a, out):
    for i in range(a.shape[0]):
        if a[i] > 0.5:
            out[0] += a[i]
        else:
            out[1] += a[i]


def zeroes_one_element(a):
    # the store is the same at every pass: the optimizer hoists it out of the
    # loop, without its line, and the loop is left empty (campaign program 80669)
    for x in a:
        a[3 % a.shape[0]] = 0


def counts_then_checks(a):
    # the optimizer replaces the loop by its closed form, n += 10 len(a), and the loop leaves no line,
    # but its result decides the raise (campaign program 91890)
    n = 3
    for i in range(a.shape[0]):
        n += 10
    if n > 40:
        raise ValueError("too many")


def matmul(A, B, C):
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            tmp = 0.
            for k in range(A.shape[1]):
                tmp += A[i, k] * B[k, j]
            C[i, j] = tmp


def loop_line(fn, text):
    """The file line of fn's source line that starts with text."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if line.strip().startswith(text))


def compile_and_call(fn, *args):
    """(what the compiled fn returned, its UnusedWorkWarnings)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = kiln.njit(fn)(*args)
    return got, [w for w in caught if issubclass(w.category, kiln.UnusedWorkWarning)]


rng = np.random.default_rng(7)
VECTOR = rng.random(1000)
MATRIX = rng.random((20, 30))


@pytest.mark.parametrize("fn,args,loop", [(average_sqrt, (VECTOR, 0.0), "for x in Mat"),
                                          (nested_sum, (MATRIX,), "for i in range")])
def test_a_loop_whose_work_is_unused_is_named_when_it_compiles(fn, args, loop):
    got, told = compile_and_call(fn, *args)
    assert got is None and fn(*args) is None
    (w,) = told   # the outer loop of nested_sum only: the inner one went with it
    assert (w.filename, w.lineno) == (fn.__code__.co_filename, loop_line(fn, loop))
    assert str(w.message).startswith(f"{fn.__name__} returns None and this loop writes nothing a caller sees, "
                                     f"so the optimizer removed it")
    assert f"timing {fn.__name__} measures nothing" in str(w.message)


def test_the_remark_is_kept_with_the_specialization():
    f = kiln.njit(average_sqrt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kiln.UnusedWorkWarning)
        f(VECTOR, 0.0)
    assert [r["line"] for r in f.inspect_remarks() if r["kind"] == "unused"] == [loop_line(average_sqrt, "for x")]


@pytest.mark.parametrize("fn,args", [
    (fills, (VECTOR.copy(),)), (returns_the_sum, (VECTOR,)), (checks, (VECTOR,)), (prints_large, (VECTOR,)),
    (accumulates_into_an_argument, (VECTOR, np.zeros(2))), (matmul, (MATRIX, MATRIX.T.copy(), np.zeros((20, 20)))),
    (zeroes_one_element, (np.ones(5, np.int32),)), (counts_then_checks, (np.ones(3),)),
])
def test_a_loop_with_an_effect_a_caller_sees_is_not_named(fn, args, capfd):
    _, told = compile_and_call(fn, *args)
    assert told == []
