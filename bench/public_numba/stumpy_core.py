# Public Numba code, verbatim; only the import line changed (`from numba import njit, prange` ->
# `from kiln import njit, prange`).
# Source [C]: TDAmeritrade/stumpy, stumpy/core.py, commit 0056eb2971baa5a40005c40e529fe3fe3f9a5445,
#             license BSD-3-Clause (the repository's LICENSE.txt).
# Functions (all [C]): _welford_nanvar, _mass_absolute, apply_exclusion_zone, _count_diagonal_ndist,
#   _get_array_ranges.
import numpy as np
from kiln import njit, prange


@njit(fastmath={"nsz", "arcp", "contract", "afn", "reassoc"})
def _welford_nanvar(a, w, subseq_a_isfinite):
    """
    Compute the rolling variance for a 1-D array while ignoring NaNs using a modified
    version of Welford's algorithm but is much faster than using `np.nanstd` with stride
    tricks.

    Parameters
    ----------
    a : ndarray
        The input array

    w : ndarray
        The rolling window size

    Returns
    -------
    all_variances : ndarray
        Rolling window nanvar
    """
    all_variances = np.empty(a.shape[0] - w + 1, dtype=np.float64)
    prev_mean = 0.0
    prev_var = 0.0

    for start_idx in range(a.shape[0] - w + 1):
        prev_start_idx = start_idx - 1
        stop_idx = start_idx + w  # Exclusive index value
        last_idx = start_idx + w - 1  # Last inclusive index value

        if (
            start_idx == 0
            or not subseq_a_isfinite[prev_start_idx]
            or not subseq_a_isfinite[start_idx]
        ):
            curr_mean = np.nanmean(a[start_idx:stop_idx])
            curr_var = np.nanvar(a[start_idx:stop_idx])
        else:
            curr_mean = prev_mean + (a[last_idx] - a[prev_start_idx]) / w
            curr_var = (
                prev_var
                + (a[last_idx] - a[prev_start_idx])
                * (a[last_idx] - curr_mean + a[prev_start_idx] - prev_mean)
                / w
            )

        all_variances[start_idx] = curr_var

        prev_mean = curr_mean
        prev_var = curr_var

    return all_variances


@njit(fastmath=True)
def _mass_absolute(Q_squared, T_squared, QT):
    """
    A Numba JIT compiled algorithm for computing the non-normalized distance profile
    using the MASS absolute algorithm.

    Parameters
    ----------
    Q_squared : ndarray
        Squared query array or subsequence

    T_squared : ndarray
        Squared time series or sequence

    QT : ndarray
        Sliding window dot product of `Q` and `T`

    Returns
    -------
    output : ndarray
        Unnormalized distance profile

    Notes
    -----
    `See Mueen's Absolute Algorithm for Similarity Search \
    <https://www.cs.unm.edu/~mueen/MASS_absolute.m>`__
    """
    return np.sqrt(Q_squared + T_squared - 2 * QT)


@njit(fastmath=True)
def apply_exclusion_zone(D, idx, excl_zone):
    """
    Apply an exclusion zone to an array (inplace), i.e. set all values
    to np.inf in a window around a given index.

    All values in D in [idx - excl_zone, idx + excl_zone] (endpoints included)
    will be set to np.inf.

    Parameters
    ----------
    D : ndarray
        The array you want to apply the exclusion zone to

    idx : int
        The index around which the window should be centered

    excl_zone : int
        Size of the exclusion zone.
    """
    zone_start = max(0, idx - excl_zone)
    zone_stop = min(D.shape[-1], idx + excl_zone)
    D[..., zone_start : zone_stop + 1] = np.inf


