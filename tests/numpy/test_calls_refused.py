"""np.round, a.dtype, np.linalg.norm, np.isclose, np.nansum, np.flip,
np.diff, ..., a reduction's extra arguments, np.average, np.ptp,
np.bincount, np.interp, np.expand_dims, np.take, np.select, np.rot90,
np.intersect1d, np.ediff1d, np.hanning, np.unravel_index and np.linalg where compiled code refuses
them, with a message that says what to write instead; what they do
compile is in the corpus (corpus_np_ewise.py, corpus_np_create.py,
corpus_np_reduce.py)."""
import numpy as np
import pytest

import kiln


@kiln.njit
def float_decimals(a):
    return np.round(a, 1.5)


@kiln.njit
def round_bools(a):
    return np.round(a > 0)


@kiln.njit
def dtype_as_value(a):
    return a.dtype


@kiln.njit
def unknown_keyword(a):
    return np.round(a, mode=1)


@kiln.njit
def norm_of_order_zero_along(a):
    return np.linalg.norm(a, 0, axis=0)


@kiln.njit
def isclose_of_expressions(a):
    return np.isclose(np.random.random(a.shape[0]) * 2, a)


@kiln.njit
def nansum_along_axis(a):
    return np.nansum(a, axis=0)


@kiln.njit
def flip_axis_at_run_time(a, k):
    return np.flip(a, k)


@kiln.njit
def diff_of_expression(a):
    return np.diff(np.random.random(a.shape[0]) * 2)


@kiln.njit
def two_ellipses(a):
    return a[..., 0, ...]


@kiln.njit
def ellipsis_as_value(a):
    x = ...
    return a


def test_refusals_say_what_to_write():
    a = np.arange(-3.0, 3.0)
    with pytest.raises(kiln.TypingError, match="np.round takes decimals as an int, got float64"):
        float_decimals(a)
    with pytest.raises(kiln.TypingError, match="np.round of booleans gives float16 in NumPy") as e:
        round_bools(a)
    assert "a.astype(np.float64)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="a.dtype names a type here, not a value") as e:
        dtype_as_value(a)
    assert "np.empty(n, dtype=a.dtype)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.round takes the array, decimals and out= only"):
        unknown_keyword(a)
    with pytest.raises(kiln.TypingError, match=r"np.linalg.norm takes the array, ord=, and a constant axis= here") as e:
        norm_of_order_zero_along(a)
    assert "Give a constant int axis= for a norm of each line" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.isclose reads its operands more than once; one of these calls a function") as e:
        isclose_of_expressions(a)
    assert "Assign them to names first" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.nansum takes only the array here"):
        nansum_along_axis(a)
    with pytest.raises(kiln.TypingError, match="np.flip takes an array and a constant axis here") as e:
        flip_axis_at_run_time(a, 0)
    assert "::-1" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.diff reads its argument more than once; this one calls a function"):
        diff_of_expression(a)
    with pytest.raises(kiln.TypingError, match=r"an index can only have a single ellipsis \('...'\)"):
        two_ellipses(a.reshape(2, 3))
    with pytest.raises(kiln.TypingError, match=r"\.\.\. \(Ellipsis\) stands for axes in an array index only"):
        ellipsis_as_value(a)


@kiln.njit
def sum_with_dtype(a):
    return np.sum(a, dtype=np.float32)


@kiln.njit
def mean_keepdims(a):
    return a.mean(keepdims=True)


@kiln.njit
def sum_three_positional(a):
    return np.sum(a, 0, np.float32)


@kiln.njit
def weighted_average(a):
    return np.average(a, weights=a)


@kiln.njit
def ptp_of_expression(a):
    return np.ptp(np.random.random(a.shape[0]) + a)


@kiln.njit
def bincount_of_floats(a):
    return np.bincount(a)


@kiln.njit
def interp_complex(a):
    return np.interp(a, a.real, a)


@kiln.njit
def expand_dims_at_run_time(a, k):
    return np.expand_dims(a, k)


