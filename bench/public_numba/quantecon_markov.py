# Public Numba code, verbatim; only the import line changed (the files' `from numba import ...` lines,
# merged into one `from kiln import ...`).
# All from QuantEcon/QuantEcon.py, license MIT (the repository's LICENSE):
#   [I] quantecon/_inequality.py, commit 0e27afa6150bc0c5e86ce2f857f52dfd561e133a
#   [G] quantecon/markov/gth_solve.py, commit 2f827370ec4652ec4607603d844da63e62a0b0e8
#   [C] quantecon/markov/core.py, commit 08d26c6b63b43950bd05a79849fd80aca1c2d547
#   [U] quantecon/markov/utilities.py, commit 20f81538061232c08f5b80850c3fe267343f7fdb
#   [R] quantecon/_gridtools.py, commit 20f81538061232c08f5b80850c3fe267343f7fdb
#   [N] quantecon/util/numba.py, commit 2eb08d47772f5032b9b53cf46d5639ced4212fde
#   [S] quantecon/random/utilities.py, commit 04f654a92b6b64126e9bd8cdd27c4f752acf9cd1
# Functions: lorenz_curve [I], gini_coefficient [I], _gth_solve_jit [G], _generate_sample_paths [C],
#   _generate_sample_paths_sparse [C], sa_indices [U], _fill_dense_Q [U], _s_wise_max_argmax [U],
#   _generate_a_indptr [U], _repeat_1d [R], _cartesian_nearest_indices [R], _cartesian_index [R],
#   simplex_grid [R] (with its constant _msg_max_size_exceeded), num_compositions_jit [R], comb_jit [N],
#   _sample_without_replacement [S].
import numpy as np
from kiln import guvectorize, jit, njit, prange, types


@njit
def lorenz_curve(y):
    """
    Calculates the Lorenz Curve, a graphical representation of
    the distribution of income or wealth.

    It returns the cumulative share of people (x-axis) and
    the cumulative share of income earned.

    Parameters
    ----------
    y : array_like(float or int, ndim=1)
        Array of income/wealth for each individual.
        Unordered or ordered is fine.

    Returns
    -------
    cum_people : array_like(float, ndim=1)
        Cumulative share of people for each person index (i/n)
    cum_income : array_like(float, ndim=1)
        Cumulative share of income for each person index


    References
    ----------
    .. [1] https://en.wikipedia.org/wiki/Lorenz_curve

    Examples
    --------
    >>> import numpy as np
    >>> from quantecon import lorenz_curve
    >>> a_val, n = 3, 10_000
    >>> y = np.random.pareto(a_val, size=n)
    >>> f_vals, l_vals = lorenz_curve(y)

    """

    n = len(y)
    y = np.sort(y)
    s = np.zeros(n + 1)
    s[1:] = np.cumsum(y)
    cum_people = np.zeros(n + 1)
    cum_income = np.zeros(n + 1)
    for i in range(1, n + 1):
        cum_people[i] = i / n
        cum_income[i] = s[i] / s[n]
    return cum_people, cum_income


@njit(parallel=True)
def gini_coefficient(y):
    r"""
    Implements the Gini inequality index

    Parameters
    ----------
    y : array_like(float)
        Array of income/wealth for each individual.
        Ordered or unordered is fine

    Returns
    -------
    Gini index: float
        The gini index describing the inequality of the array of income/wealth

    References
    ----------

    https://en.wikipedia.org/wiki/Gini_coefficient
    """
    n = len(y)
    i_sum = np.zeros(n)
    for i in prange(n):
        for j in range(n):
            i_sum[i] += abs(y[i] - y[j])
    return np.sum(i_sum) / (2 * n * np.sum(y))


@jit(nopython=True)
def _gth_solve_jit(A, out):
    """
    JIT complied version of the main routine of gth_solve.

    Parameters
    ----------
    A : numpy.ndarray(float, ndim=2)
        Stochastic matrix or generator matrix. Must be of shape n x n.
        Data will be overwritten.

    out : numpy.ndarray(float, ndim=1)
        Output array in which to place the stationary distribution of A.

    """
    n = A.shape[0]

    # === Reduction === #
    for k in range(n-1):
        scale = np.sum(A[k, k+1:n])
        if scale <= 0:
            # There is one (and only one) recurrent class contained in
            # {0, ..., k};
            # compute the solution associated with that recurrent class.
            n = k+1
            break
        for i in range(k+1, n):
            A[i, k] /= scale

            for j in range(k+1, n):
                A[i, j] += A[i, k] * A[k, j]

    # === Backward substitution === #
    out[n-1] = 1
    for k in range(n-2, -1, -1):
        for i in range(k+1, n):
            out[k] += out[i] * A[i, k]

    # === Normalization === #
    norm = np.sum(out)
    for k in range(n):
        out[k] /= norm


