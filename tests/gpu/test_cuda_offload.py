"""kiln.jit(target='cuda'): seed 000's average_sqrt_cuda as the course
writes it, maps and sums over ranges and arrays run as kernels (on the GPU
or the simulator) and agree with NumPy, their launches recorded for the
footer; loops that cannot run on a GPU are refused at their line with the
reason, and a kernel's compile error names the user's file and line."""
import math

import numpy as np
import pytest

import kiln
from kiln import cuda, jit

RNG = np.random.default_rng(21)


@jit(target ="cuda")
def average_sqrt_cuda(Mat, avg):
    """
        Average of the square root of all the entries of an array using loops.
    """
    avg = 0.
    for x in Mat:
        avg += math.sqrt(x)
    avg = avg/len(Mat)


@jit(target="cuda")
def average_sqrt(Mat):
    avg = 0.
    for x in Mat:
        avg += math.sqrt(x)
    return avg / len(Mat)


@jit(target="cuda")
def axpy_then_sum(a, x, y, out):
    for i in range(len(x)):
        t = a * x[i]
        out[i] = t + y[i]
    total = 0.0
    count = 0
    for i in range(1, len(x) - 1):
        total -= out[i]
        count += 1
    return total, count


@jit(target="cuda")
def outer(u, v, out):
    for i in range(u.shape[0]):
        for j in range(v.shape[0]):
            out[i, j] = u[i] * v[j]


def test_seed_000_average_sqrt_cuda_runs_its_loop_as_a_kernel():
    mat = RNG.random(100_000)
    cuda.take_records()
    assert average_sqrt_cuda(mat, 0.) is None   # as the course wrote it: nothing returned
    launches = cuda.take_records()["launches"]
    assert [l["kernel"] for l in launches] == ["average_sqrt_cuda_loop0"]
    assert launches[0]["block"] == (256, 1, 1)
    assert average_sqrt(mat) == pytest.approx(np.sqrt(mat).mean(), rel=1e-12)
    assert average_sqrt.__doc__ is None and average_sqrt_cuda.__doc__.strip().startswith("Average of the square")


def test_a_map_then_a_sum_over_a_range_agree_with_numpy():
    x, y = RNG.standard_normal(1000), RNG.standard_normal(1000)
    out = np.zeros(1000)
    total, count = axpy_then_sum(2.5, x, y, out)
    np.testing.assert_allclose(out, 2.5 * x + y)
    assert total == pytest.approx(-(2.5 * x + y)[1:-1].sum(), rel=1e-9)   # -= subtracts
    assert count == 998 and isinstance(count, int)


def test_rows_of_a_two_dimensional_map_and_an_empty_range():
    u, v = RNG.standard_normal(7), RNG.standard_normal(5)
    out = np.zeros((7, 5))
    outer(u, v, out)
    np.testing.assert_allclose(out, np.outer(u, v))
    assert axpy_then_sum(1.0, np.zeros(0), np.zeros(0), np.zeros(0)) == (0.0, 0)


def refused(source):
    """The UnsupportedError decorating `source`'s function f raises."""
    namespace = {"jit": jit, "np": np, "math": math}
    filename = f"<offload test {abs(hash(source))}>"
    import linecache
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    with pytest.raises(kiln.UnsupportedError) as e:
        exec(compile(source, filename, "exec"), namespace)
    return str(e.value)


