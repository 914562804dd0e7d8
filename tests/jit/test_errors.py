"""Errors a user can act on: short TypingErrors that point at the line with a
caret and suggest a fix; TypeErrors naming a bad argument; exceptions raised
in compiled code reaching Python as themselves; and the process going on."""
import math

import numpy as np
import pytest

import kiln


def _typing_error(fn, *args):
    with pytest.raises(kiln.TypingError) as info:
        fn(*args)
    return str(info.value)


def test_conflicting_assignments_name_both_lines():
    @kiln.jit
    def f(a, n):
        x = n
        if n > 0:
            x = a
        return x
    msg = _typing_error(f, np.zeros(3), 1)
    first = f.py_func.__code__.co_firstlineno
    assert f"x is int64 on line {first + 2} and array(float64, 1d, C) on line {first + 4}" in msg
    assert "in function 'test_conflicting_assignments_name_both_lines.<locals>.f'" in msg
    assert "test_errors.py" in msg
    assert "                x = a\n                ^" in msg
    assert "Hint:" in msg
    assert len(msg.splitlines()) <= 6


def test_unsupported_construct_is_unsupported_error_with_hint():
    @kiln.jit
    def f(a):
        t = (1,)
        return a.sum(*t)
    with pytest.raises(kiln.UnsupportedError) as info:
        f(np.zeros(3))
    msg = str(info.value)
    assert "*args in method calls is not supported" in msg and "Hint:" in msg
    assert isinstance(info.value, kiln.TypingError)


def test_undefined_name():
    @kiln.jit
    def f(n):
        return n + not_defined_anywhere  # noqa: F821
    msg = _typing_error(f, 1)
    assert "name 'not_defined_anywhere' is not defined" in msg
    assert "^" in msg


def test_plain_python_function_call_suggests_jit():
    def helper(x):
        return x

    @kiln.jit
    def f(n):
        return helper(n)
    msg = _typing_error(f, 1)
    assert "plain Python function" in msg and "@kiln.jit" in msg


def test_unknown_math_function():
    @kiln.jit
    def f(x):
        return math.no_such_thing(x)
    assert "module 'math' has no attribute 'no_such_thing'" in _typing_error(f, 1.0)


def test_try_catches_boundscheck_index_error():
    @kiln.jit(boundscheck=True)
    def f(a):
        try:
            return a[0]
        except IndexError:
            return -1.0
    assert f(np.ones(3)) == 1.0
    assert f(np.ones(0)) == -1.0


def test_write_to_readonly_array():
    @kiln.jit
    def f(a):
        a[0] = 1.0
    a = np.zeros(3)
    a.flags.writeable = False
    msg = _typing_error(f, a)
    assert "read-only array" in msg
    assert a[0] == 0.0


def test_bad_argument_type_names_the_argument():
    @kiln.jit
    def f(count, label):
        return count
    with pytest.raises(TypeError, match="argument 'label' is a bytes"):
        f(1, b"x")


def test_an_array_of_another_dtype_names_the_dtype():
    @kiln.jit
    def first(a):
        return a[0]
    with pytest.raises(TypeError, match=r"argument 'a' is a NumPy array of dtype float16, .*a\.astype\(np\.float32\)"):
        first(np.arange(3, dtype=np.float16))
    with pytest.raises(TypeError, match="argument 'a' is a NumPy array of dtype <U1"):
        first(np.array(["x"]))
    with pytest.raises(TypeError, match=r"argument 'a' is a NumPy float16 scalar"):
        first(np.float16(1))
    with pytest.raises(ValueError, match="Kiln cannot type a NumPy array of dtype float16"):
        kiln.typeof(np.zeros(2, dtype=np.float16))
    assert first(np.arange(3, dtype=np.float32) + 2) == 2.0   # the conversion it suggests works


class ArrayLike:
    """An object NumPy converts (np.asarray) that has no buffer, as xarray's
    and other libraries' containers are."""
    def __array__(self, dtype=None):
        return np.arange(3.0)


def test_an_array_like_without_a_buffer_says_to_convert_it():
    @kiln.jit
    def first(values):
        return values[0]
    with pytest.raises(TypeError, match=r"argument 'values' is a ArrayLike, .*convert it to a NumPy array first: "
                                        r"np\.asarray\(values\)$"):
        first(ArrayLike())
    assert first(np.asarray(ArrayLike())) == 0.0


def test_wrong_argument_count():
    @kiln.jit
    def f(a, b):
        return a + b
    with pytest.raises(TypeError, match=r"f\(\) missing 1 required positional argument: 'b'"):
        f(1)
    with pytest.raises(TypeError, match=r"f\(\) takes 2 positional arguments but 3 were given"):
        f(1, 2, 3)