@jit(nopython=True)
def _generate_sample_paths(P_cdfs, init_states, random_values, out):
    """
    Generate num_reps sample paths of length ts_length, where num_reps =
    out.shape[0] and ts_length = out.shape[1].

    Parameters
    ----------
    P_cdfs : ndarray(float, ndim=2)
        Array containing as rows the CDFs of the state transition.

    init_states : array_like(int, ndim=1)
        Array containing the initial states. Its length must be equal to
        num_reps.

    random_values : ndarray(float, ndim=2)
        Array containing random values from [0, 1). Its shape must be
        equal to (num_reps, ts_length-1)

    out : ndarray(int, ndim=2)
        Array to store the sample paths.

    Notes
    -----
    This routine is jit-complied by Numba.

    """
    num_reps, ts_length = out.shape
    n = P_cdfs.shape[0]

    for i in range(num_reps):
        out[i, 0] = init_states[i]
        for t in range(ts_length-1):
            k = np.searchsorted(P_cdfs[out[i, t]], random_values[i, t],
                                side='right')
            # Guard against rounding: if the last CDF value is less than
            # 1 and the random value exceeds it, k equals n
            out[i, t+1] = min(k, n - 1)


@jit(nopython=True)
def _generate_sample_paths_sparse(P_cdfs1d, indices, indptr, init_states,
                                  random_values, out):
    """
    For sparse matrix.

    Generate num_reps sample paths of length ts_length, where num_reps =
    out.shape[0] and ts_length = out.shape[1].

    Parameters
    ----------
    P_cdfs1d : ndarray(float, ndim=1)
        1D array containing the CDFs of the state transition.

    indices : ndarray(int, ndim=1)
        CSR format index array.

    indptr : ndarray(int, ndim=1)
        CSR format index pointer array.

    init_states : array_like(int, ndim=1)
        Array containing the initial states. Its length must be equal to
        num_reps.

    random_values : ndarray(float, ndim=2)
        Array containing random values from [0, 1). Its shape must be
        equal to (num_reps, ts_length-1)

    out : ndarray(int, ndim=2)
        Array to store the sample paths.

    Notes
    -----
    This routine is jit-complied by Numba.

    """
    num_reps, ts_length = out.shape

    for i in range(num_reps):
        out[i, 0] = init_states[i]
        for t in range(ts_length-1):
            lo, hi = indptr[out[i, t]], indptr[out[i, t]+1]
            k = np.searchsorted(P_cdfs1d[lo:hi], random_values[i, t],
                                side='right')
            # Guard against rounding: if the last CDF value in the row is
            # less than 1 and the random value exceeds it, k equals hi-lo
            out[i, t+1] = indices[min(lo+k, hi-1)]


@jit(nopython=True, cache=True)
def sa_indices(num_states, num_actions):
    """
    Generate `s_indices` and `a_indices` for `DiscreteDP`, for the case
    where all the actions are feasible at every state.

    Parameters
    ----------
    num_states : scalar(int)
        Number of states.

    num_actions : scalar(int)
        Number of actions.

    Returns
    -------
    s_indices : ndarray(int, ndim=1)
        Array containing the state indices.

    a_indices : ndarray(int, ndim=1)
        Array containing the action indices.

    Examples
    --------
    >>> import quantecon as qe
    >>> s_indices, a_indices = qe.markov.sa_indices(4, 3)
    >>> s_indices
    array([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])
    >>> a_indices
    array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])

    """
    L = num_states * num_actions
    dtype = np.int_
    s_indices = np.empty(L, dtype=dtype)
    a_indices = np.empty(L, dtype=dtype)

    i = 0
    for s in range(num_states):
        for a in range(num_actions):
            s_indices[i] = s
            a_indices[i] = a
            i += 1

    return s_indices, a_indices


@jit(nopython=True, cache=True)
def _fill_dense_Q(s_indices, a_indices, Q_in, Q_out):
    L = Q_in.shape[0]
    for i in range(L):
        Q_out[s_indices[i], a_indices[i], :] = Q_in[i, :]

    return Q_out