def test_refusals_of_what_compiled_code_would_otherwise_get_wrong():
    # a reduction's dtype=, keepdims= and extra arguments were once accepted and ignored
    a = np.arange(-3.0, 3.0)
    for fn in (sum_with_dtype, mean_keepdims, sum_three_positional):
        with pytest.raises(kiln.TypingError, match="takes the array and axis here") as e:
            fn(a)
        assert "a.astype(np.float64).sum()" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.average takes an array and axis here") as e:
        weighted_average(a)
    assert "np.sum(w * a) / np.sum(w)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.ptp reads its argument more than once; this one calls a function"):
        ptp_of_expression(a)
    with pytest.raises(kiln.TypingError, match="np.bincount takes a 1-d array of non-negative ints") as e:
        bincount_of_floats(a)
    assert "x.astype(np.int64)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.interp takes x \\(a number or a real array\\)"):
        interp_complex(a + 1j)
    with pytest.raises(kiln.TypingError, match="np.expand_dims takes an array and a constant axis here"):
        expand_dims_at_run_time(a, 0)


@kiln.njit
def cumsum_of_tuple(a):
    return np.cumsum(a.shape)


@kiln.njit
def tolist_of_matrix(a):
    return a.tolist()


def test_tuples_reduce_as_arrays_of_them_and_tolist_is_one_dimensional():
    m = np.zeros((2, 3))
    with pytest.raises(kiln.TypingError, match="np.cumsum takes a non-empty tuple of numbers and no axis here") as e:
        cumsum_of_tuple(m)
    assert "np.array(t)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="list\\(\\) takes a range, a 1-d array") as e:
        tolist_of_matrix(m)
    assert "a.tolist() is list(a)" in str(e.value)


@kiln.njit
def solve_complex(a, b):
    return np.linalg.solve(a, b)


@kiln.njit
def det_of_stack(a):
    return np.linalg.det(a)


def test_linalg_takes_real_matrices():
    with pytest.raises(kiln.TypingError, match="np.linalg.solve takes a 2-d real array and a 1-d or 2-d real array"):
        solve_complex(np.eye(2) * 1j, np.ones(2))
    with pytest.raises(kiln.TypingError, match="np.linalg.det takes a 2-d real array here") as e:
        det_of_stack(np.ones((3, 2, 2)))
    assert "stacks of matrices" in str(e.value)


@kiln.njit
def diag_of_cube(a):
    return np.diag(a)


@kiln.njit
def write_through_diagonal(a):
    d = a.diagonal()
    d[0] = 1.0


def test_diagonals_are_read_only_views_of_matrices():
    with pytest.raises(kiln.TypingError, match="np.diag takes a 1-d or 2-d array and an int k here"):
        diag_of_cube(np.zeros((2, 2, 2)))
    with pytest.raises(kiln.TypingError, match="cannot write to a read-only array"):
        write_through_diagonal(np.zeros((2, 2)))


@kiln.njit
def trapz_x_along_rows(a):
    x = np.arange(2.0)
    return np.trapz(a, x, axis=0)


@kiln.njit
def clip_one_bound(a):
    return a.clip(0)


def test_trapz_and_clip_method_limits():
    with pytest.raises(kiln.TypingError, match="np.trapz takes y, then x \\(along the last axis\\) or dx"):
        trapz_x_along_rows(np.zeros((2, 3)))
    with pytest.raises(kiln.TypingError, match="a.clip takes both bounds here"):
        clip_one_bound(np.zeros(3))


@kiln.njit
def repeated_axis(a):
    return np.transpose(a, (0, 0))


@kiln.njit
def axis_past_the_end(a):
    return np.swapaxes(a, 0, 2)


@kiln.njit
def axes_at_run_time(a, k):
    return a.transpose(k, 0)


def test_axes_are_constants_numpy_would_accept():
    m = np.zeros((2, 3))
    with pytest.raises(kiln.TypingError, match="repeated axis in transpose"):
        repeated_axis(m)
    with pytest.raises(kiln.TypingError, match="axis 2 is out of bounds for array of dimension 2"):
        axis_past_the_end(m)
    with pytest.raises(kiln.TypingError, match="transpose takes the axes as constant ints here"):
        axes_at_run_time(m, 1)


