"""print() in kernels and device functions, as numba-cuda formats it (ints
%lld, floats %f, string constants as they are), through vprintf on the GPU
and to sys.stdout on the simulator; what a kernel cannot print is refused
at its line."""
import numpy as np
import pytest

import kiln
from kiln import cuda
from test_cuda_jit import run_ptxas
from test_gpu_ptx import needs_ptxas


@cuda.jit
def show(a, small):
    i = cuda.grid(1)
    if i < a.shape[0]:
        print("thread", i, "has", a[i], a[i] > 1.0, small[i], "(100%)")


@cuda.jit(device=True)
def report(x):
    print("x is", x, sep=": ", end=";\n")


@cuda.jit
def calls_report(a):
    report(a[cuda.grid(1)])


def printed_lines(capfd):
    cuda.synchronize()   # a GPU's printf output is flushed then
    return capfd.readouterr().out.splitlines()


def test_a_kernel_prints_each_thread_as_numba_cuda_formats_it(capfd):
    show[2, 2](np.arange(4.0), np.arange(4, dtype=np.uint8))
    lines = printed_lines(capfd)
    expected = [f"thread {i} has {i:f} {i > 1} {i} (100%)" for i in range(4)]
    if not cuda.is_available():
        assert lines == expected   # the simulator's threads print in order
    assert sorted(lines) == expected


def test_a_device_function_prints_with_sep_and_end(capfd):
    calls_report[1, 2](np.array([1.5, -2.25]))
    assert sorted(printed_lines(capfd)) == ["x is: -2.250000;", "x is: 1.500000;"]


@needs_ptxas
def test_the_ptx_calls_vprintf_and_ptxas_accepts_it(tmp_path):
    ptx = show.inspect_ptx()
    assert ".extern .func  (.param .b32 func_retval0) vprintf" in ptx
    run_ptxas(ptx, tmp_path)


@cuda.jit
def prints_an_array(a):
    print(a)


@cuda.jit
def prints_with_a_computed_sep(a):
    print(a[0], a[1], sep="," if a[0] > 0 else ";")


@pytest.mark.parametrize("kernel,args,what", [
    (prints_an_array, (np.zeros(3),), r"print\(\) on the cuda(-simulator)? target cannot print array"),
    (prints_with_a_computed_sep, (np.zeros(3),), "cannot print a sep or end that is not a string constant"),
])
def test_what_a_kernel_cannot_print_is_refused_at_its_line(kernel, args, what):
    with pytest.raises(kiln.UnsupportedError, match=what) as e:
        kernel[1, 1](*args)
    assert "line" in str(e.value) and "In a kernel, print numbers, bools and string constants" in str(e.value)
