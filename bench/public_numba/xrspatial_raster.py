# Public Numba code, verbatim; only the import lines changed (`from numba import cuda, jit` ->
# `from kiln import jit`, `import numba as nb` -> `import kiln as nb`).
# All from makepath/xarray-spatial, license MIT (the repository's LICENSE.txt):
#   [T] xrspatial/utils.py, commit 03e60fcb10de95dc353990ac8663870fff319a59
#   [S] xrspatial/slope.py, commit 0367ac83e3530b02545a81e9117fe4a1b6952c8c
#   [K] xrspatial/classify.py, commit 013a1c8ba78f268239e22372708664e3e0ea8770
# Functions: ngjit [T] (the decorator the others use), _cpu [S] (slope in degrees), _cpu_binary [K],
#   _cpu_bin [K], _run_numpy_jenks_matrices [K].
import numpy as np
from kiln import jit
import kiln as nb

ngjit = jit(nopython=True, nogil=True)


@ngjit
def _cpu(data, cellsize_x, cellsize_y):
    out = np.zeros_like(data, dtype=np.float32)
    out[:] = np.nan
    rows, cols = data.shape
    for y in range(1, rows - 1):
        for x in range(1, cols - 1):
            a = data[y + 1, x - 1]
            b = data[y + 1, x]
            c = data[y + 1, x + 1]
            d = data[y, x - 1]
            f = data[y, x + 1]
            g = data[y - 1, x - 1]
            h = data[y - 1, x]
            i = data[y - 1, x + 1]
            dz_dx = ((c + 2 * f + i) - (a + 2 * d + g)) / (8 * cellsize_x)
            dz_dy = ((g + 2 * h + i) - (a + 2 * b + c)) / (8 * cellsize_y)
            p = (dz_dx * dz_dx + dz_dy * dz_dy) ** .5
            out[y, x] = np.arctan(p) * 57.29578
    return out


@ngjit
def _cpu_binary(data, values):
    out = np.empty(data.shape, dtype=data.dtype)
    out[:] = np.nan
    rows, cols = data.shape
    for y in range(0, rows):
        for x in range(0, cols):
            if np.any(values == data[y, x]):
                out[y, x] = 1
            elif np.isfinite(data[y, x]):
                out[y, x] = 0
    return out


@ngjit
def _cpu_bin(data, bins, new_values):
    out = np.zeros(data.shape, dtype=np.float32)
    out[:] = np.nan
    rows, cols = data.shape
    nbins = len(bins)
    for y in range(0, rows):
        for x in range(0, cols):
            val = data[y, x]
            val_bin = -1

            # find bin
            if np.isfinite(val):
                if val <= bins[0]:
                    val_bin = 0
                elif val <= bins[nbins - 1]:
                    start = 0
                    end = nbins - 1
                    mid = (end + start) // 2
                    while start <= end:
                        if bins[mid] < val:
                            start = mid + 1
                        elif val > bins[mid - 1]:
                            break
                        else:
                            end = mid - 1
                        mid = (end + start) // 2

                    val_bin = mid

            if val_bin > -1:
                out[y, x] = new_values[val_bin]
            else:
                out[y, x] = np.nan

    return out


@nb.jit(nopython=True)
def _run_numpy_jenks_matrices(data, n_classes):
    n_data = data.shape[0]
    lower_class_limits = np.zeros(
        (n_data + 1, n_classes + 1), dtype=np.float64
    )
    lower_class_limits[1, 1:n_classes + 1] = 1.0

    var_combinations = np.zeros(
        (n_data + 1, n_classes + 1), dtype=np.float64
    )
    var_combinations[2:n_data + 1, 1:n_classes + 1] = np.inf

    variance = 0.0

    for l in range(2, n_data + 1): # noqa
        sum = 0.0
        sum_squares = 0.0
        w = 0.0

        for m in range(l):
            # `III` originally
            lower_class_limit = l - m
            i4 = lower_class_limit - 1

            val = data[i4]

            # here we're estimating variance for each potential classing
            # of the data, for each potential number of classes. `w`
            # is the number of data points considered so far.
            w += 1.0

            # increase the current sum and sum-of-squares
            sum += val
            sum_squares += val * val

            # the variance at this point in the sequence is the difference
            # between the sum of squares and the total x 2, over the number
            # of samples.
            variance = sum_squares - (sum * sum) / w

            if i4 == 0:
                continue
            for j in range(2, n_classes + 1):
                # if adding this element to an existing class
                # will increase its variance beyond the limit, break
                # the class at this point, setting the lower_class_limit
                # at this point.
                new_variance = variance + var_combinations[i4, j-1]
                if var_combinations[l, j] >= new_variance:
                    lower_class_limits[l, j] = lower_class_limit
                    var_combinations[l, j] = new_variance

        lower_class_limits[l, 1] = 1.
        var_combinations[l, 1] = variance

    return lower_class_limits, var_combinations


# ---- inputs (not from the project): elevation-like rasters ----
def _terrain(seed, shape=(600, 800), dtype=np.float64):
    rng = np.random.default_rng(seed)
    z = np.cumsum(np.cumsum(rng.standard_normal(shape), axis=0), axis=1)
    z[::37, ::53] = np.nan
    return z.astype(dtype)


def _classes(seed, shape=(600, 800)):
    """Integer-valued land-cover classes as floats, with NaN and inf holes."""
    z = np.random.default_rng(seed).integers(0, 20, shape).astype(np.float64)
    z[::41, ::7] = np.nan
    z[5, 5] = np.inf
    return z


CASES = [
    ("_cpu", lambda: (_terrain(1), 30.0, 30.0)),
    ("_cpu", lambda: (_terrain(2, dtype=np.float32), 10.0, 12.5)),
    ("_cpu_binary", lambda: (_classes(3), np.array([1.0, 5.0, 7.0]))),
    ("_cpu_bin", lambda: (_terrain(4), np.linspace(-3000.0, 3000.0, 11), np.arange(11.0))),
    ("_run_numpy_jenks_matrices", lambda: (np.sort(np.random.default_rng(5).gamma(2.0, 10.0, 2000)), 5)),
]