@kiln.njit
def nanmax_as_method(a):
    return a.nanmax()


def test_nanmax_is_a_function_as_in_numpy():
    with pytest.raises(kiln.TypingError, match="nanmax"):
        nanmax_as_method(np.zeros(3))


@kiln.njit
def append_along_axis(a):
    return np.append(a, a, axis=0)


@kiln.njit
def roll_two_axes(a):
    return np.roll(a, (1, 1), (0, 1))


def test_append_and_roll_limits():
    m = np.zeros((2, 2))
    with pytest.raises(kiln.TypingError, match="np.append takes two arrays or numbers, and no axis, here") as e:
        append_along_axis(m)
    assert "np.concatenate((a, b), axis)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.roll takes an array, an int shift and an int axis here"):
        roll_two_axes(m)


@kiln.njit
def meshgrid_of_matrices(a):
    return np.meshgrid(a, a)


def test_meshgrid_takes_vectors():
    with pytest.raises(kiln.TypingError, match="np.meshgrid takes one to three 1-d arrays") as e:
        meshgrid_of_matrices(np.zeros((2, 2)))
    assert "Ravel the inputs first." in str(e.value)


@kiln.njit
def svd_with(a, flag):
    return np.linalg.svd(a, compute_uv=flag)


@kiln.njit
def qr_raw(a):
    return np.linalg.qr(a, mode="raw")


@kiln.njit
def svd_hermitian(a):
    return np.linalg.svd(a, hermitian=True)


@kiln.njit
def eigh_uplo(a):
    return np.linalg.eigh(a, UPLO="X")


@kiln.njit
def cholesky_of_stack(a):
    return np.linalg.cholesky(a)


def test_linalg_options_that_change_the_result_type_are_constants():
    with pytest.raises(kiln.TypingError, match="np.linalg.svd takes a matrix, full_matrices= and compute_uv= here") as e:
        svd_with(np.eye(2), True)
    assert "constants True or False" in str(e.value)
    with pytest.raises(kiln.TypingError, match="mode='reduced', 'complete' or 'r' here"):
        qr_raw(np.eye(2))
    with pytest.raises(kiln.TypingError, match="hermitian=True is not supported"):
        svd_hermitian(np.eye(2))
    with pytest.raises(kiln.TypingError, match="UPLO='L' or 'U'"):
        eigh_uplo(np.eye(2))
    with pytest.raises(kiln.TypingError, match="np.linalg.cholesky takes a 2-d real array here"):
        cholesky_of_stack(np.ones((2, 2, 2)))


@kiln.njit
def tensor_inverse(a):
    return np.linalg.tensorinv(a)


def test_a_linalg_function_not_compiled_is_named_with_its_module():
    with pytest.raises(kiln.TypingError, match="np.linalg.tensorinv is not supported in compiled code"):
        tensor_inverse(np.eye(2))


@kiln.njit
def norm_of_order(a, k):
    return np.linalg.norm(a, k)


@kiln.njit
def norm_of_order_three(a):
    return np.linalg.norm(a, 3)


@kiln.njit
def frobenius_of_vector(a):
    return np.linalg.norm(a, "fro")


@kiln.njit
def cond_of_vector(a):
    return np.linalg.cond(a, 1)


def test_norm_orders_are_constants_checked_against_the_dimensions():
    """NumPy checks the order at run time and raises ValueError; Kiln knows
    x's dimensions when it compiles, and says so then."""
    with pytest.raises(kiln.TypingError, match="np.linalg.norm takes an array and a constant order here") as e:
        norm_of_order(np.ones(3), 1)
    assert "np.inf, 'fro' or 'nuc'" in str(e.value)
    with pytest.raises(kiln.TypingError, match="Invalid norm order for matrices") as e:
        norm_of_order_three(np.ones((2, 2)))
    assert "1, -1, 2, -2, np.inf, -np.inf, 'fro' or 'nuc'" in str(e.value)
    assert norm_of_order_three(np.ones(8)) == 2.0   # a vector's 3-norm
    with pytest.raises(kiln.TypingError, match="Invalid norm order 'fro' for vectors"):
        frobenius_of_vector(np.ones(3))
    with pytest.raises(kiln.TypingError, match="np.linalg.norm with ord= takes a 1-d or 2-d real array here"):
        norm_of_order_three(np.ones((2, 2, 2)))
    with pytest.raises(kiln.TypingError, match="np.linalg.cond takes a 2-d real array here"):
        cond_of_vector(np.ones(3))


