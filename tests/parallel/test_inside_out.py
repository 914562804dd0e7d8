"""A prange loop whose iterations depend on each other, but whose every
statement is `array = array expression` over arrays it carries or only
reads (seed 000's evaluate_functions), runs element by element across
threads: each element goes through all the iterations in order, with no
array made per iteration. Results are CPython's with 1, 2 and 4 threads,
the iterations still count as serial in the report and the warning, and a
body that does not fit (or arrays read first with different shapes) runs
as written."""
import warnings

import numpy as np
import pytest

import _kiln
import kiln
from kiln import prange

from test_verdicts import evaluate_functions   # the seed's loop, 50 iterations
from thread_counts import threads  # noqa: F401  (a fixture: pytest finds it by name)

INSIDE_OUT = "elements through the iterations"


def damped(v, k, rate):
    w = v * 0.5
    for i in prange(k):
        w = np.sin(v) + w * rate
        v = v * 0.9 + w
    return v, w, i


def collatz_like(a, k):
    for i in prange(1, k, 2):
        a = (a * 3 + 1) % 1000003
    return a, i


def clamp_steps(a, k, c):
    d = c * 2.0
    for i in prange(k):
        a = np.where(a > d, a - c, a + 1.5)
    return a


def two_grids(a, b, k):
    for i in prange(k):
        a = np.maximum(a, b) * 0.99
        b = np.abs(a - b)
    return a, b


def counting_down(a, k):
    for i in prange(k, 0, -3):
        a = a * 1.5 - 1.0
    return a, i


def relax(u, b, k, dt):
    """b is read in every iteration and never assigned: the same array throughout."""
    for i in prange(k):
        u = u + dt * (b - u)
    return u


def counts_and_weights(x, counts, k):
    for i in prange(k):
        x = x * 0.5 + counts
    return x


def growing(a, b, k):
    """a + b broadcasts while b has one element: the shapes differ."""
    for i in prange(k):
        a = a + b
        b = b * 0.5
    return a, b


def not_elementwise(a, k):
    for i in prange(k):
        a = a - a.mean()
    return a


def compiled(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kiln.ParallelSafetyWarning)
        f = kiln.njit(parallel=True)(fn)
    return f


def call(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kiln.ParallelSafetyWarning)
        return f(*args)


def kinds(f):
    return [(lp["kind"], lp["parallel"]) for lp in f.parallel_report().loops]



def grid(seed, shape):
    return np.random.default_rng(seed).random(shape)


CASES = [
    (damped, lambda: (np.linspace(-3, 3, 37), 13, 0.25)),
    (damped, lambda: (np.linspace(-3, 3, 111)[::3], 5, -0.5)),       # a strided view carried in
    (damped, lambda: (np.linspace(-3, 3, 1001), 200, 0.25)),         # enough work for the pool
    (collatz_like, lambda: (np.arange(-50, 50, dtype=np.int64), 40)),
    (collatz_like, lambda: (np.array([2**62, -2**62, 2**63 - 1, -2**63], dtype=np.int64), 7)),   # wraps as NumPy
    (collatz_like, lambda: (np.arange(-50, 50, dtype=np.int32), 9)),
    (clamp_steps, lambda: (np.linspace(-4, 4, 203), 30, 0.7)),
    (two_grids, lambda: (grid(1, (40, 40)), grid(2, (40, 40)), 64)),
    (two_grids, lambda: (grid(3, (17, 33)).T, grid(4, (33, 17)), 20)),   # an F-ordered array carried in
    (counting_down, lambda: (np.linspace(0, 1, 99), 100)),
    (relax, lambda: (np.zeros(1000), np.linspace(-2, 2, 1000), 300, 0.01)),
    (relax, lambda: (np.zeros((30, 20)), grid(5, (20, 30)).T, 50, 0.1)),   # an F-ordered array read throughout
    (counts_and_weights, lambda: (np.ones(77), np.arange(77, dtype=np.int64)[::-1], 12)),
    (damped, lambda: (np.zeros(0), 10, 0.25)),
]


