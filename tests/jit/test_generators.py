"""Generators: a kiln generator runs where compiled code loops over it
(its body written into the loop's place, python/kiln/generators.py),
and from Python runs compiled to its end, giving an iterator over its
items. The corpus (corpus_generators.py) is checked against CPython's own
generators; then calls from Python, a prange loop over generators, the
disk cache, and what is refused."""
import inspect
import linecache
import types

import numpy as np
import pytest

import corpus_generators
import kiln
from jit_diff import check


def kiln_world(module):
    """A copy of module's globals in which each generator function is a
    kiln generator whose code reads that copy."""
    world = dict(vars(module))
    for name, value in vars(module).items():
        if inspect.isgeneratorfunction(value):
            world[name] = kiln.njit(types.FunctionType(value.__code__, world, name, value.__defaults__))
    return world


WORLD = kiln_world(corpus_generators)


class Against:
    """A kiln function over WORLD, checked against the corpus function
    itself (py_func, which jit_diff.check runs by CPython)."""

    def __init__(self, fn):
        self.py_func = fn
        self.compiled = kiln.njit(types.FunctionType(fn.__code__, WORLD, fn.__name__, fn.__defaults__))

    def __call__(self, *args):
        return self.compiled(*args)


@pytest.mark.parametrize("fn,argsets", corpus_generators.CASES, ids=[f.__name__ for f, _ in corpus_generators.CASES])
def test_kiln_agrees_with_cpython_generators(fn, argsets):
    d = Against(fn)
    for args in argsets:
        check(d, args)


@kiln.njit
def countdown(n, step=1):
    while n > 0:
        yield n
        n -= step


@kiln.njit
def labelled(a):
    for i in range(a.shape[0]):
        yield i, a[i] * 2.0


def test_called_from_python_a_generator_gives_an_iterator_over_its_items():
    it = countdown(5)
    assert iter(it) is it and next(it) == 5
    assert list(it) == [4, 3, 2, 1]
    assert list(countdown(10, step=4)) == [10, 6, 2]
    assert list(countdown(0)) == []
    assert list(labelled(np.array([1.5, -2.0]))) == [(0, 3.0), (1, -4.0)]
    with pytest.raises(TypeError, match=r"countdown\(\): missing a required argument: 'n'"):
        countdown()
    assert repr(countdown) == "<kiln generator countdown>"


def halves(n):
    for i in range(n):
        yield i / 2


def test_a_generator_given_signatures_compiles_for_them_as_it_is_decorated():
    # as Numba's jit(sig) of a generator: the arguments of calls from Python take the declared types
    eager = kiln.njit([(kiln.int64,), kiln.void(kiln.int32)])(halves)
    assert list(eager(3)) == list(halves(3)) == [0.0, 0.5, 1.0]
    assert list(eager(True)) == [0.0]   # a bool takes the int signature
    with pytest.raises(kiln.TypingError, match=r"range\(float64\)"):
        kiln.njit("(float64,)")(halves)   # refused when decorated, as Numba refuses it


@kiln.njit(parallel=True)
def countdown_sums(n):
    out = np.zeros(n)
    for i in kiln.prange(n):
        for v in countdown(i):
            out[i] += v
    return out


def test_loops_over_a_generator_run_in_parallel(capsys):
    n = 200
    assert np.array_equal(countdown_sums(n), np.array([i * (i + 1) / 2 for i in range(n)]))
    countdown_sums.parallel_diagnostics(level=1)
    assert "1 running in parallel" in capsys.readouterr().out


def test_the_generator_names_show_in_inspect_types(capsys):
    summed = summing(countdown)
    assert summed(4) == 10
    summed.inspect_types()
    assert "countdown.n: int64" in capsys.readouterr().out


def summing(gen):
    """A kiln function of n that sums what gen(n) yields."""
    @kiln.njit
    def consume(n):
        s = 0
        for v in gen(n):
            s += v
        return s
    return consume


def refusal(fn, *args):
    with pytest.raises(kiln.UnsupportedError) as info:
        fn(*args)
    return str(info.value)


def test_a_consumer_inside_a_statement_runs_first_on_a_line_of_its_own():
    @kiln.njit
    def as_list(n):
        return list(countdown(n))

    @kiln.njit
    def spread(n):
        return n + max(countdown(n)) - min(countdown(n, 2))

    assert as_list(4) == [4, 3, 2, 1] and as_list(0) == []
    assert spread(5) == 5 + 5 - 1
    with pytest.raises(ValueError):   # max() of nothing, as in Python
        spread(0)