@pytest.mark.parametrize("body,line,reason", [
    ("    for i in range(1, len(a)):\n        a[i] = a[i - 1] + a[i]\n", 4,
     "the loop reads a[i - 1], which another iteration writes: a loop-carried dependence"),
    ("    s = 0.0\n    for i in range(len(a)):\n        s = a[i]\n    return s\n", 5,
     "the loop assigns s, a variable of the function"),
    ("    p = 1.0\n    for x in a:\n        p *= x\n    return p\n", 5,
     "p is updated by another operation than += or -=: on a GPU, only sums are combined across threads"),
    ("    s = 0.0\n    for x in a:\n        s += x * s\n    return s\n", 5,
     "the loop reads s, which it sums into"),
    ("    for i in range(len(a)):\n        if a[i] < 0:\n            break\n", 5, "a GPU loop cannot stop early"),
    ("    for i in range(0, len(a), 2):\n        a[i] = 0\n", 3,
     "a GPU loop runs over range(stop) or range(start, stop), one step at a time"),
    ("    for i in range(len(a)):\n        a[0] = a[i]\n", 4, "the loop writes an element other than the one"),
    ("    if a.shape[0]:\n        for i in range(len(a)):\n            a[i] = 0\n", 4,
     "only the for loops at the top of the function's body run on the GPU"),
    ("    for i in range(len(a)):\n        i = i // 2\n        a[i] += 1.0\n", 4,
     "the loop assigns its own variable i"),
    ("    for i in range(len(a)):\n        v = a[i]\n    return v\n", 5,
     "v is set inside the GPU loop at line 3 and read here: no value comes out of a GPU loop but its sums"),
])
def test_a_loop_a_gpu_cannot_run_is_refused_at_its_line(body, line, reason):
    message = refused("@jit(target='cuda')\ndef f(a):\n" + body)
    assert f"in function 'f' (<offload test" in message and f", line {line}, col " in message, message
    assert "kiln.jit(target='cuda') cannot run this loop on the GPU: " + reason in message, message
    assert "\nHint: " in message


@jit(target="cuda")
def int_start_float_sum(x):
    acc = 0
    for i in range(len(x)):
        acc += x[i]
    return acc


@jit(target="cuda")
def two_updates(a, b):
    acc = 0.0
    for i in range(
            len(a)):   # a for header over two lines
        acc += a[i]
        acc -= b[i]
    return acc


@jit(target="cuda")
def copy_shifted(dst, src):
    for i in range(len(dst)):
        dst[i] = src[i]


@jit(target="cuda")
def calls_a_helper_defined_later(a, out):
    for i in range(len(a)):
        out[i] = helper_defined_later(a[i])


@cuda.jit(device=True)
def helper_defined_later(x):
    return 2 * x


def test_a_sum_started_as_an_int_that_adds_floats_is_a_float():
    assert int_start_float_sum(np.full(1000, 0.5)) == 500.0
    total = int_start_float_sum(np.arange(10))
    assert total == 45 and isinstance(total, int)


def test_several_updates_of_one_sum_and_a_header_over_lines():
    a, b = RNG.standard_normal(100), RNG.standard_normal(100)
    assert two_updates(a, b) == pytest.approx((a - b).sum(), rel=1e-9)


def test_arrays_written_and_read_that_overlap_are_refused_at_the_call():
    a = np.arange(10.0)
    with pytest.raises(ValueError, match="the GPU loop writes dst and reads src, which share memory"):
        copy_shifted(a[:-1], a[1:])
    b = np.zeros(10)
    copy_shifted(b, a)
    np.testing.assert_array_equal(b, a)


def test_globals_are_the_modules_own_at_the_first_call():
    out = np.zeros(4)
    calls_a_helper_defined_later(np.arange(4.0), out)
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0, 6.0])


@jit(target="cuda")
def writes_from_a_negative_start(a):
    for i in range(-2, 2):
        a[i] = i


def test_a_negative_start_of_a_loop_that_writes_is_refused_at_the_call():
    with pytest.raises(ValueError, match="the GPU loop's range starts at -2: a negative index wraps"):
        writes_from_a_negative_start(np.zeros(4))


@jit(target="cuda")
def prints_an_array(a, out):
    for i in range(len(a)):
        print(a)


def test_a_kernel_that_does_not_compile_names_the_users_file_and_line():
    with pytest.raises(kiln.UnsupportedError) as e:
        prints_an_array(np.zeros(3), np.zeros(3))
    first = prints_an_array.__wrapped__.__code__.co_firstlineno   # the decorator's line
    assert str(e.value).startswith(f"in function 'prints_an_array' ({__file__}, line {first + 3}, "), str(e.value)
    assert "cannot print array(float64, 1d, C)" in str(e.value)


def test_options_other_than_the_target_are_refused():
    with pytest.raises(TypeError, match=r"kiln.jit\(target='cuda'\): unknown option\(s\) parallel"):
        jit(target="cuda", parallel=True)
    with pytest.raises(ValueError, match="target must be 'cpu' or 'cuda', not 'tpu'"):
        jit(target="tpu")