def assert_same(got, want):
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    elif isinstance(want, np.ndarray):
        assert got.shape == want.shape and got.dtype == want.dtype
        if want.dtype.kind in "iub":
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-300)
    else:
        assert got == want


@pytest.mark.parametrize("fn,make", CASES, ids=lambda x: getattr(x, "__name__", ""))
def test_elementwise_loops_match_cpython(threads, fn, make):  # noqa: F811
    f = compiled(fn)
    assert_same(call(f, *make()), fn(*make()))
    assert ("prange", False) in kinds(f) and (INSIDE_OUT, True) in kinds(f)


@pytest.mark.parametrize("n", [0, 1, 7, 100, 1001])
def test_seed_evaluate_functions_runs_element_by_element(threads, n):  # noqa: F811
    f = kiln.njit(parallel=True)(evaluate_functions)
    with pytest.warns(kiln.ParallelSafetyWarning) as record:
        got = f(n)
    # the chain of inverse trigonometric functions amplifies libm's last-bit
    # differences between its vector and scalar versions
    np.testing.assert_allclose(got, evaluate_functions(n), rtol=1e-8)
    message = str(record[0].message)
    assert "runs serially: `vector1` is assigned in one iteration" in message
    assert "splits the elements of `vector2`, `vector1` across threads instead" in message
    prange_loop, inside_out = f.parallel_report().loops
    assert not prange_loop["parallel"] and prange_loop["reason_line"] == evaluate_functions.__code__.co_firstlineno + 5
    assert inside_out["kind"] == INSIDE_OUT and inside_out["parallel"] and inside_out["line"] == prange_loop["line"]


def test_no_array_is_made_per_iteration():
    f = compiled(evaluate_functions)
    call(f, 100)
    before = _kiln.nrt_stats()["alloc"]
    got = call(f, 100)
    # linspace, then one padded buffer for each of vector1 and vector2: not 6 arrays per iteration
    assert _kiln.nrt_stats()["alloc"] - before == 3
    np.testing.assert_allclose(got, evaluate_functions(100), rtol=1e-8)


def test_zero_iterations_leave_the_arrays():
    f = compiled(relax)
    u, b = np.linspace(-1.0, 1.0, 9), np.ones(9)
    np.testing.assert_array_equal(call(f, u, b, 0, 0.5), u)


def test_arrays_of_different_shapes_run_the_loop_as_written(threads):  # noqa: F811
    f = compiled(growing)
    for a, b in ((np.zeros(50), np.ones(1)), (np.zeros(50), np.ones(50))):
        assert_same(call(f, a, b, 10), growing(a, b, 10))
    assert kinds(f) == [("prange", False), (INSIDE_OUT, True)]   # the serial copy adds no record
    g = compiled(relax)
    u, b = np.zeros(40), np.linspace(0, 1, 40)
    assert_same(call(g, u, b[:1], 5, 0.5), relax(u, b[:1], 5, 0.5))   # b broadcast: as written


def test_a_body_that_is_not_elementwise_stays_serial():
    f = compiled(not_elementwise)
    a = np.arange(10.0)
    np.testing.assert_allclose(call(f, a, 3), not_elementwise(a, 3))
    assert INSIDE_OUT not in [k for k, _ in kinds(f)]
    assert "splits the elements" not in f.parallel_report().loops[0]["warning"]


def test_diagnostics_explain_it():
    f = compiled(evaluate_functions)
    call(f, 100)
    text = f.parallel_report().text(2)
    assert "for i in prange): SERIAL" in text
    assert f"{INSIDE_OUT}, split from 32,768 elements x iterations): PARALLEL" in text
    assert "runs every iteration of the loop on it in order" in text
    assert "elements through the iterations split across threads" in f.parallel_report()._repr_html_()
