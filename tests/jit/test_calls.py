"""Calls with keyword arguments and default values, from Python and between
kiln functions, and the errors a wrong call gets."""
import numpy as np
import pytest

import kiln


@kiln.jit
def scale(x, factor=2.0, shift=0):
    return x * factor + shift


def test_keywords_and_defaults_from_python_match_cpython():
    for args, kwargs in [((3,), {}), ((3, 4), {}), ((3,), {"shift": 5}), ((), {"x": 1.5, "factor": 2, "shift": 1}),
                         ((-2, -0.5), {"shift": -7})]:
        assert scale(*args, **kwargs) == scale.py_func(*args, **kwargs)


def test_keyword_call_reuses_the_positional_specialization():
    @kiln.jit
    def f(a, b=1):
        return a - b
    assert f(5, 2) == 3
    assert f(b=2, a=5) == 3
    assert f(5) == 4
    assert len(f.signatures) == 1


@pytest.mark.parametrize("args,kwargs", [((), {}), ((1,), {"y": 2}), ((1, 2, 3, 4), {}), ((1,), {"x": 2})])
def test_wrong_python_call_is_cpythons_type_error(args, kwargs):
    with pytest.raises(TypeError) as expected:
        scale.py_func(*args, **kwargs)
    with pytest.raises(TypeError) as got:
        scale(*args, **kwargs)
    assert str(got.value) == str(expected.value)
    assert scale(1) == 2.0   # the dispatcher still works


def _typing_error(fn, *args):
    with pytest.raises(kiln.TypingError) as info:
        fn(*args)
    return str(info.value)


def test_wrong_keyword_between_kiln_functions_points_at_the_call():
    @kiln.jit
    def g(a):
        return scale(a, scael=3)
    msg = _typing_error(g, 1)
    assert "scale() got an unexpected keyword argument 'scael'" in msg
    assert "            return scale(a, scael=3)\n                   ^" in msg


def test_missing_argument_between_kiln_functions():
    @kiln.jit
    def g(a):
        return scale(shift=a)
    assert "scale() missing required argument 'x'" in _typing_error(g, 1)


def test_star_kwargs_parameters_are_unsupported_with_the_def_line():
    @kiln.jit
    def h(**values):
        return 0
    with pytest.raises(kiln.UnsupportedError) as info:
        h(a=1)
    msg = str(info.value)
    assert "**kwargs and keyword-only parameters are not supported yet" in msg
    assert "def h(**values):" in msg


@kiln.jit
def _star(a, b=10, *rest):
    return a + b + len(rest)


def test_star_args_from_python_bind_as_python_does():
    assert _star(1) == 11 and _star(1, 2) == 3 and _star(1, 2, 3.5, 4) == 5 and _star(b=1, a=2) == 3
    assert _star.signatures == [(kiln.int64, kiln.int64), (kiln.int64, kiln.int64, kiln.float64, kiln.int64)]
    with pytest.raises(TypeError) as info:
        _star()
    assert "missing 1 required positional argument: 'a'" in str(info.value)
    with pytest.raises(TypeError) as info:
        _star(1, 2, 3, a=4)
    assert "multiple values for argument 'a'" in str(info.value)


def test_spreading_too_many_arguments_is_python_s_error():
    @kiln.jit
    def g(x):
        t = (x, x, x)
        return scale(*t, 1)
    assert "scale() takes 3 positional argument(s) but 4 were given" in _typing_error(g, 1.0)


def test_spreading_what_is_not_a_tuple_says_so():
    @kiln.jit
    def g(x):
        return scale(*x)
    msg = _typing_error(g, 2)
    assert "*x in a call needs a tuple; x is int64" in msg
    lines = msg.splitlines()
    src = next(i for i, line in enumerate(lines) if line.endswith("return scale(*x)"))
    assert lines[src + 1].index("^") == lines[src].index("*")


def test_spreading_an_expression_asks_for_a_variable():
    @kiln.jit
    def g(x):
        return scale(*(x, x)[:1])
    with pytest.raises(kiln.UnsupportedError) as info:
        g(1)
    assert "Assign the tuple to a variable first" in str(info.value)


def test_tuple_compared_with_array_is_a_typing_error():
    @kiln.jit
    def f(a):
        return (1, 2) < (a, a)
    msg = _typing_error(f, np.zeros(2))
    assert "cannot compare UniTuple(int64 x 2) with UniTuple(array(float64, 1d, C) x 2)" in msg


def test_complex_tuples_are_not_ordered():
    @kiln.jit
    def f(z):
        return (z, 1) < (z, 2)
    assert "cannot compare Tuple(complex128, int64) with Tuple(complex128, int64)" in _typing_error(f, 1j)


def test_zip_of_a_tuple_and_a_range_says_what_zip_takes():
    @kiln.jit
    def f(n):
        s = 0
        for a, b in zip((1, 2), range(n)):
            s += a * b
        return s
    assert "zip() takes tuples only, or ranges, arrays and lists, in compiled code." in _typing_error(f, 3)


def test_inner_functions_calling_each_other_are_unsupported_with_a_hint():
    @kiln.jit
    def f(n):
        def even(x):
            return True if x == 0 else odd(x - 1)
        def odd(x):
            return False if x == 0 else even(x - 1)
        return even(n)
    with pytest.raises(kiln.UnsupportedError) as info:
        f(3)
    msg = str(info.value)
    assert "inner functions that call each other are not supported" in msg
    assert "            def odd(x):\n            ^" in msg


