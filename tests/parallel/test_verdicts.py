"""The dependence checker's verdicts on a set of safe and unsafe prange
loops, the seed's evaluate_functions among the unsafe: a safe loop runs in
parallel; an unsafe one runs serially (so its result equals CPython's, where
Numba's would not), with a ParallelSafetyWarning and the reason in the
report."""
import warnings

import numpy as np
import pytest

import kiln
from kiln import prange


# ---- safe ----

def safe_elementwise(a, out):
    for i in prange(a.shape[0]):
        out[i] = a[i] * 2.0
    return out


def safe_private_temporaries(a, out):
    for i in prange(a.shape[0]):
        t = a[i] + 1.0
        if t > 2.0:
            u = t * t
        else:
            u = -t
        out[i] = u
    return out


def safe_rows_2d(a, out):
    for i in prange(a.shape[0]):
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j]
            out[i, j] = acc
    return out


def safe_second_axis(a, out):
    for j in prange(a.shape[1]):
        for i in range(a.shape[0]):
            out[i, j] = a[i, j] * i
    return out


def safe_stencil(a, out):
    for i in prange(a.shape[0] - 2):
        out[i + 1] = (a[i] + a[i + 2]) * 0.5
    return out


def safe_shifted_by_a_local(a, out):
    k = 1
    for i in prange(1, a.shape[0]):
        out[i - k] = a[i] * 3.0
    return out


def safe_plain_assignment_reduction(a, out):
    total = 0.0
    prod = 1.0
    for i in prange(a.shape[0]):
        total = total + a[i]
        prod = 1.0001 * prod
    out[0] = total
    out[1] = prod
    return out


def unsafe_shifted_write(a, out):
    for i in prange(a.shape[0] - 1):
        out[i + 1] = out[i] * 0.5 + a[i]
    return out


def unsafe_histogram(a, out):
    """Numba runs this in parallel and loses counts; Kiln keeps it serial."""
    for i in prange(a.shape[0]):
        b = int(abs(a[i])) % 5
        out[b] += 1.0
    return out


def safe_reductions(a, out):
    total = 0.0
    best = -1e300
    for i in prange(a.shape[0]):
        total += a[i]
        best = max(best, a[i])
        out[i] = total * 0 + a[i]   # reads the reduction: not safe
    return out


# ---- unsafe ----

def evaluate_functions(n):
    """The seed's example: vector1 is written in one iteration and read in the next."""
    vector1 = np.linspace(-1500.00, 1500.0, n)
    iterations = 50
    for i in prange(iterations):
        vector2 = np.sin(vector1)
        vector1 = np.arcsin(vector2)
        vector2 = np.cos(vector1)
        vector1 = np.arccos(vector2)
        vector2 = np.tan(vector1)
        vector1 = np.arctan(vector2)
    return vector1


def unsafe_prefix_sum(a, out):
    for i in prange(1, a.shape[0]):
        out[i] = out[i - 1] + a[i]
    return out


def unsafe_carried_scalar(a, out):
    prev = 0.0
    for i in prange(a.shape[0]):
        out[i] = prev
        prev = a[i]
    return out


def unsafe_same_element(a, out):
    for i in prange(a.shape[0]):
        out[0] = out[0] + a[i]
    return out


@kiln.njit
def first_plus_last(x):
    return x[0] + x[x.shape[0] - 1]


def unsafe_whole_array_read(a, out):
    for i in prange(a.shape[0]):
        out[i] = first_plus_last(out) + a[i]
    return out


def unsafe_reduction_also_read(a, out):
    total = 0.0
    for i in prange(a.shape[0]):
        total += a[i]
        out[i] = total
    return out


def unsafe_break(a, out):
    for i in prange(a.shape[0]):
        if a[i] > 5:
            break
        out[i] = a[i]
    return out


def unsafe_for_else(a, out):
    for i in prange(a.shape[0]):
        out[i] = a[i]
    else:
        out[0] = -1.0
    return out


SAFE = [safe_elementwise, safe_private_temporaries, safe_rows_2d, safe_second_axis, safe_stencil,
        safe_shifted_by_a_local, safe_plain_assignment_reduction]
UNSAFE = [
    (unsafe_prefix_sum, "array `out` is written at line"),
    (unsafe_carried_scalar, "`prev` is assigned in one iteration"),
    (unsafe_same_element, "same element of array `out`"),
    (unsafe_whole_array_read, "used whole"),
    (unsafe_reduction_also_read, "`total` is accumulated across iterations"),
    (unsafe_break, "`break` leaves the prange loop"),
    (safe_reductions, "`total` is accumulated across iterations"),
    (unsafe_for_else, "`else` clause"),
    (unsafe_shifted_write, "array `out` is written at line"),
    (unsafe_histogram, "different iterations may write the same element of array `out`"),
]


def args_for(fn):
    rng = np.random.default_rng(11)
    if fn in (safe_rows_2d, safe_second_axis):
        a = rng.normal(size=(300, 7))
    else:
        a = rng.normal(size=3001) * 4
    return a, np.zeros_like(a)


def compiled(fn):
    return kiln.njit(parallel=True)(fn)


@pytest.mark.parametrize("fn", SAFE, ids=lambda f: f.__name__)
def test_safe_loops_run_in_parallel(fn):
    f = compiled(fn)
    a, out = args_for(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", kiln.ParallelSafetyWarning)
        got = f(a, out.copy())
    np.testing.assert_allclose(got, fn(a, out.copy()), rtol=1e-13)
    (loop,) = f.parallel_report().loops
    assert loop["parallel"] and loop["reason"] is None


@pytest.mark.parametrize("fn,why", UNSAFE, ids=lambda x: getattr(x, "__name__", ""))
def test_unsafe_loops_run_serially_and_say_why(fn, why):
    f = compiled(fn)
    a, out = args_for(fn)
    with pytest.warns(kiln.ParallelSafetyWarning, match="runs serially") as record:
        got = f(a, out.copy())
    np.testing.assert_allclose(got, fn(a, out.copy()), rtol=1e-13)   # CPython's result, not a race's
    (loop,) = f.parallel_report().loops
    assert not loop["parallel"]
    assert why in loop["reason"]
    assert why in str(record[0].message)
    assert record[0].filename == __file__ and record[0].lineno == loop["line"]


def test_seed_evaluate_functions_is_caught():
    f = compiled(evaluate_functions)
    with pytest.warns(kiln.ParallelSafetyWarning, match="`vector1` is assigned in one iteration"):
        got = f(100)
    # the chain of inverse trigonometric functions amplifies libm's last-bit differences
    np.testing.assert_allclose(got, evaluate_functions(100), rtol=1e-8)
    (loop,) = [lp for lp in f.parallel_report().loops if lp["kind"] == "prange"]
    assert loop["reason_line"] == evaluate_functions.__code__.co_firstlineno + 5   # np.sin(vector1)


def test_nested_prange_runs_inner_serially():
    @kiln.njit(parallel=True)
    def nested(a):
        for i in prange(a.shape[0]):
            for j in prange(a.shape[1]):
                a[i, j] = i * 10 + j
        return a
    got = nested(np.zeros((40, 6)))
    np.testing.assert_array_equal(got, np.add.outer(np.arange(40) * 10, np.arange(6)))
    outer, inner = sorted(nested.parallel_report().loops, key=lambda lp: lp["line"])
    assert outer["parallel"] and outer["nested"] == [inner["line"]]
    assert not inner["parallel"] and "only the outermost prange runs in parallel" in inner["reason"]