@jit(nopython=True, cache=True)
def _s_wise_max_argmax(a_indices, a_indptr, vals, out_max, out_argmax):
    n = len(out_max)
    for i in range(n):
        if a_indptr[i] != a_indptr[i+1]:
            m = a_indptr[i]
            for j in range(a_indptr[i]+1, a_indptr[i+1]):
                if vals[j] > vals[m]:
                    m = j
            out_max[i] = vals[m]
            out_argmax[i] = a_indices[m]


@jit(nopython=True, cache=True)
def _generate_a_indptr(num_states, s_indices, out):
    """
    Generate `a_indptr`; stored in `out`. `s_indices` is assumed to be
    in sorted order.

    Parameters
    ----------
    num_states : scalar(int)

    s_indices : ndarray(int, ndim=1)

    out : ndarray(int, ndim=1)
        Length must be num_states+1.

    """
    L = len(s_indices)
    idx = 0
    out[0] = 0
    for s in range(num_states-1):
        # bound idx: the last states may have no state-action pair
        while idx < L and s_indices[idx] == s:
            idx += 1
        out[s+1] = idx
    out[num_states] = L


@njit
def _repeat_1d(x, K, out):
    '''
    Repeats each element of a vector many times and repeats the whole
    result many times

    Parameters
    ----------
    x : ndarray(ndim=1)
        vector to be repeated

    K : scalar(int)
        number of times each element of x is repeated (inner iterations)

    out : ndarray(ndim=1)
        placeholder for the result

    Returns
    -------
    None
    '''

    N = x.shape[0]
    L = out.shape[0] // (K*N)  # number of outer iterations
    # K                        # number of inner iterations

    # the result out should enumerate in C-order the elements
    # of a 3-dimensional array T of dimensions (K,N,L)
    # such that for all k,n,l, we have T[k,n,l] == x[n]

    for n in range(N):
        val = x[n]
        for k in range(K):
            for l in range(L):
                ind = k*N*L + n*L + l
                out[ind] = val


@njit(cache=True)
def _cartesian_nearest_indices(X, nodes, order='C'):
    """
    The main body of `cartesian_nearest_index`, jit-compiled by Numba.
    Note that `X` must be a 2-dim ndarray, and a Python list is not
    accepted for `nodes`.

    Parameters
    ----------
    X : ndarray(ndim=2)
        Points to search the closest points for.

    nodes : tuple(ndarray(ndim=1))
        Tuple of sorted ndarrays of same dtype.

    order : str, optional(default='C')
        ('C' or 'F') order in which the product is enumerated.

    Returns
    -------
    ndarray(int, ndim=1)
        Indices of the closest points to the points in `X`.

    """
    m, n = X.shape  # m vectors of length n
    nums_grids = np.empty(n, dtype=np.intp)
    for i in range(n):
        nums_grids[i] = len(nodes[i])

    ind = np.empty(n, dtype=np.intp)
    out = np.empty(m, dtype=np.intp)

    step = -1 if order == 'F' else 1
    slice_ = slice(None, None, step)

    for t in range(m):
        for i in range(n):
            if X[t, i] <= nodes[i][0]:
                ind[i] = 0
            elif X[t, i] >= nodes[i][-1]:
                ind[i] = nums_grids[i] - 1
            else:
                k = np.searchsorted(nodes[i], X[t, i])
                ind[i] = (
                    k if nodes[i][k] - X[t, i] < X[t, i] - nodes[i][k-1]
                    else k - 1
                )
        out[t] = _cartesian_index(ind[slice_], nums_grids[slice_])

    return out


@njit(cache=True)
def _cartesian_index(indices, nums_grids):
    n = len(indices)
    idx = 0
    de_cumprod = 1
    for i in range(1, n+1):
        idx += de_cumprod * indices[n-i]
        de_cumprod *= nums_grids[n-i]
    return idx


_msg_max_size_exceeded = 'Maximum allowed size exceeded'