@kiln.njit
def repeat_by_floats(a, r):
    return np.repeat(a, r)


@kiln.njit
def tile_by_float(a):
    return np.tile(a, 2.5)


def test_repeat_and_tile_take_int_counts():
    with pytest.raises(kiln.TypingError, match="repeat takes an array, an int or a 1-d int array of counts") as e:
        repeat_by_floats(np.ones(3), np.ones(3))
    assert "Give the counts as ints" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.tile takes an array and an int or a tuple of ints here"):
        tile_by_float(np.ones(3))


@kiln.njit
def search_with_side(a):
    return np.searchsorted(a, 1.0, side="middle")


@kiln.njit
def digitize_complex(x, bins):
    return np.digitize(x, bins)


def test_searchsorted_side_is_a_constant_and_digitize_takes_real_values():
    with pytest.raises(kiln.TypingError, match="side= takes the constant 'left' or 'right'"):
        search_with_side(np.arange(3.0))
    with pytest.raises(kiln.TypingError, match="np.digitize takes real values and a 1-d real array of bins"):
        digitize_complex(np.ones(2) * 1j, np.arange(3.0))


@kiln.njit
def convolve_mode(a, v):
    return np.convolve(a, v, mode="middle")


@kiln.njit
def convolve_2d(a, v):
    return np.convolve(a, v)


def test_convolve_takes_a_constant_mode_and_1d_real_arrays():
    with pytest.raises(kiln.TypingError, match="np.convolve takes two 1-d real arrays and a mode here") as e:
        convolve_mode(np.ones(3), np.ones(2))
    assert "'valid', 'same' or 'full'" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.convolve takes two 1-d real arrays"):
        convolve_2d(np.ones((2, 2)), np.ones(2))


@kiln.njit
def unique_rows(a):
    return np.unique(a, axis=0)


def test_unique_takes_constant_flags_and_no_axis():
    with pytest.raises(kiln.TypingError, match="np.unique takes a real array and return_index=, return_inverse=, return_counts= here") as e:
        unique_rows(np.ones((2, 2)))
    assert "axis= and equal_nan=False are not supported" in str(e.value)


@kiln.njit
def covariance_by(m, by_rows):
    return np.cov(m, rowvar=by_rows)


def test_cov_takes_a_constant_rowvar():
    with pytest.raises(kiln.TypingError, match="np.cov takes 1-d or 2-d real arrays, rowvar, bias and an int ddof here") as e:
        covariance_by(np.ones((2, 3)), True)
    assert "constants: True, False, 1 or 0" in str(e.value)


@kiln.njit
def take_along_second_axis(a):
    return np.take(a, np.array([0]), axis=1)


@kiln.njit
def select_from_names(a, conditions, choices):
    return np.select(conditions, choices)


@kiln.njit
def select_of_unequal_lists(a):
    return np.select([a > 0, a < 0], [a])


@kiln.njit
def rot90_at_run_time(a, k):
    return np.rot90(a, k)


@kiln.njit
def intersect_of_expressions(a):
    return np.intersect1d(np.random.random(3), a)


@kiln.njit
def ediff1d_with_ends(a):
    return np.ediff1d(a, to_end=np.zeros(1))


@kiln.njit
def window_of_an_expression(n):
    return np.hanning(np.random.randint(n, n + 1))