def test_inner_function_compiles_with_the_outer_options():
    @kiln.jit(boundscheck=True)
    def f(a, i):
        def get(j):
            return a[j]
        return get(i)
    assert f(np.arange(3.0), 1) == 1.0
    with pytest.raises(IndexError):
        f(np.arange(3.0), 5)


def test_lambdas_that_cannot_be_told_apart_or_have_defaults_are_refused_with_a_hint():
    @kiln.jit
    def two_on_a_line(x):
        f = lambda y: y + 1; g = lambda y: y * 2   # noqa: E702, E731
        return f(x) + g(x)
    with pytest.raises(kiln.UnsupportedError, match="two functions named <lambda> on one line") as info:
        two_on_a_line(1)
    assert "Put each lambda on a line of its own." in str(info.value)

    @kiln.jit
    def with_default(x):
        g = lambda y, z=2: y + z   # noqa: E731
        return g(x)
    with pytest.raises(kiln.UnsupportedError, match="a lambda with default values is not supported"):
        with_default(1)


@kiln.njit
def _note(log, v):
    log.append(v)
    return v


@kiln.njit
def _digits(a, b, c=0, *rest):
    return a * 100 + b * 10 + c + len(rest)


@kiln.njit
def _keywords_out_of_order():
    log = [0]
    r = _digits(_note(log, 1), c=_note(log, 2), b=_note(log, 3))
    s = _digits(c=_note(log, 4), a=_note(log, 5), b=_note(log, 6))
    return r, s, log[1] * 100000 + log[2] * 10000 + log[3] * 1000 + log[4] * 100 + log[5] * 10 + log[6]


def test_keyword_arguments_are_evaluated_in_the_order_written():
    # Python evaluates a call's arguments left to right as written, whatever the
    # callee's parameter order; a keyword that raises must raise first.
    # (CPython cannot run the pure-Python form here: it would pass its list to
    # the compiled _note.) The log holds 1..6 as written.
    assert _keywords_out_of_order() == (132, 564, 123456)


@kiln.njit
def refuse(x):
    raise ValueError("refused")


@kiln.njit
def passes_on(x):
    return refuse(x)


def arithmetic(x):
    return x - refuse(x)


def in_max(x):
    return 1 if max(x, refuse(x)) < 3 else 2


def in_a_branch(x):
    y = 1.5 if x > 0 else refuse(x)   # y is a float: the branch that raises gives it nothing
    return y * 2


def in_a_loop_that_never_runs(x):
    h = 0.0
    while x < 0:
        h = refuse(x)
        h = np.cos(h % 6.25)
    return h


def unpacked(x):
    a, b = passes_on(x)
    return a + b


def in_a_comprehension(n):
    d = {i: i - refuse(i) for i in range(n)}
    return len(d)


def stored_in_an_array(n):
    a = np.zeros(3)
    a[n % 3] = refuse(n)
    return a


def used_as_an_index(n):
    h = refuse(n)   # each store below is never reached; its index has the never type of h
    a, lst, d = np.zeros(3), [1.0, 2.0], {}
    for i in range(n):
        a[i if h else 0] = 1.0
        lst[i if h else 0] = 2.0
        d[i if h else 0] = 3.0
    return a[0] + lst[0] + len(d)


def updated_in_place(x):
    h = refuse(x)
    h -= 5   # reads h first: never reached
    a = np.zeros(3)
    a[int(h)] += 1.0
    return h


def updated_after_a_loop_that_never_runs(x):
    h = 1
    for _ in range(x):
        h = refuse(x)
        h *= 3
    h += 2
    return h


@pytest.mark.parametrize("fn,args", [(arithmetic, (3,)), (in_max, (1,)), (in_a_branch, (1.0,)), (in_a_branch, (-1.0,)),
                                     (in_a_loop_that_never_runs, (1.0,)), (unpacked, (2,)), (in_a_comprehension, (0,)),
                                     (in_a_comprehension, (2,)), (stored_in_an_array, (4,)), (used_as_an_index, (2,)),
                                     (updated_in_place, (1,)), (updated_after_a_loop_that_never_runs, (0,)),
                                     (updated_after_a_loop_that_never_runs, (2,))])
def test_the_value_of_a_function_that_always_raises_is_never_used(fn, args):
    # CPython evaluates up to the call and raises; Kiln types the call as
    # never coming back (Numba refuses such programs: None in arithmetic)
    try:
        want = ("returned", fn(*args))
    except ValueError as e:
        want = ("raised", str(e))
    try:
        got = ("returned", kiln.njit(fn)(*args))
    except ValueError as e:
        got = ("raised", str(e))
    assert got == want


@kiln.njit
def _counted(count, a):
    count[0] += 1
    return a


def _indexed_by_a_raise(count):
    try:
        _counted(count, np.zeros(3))[refuse(0)] = 1.0
    except ValueError:
        return count[0]
    return -1


def test_a_store_indexed_by_a_raise_evaluates_its_container_first():
    # CPython evaluates the container, then the index, which raises: the
    # container's call ran once
    for fn in (_indexed_by_a_raise, kiln.njit(_indexed_by_a_raise)):
        assert fn(np.zeros(1, dtype=np.int64)) == 1
