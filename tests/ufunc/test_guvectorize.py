"""kiln.guvectorize: generalized ufuncs with layouts like '(n)->()' and the
seed's '(m,n),(n,p)->(m,p)', checked against the Python kernel and NumPy
(loop dimensions broadcast, non-contiguous cores, out=, several dtypes,
cpu and parallel targets)."""
import numpy as np
import pytest

import kiln
from kiln.ufunc import parse_layout


@pytest.fixture(params=["cpu", "parallel"])
def target(request):
    return request.param


def matmul_kernel(a, b, out):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            out[i, j] = s


def total(x, res):
    s = 0
    for v in x:
        s += v
    res[0] = s


def shift(x, by, out):
    for i in range(x.shape[0]):
        out[i] = x[i] + by


def test_layout_numbers_dims_in_order_of_appearance():
    assert parse_layout("(m,n),(n,p)->(m,p)") == ([(0, 1), (1, 2)], [(0, 2)], 3)
    assert parse_layout("(n),()->(n)") == ([(0,), ()], [(0,)], 1)
    with pytest.raises(ValueError):
        parse_layout("(n)(m)")


def test_matmul_layout_of_the_seed(target):
    mm = kiln.guvectorize(["void(float64[:,:], float64[:,:], float64[:,:])"], "(m,n),(n,p)->(m,p)",
                          target=target)(matmul_kernel)
    assert isinstance(mm, np.ufunc) and mm.signature == "(m,n),(n,p)->(m,p)"
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(7, 3, 4)), rng.normal(size=(4, 5))   # b broadcast over the loop dim
    np.testing.assert_allclose(mm(a, b), a @ b, rtol=1e-12)
    at = rng.normal(size=(4, 6)).T     # a non-contiguous core (transposed), 6x4
    np.testing.assert_allclose(mm(at, b), at @ b, rtol=1e-12)
    out = np.zeros((7, 3, 5))
    assert mm(a, b, out) is out
    np.testing.assert_allclose(out, a @ b, rtol=1e-12)
    with pytest.raises(ValueError):
        mm(np.ones((3, 4)), np.ones((5, 2)))   # core dims disagree: NumPy's own check


def test_scalar_output_and_several_dtypes(target):
    tot = kiln.guvectorize(["void(int64[:], int64[:])", "void(float64[:], float64[:])"], "(n)->()",
                           target=target)(total)
    m = np.arange(-20, 40, dtype=np.int64).reshape(5, 12)
    np.testing.assert_array_equal(tot(m), m.sum(axis=1))
    assert tot(m).dtype == np.int64
    np.testing.assert_array_equal(tot(m.T), m.T.sum(axis=1))        # strided core
    f = np.linspace(0, 1, 30).reshape(3, 10)
    np.testing.assert_allclose(tot(f), f.sum(axis=1))
    np.testing.assert_array_equal(tot(np.empty((4, 0), dtype=np.int64)), np.zeros(4, dtype=np.int64))
    big = np.full((2, 3), 2**62, dtype=np.int64)
    np.testing.assert_array_equal(tot(big), big.sum(axis=1))        # wraps like NumPy


def test_scalar_input_parameter(target):
    sh = kiln.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)", target=target)(shift)
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(sh(x, np.array([[1.0], [2.0], [3.0]])[:, 0]), x + [[1.0], [2.0], [3.0]])
    np.testing.assert_array_equal(sh(x, -1.5), x - 1.5)


@pytest.mark.parametrize("threads", [1, 2, 6])
def test_parallel_gufunc_with_thread_counts(threads):
    before = kiln.get_num_threads()
    kiln.set_num_threads(threads)
    try:
        tot = kiln.guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="parallel")(total)
        x = np.random.default_rng(4).normal(size=(5001, 17))
        np.testing.assert_allclose(tot(x), x.sum(axis=1), rtol=1e-12)
    finally:
        kiln.set_num_threads(before)


def test_layout_and_signature_mismatches_are_clear():
    with pytest.raises(TypeError, match="operands"):
        kiln.guvectorize(["void(float64[:], float64[:])"], "(n),(n)->()")(total)
    with pytest.raises(TypeError, match="core dimension"):
        kiln.guvectorize(["void(float64[:,:], float64[:])"], "(n)->()")(total)
    with pytest.raises(TypeError, match="signatures"):
        kiln.guvectorize(total, "(n)->()")

    def returns_value(x, res):
        res[0] = x[0]
        return 1.0
    with pytest.raises(kiln.TypingError, match="must return None"):
        kiln.guvectorize([(kiln.float64[:], kiln.float64[:])], "(n)->()")(returns_value)


# ---- without signatures: compiled per operand dtypes on first use ----

def test_layout_only_compiles_per_dtypes_on_first_use(target):
    tot = kiln.guvectorize("(n)->()", target=target)(total)
    assert isinstance(tot, kiln.GUFunc) and tot.types == []
    m = np.arange(-20, 40, dtype=np.int64).reshape(5, 12)
    res = np.zeros(5, dtype=np.int64)
    assert tot(m, res) is res
    np.testing.assert_array_equal(res, m.sum(axis=1))
    f = np.linspace(-1, 1, 30).reshape(3, 10)[:, ::2]    # strided cores
    fres = np.zeros(3)
    tot(f, out=fres)
    np.testing.assert_allclose(fres, f.sum(axis=1), rtol=1e-13)
    # the int loop is used for ints even though a float loop now exists (no silent casting)
    big = np.full((2, 3), 2**62, dtype=np.int64)
    bres = np.zeros(2, dtype=np.int64)
    tot(big, bres)
    np.testing.assert_array_equal(bres, big.sum(axis=1))             # wraps like NumPy
    assert sorted(tot.types) == ["d->d", "l->l"]


def test_layout_only_matmul_and_scalar_input(target):
    mm = kiln.guvectorize([], "(m,n),(n,p)->(m,p)", target=target)(matmul_kernel)
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(4, 3, 2)).astype(np.float32), rng.normal(size=(2, 5)).astype(np.float32)
    out = np.zeros((4, 3, 5), dtype=np.float32)
    mm(a, b, out)
    np.testing.assert_allclose(out, a @ b, rtol=1e-5)
    sh = kiln.guvectorize("(n),()->(n)", target=target)(shift)
    x = np.arange(-6, 6).reshape(3, 4)
    got = np.zeros_like(x)
    sh(x, -2, got)
    np.testing.assert_array_equal(got, x - 2)
    empty = np.zeros((0, 4), dtype=np.int64)
    sh(empty, 3, empty)


def test_layout_only_needs_every_operand():
    tot = kiln.guvectorize("(n)->()")(total)
    with pytest.raises(TypeError, match=r"outputs included: call total\(inputs..., out\)"):
        tot(np.ones(3))
    with pytest.raises(ValueError, match="layout"):
        kiln.guvectorize("(n)->")
    with pytest.raises(TypeError, match="operands"):
        kiln.guvectorize("(n),(n)->()")(total)