def test_refusals_of_the_rewritten_set_and_index_calls():
    # jit/frontend/np_rewrite.c writes these as other NumPy code; where it cannot, it says what to write
    m = np.arange(6.0).reshape(2, 3)
    with pytest.raises(kiln.TypingError, match="np.take takes an array, indices and axis=None or 0 here") as e:
        take_along_second_axis(m)
    assert "a[:, i]" in str(e.value)
    for fn, args in ((select_from_names, (m, (m > 0,), (m,))), (select_of_unequal_lists, (m,))):
        with pytest.raises(kiln.TypingError, match="np.select takes lists of conditions and choices") as e:
            fn(*args)
        assert "np.select([a > 0, a < 0], [a, -a], 0)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.rot90 takes an array and a constant k here"):
        rot90_at_run_time(m, 1)
    with pytest.raises(kiln.TypingError, match="np.intersect1d reads its operands more than once; one of these calls a function") as e:
        intersect_of_expressions(m)
    assert "Assign them to names first" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.ediff1d takes only the array here") as e:
        ediff1d_with_ends(m)
    assert "np.concatenate((begin, np.ediff1d(x), end))" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.hanning reads M more than once; this M calls a function") as e:
        window_of_an_expression(4)
    assert "Assign it to a name first" in str(e.value)


@kiln.njit
def ndenumerate_of_number(x):
    for idx, v in np.ndenumerate(x):
        return v
    return 0.0


@kiln.njit
def ndindex_of_floats(x):
    for idx in np.ndindex(x, 2):
        return idx[0]
    return 0


@kiln.njit
def ndindex_returned(n):
    return np.ndindex(n)


@kiln.njit
def ndindex_kept(n):
    positions = np.ndindex(n)   # it crashed the compiler: only a loop lowers these calls
    return n


def test_ndindex_and_ndenumerate_take_what_numpy_loops_over():
    with pytest.raises(kiln.TypingError, match="np.ndenumerate takes one array of one dimension or more, got float64") as e:
        ndenumerate_of_number(1.5)
    assert "np.ndindex(a.shape)" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.ndindex takes a tuple of ints or ints, got float64") as e:
        ndindex_of_floats(2.0)
    assert "np.ndindex(3, 4)" in str(e.value)
    with pytest.raises(kiln.TypingError, match=r"ndindex\(1d\) cannot be returned"):
        ndindex_returned(3)
    with pytest.raises(kiln.UnsupportedError, match="np.ndindex is compiled only as the iterable of a for loop") as e:
        ndindex_kept(3)
    assert "for i in np.ndindex(a.shape)" in str(e.value)


@kiln.njit
def store_beside_slices(a, idx, v):
    a[:, idx] = v


@kiln.njit
def mask_beside_slices(a, m):
    return a[:, m]


@kiln.njit
def matrix_beside_slices(a, m):
    return a[:, m]


@kiln.njit
def number_and_array(a, idx):
    return a[0, :, idx]   # NumPy moves the array's axis first


def test_an_array_index_beside_slices_is_of_integers_and_takes_values_that_broadcast():
    # a[:, idx] reads and writes (the corpus checks it); a value that does not
    # broadcast to what it names is a ValueError with a unchanged, one with
    # more dimensions is refused; a mask of another length there is NumPy's
    # IndexError; a 2-d index array there, or a number beside the array, are
    # refused with what to write instead
    a = np.arange(12.0).reshape(3, 4)
    for v in (np.ones((3, 3)), np.ones((2, 2))):
        with pytest.raises(ValueError, match="could not (be )?broadcast"):
            store_beside_slices(a, np.array([0, 2]), v)
        assert (a == np.arange(12.0).reshape(3, 4)).all()
    with pytest.raises(kiln.TypingError, match=r"cannot assign array\(float64, 3d, C\) to array\(float64, 2d") as e:
        store_beside_slices(a, np.array([0, 2]), np.ones((1, 3, 2)))
    assert "at most the dimensions" in str(e.value)
    with pytest.raises(IndexError, match="boolean index did not match indexed array along dimension 1; dimension is 4 but "
                                         "corresponding boolean dimension is 3"):
        mask_beside_slices(a, np.array([True, False, True]))
    with pytest.raises(kiln.TypingError, match="beside slices, an array index must be a 1-d integer or boolean array, got array\\(int64, 2d") as e:
        matrix_beside_slices(a, np.zeros((2, 2), np.int64))
    assert "a[:, m]" in str(e.value)
    with pytest.raises(kiln.TypingError, match="an array index mixed with other indices is not supported") as e:
        number_and_array(np.zeros((2, 3, 4)), np.array([1]))
    assert "a[:, idx]" in str(e.value)