def twice(n):
    return 2 * n


@pytest.mark.parametrize("source", [
    "return sum(countdown(n)) if n > 0 else -1",   # run only in one case
    "return twice(n) + sum(countdown(n))",         # after a call, whose effects it could see
    "g = countdown(n)\n    return 0",
])
def test_a_generator_used_other_than_by_a_for_loop_or_a_consumer_run_first_is_refused(tmp_path, source):
    path = tmp_path / "uses.py"
    path.write_text(f"def use(n):\n    {source}\n")
    code = compile(path.read_text(), str(path), "exec")
    world = {"countdown": countdown, "twice": kiln.njit(twice)}
    exec(code, world)
    message = refusal(kiln.njit(world["use"]), 3)
    assert "the kiln generator countdown is used other than by a for loop over it, or by list(), sum()" in message
    assert "Loop over it, for v in countdown(...), or take what it yields on a line of its own" in message


def test_an_inner_generator_used_other_than_by_a_for_loop_is_refused():
    @kiln.njit
    def keep(n):
        def evens(m):
            for i in range(m):
                yield 2 * i
        g = evens(n)
        return 0
    assert "the generator evens is used other than by a for loop over it" in refusal(keep, 3)


def python_generator(n):
    yield n


def test_a_python_generator_is_refused_with_advice():
    @kiln.njit
    def loop(n):
        s = 0
        for v in python_generator(n):
            s += v
        return s
    with pytest.raises(kiln.TypingError) as info:
        loop(3)
    assert "global 'python_generator' is a plain Python function; compiled code can only call kiln functions" in str(info.value)
    assert "Decorate it with @kiln.jit so it is compiled too." in str(info.value)


@kiln.njit
def yields_in_try(n):
    try:
        yield n
    except ValueError:
        pass


@kiln.njit
def yields_a_value_back(n):
    x = yield n
    yield x


@kiln.njit
def returns_a_value(n):
    yield n
    return n


@kiln.njit
def delegates(n):
    yield from countdown(n)


@kiln.njit
def recursive(n):
    if n > 0:
        for v in recursive(n - 1):
            yield v
    yield n


@pytest.mark.parametrize("gen,expected", [
    (yields_in_try, "the generator yields_in_try yields inside try"),
    (yields_a_value_back, "the generator yields_a_value_back yields inside assign or as part of an expression"),
    (returns_a_value, "the generator returns_a_value returns a value, which a for loop drops"),
    (delegates, "yield from in the generator delegates is not supported"),
    (recursive, "the generator recursive runs itself: recursive generators are not supported"),
])
def test_what_kiln_does_not_inline_is_refused_at_the_loop(gen, expected):
    message = refusal(summing(gen), 2)
    assert expected in message
    assert "for v in gen(n):" in message   # the line shown is the loop's


def test_a_generator_reading_a_name_the_caller_means_otherwise_is_refused():
    # the generator's module has `scale`; the loop's module has none
    filename = "<a module with scale>"
    source = "def scaled(n):\n    for i in range(n):\n        yield i * scale\n"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    module = {"scale": 2}
    exec(compile(source, filename, "exec"), module)
    scaled = kiln.njit(module["scaled"])
    assert list(scaled(3)) == [0, 2, 4]   # in its own module it runs
    message = refusal(summing(scaled), 3)
    assert "the generator scaled reads 'scale', which means something else (or nothing) where it is looped over" in message


def test_a_generator_is_not_an_argument():
    @kiln.njit
    def consume(gen, n):
        s = 0
        for v in gen(n):
            s += v
        return s
    with pytest.raises(TypeError, match=r"argument 'gen' is the kiln generator countdown, .*loop over it by its name "
                                        r"in the compiled function \(for v in countdown\(...\)\)"):
        consume(countdown, 3)


@kiln.njit
def _counting_up(n):
    for i in range(n):
        yield i


@kiln.njit
def _ones(n):
    for _ in range(n):
        yield 1


_looped_over = _counting_up


@kiln.njit
def _sum_of_looped_over(n):
    s = 0
    for v in _looped_over(n):
        s += v
    return s


def test_a_later_compile_inlines_the_generator_bound_then():
    # each compile reads the function's text afresh: inlining one generator
    # must not leave its body in the text the next compile reads
    global _looped_over
    assert _sum_of_looped_over(5) == 10
    _looped_over = _ones
    try:
        assert _sum_of_looped_over(np.int32(5)) == 5   # a new signature: compiled with _ones
    finally:
        _looped_over = _counting_up
