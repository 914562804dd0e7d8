"""PTX from LLVM: every IR kernel becomes PTX that NVIDIA's ptxas accepts
for sm_90, libdevice math is linked in and resolved, and bad IR is a clear
error. Runs on any machine; the ptxas checks need ptxas (CUDA toolkit)."""
import os
import shutil
import subprocess

import pytest

import _kiln
import ir_kernels
from kiln.cuda import CudaCompileError, compile_ptx_from_ir


def find_ptxas():
    for candidate in (shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


PTXAS = find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas (CUDA toolkit) not installed")
needs_libdevice = pytest.mark.skipif(_kiln.cuda_libdevice_path() is None,
                                     reason="libdevice.10.bc (CUDA toolkit) not installed")

KERNELS = {
    "add": (ir_kernels.ADD, ()),
    "histogram": (ir_kernels.HISTOGRAM, ()),
    "reverse_blocks": (ir_kernels.REVERSE_DYNAMIC, ()),
    "empty": (ir_kernels.EMPTY, ()),
    "wild_store": (ir_kernels.FAULT, ()),
}
MATH_KERNELS = {
    "sin_scale": (ir_kernels.SIN, ()),
    "uniform": (ir_kernels.UNIFORM, (_kiln.cuda_xoroshiro_ir(True),)),
    "normal": (ir_kernels.NORMAL, (_kiln.cuda_xoroshiro_ir(True),)),
}


def assemble(ptx, tmp_path, arch="sm_90"):
    source = tmp_path / "kernel.ptx"
    source.write_text(ptx)
    done = subprocess.run([PTXAS, f"-arch={arch}", "-v", "-o", str(tmp_path / "kernel.cubin"), str(source)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"ptxas rejected the PTX:\n{done.stderr}\n{ptx}"
    return done.stderr


def check_ptx(name, ptx):
    assert ".target sm_90" in ptx
    assert f".entry {name}(" in ptx
    # libdevice was linked and NVVM reflect ran: nothing left to resolve.
    assert ".extern .func" not in ptx
    assert "__nvvm_reflect" not in ptx


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_kernel_ptx(name, tmp_path):
    ir, link = KERNELS[name]
    ptx = compile_ptx_from_ir(ir, [name], link=link, cc=90)
    check_ptx(name, ptx)
    if PTXAS:
        assemble(ptx, tmp_path)


@needs_libdevice
@pytest.mark.parametrize("name", sorted(MATH_KERNELS))
def test_math_kernel_ptx_links_libdevice(name, tmp_path):
    ir, link = MATH_KERNELS[name]
    ptx = compile_ptx_from_ir(ir, [name], link=link, cc=90)
    check_ptx(name, ptx)
    # Only the kernel stays visible: libdevice's other functions are gone.
    assert ".visible .func" not in ptx and ".func __nv_" not in ptx
    if PTXAS:
        assemble(ptx, tmp_path)


@needs_ptxas
def test_ptx_assembles_for_older_sm(tmp_path):
    ptx = compile_ptx_from_ir(ir_kernels.ADD, "add", cc=(8, 0))
    assert ".target sm_80" in ptx
    assemble(ptx, tmp_path, arch="sm_80")


@needs_ptxas
def test_shared_memory_kernel_uses_shared_and_atomics(tmp_path):
    ptx = compile_ptx_from_ir(ir_kernels.HISTOGRAM, "histogram", cc=90)
    assert ".shared" in ptx and "bar.sync" in ptx and "atom.shared.add" in ptx
    report = assemble(ptx, tmp_path)
    assert "64 bytes smem" in report


def test_grid_stride_add_is_straight_global_loads():
    ptx = compile_ptx_from_ir(ir_kernels.ADD, "add", cc=90)
    assert "ld.global" in ptx and "st.global.f32" in ptx
    assert ".local" not in ptx  # no stack frame for a simple kernel


def test_gpu_compiles_print_nothing_after_cpu_compiles(capfd):
    """The CPU compiler turns on LLVM's vectorizer remarks for its report;
    they must not spill onto stderr (a terminal, or the kernel's log) from
    the NVPTX pipeline, where nobody reads them."""
    import kiln

    @kiln.jit
    def triangle(n):
        s = 0
        for i in range(n):
            s += i
        return s
    assert triangle(4) == 6
    capfd.readouterr()
    assert "ld.global" in compile_ptx_from_ir(ir_kernels.ADD, "add")
    assert capfd.readouterr().err == ""


def test_invalid_ir_is_a_compile_error():
    with pytest.raises(CudaCompileError, match="not valid LLVM IR"):
        compile_ptx_from_ir("define void @k( {", "k")


def test_ir_that_does_not_verify_is_a_compile_error():
    bad = "define i32 @k() {\n  ret void\n}\n"
    with pytest.raises(CudaCompileError):
        compile_ptx_from_ir(bad, "k")


def test_unknown_kernel_name_is_a_value_error():
    with pytest.raises(ValueError, match="no function 'nope'"):
        compile_ptx_from_ir(ir_kernels.ADD, ["nope"])


def test_kernels_must_be_strings():
    with pytest.raises(TypeError):
        compile_ptx_from_ir(ir_kernels.ADD, [42])


def test_xoroshiro_ir_for_the_cpu_parses_and_uses_no_libdevice():
    cpu_ir = _kiln.cuda_xoroshiro_ir(False)
    assert "__nv_" not in cpu_ir and "@llvm.log.f32" in cpu_ir
    assert "@__nv_logf" in _kiln.cuda_xoroshiro_ir(True)


@needs_libdevice
def test_math_function_libdevice_lacks_is_a_compile_error():
    ir = ir_kernels.SIN.replace("__nv_sin", "__nv_no_such_function")
    with pytest.raises(CudaCompileError, match="libdevice has no function __nv_no_such_function"):
        compile_ptx_from_ir(ir, "sin_scale")
    assert ".entry sin_scale(" in compile_ptx_from_ir(ir_kernels.SIN, "sin_scale")  # nothing stuck


@needs_libdevice
@needs_ptxas
@pytest.mark.parametrize("fn", ["__nv_exp", "__nv_atan", "__nv_pow", "__nv_fabs"])
def test_each_kernel_links_only_the_math_it_calls(fn, tmp_path):
    ir = ir_kernels.SIN.replace("declare double @__nv_sin(double)", f"declare double @{fn}(double, double)"
                                if fn == "__nv_pow" else f"declare double @{fn}(double)")
    ir = ir.replace("call double @__nv_sin(double %vx)", f"call double @{fn}(double %vx, double %vx)"
                    if fn == "__nv_pow" else f"call double @{fn}(double %vx)")
    ptx = compile_ptx_from_ir(ir, "sin_scale")
    check_ptx("sin_scale", ptx)
    assemble(ptx, tmp_path)