@jit(nopython=True, cache=True)
def simplex_grid(m, n):
    r"""
    Construct an array consisting of the integer points in the
    (m-1)-dimensional simplex :math:`\{x \mid x_0 + \cdots + x_{m-1} = n
    \}`, or equivalently, the m-part compositions of n, which are listed
    in lexicographic order. The total number of the points (hence the
    length of the output array) is L = (n+m-1)!/(n!*(m-1)!) (i.e.,
    (n+m-1) choose (m-1)).

    Parameters
    ----------
    m : scalar(int)
        Dimension of each point. Must be a positive integer.

    n : scalar(int)
        Number which the coordinates of each point sum to. Must be a
        nonnegative integer.

    Returns
    -------
    out : ndarray(int, ndim=2)
        Array of shape (L, m) containing the integer points in the
        simplex, aligned in lexicographic order.

    Notes
    -----
    A grid of the (m-1)-dimensional *unit* simplex with n subdivisions
    along each dimension can be obtained by `simplex_grid(m, n) / n`.

    Examples
    --------
    >>> simplex_grid(3, 4)
    array([[0, 0, 4],
           [0, 1, 3],
           [0, 2, 2],
           [0, 3, 1],
           [0, 4, 0],
           [1, 0, 3],
           [1, 1, 2],
           [1, 2, 1],
           [1, 3, 0],
           [2, 0, 2],
           [2, 1, 1],
           [2, 2, 0],
           [3, 0, 1],
           [3, 1, 0],
           [4, 0, 0]])

    >>> simplex_grid(3, 4) / 4
    array([[0.  , 0.  , 1.  ],
           [0.  , 0.25, 0.75],
           [0.  , 0.5 , 0.5 ],
           [0.  , 0.75, 0.25],
           [0.  , 1.  , 0.  ],
           [0.25, 0.  , 0.75],
           [0.25, 0.25, 0.5 ],
           [0.25, 0.5 , 0.25],
           [0.25, 0.75, 0.  ],
           [0.5 , 0.  , 0.5 ],
           [0.5 , 0.25, 0.25],
           [0.5 , 0.5 , 0.  ],
           [0.75, 0.  , 0.25],
           [0.75, 0.25, 0.  ],
           [1.  , 0.  , 0.  ]])

    References
    ----------
    A. Nijenhuis and H. S. Wilf, Combinatorial Algorithms, Chapter 5,
    Academic Press, 1978.

    """
    L = num_compositions_jit(m, n)
    if L == 0:  # Overflow occured
    	raise ValueError(_msg_max_size_exceeded)
    out = np.empty((L, m), dtype=np.int_)

    x = np.zeros(m, dtype=np.int_)
    x[m-1] = n

    for j in range(m):
        out[0, j] = x[j]

    h = m

    for i in range(1, L):
        h -= 1

        val = x[h]
        x[h] = 0
        x[m-1] = val - 1
        x[h-1] += 1

        for j in range(m):
            out[i, j] = x[j]

        if val != 1:
            h = m

    return out


@jit(nopython=True, cache=True)
def num_compositions_jit(m, n):
    """
    Numba jit version of `num_compositions`. Return `0` if the outcome
    exceeds the maximum value of `np.intp`.

    """
    return comb_jit(n+m-1, m-1)


@jit(types.intp(types.intp, types.intp), nopython=True, cache=True)
def comb_jit(N, k):
    """
    Numba jitted function that computes N choose k. Return `0` if the
    outcome exceeds the maximum value of `np.intp` or if N < 0, k < 0,
    or k > N.

    Parameters
    ----------
    N : scalar(int)

    k : scalar(int)

    Returns
    -------
    val : scalar(int)

    Notes
    -----
    The overflow boundary ``np.iinfo(np.intp).max`` is platform-dependent:
    2³¹−1 on wasm32 (JupyterLite/xeus-python) and 2⁶³−1 on 64-bit
    platforms. The result is an array size or rank, so ``np.intp`` is the
    correct width on every platform.

    """
    # From scipy.special._comb_int_long
    # github.com/scipy/scipy/blob/v1.0.0/scipy/special/_comb.pyx
    INTP_MAX = np.iinfo(np.intp).max
    if N < 0 or k < 0 or k > N:
        return 0
    if k == 0:
        return 1
    if k == 1:
        return N
    if N == INTP_MAX:
        return 0

    M = N + 1
    nterms = min(k, N - k)

    val = 1

    for j in range(1, nterms + 1):
        # Overflow check
        if val > INTP_MAX // (M - j):
            return 0

        val *= M - j
        val //= j

    return val


@guvectorize('(),(k)->(k)', nopython=True, cache=True)
def _sample_without_replacement(n, r, out):
    """
    Main body of `sample_without_replacement`. Compiled as a dynamic
    (signature-less) gufunc by Numba's `@guvectorize` on first call;
    the output array `out` must be supplied by the caller.

    """
    k = r.shape[0]

    # Logic taken from random.sample in the standard library
    pool = np.arange(n)
    for j in range(k):
        idx = np.intp(np.floor(r[j] * (n-j)))  # np.floor returns a float
        out[j] = pool[idx]
        pool[idx] = pool[n-j-1]


