"""NumPy's ufuncs called on numbers in compiled code agree with NumPy: in
value and in kind (an int stays an int, NaN is kept by maximum and ignored
by fmax, remainder takes the divisor's sign), for every ufunc of one output,
on negative numbers, zero, NaN and inf. Each is its registry entry's
element, or the builtin the entry names where that gives NumPy's answer."""
import itertools
import math
import warnings

import numpy as np
import pytest

import kiln

FLOATS = [-2.5, 0.0, 3.0, math.nan, math.inf]
INTS = [-7, 0, 5]
# more than one output, datetimes, arrays only: not ufuncs of numbers
NOT_HERE = {"divmod", "frexp", "modf", "isnat", "matmul"}
UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc) and n not in NOT_HERE
                and getattr(np, n).nout == 1)


def _compiled(name, nin, where):
    """kiln.njit of `return np.<name>(x0, ...)`, written to a file in
    where (compiled code is read from its source file)."""
    args = ", ".join(f"x{i}" for i in range(nin))
    path = where / f"call_{name}.py"
    path.write_text(f"def call({args}):\n    return np.{name}({args})\n")
    namespace = {"np": np}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return kiln.njit(namespace["call"])


def _numpy(name, args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(np, name)(*args)


@pytest.mark.parametrize("name", UFUNCS)
def test_a_ufunc_of_numbers_agrees_with_numpy(name, tmp_path):
    nin = getattr(np, name).nin
    compiled = _compiled(name, nin, tmp_path)
    checked = 0
    for values in (FLOATS, INTS):
        for args in itertools.product(values, repeat=nin):
            try:
                want = _numpy(name, args)
            except TypeError:   # NumPy has no loop for these types: compiled code refuses them too
                with pytest.raises(kiln.TypingError):
                    compiled(*args)
                continue
            except ValueError as e:   # an integer to a negative power
                with pytest.raises(ValueError, match=str(e).split(".")[0]):
                    compiled(*args)
                continue
            got = compiled(*args)
            assert np.asarray(got).dtype.kind == np.asarray(want).dtype.kind, (name, args, got, want)
            np.testing.assert_allclose(got, want, rtol=1e-13, equal_nan=True, err_msg=f"np.{name}{args}")
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("x,y", [(7.0, -3.0), (-7.5, 2.0), (math.nan, 1.0), (1.0, math.nan), (7, 3), (-7, 3)])
def test_the_ufuncs_python_spells_differently_keep_numpys_meaning(x, y):
    @kiln.njit
    def f(x, y):
        return (np.remainder(x, y), np.fmod(x, y), np.power(x, 2), np.maximum(x, y), np.minimum(y, x),
                np.fmax(x, y), np.fmin(y, x))
    got, want = f(x, y), f.py_func(x, y)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_equal(g, w)
