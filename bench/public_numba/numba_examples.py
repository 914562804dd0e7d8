# Public Numba code, verbatim; only the import lines changed (`from numba import jit` ->
# `from kiln import jit`, `import numba` -> `import kiln as numba`, `import numba as nb` -> `import kiln as nb`).
# All from numba/numba-examples, license BSD-2-Clause (the repository's LICENSE):
#   [B] examples/finance/blackscholes/blackscholes_numba.py, commit 21be694a2b60a3c7dc003d80c25bd1a2e6931383
#   [K] examples/density_estimation/kernel/impl.py, commit c90a013a3deb23651978aded5a8d32d5da17d249
#   [H] examples/density_estimation/histogram/impl.py, commit 74346b6e8d7e0f16e9c292ae261b989bf91ef1e2
#   [P] examples/maths/mandelbrot_set_numpy/numba_prange_numpy_array.py,
#       commit 2c80fe3de63546328b88f4c113dd7e51f140f6eb
#   [V] examples/maths/mandelbrot_set_vectorization/numba_vectorize.py,
#       commit e167324bb6ba1718405069b980cf3cb22d4b80df
#   [L] examples/lennard_jones/numba_scalar_prange_impl.py, commit 094c0667de63137f1c8bb71f1ca2c0edded84429
#   [Z] examples/waveforms/zero_suppression/impl.py, commit 0320a3a760fcea8b754ad12aa32c8b2f317a66ae
# Functions: cnd_numba [B], black_scholes_numba [B], gaussian [K], numba_kde [K],
#   numba_kde_multithread [K], get_bin_edges [H], compute_bin [H], numba_histogram [H], mandelbrot [P],
#   get_max_iter [V], lj_numba_scalar_prange [L], distance_numba_scalar_prange [L],
#   potential_numba_scalar_prange [L], numba_zero_suppression [Z].
import math

import numpy as np

from kiln import jit
import kiln as numba
import kiln as nb


@jit
def cnd_numba(d):
    A1 = 0.31938153
    A2 = -0.356563782
    A3 = 1.781477937
    A4 = -1.821255978
    A5 = 1.330274429
    RSQRT2PI = 0.39894228040143267793994605993438
    K = 1.0 / (1.0 + 0.2316419 * math.fabs(d))
    ret_val = (RSQRT2PI * math.exp(-0.5 * d * d) *
               (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5))))))
    if d > 0:
        ret_val = 1.0 - ret_val
    return ret_val


@jit
def black_scholes_numba(stockPrice, optionStrike,
                        optionYears, Riskfree, Volatility):
    callResult = np.empty_like(stockPrice)
    putResult = np.empty_like(stockPrice)

    S = stockPrice
    X = optionStrike
    T = optionYears
    R = Riskfree
    V = Volatility
    for i in range(len(S)):
        sqrtT = math.sqrt(T[i])
        d1 = (math.log(S[i] / X[i]) + (R + 0.5 * V * V) * T[i]) / (V * sqrtT)
        d2 = d1 - V * sqrtT
        cndd1 = cnd_numba(d1)
        cndd2 = cnd_numba(d2)

        expRT = math.exp((-1. * R) * T[i])
        callResult[i] = (S[i] * cndd1 - X[i] * expRT * cndd2)
        putResult[i] = (X[i] * expRT * (1.0 - cndd2) - S[i] * (1.0 - cndd1))

    return callResult, putResult


@numba.jit(nopython=True)
def gaussian(x):
    return np.exp(-0.5 * x**2) / np.sqrt(2 * np.pi)

@numba.jit(nopython=True)
def numba_kde(eval_points, samples, bandwidths):
    result = np.zeros_like(eval_points)

    for i, eval_x in enumerate(eval_points):
        for sample, bandwidth in zip(samples, bandwidths):
            result[i] += gaussian((eval_x - sample) / bandwidth) / bandwidth
        result[i] /= len(samples)

    return result


@numba.jit(nopython=True, parallel=True)
def numba_kde_multithread(eval_points, samples, bandwidths):
    result = np.zeros_like(eval_points)

    # SPEEDTIP: Parallelize over evaluation points with prange()
    for i in numba.prange(len(eval_points)):
        eval_x = eval_points[i]
        for sample, bandwidth in zip(samples, bandwidths):
            result[i] += gaussian((eval_x - sample) / bandwidth) / bandwidth
        result[i] /= len(samples)

    return result


@numba.jit(nopython=True)
def get_bin_edges(a, bins):
    bin_edges = np.zeros((bins+1,), dtype=np.float64)
    a_min = a.min()
    a_max = a.max()
    delta = (a_max - a_min) / bins
    for i in range(bin_edges.shape[0]):
        bin_edges[i] = a_min + i * delta

    bin_edges[-1] = a_max  # Avoid roundoff error on last point
    return bin_edges


@numba.jit(nopython=True)
def compute_bin(x, bin_edges):
    # assuming uniform bins for now
    n = bin_edges.shape[0] - 1
    a_min = bin_edges[0]
    a_max = bin_edges[-1]

    # special case to mirror NumPy behavior for last bin
    if x == a_max:
        return n - 1 # a_max always in last bin

    bin = int(n * (x - a_min) / (a_max - a_min))

    if bin < 0 or bin >= n:
        return None
    else:
        return bin