@njit(parallel=True, fastmath=True)
def _count_diagonal_ndist(diags, m, n_A, n_B):
    """
    Count the number of distances that would be computed for each diagonal index
    referenced in `diags`

    Parameters
    ----------
    m : int
        Window size

    n_A : ndarray
        The length of time series `T_A`

    n_B : ndarray
        The length of time series `T_B`

    diags : ndarray
        The diagonal indices of interest

    Returns
    -------
    diag_ndist_counts : ndarray
        Counts of distances computed along each diagonal of interest
    """
    diag_ndist_counts = np.zeros(diags.shape[0], dtype=np.int64)
    for diag_idx in prange(diags.shape[0]):
        k = diags[diag_idx]
        if k >= 0:
            diag_ndist_counts[diag_idx] = min(n_B - m + 1 - k, n_A - m + 1)
        else:
            diag_ndist_counts[diag_idx] = min(n_B - m + 1, n_A - m + 1 + k)

    return diag_ndist_counts


@njit()
def _get_array_ranges(a, n_chunks, truncate=False):
    """
    Given an input array, split it into `n_chunks`.

    Parameters
    ----------
    a : ndarray
        An array to be split

    n_chunks : int
        Number of chunks to split the array into

    truncate : bool
        If `truncate=True`, truncate the rows of `array_ranges` if there are not enough
        elements in `a` to be chunked up into `n_chunks`.  Otherwise, if
        `truncate=False`, all extra chunks will have their start and stop indices set
        to `a.shape[0]`.

    Returns
    -------
    array_ranges : ndarray
        A two column array where each row consists of a start and (exclusive) stop index
        pair. The first column contains the start indices and the second column
        contains the stop indices.
    """
    array_ranges = np.zeros((n_chunks, 2), np.int64)
    cumsum = a.cumsum() / a.sum()
    insert = np.linspace(0, 1, n_chunks + 1)[1:-1]
    idx = 1 + np.searchsorted(cumsum, insert)
    array_ranges[1:, 0] = idx  # Fill the first column with start indices
    array_ranges[:-1, 1] = idx  # Fill the second column with exclusive stop indices
    array_ranges[-1, 1] = a.shape[0]  # Handle the stop index for the final chunk

    diff_idx = np.diff(idx)
    if np.any(diff_idx == 0):
        row_truncation_idx = np.argmin(diff_idx) + 2
        array_ranges[row_truncation_idx:, 0] = a.shape[0]
        array_ranges[row_truncation_idx - 1 :, 1] = a.shape[0]
        if truncate:
            array_ranges = array_ranges[:row_truncation_idx]

    return array_ranges


# ---- inputs (not from the project): shaped as stumpy's callers pass them ----
def _series_with_gaps(seed, n=100_000, w=50):
    """A random walk with a few NaN runs, and which of its windows are all finite."""
    a = np.cumsum(np.random.default_rng(seed).standard_normal(n))
    for start in range(5_000, n, 20_000):
        a[start:start + 10] = np.nan
    windows = np.lib.stride_tricks.sliding_window_view(a, w)
    return a, w, np.all(np.isfinite(windows), axis=1)


def _mass_absolute_args(seed, n=500_000, m=100):
    rng = np.random.default_rng(seed)
    T, Q = rng.standard_normal(n), rng.standard_normal(m)
    T_squared = np.convolve(T * T, np.ones(m), mode="valid")
    QT = np.convolve(Q[::-1], T, mode="valid")
    return np.sum(Q * Q), T_squared, QT


CASES = [
    ("_welford_nanvar", lambda: _series_with_gaps(1)),
    ("_mass_absolute", lambda: _mass_absolute_args(2)),
    ("apply_exclusion_zone", lambda: (np.random.default_rng(3).random(1_000_000), 500_000, 100_000)),
    ("apply_exclusion_zone", lambda: (np.random.default_rng(4).random((3, 10_000)), 20, 50)),   # at an edge
    ("_count_diagonal_ndist", lambda: (np.arange(-50_000, 450_000), 50, 500_000, 500_000)),
    ("_get_array_ranges", lambda: (np.random.default_rng(5).random(1_000_000), 64)),
    ("_get_array_ranges", lambda: (np.array([1.0, 0.0, 0.0, 0.0, 0.0]), 4, True)),   # fewer chunks: truncated
]
