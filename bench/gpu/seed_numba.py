"""The seed kernels of tests/gpu/seed_kernels.py under numba-cuda, for
bench/gpu_vs_numba_cuda.py: the very same Python functions, their globals
pointing at numba instead of kiln, so both compilers get the same source."""
import os
import types

import seed_kernels as sk


def _rebind(f, **names):
    """f with its globals (kiln's cuda, types and device functions) replaced."""
    g = dict(f.__globals__)
    g.update(names)
    return types.FunctionType(f.__code__, g, f.__name__, f.__defaults__, f.__closure__)


def make(ncuda):
    import numba

    ns = types.SimpleNamespace()
    base = {"cuda": ncuda, "float32": numba.float32, "uint8": numba.uint8, "uint32": numba.uint32}
    mandel_gpu = ncuda.jit("uint32(float32, float32, uint32)", device=True)(_rebind(sk.mandel, **base))
    polar = ncuda.jit(device=True)(_rebind(sk.polar_to_cartesian.py_func, **base))
    base.update(mandel_gpu=mandel_gpu, polar_to_cartesian=polar)

    @ncuda.jit
    def empty(x):
        pass
    ns.empty = empty
    for name in ("add_kernel", "matmul", "fast_matmul"):
        setattr(ns, name, ncuda.jit(_rebind(getattr(sk, name).py_func, **base)))
    ns.create_fractal_kernel = ncuda.jit("void(float32, float32, float32, float32, uint8[:,:], uint32)")(
        _rebind(sk.create_fractal_kernel.py_func, **base))
    ns.gaussian_pdf = ns.l2_norm = ns.matmulcore = None
    if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":   # Numba's simulator has no CUDA ufuncs (dry runs)
        ns.gaussian_pdf = numba.vectorize(["float32(float32, float32, float32)"], target="cuda")(
            _rebind(sk.gaussian_pdf.py_func, **base))
        ns.l2_norm = numba.guvectorize(["(float32[:], float32[:])"], "(i)->()", target="cuda")(
            _rebind(sk.l2_norm.py_func, **base))
        ns.matmulcore = numba.guvectorize(["void(float32[:,:], float32[:,:], float32[:,:])"],
                                          "(m,n),(n,p)->(m,p)", target="cuda")(_rebind(sk.matmulcore.py_func, **base))
    return ns
