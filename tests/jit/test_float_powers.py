"""x ** k of a float with a whole constant k is multiplied out (far faster than pow), each
product's rounding error carried along, so that it gives CPython's pow to the last place: plain
products were a few units off, which a sine of a large power turns into another number
(tests/fuzz/found/mismatch_780_182.py)."""
import math

import numpy as np

import kiln


def powers(x):
    return (x ** 3, x ** 4, x ** 5, x ** 6, x ** 7, x ** 8, x ** 9, x ** 10, x ** 11, x ** 12, x ** 13,
            x ** 16, x ** 6.0, x ** 12.0)


def amplified(x):
    return math.sin(x ** 11 * 1.7e8), math.cos(x ** 7 * 3.1e10)


def fast_powers(x):
    return x ** 5, x ** 12


def test_whole_powers_of_floats_are_cpythons_to_the_last_place():
    rng = np.random.default_rng(7)
    xs = [float(v) for v in np.concatenate([rng.uniform(-3, 3, 1500), 10 ** rng.uniform(-15, 15, 500)])]
    compiled = kiln.njit(powers)
    pairs = [(want, got) for x in xs for want, got in zip(powers(x), compiled(x))]
    equal = sum(want == got for want, got in pairs)
    assert equal >= 0.998 * len(pairs), (equal, len(pairs))   # plain products: about a third
    assert all(abs(got - want) <= np.spacing(abs(want)) for want, got in pairs)


def test_a_sine_of_a_large_power_is_pythons():
    f = kiln.njit(amplified)
    for x in (math.tanh(1.0) * 3.0, 2.2847, -1.75, 0.9):
        assert f(x) == amplified(x)


def test_special_values_and_fastmath():
    f = kiln.njit(powers)
    for x in (0.0, -0.0, math.inf, -math.inf, 1e-310, -2.5e-200):
        for want, got in zip(powers(x), f(x)):
            assert want == got and math.copysign(1, want) == math.copysign(1, got), (x, want, got)
    assert all(math.isnan(v) for v in f(math.nan))
    # under fastmath, plain products: within a few units of pow
    quick = kiln.njit(fastmath=True)(fast_powers)
    for x in (1.5, -2.25, 0.3):
        for want, got in zip(fast_powers(x), quick(x)):
            assert math.isclose(got, want, rel_tol=1e-14)