@kiln.njit
def mend_in_place(x):
    return np.nan_to_num(x, copy=False)


@kiln.njit
def mend_with(x, copy):
    return np.nan_to_num(x, copy=copy)


def test_nan_to_num_mends_in_place_only_a_writeable_array_and_copy_is_a_constant():
    with pytest.raises(kiln.TypingError, match=r"np.nan_to_num\(copy=False\) mends a writeable array in place, got float64"):
        mend_in_place(1.5)
    with pytest.raises(kiln.TypingError, match="np.nan_to_num takes a constant copy here") as e:
        mend_with(np.zeros(3), False)
    assert "copy=False" in str(e.value)


@kiln.njit
def cross_of(a, b):
    return np.cross(a, b)


@kiln.njit
def cross_along(a, b):
    return np.cross(a, b, axis=0)


def test_cross_takes_3_vectors_on_the_last_axis():
    # 2-element vectors give numbers in NumPy, a dimension less than Kiln's result type: a ValueError
    # saying what to write, as Numba's np.cross; an axis= is refused
    with pytest.raises(ValueError, match=r"np.cross of 2-element vectors gives numbers.*a\[\.\.\., 0\] \* b\[\.\.\., 1\]"):
        cross_of(np.ones(2), np.ones(2))
    with pytest.raises(kiln.TypingError, match="np.cross takes two arrays and no axis here"):
        cross_along(np.ones((3, 2)), np.ones((3, 2)))


@kiln.njit
def vsplit_of(a):
    return np.vsplit(a, 2)


@kiln.njit
def split_along(a, axis):
    return np.split(a, 2, axis)


@kiln.njit
def split_at_fractions(a):
    return np.array_split(a, (0.5, 1.5))


@kiln.njit
def split_past_the_axes(a):
    return np.split(a, 2, axis=1)


def test_split_checks_what_typing_can_see():
    # NumPy's words for what its own split says at run time, known here from the types
    with pytest.raises(kiln.TypingError, match="vsplit only works on arrays of 2 or more dimensions"):
        vsplit_of(np.zeros(4))
    with pytest.raises(kiln.TypingError, match="np.split takes a constant axis here"):
        split_along(np.zeros((2, 2)), 1)
    with pytest.raises(kiln.TypingError, match=r"np.array_split cannot cut at UniTuple\(float64 x 2\)") as e:
        split_at_fractions(np.zeros(4))
    assert "a number of sections, or indices" in str(e.value)
    with pytest.raises(kiln.TypingError, match="axis 1 is out of bounds for array of dimension 1"):
        split_past_the_axes(np.zeros(4))


@kiln.njit
def indices_of_an_int(n):
    return np.indices(n)


@kiln.njit
def sparse_indices(n):
    return np.indices((n, n), sparse=True)


@kiln.njit
def resize_to_floats(a):
    return np.resize(a, (2.5, 2))


def test_indices_and_resize_take_shapes():
    with pytest.raises(kiln.TypingError, match="np.indices takes a tuple of ints and a dtype here") as e:
        indices_of_an_int(3)
    assert "np.indices((n, m))" in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.indices takes a tuple of ints and a dtype here"):
        sparse_indices(3)
    with pytest.raises(kiln.TypingError, match=r"np.resize takes an array and a shape \(an int or a tuple of ints\)"):
        resize_to_floats(np.zeros(3))


@kiln.njit
def geomspace_of_arrays(a):
    return np.geomspace(a, a * 2, 3)


def test_geomspace_takes_numbers():
    with pytest.raises(kiln.TypingError, match="np.geomspace.* takes two real numbers, an int and a bool here") as e:
        geomspace_of_arrays(np.ones(2))
    assert "loop over them" in str(e.value)