# ---- inputs (not from the project) ----
def _stochastic(seed, n):
    p = np.random.default_rng(seed).random((n, n)) ** 4
    return p / p.sum(axis=1, keepdims=True)


def _sample_paths(seed, n=50, num_reps=200, ts_length=1000):
    rng = np.random.default_rng(seed)
    cdfs = np.cumsum(_stochastic(seed, n), axis=1)
    return (cdfs, rng.integers(0, n, num_reps), rng.random((num_reps, ts_length - 1)),
            np.empty((num_reps, ts_length), dtype=np.int64))


def _sample_paths_sparse(seed, n=500, per_row=8, num_reps=200, ts_length=1000):
    """A CSR transition matrix with `per_row` entries in each row."""
    rng = np.random.default_rng(seed)
    indices = np.sort(np.argsort(rng.random((n, n)), axis=1)[:, :per_row], axis=1).ravel()
    probs = rng.random((n, per_row))
    cdfs1d = np.cumsum(probs / probs.sum(axis=1, keepdims=True), axis=1).ravel()
    indptr = np.arange(0, n * per_row + 1, per_row)
    return (cdfs1d, indices, indptr, rng.integers(0, n, num_reps), rng.random((num_reps, ts_length - 1)),
            np.empty((num_reps, ts_length), dtype=np.int64))


def _sa_pairs(seed, num_states=2000, num_actions=20):
    """State-action pairs with some actions infeasible (as DiscreteDP's sparse form)."""
    rng = np.random.default_rng(seed)
    keep = rng.random(num_states * num_actions) < 0.7
    s = np.repeat(np.arange(num_states), num_actions)[keep]
    a = np.tile(np.arange(num_actions), num_states)[keep]
    return s, a


def _s_wise_max_args(seed, num_states=2000):
    s, a = _sa_pairs(seed, num_states)
    indptr = np.searchsorted(s, np.arange(num_states + 1))
    return (a, indptr, np.random.default_rng(seed).standard_normal(len(s)),
            np.full(num_states, -np.inf), np.zeros(num_states, dtype=np.int64))


def _fill_dense_args(seed, num_states=200, num_actions=20):
    s, a = _sa_pairs(seed, num_states, num_actions)
    q = np.random.default_rng(seed).random((len(s), num_states))
    return s, a, q, np.zeros((num_states, num_actions, num_states))


def _nearest_args(seed, order):
    rng = np.random.default_rng(seed)
    nodes = (np.linspace(0, 1, 50), np.sort(rng.random(80)), np.linspace(-1, 2, 30))
    return rng.uniform(-0.5, 2.5, (20_000, 3)), nodes, order


CASES = [
    ("lorenz_curve", lambda: (np.random.default_rng(1).pareto(3.0, 200_000),)),
    ("gini_coefficient", lambda: (np.random.default_rng(2).pareto(3.0, 3000),)),
    ("_gth_solve_jit", lambda: (_stochastic(3, 300), np.zeros(300))),
    ("_generate_sample_paths", lambda: _sample_paths(4)),
    ("_generate_sample_paths_sparse", lambda: _sample_paths_sparse(5)),
    ("sa_indices", lambda: (2000, 50)),
    ("_fill_dense_Q", lambda: _fill_dense_args(6)),
    ("_s_wise_max_argmax", lambda: _s_wise_max_args(7)),
    ("_generate_a_indptr", lambda: (2000, _sa_pairs(8)[0], np.empty(2001, dtype=np.int64))),
    ("_repeat_1d", lambda: (np.arange(100.0), 50, np.empty(100 * 50 * 40))),
    ("_cartesian_nearest_indices", lambda: _nearest_args(9, 'C')),
    ("_cartesian_nearest_indices", lambda: _nearest_args(10, 'F')),
    ("simplex_grid", lambda: (4, 40)),
    ("simplex_grid", lambda: (100, 10**6)),   # too many points: raises ValueError
    ("comb_jit", lambda: (60, 30)),
    ("_sample_without_replacement",
     lambda: (1000, np.random.default_rng(11).random((500, 50)), np.empty((500, 50), dtype=np.int64))),
]
