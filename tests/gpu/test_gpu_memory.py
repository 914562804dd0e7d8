"""kiln.cuda's memory API as a user sees it: device arrays, copies both
ways, views, pinned arrays, streams, events, records, random states. Runs in
whichever mode the process has: on the simulator without a GPU (device
memory is host memory), for real on a GPU."""
import os
import subprocess
import sys

import numpy as np
import pytest

from kiln import cuda

rng = np.random.default_rng(7)

ARRAYS = {
    "float32": rng.standard_normal(1000).astype(np.float32),
    "float64 2-D": rng.standard_normal((13, 7)),
    "int64 negative": rng.integers(-2**62, 2**62, size=257),
    "int8": rng.integers(-128, 127, size=33).astype(np.int8),
    "complex128": rng.standard_normal(10) + 1j * rng.standard_normal(10),
    "bool": rng.integers(0, 2, size=9).astype(bool),
    "3-D float32": rng.standard_normal((4, 5, 6)).astype(np.float32),
    "empty": np.empty((0, 3), dtype=np.float32),
    "F-order": np.asfortranarray(rng.standard_normal((5, 8))),
    "non-contiguous": rng.standard_normal((10, 10))[::2, 1::3],
    "structured": np.array([(1, 2.5), (-3, 4.0)], dtype=[("a", np.int32), ("b", np.float64)]),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_round_trip(name):
    host = ARRAYS[name]
    device = cuda.to_device(host)
    assert device.shape == host.shape and device.dtype == host.dtype
    assert device.size == host.size and device.ndim == host.ndim and device.nbytes == host.nbytes
    back = device.copy_to_host()
    np.testing.assert_array_equal(back, host)
    assert back.shape == host.shape and back.dtype == host.dtype


def test_copy_to_host_into_given_array():
    host = ARRAYS["float64 2-D"]
    device = cuda.to_device(host)
    out = np.full_like(host, np.nan)
    assert device.copy_to_host(out) is out
    np.testing.assert_array_equal(out, host)
    strided = np.full((13, 14), np.nan)[:, ::2]  # a destination that is a view
    device.copy_to_host(strided)
    np.testing.assert_array_equal(strided, host)


def test_copy_to_host_rejects_wrong_shape_dtype_and_read_only():
    device = cuda.to_device(np.arange(6.0))
    with pytest.raises(ValueError, match="shape"):
        device.copy_to_host(np.empty(5))
    with pytest.raises(ValueError, match="dtype"):
        device.copy_to_host(np.empty(6, dtype=np.float32))
    read_only = np.empty(6)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        device.copy_to_host(read_only)
    np.testing.assert_array_equal(device.copy_to_host(), np.arange(6.0))  # nothing lost


KEYS = [
    np.s_[2:9], np.s_[::-1], np.s_[1:, ::-2], np.s_[3], np.s_[-1, 2:], np.s_[..., 1],
    np.s_[None, 2:4], np.s_[::3, ::4], np.s_[5:2], np.s_[:, -3:-1],
]


@pytest.mark.parametrize("key", KEYS, ids=[str(k) for k in KEYS])
def test_views_match_numpy(key):
    host = np.arange(12 * 10, dtype=np.int64).reshape(12, 10) - 60
    device = cuda.to_device(host)
    view = device[key]
    expected = host[key]
    assert view.shape == expected.shape and view.strides == expected.strides
    np.testing.assert_array_equal(view.copy_to_host(), expected)
    np.testing.assert_array_equal(np.asarray(view), expected)


def test_element_index_gives_the_value():
    host = np.arange(20.0).reshape(4, 5)
    device = cuda.to_device(host)
    assert device[2, 3] == 13.0 and device[-1, -1] == 19.0
    with pytest.raises(IndexError):
        device[4, 0]


def test_fancy_indexing_is_refused():
    device = cuda.to_device(np.arange(10))
    with pytest.raises(TypeError, match="fancy"):
        device[[1, 2]]


def test_setitem_writes_only_the_view():
    host = np.zeros((6, 6), dtype=np.float32)
    device = cuda.to_device(host)
    device[1::2, ::3] = 5
    device[0] = np.arange(6, dtype=np.float32)
    host[1::2, ::3] = 5
    host[0] = np.arange(6)
    np.testing.assert_array_equal(device.copy_to_host(), host)


def test_copy_to_device_into_a_strided_view_keeps_the_rest():
    host = np.arange(40.0).reshape(8, 5)
    device = cuda.to_device(host)
    device[::-2, 1:4].copy_to_device(np.full((4, 3), -1.0))
    host[::-2, 1:4] = -1.0
    np.testing.assert_array_equal(device.copy_to_host(), host)


def test_copy_to_device_checks_dtype():
    device = cuda.device_array(4, dtype=np.int32)
    with pytest.raises(TypeError, match="dtype"):
        device.copy_to_device(np.zeros(4, dtype=np.float64))


def test_device_to_device_copy():
    source = cuda.to_device(np.arange(100, dtype=np.int32))
    target = cuda.device_array_like(source)
    target.copy_to_device(source)
    np.testing.assert_array_equal(target.copy_to_host(), np.arange(100))
    assert cuda.to_device(source) is source  # already on the device: no copy


def test_to_device_into_existing_array():
    target = cuda.device_array(5, dtype=np.float64)
    assert cuda.to_device(np.arange(5.0), to=target) is target
    np.testing.assert_array_equal(target.copy_to_host(), np.arange(5.0))


def test_device_array_and_like():
    d = cuda.device_array((3, 4), dtype=np.float32)
    assert d.shape == (3, 4) and d.dtype == np.float32 and d.is_c_contiguous()
    f = cuda.device_array((3, 4), order="F")
    assert f.dtype == np.float64 and f.is_f_contiguous() and f.strides == (8, 24)
    like = cuda.device_array_like(np.asfortranarray(np.zeros((2, 7), dtype=np.int16)))
    assert like.shape == (2, 7) and like.dtype == np.int16 and like.is_f_contiguous()
    assert cuda.device_array(7).shape == (7,)
    with pytest.raises(ValueError, match="negative"):
        cuda.device_array(-1)


def test_cuda_array_interface():
    host = np.arange(24, dtype=np.float32).reshape(4, 6)
    device = cuda.to_device(host)
    cai = device.__cuda_array_interface__
    assert cai["shape"] == (4, 6) and cai["typestr"] == "<f4" and cai["version"] == 3
    assert cai["strides"] is None and cai["data"][0] == device.device_pointer and cai["data"][1] is False
    view = device[:, 1::2]
    vcai = view.__cuda_array_interface__
    assert vcai["strides"] == (24, 8)
    assert vcai["data"][0] == device.device_pointer + 4
    assert cuda.is_cuda_array(device) and not cuda.is_cuda_array(host)


def test_reshape_and_ravel():
    host = np.arange(24, dtype=np.int32)
    device = cuda.to_device(host)
    np.testing.assert_array_equal(device.reshape(4, 6).copy_to_host(), host.reshape(4, 6))
    np.testing.assert_array_equal(device.reshape((2, -1, 3)).copy_to_host(), host.reshape(2, -1, 3))
    np.testing.assert_array_equal(device.reshape(4, 6).ravel().copy_to_host(), host)
    with pytest.raises(ValueError, match="cannot reshape"):
        device.reshape(5, 5)
    with pytest.raises(NotImplementedError, match="non-contiguous"):
        device.reshape(4, 6)[:, ::2].reshape(12)


def test_pinned_array():
    pinned = cuda.pinned_array((64, 3), dtype=np.float32)
    assert pinned.shape == (64, 3) and pinned.dtype == np.float32 and pinned.flags.writeable
    pinned[...] = rng.standard_normal((64, 3))
    device = cuda.to_device(pinned)
    out = cuda.pinned_array_like(pinned)
    device.copy_to_host(out)
    np.testing.assert_array_equal(out, pinned)


def test_stream_copies_and_synchronize():
    s = cuda.stream()
    host = cuda.pinned_array(1000, dtype=np.float64)
    host[:] = np.linspace(-1, 1, 1000)
    device = cuda.to_device(host, stream=s)
    out = cuda.pinned_array_like(host)
    device.copy_to_host(out, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out, host)
    with cuda.auto_synchronize(cuda.stream()) as t:
        cuda.to_device(host, stream=t)
    cuda.synchronize()
    with pytest.raises(TypeError, match="stream"):
        cuda.to_device(host, stream="fast")


def test_events_time_work():
    start, end = cuda.event(), cuda.event()
    start.record()
    cuda.to_device(np.zeros(1 << 16))
    end.record()
    end.synchronize()
    assert end.query()
    ms = start.elapsed_time(end)
    assert ms >= 0 and ms == pytest.approx(cuda.event_elapsed_time(start, end), abs=1e-3)


def test_event_errors():
    never, recorded = cuda.event(), cuda.event()
    recorded.record()
    with pytest.raises(ValueError, match="never recorded"):
        never.elapsed_time(recorded)
    with pytest.raises(TypeError):
        recorded.elapsed_time(3)
    untimed = cuda.event(timing=False)
    untimed.record()
    with pytest.raises(ValueError, match="timing=False"):
        recorded.elapsed_time(untimed)


def test_transfer_records():
    cuda.take_records()
    host = np.zeros(12345, dtype=np.uint8)
    device = cuda.to_device(host)
    device.copy_to_host()
    transfers = cuda.take_records()["transfers"]
    assert [(t["direction"], t["bytes"]) for t in transfers] == [("htod", 12345), ("dtoh", 12345)]
    assert all(t["seconds"] >= 0 for t in transfers)
    assert cuda.set_profiling(False) is True
    try:
        cuda.to_device(host)
        assert cuda.take_records()["transfers"] == []
    finally:
        cuda.set_profiling(True)


def reference_states(n, seed, subsequence_start=0):
    """xoroshiro128+ states as Numba makes them, in plain Python."""
    mask = (1 << 64) - 1

    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & mask

    def step(s):
        s0, s1 = s
        s1 ^= s0
        return [rotl(s0, 55) ^ s1 ^ ((s1 << 14) & mask), rotl(s1, 36)]

    def jump(s):
        t = [0, 0]
        for word in (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922):
            for bit in range(64):
                if word >> bit & 1:
                    t = [t[0] ^ s[0], t[1] ^ s[1]]
                s = step(s)
        return t

    z = (seed + 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    z ^= z >> 31
    s = [z, z]
    for _ in range(subsequence_start):
        s = jump(s)
    states = []
    for i in range(n):
        if i:
            s = jump(s)
        states.append(tuple(s))
    return states


@pytest.mark.parametrize("n,seed,start", [(1, 0, 0), (7, 1, 0), (5, 2**64 - 1, 3), (0, 5, 0), (9, -1, 0)])
def test_xoroshiro_states_match_numba_algorithm(n, seed, start):
    states = cuda.random.create_xoroshiro128p_states(n, seed=seed, subsequence_start=start)
    assert states.dtype == cuda.random.xoroshiro128p_dtype and states.shape == (n,)
    host = states.copy_to_host()
    got = [(int(a), int(b)) for a, b in zip(host["s0"], host["s1"])]
    assert got == reference_states(n, seed % 2**64, start)


def test_xoroshiro_draws_are_in_range_and_advance_the_state():
    host = cuda.random.create_xoroshiro128p_states(4, seed=42).copy_to_host()
    before = host.copy()
    u = [cuda.random.xoroshiro128p_uniform_float64(host, 2) for _ in range(200)]
    assert all(0.0 <= x < 1.0 for x in u) and len(set(u)) == 200
    assert (host[[0, 1, 3]] == before[[0, 1, 3]]).all() and host[2] != before[2]
    normals = np.array([cuda.random.xoroshiro128p_normal_float64(host, 0) for _ in range(2000)])
    assert abs(normals.mean()) < 0.1 and 0.9 < normals.std() < 1.1


def test_init_states_in_place():
    states = cuda.device_array(6, dtype=cuda.random.xoroshiro128p_dtype)
    cuda.random.init_xoroshiro128p_states(states, seed=3)
    fresh = cuda.random.create_xoroshiro128p_states(6, seed=3)
    np.testing.assert_array_equal(states.copy_to_host(), fresh.copy_to_host())


def test_simulator_can_be_forced_and_import_never_fails():
    code = ("from kiln import cuda; import numpy as np;"
            "print(cuda.is_available(), cuda.is_simulator(), repr(cuda.simulator_reason()), len(cuda.gpus));"
            "d = cuda.to_device(np.arange(3)); print(d.copy_to_host().tolist(), cuda.detect())")
    env = dict(os.environ, KILN_CUDA_SIMULATOR="1", PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "False True 'KILN_CUDA_SIMULATOR=1' 0"
    assert "simulator" in lines[1] and lines[-1] == "[0, 1, 2] False"


def test_detect_and_gpus_agree_with_is_available():
    assert cuda.is_available() == (len(cuda.gpus) > 0)
    if not cuda.is_available():
        assert cuda.simulator_reason()
        for needs_a_gpu in (cuda.get_current_device, cuda.current_context, lambda: cuda.select_device(0)):
            with pytest.raises(cuda.CudaSupportError, match="no GPU"):
                needs_a_gpu()


def test_to_host_writes_back_into_the_array_it_came_from():
    image = np.zeros((6, 8), dtype=np.uint8)
    d_image = cuda.to_device(image)  # seed 000's Mandelbrot: to_device, kernel, d_image.to_host()
    d_image[2:4] = 7
    d_image.to_host()
    expected = np.zeros((6, 8), dtype=np.uint8)
    expected[2:4] = 7
    np.testing.assert_array_equal(image, expected)
    strided = np.zeros((4, 10))[:, ::3]
    d = cuda.to_device(strided)
    d[:, 1] = -1.5
    d.to_host()
    assert (strided[:, 1] == -1.5).all() and (strided[:, 0] == 0).all()
    with pytest.raises(ValueError, match="copy_to_host"):
        cuda.device_array(3).to_host()
