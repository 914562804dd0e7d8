"""kiln.cuda.random: Numba's xoroshiro128+ generator, one state per thread.

create_xoroshiro128p_states fills the states in C (jump-ahead by 2^64 per
state) and copies them to the device in one transfer; the states and the
numbers drawn from them are Numba's, seed for seed.

The xoroshiro128p_* draw functions are device functions: kernels call
them (kiln.cuda.jit links their LLVM IR, _kiln.cuda_xoroshiro_ir()). Called
from Python on a host states array they compute the same numbers, which is
what the CUDA simulator and the tests use.
"""
import math

import numpy as np

import _kiln

from .devicearray import DeviceNDArray, to_device

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)
xoroshiro128p_type = xoroshiro128p_dtype

_MASK = (1 << 64) - 1
_TWO_PI_FLOAT32 = np.float32(2 * math.pi)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """n generator states on the device; state i starts i * 2^64 draws
    after state 0 (subsequence_start shifts them all)."""
    if n < 0:
        raise ValueError(f"number of states must be >= 0, not {n}")
    host = np.empty(n, dtype=xoroshiro128p_dtype)
    _kiln.cuda_xoroshiro_fill(host, int(seed), int(subsequence_start))
    return to_device(host, stream=stream)


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Re-seeds an existing states array (device or host) in place."""
    host = np.empty(states.shape[0], dtype=xoroshiro128p_dtype)
    _kiln.cuda_xoroshiro_fill(host, int(seed), int(subsequence_start))
    if isinstance(states, DeviceNDArray):
        states.copy_to_device(host, stream=stream)
    else:
        states[...] = host


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & _MASK


def xoroshiro128p_next(states, index):
    s0 = int(states[index]["s0"])
    s1 = int(states[index]["s1"])
    result = (s0 + s1) & _MASK
    s1 ^= s0
    states[index]["s0"] = _rotl(s0, 55) ^ s1 ^ ((s1 << 14) & _MASK)
    states[index]["s1"] = _rotl(s1, 36)
    return result


def xoroshiro128p_uniform_float64(states, index):
    return np.float64((xoroshiro128p_next(states, index) >> 11) * (1.0 / (1 << 53)))


def xoroshiro128p_uniform_float32(states, index):
    return np.float32(xoroshiro128p_uniform_float64(states, index))


def xoroshiro128p_normal_float64(states, index):
    u1 = xoroshiro128p_uniform_float64(states, index)
    u2 = xoroshiro128p_uniform_float64(states, index)
    return np.float64(math.sqrt(-2.0 * math.log(u1)) * math.cos(2 * math.pi * u2))


def xoroshiro128p_normal_float32(states, index):
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    with np.errstate(divide="ignore"):
        return np.sqrt(np.float32(-2.0) * np.log(u1)) * np.cos(_TWO_PI_FLOAT32 * u2)


# Inside kernels these are the device functions of gpu/xoroshiro.c (gpu/intrinsics.c).
for _f in (xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64, xoroshiro128p_normal_float32,
           xoroshiro128p_normal_float64):
    _f._kiln_builtin = "cuda.random." + _f.__name__