def test_signature_mismatch_is_type_error():
    f = kiln.jit(kiln.float64(kiln.float64[:]))(lambda a: a[0])
    with pytest.raises(TypeError, match="no matching definition"):
        f(np.zeros(3, dtype=np.int32))


def test_exceptions_from_compiled_code_and_the_process_goes_on():
    @kiln.jit
    def f(n):
        if n > 2:
            raise ValueError("n is too large")
        if n < 0:
            raise KeyError
        return 10 // n
    with pytest.raises(ValueError, match="^n is too large$"):
        f(3)
    with pytest.raises(KeyError):
        f(-1)
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
        f(0)
    assert f(2) == 5


def test_boundscheck_raises_index_error():
    @kiln.jit(boundscheck=True)
    def f(a, i):
        return a[i]
    a = np.arange(3.0)
    assert f(a, -1) == 2.0
    with pytest.raises(IndexError, match="^index 3 is out of bounds for axis 0 with size 3$"):   # NumPy's words
        f(a, 3)
    with pytest.raises(IndexError, match="^index -4 is out of bounds for axis 0 with size 3$"):
        f(a, -4)


def test_boundscheck_names_the_axis_and_the_tuple():
    @kiln.jit(boundscheck=True)
    def cell(m, i, j):
        return m[i, j]

    @kiln.jit(boundscheck=True)
    def pick(t, i):
        return t[i]
    with pytest.raises(IndexError, match="^index 3 is out of bounds for axis 1 with size 3$"):
        cell(np.zeros((2, 3)), 1, 3)
    with pytest.raises(IndexError, match="^tuple index out of range$"):
        pick((1, 2, 3), 3)


def test_error_does_not_poison_the_dispatcher():
    @kiln.jit
    def f(x):
        return x + 1
    with pytest.raises(TypeError):
        f(b"a")
    with pytest.raises(kiln.TypingError, match="unsupported operand types for this operator: str and int64"):
        f("a")
    assert f(1) == 2


def test_unknown_options_are_refused():
    with pytest.raises(TypeError, match="unknown option"):
        kiln.jit(speed=11)


def test_return_in_try_finally_and_reading_a_caught_exception_are_unsupported_with_hints():
    @kiln.jit
    def f(n):
        try:
            return n + 1
        finally:
            n = 0

    @kiln.jit
    def g(n):
        try:
            n += 1
        except ValueError as exc:
            n = exc
        return n
    with pytest.raises(kiln.UnsupportedError) as info:
        f(1)
    assert "return, break or continue inside try ... finally is not supported in compiled code" in str(info.value)
    assert "Hint: Set a result and return after the try statement." in str(info.value)
    with pytest.raises(kiln.UnsupportedError) as info:
        g(1)
    assert "the caught exception can only be re-raised in compiled code" in str(info.value)
    lines = str(info.value).splitlines()
    src = next(i for i, line in enumerate(lines) if line.endswith("n = exc"))
    assert lines[src + 1].index("^") == lines[src].index("exc")


def test_try_in_a_cuda_kernel_is_refused_clearly():
    from kiln import cuda

    @cuda.jit
    def k(a):
        i = cuda.grid(1)
        try:
            a[i] = 1.0
        except Exception:
            a[i] = 2.0
    with pytest.raises(kiln.UnsupportedError, match="try / except is not supported on the cuda"):
        k[1, 4](np.zeros(4))


def test_bare_raise_outside_except_and_a_caught_name_that_is_a_variable():
    @kiln.jit
    def f(n):
        raise
    with pytest.raises(kiln.UnsupportedError, match="bare raise outside an except clause"):
        f(1)

    @kiln.jit
    def g(n):
        e = n
        try:
            e += 1
        except ValueError as e:
            pass
        return e
    with pytest.raises(kiln.UnsupportedError) as info:
        g(1)
    assert "the name of the caught exception is also a variable of the function" in str(info.value)
    assert "Hint: Give the exception a name of its own." in str(info.value)



def test_a_slice_object_is_an_index_only_and_assigned_once():
    def returned(a):
        s = slice(1, None)
        return s

    def reassigned(a):
        s = slice(1, None)
        s = 3
        return a[s]
    with pytest.raises(kiln.UnsupportedError, match="a slice object is used in compiled code only as an index"):
        kiln.njit(returned)(np.arange(3))
    with pytest.raises(kiln.UnsupportedError, match="s is assigned again"):
        kiln.njit(reassigned)(np.arange(3))
