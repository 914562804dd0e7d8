"""Whether Kiln's value equals CPython's: the same kind of value (an int is
not a float here: the generator never mixes them in one variable), ints
compared as int64, floats within a relative tolerance with NaN equal to NaN,
arrays by dtype, shape and values, lists and tuples item by item, dicts
with their keys in the same order, sets as sets (Kiln's keep insertion
order, CPython's hash order)."""
import math

import numpy as np

from .reference import wrap64


def _int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _float_close(e, g, rel):
    if math.isnan(e):
        return math.isnan(g)
    if math.isinf(e) or math.isinf(g):
        return e == g
    return math.isclose(e, g, rel_tol=rel, abs_tol=rel)


def same(e, g, rel):
    if isinstance(e, (bool, np.bool_)):
        return isinstance(g, (bool, np.bool_)) and bool(e) == bool(g)
    if _int(e):
        return _int(g) and wrap64(int(e)) == wrap64(int(g))
    if isinstance(e, (float, np.floating)):
        return isinstance(g, (float, np.floating)) and _float_close(float(e), float(g), rel)
    if isinstance(e, (complex, np.complexfloating)):
        return (isinstance(g, (complex, np.complexfloating)) and _float_close(e.real, g.real, rel)
                and _float_close(e.imag, g.imag, rel))
    if e is None:
        return g is None
    if isinstance(e, np.ndarray):
        if not (isinstance(g, np.ndarray) and g.dtype == e.dtype and g.shape == e.shape):
            return False
        if e.dtype.kind not in "fc":
            return bool(np.array_equal(e, g))
        finite = np.abs(e[np.isfinite(e)]) if e.size else np.zeros(0)
        scale = float(finite.max()) if finite.size else 1.0
        return bool(np.allclose(g, e, rtol=rel, atol=rel * max(scale, 1.0), equal_nan=True)
                    and np.array_equal(np.isinf(e), np.isinf(g)))
    if isinstance(e, (list, tuple)):
        return type(g) is type(e) and len(g) == len(e) and all(same(x, y, rel) for x, y in zip(e, g))
    if isinstance(e, dict):
        return (isinstance(g, dict) and [wrap64(int(k)) for k in e] == [wrap64(int(k)) for k in g]
                and all(same(e[k], g[k], rel) for k in e))
    if isinstance(e, (set, frozenset)):
        return isinstance(g, (set, frozenset)) and {wrap64(int(x)) for x in e} == {wrap64(int(x)) for x in g}
    return e == g


def tolerance(source):
    """float32 arithmetic is compared at float32's precision; a parallel
    float reduction adds in another order."""
    rel = 1e-9
    if "float32" in source:
        rel = 1e-4
    elif "'parallel': True" in source:
        rel = 1e-7
    return rel