@kiln.njit
def polyval_of_a_tuple(x):
    return np.polyval((1.0, 2.0), x)


def test_polyval_takes_an_array_of_coefficients():
    with pytest.raises(kiln.TypingError, match="np.polyval takes a 1-d array of coefficients and a number or an array here") as e:
        polyval_of_a_tuple(2.0)
    assert "np.polyval(np.array([2.0, 0.0, 1.0]), x)" in str(e.value)


@kiln.njit
def unwrap_rows(m):
    return np.unwrap(m, axis=1)


def test_unwrap_takes_one_line():
    with pytest.raises(kiln.TypingError, match="np.unwrap takes a real 1-d array, discont and a float period here") as e:
        unwrap_rows(np.zeros((2, 3)))
    assert "Unwrap each row in a loop" in str(e.value)


@kiln.njit
def put_clipped(a):
    np.put(a, 7, 1.0, mode="clip")


@kiln.njit
def put_into_read_only(a):
    np.put(np.broadcast_to(a, (2, 3)), 0, 1.0)


def test_put_writes_with_mode_raise_into_writeable_arrays():
    with pytest.raises(kiln.TypingError, match="np.put takes an array, an int or a 1-d array of ints, values and mode='raise' here"):
        put_clipped(np.zeros(3))
    with pytest.raises(kiln.TypingError, match=r"np.put cannot write into a readonly array\(float64, 2d, A\)"):
        put_into_read_only(np.zeros(3))


@kiln.njit
def unravel_many(i):
    return np.unravel_index(i, (2, 3))


@kiln.njit
def unravel_fortran(i):
    return np.unravel_index(i, (2, 3), order="F")


def test_unravel_index_takes_one_index_in_c_order():
    with pytest.raises(kiln.TypingError, match="np.unravel_index takes one integer index here") as e:
        unravel_many(np.arange(3))
    assert "Unravel the indices one at a time in a loop." in str(e.value)
    with pytest.raises(kiln.TypingError, match="np.unravel_index takes an index and a shape here") as e:
        unravel_fortran(1)
    assert "for Fortran order unravel i in the reversed shape" in str(e.value)


# A rewritten NumPy call whose first operand is left out, a later one given by keyword: refused
# with the function's name (it crashed the compiler when the rewrite read the missing operand).
@pytest.mark.parametrize("name, call", [
    ("np.outer", lambda x: np.outer(b=x)),
    ("np.isclose", lambda x: np.isclose(b=x)),
    ("np.array_equal", lambda x: np.array_equal(a2=x)),
    ("np.inner", lambda x: np.inner(b=x)),
    ("np.union1d", lambda x: np.union1d(ar2=x)),
    ("np.extract", lambda x: np.extract(arr=x)),
    ("np.logspace", lambda x: np.logspace(stop=x[0])),
    ("np.take", lambda x: np.take(indices=x)),
])
def test_a_rewritten_call_missing_its_first_operand_is_refused(name, call):
    with pytest.raises(kiln.TypingError, match=name + " takes"):
        kiln.njit(call)(np.arange(3.0))


# Calls whose first size or operand is left out, or that pass out=: refused by name, where the
# lowering once read the missing positional argument.
@pytest.mark.parametrize("message, call", [
    ("np.eye.N, M=None, k=0, dtype=float. takes ints and a dtype", lambda x: np.eye(M=3)),
    ("np.identity.n, dtype=float. takes an int and a dtype", lambda x: np.identity(dtype=np.int64)),
    ("np.dot takes two arrays here .out= is not supported.", lambda x: np.dot(x, x, x)),
    ("np.matmul takes two arrays here .out= is not supported.", lambda x: np.matmul(b=x)),
    ("np.real takes one array or number", lambda x: np.real(x, x)),
])
def test_a_call_missing_its_first_argument_is_refused(message, call):
    with pytest.raises(kiln.TypingError, match=message):
        kiln.njit(call)(np.arange(3.0))