@numba.jit(nopython=True)
def numba_histogram(a, bins):
    hist = np.zeros((bins,), dtype=np.intp)
    bin_edges = get_bin_edges(a, bins)

    for x in a.flat:
        bin = compute_bin(x, bin_edges)
        if bin is not None:
            hist[int(bin)] += 1

    return hist, bin_edges


@nb.njit(parallel = True)
def mandelbrot(iters, pixels, bbox, width, max_iter):
    for y in nb.prange(width):
        for x in range(width):
            c0 = complex(bbox[0] + (bbox[2]-bbox[0])*x/width, 
                         bbox[1] + (bbox[3]-bbox[1])*y/width) 
            c = 0
            i = 1
            while i < max_iter:
                if abs(c) > 2:  
                    log_iter = math.log(i) 
                    pixels[y, x, 0] = 255*(1+math.cos(3.32*log_iter))//2
                    pixels[y, x, 1] = 255*(1+math.cos(0.774*log_iter))//2
                    pixels[y, x, 2] = 255*(1+math.cos(0.412*log_iter))//2
                    break
                c = c * c + c0
                i += 1
            iters[y, x] = i                
    return iters, pixels


@nb.vectorize
def get_max_iter(x, y, width, max_iter, r1, i1, r2, i2):
    c0 = complex(r1 + (r2-r1)*x/width, 
                 i1 + (i2-i1)*y/width)  
    c = 0
    for i in range(1, max_iter+1): 
        if abs(c) > 2:  
            break
        c = c * c + c0
    return i


@numba.njit
def lj_numba_scalar_prange(r):
    sr6 = (1./r)**6
    pot = 4.*(sr6*sr6 - sr6)
    return pot


@numba.njit
def distance_numba_scalar_prange(atom1, atom2):
    dx = atom2[0] - atom1[0]
    dy = atom2[1] - atom1[1]
    dz = atom2[2] - atom1[2]

    r = (dx * dx + dy * dy + dz * dz) ** 0.5

    return r


@numba.njit(parallel=True)
def potential_numba_scalar_prange(cluster):
    energy = 0.0
    # numba.prange requires parallel=True flag to compile.
    # It causes the loop to run in parallel in multiple threads.
    for i in numba.prange(len(cluster)-1):
        for j in range(i + 1, len(cluster)):
            r = distance_numba_scalar_prange(cluster[i], cluster[j])
            e = lj_numba_scalar_prange(r)
            energy += e

    return energy


@numba.vectorize(nopython=True)
def numba_zero_suppression(values, threshold):
    if np.abs(values) >= threshold:
        return values
    else:
        return 0.0


# ---- inputs (not from the project) ----
def _options(seed, n=200_000):
    rng = np.random.default_rng(seed)
    return (rng.uniform(5.0, 30.0, n), rng.uniform(1.0, 100.0, n), rng.uniform(0.25, 10.0, n),
            0.02, 0.30)


def _kde(seed, n_eval=1000, n_samples=2000):
    rng = np.random.default_rng(seed)
    samples = rng.normal(0.0, 5.0, n_samples)
    return rng.normal(0.0, 5.0, n_eval), samples, np.full_like(samples, 1.06 * n_samples**0.2 * 5.0)


def _mandelbrot(width=200, max_iter=200):
    return (np.zeros((width, width), dtype=np.int64), np.zeros((width, width, 3), dtype=np.uint8),
            (-2.0, -1.5, 1.0, 1.5), width, max_iter)


def _mandelbrot_grid(width=300, max_iter=100):
    xv, yv = np.meshgrid(np.arange(0, width), np.arange(0, width))
    return xv, yv, width, max_iter, -2.0, -1.5, 1.0, 1.5


def _pulses(seed, dtype, n=1_000_000):
    values = np.random.default_rng(seed).normal(0.0, 5.0, n)
    values += 50 * np.clip(np.cos(np.linspace(0.0, 1.0, num=n) * np.pi * 10), 0, 1.0)
    return values.astype(dtype), 8.0


CASES = [
    ("cnd_numba", lambda: (0.7,)),
    ("black_scholes_numba", lambda: _options(1)),
    ("gaussian", lambda: (np.random.default_rng(2).standard_normal(1_000_000),)),
    ("numba_kde", lambda: _kde(3)),
    ("numba_kde_multithread", lambda: _kde(4)),
    ("get_bin_edges", lambda: (np.random.default_rng(5).normal(0.0, 5.0, 1_000_000), 100)),
    ("compute_bin", lambda: (100.0, np.linspace(-1.0, 1.0, 11))),   # outside: None
    ("numba_histogram", lambda: (np.random.default_rng(6).normal(0.0, 5.0, 300_000), 1000)),
    ("numba_histogram", lambda: (np.random.default_rng(7).normal(0.0, 5.0, (300, 1000)).astype(np.float32), 10)),
    ("mandelbrot", _mandelbrot),
    ("get_max_iter", _mandelbrot_grid),
    ("potential_numba_scalar_prange", lambda: (np.random.default_rng(8).uniform(0.0, 20.0, (1000, 3)),)),
    ("numba_zero_suppression", lambda: _pulses(9, np.float64)),
    ("numba_zero_suppression", lambda: _pulses(10, np.int16)),
]
