"""The CUDA kernels of the course notebooks (shared/seeds 000, 001, 003,
004), as their authors wrote them with `numba` -> `kiln`. Used by
test_cuda_jit.py, test_cuda_guvectorize.py and bench/gpu_vs_numba_cuda.py."""
import math

import numpy as np

import kiln

from kiln import cuda, float32, uint8, uint32
from kiln.cuda.random import xoroshiro128p_uniform_float32

TPB = 16


# seed 004: grid-stride add
@cuda.jit
def add_kernel(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]


# seed 004: the same, spelled with thread and block indices
@cuda.jit
def add_kernel_indices(x, y, out):
    tx = cuda.threadIdx.x
    ty = cuda.blockIdx.x
    block_size = cuda.blockDim.x
    grid_size = cuda.gridDim.x
    start = tx + ty * block_size
    stride = block_size * grid_size
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]


# seed 001: 3-D maximum, one thread per element
@cuda.jit
def maximum_6(a, b, c):
    tidx = cuda.threadIdx.x
    bidx = cuda.blockIdx.x
    tidy = cuda.threadIdx.y
    bidy = cuda.blockIdx.y
    tidz = cuda.threadIdx.z
    bidz = cuda.blockIdx.z
    block_dimx = cuda.blockDim.x
    block_dimy = cuda.blockDim.y
    block_dimz = cuda.blockDim.z
    idx = block_dimx * bidx + tidx
    idy = block_dimy * bidy + tidy
    idz = block_dimz * bidz + tidz
    c[idx, idy, idz] = max(a[idx, idy, idz], b[idx, idy, idz])


# seed 000: average of square roots (each thread its own partial sum)
@cuda.jit
def average_sqrt_kernel(x, partial):
    tidx = cuda.threadIdx.x
    bidx = cuda.blockIdx.x
    block_dimx = cuda.blockDim.x
    grid_dimx = cuda.gridDim.x
    start = tidx + bidx * block_dimx
    stride = block_dimx * grid_dimx
    avg = 0.
    for i in range(start, x.shape[0], stride):
        avg += math.sqrt(x[i])
    partial[start] = avg / x.shape[0]


# seed 000: naive matrix multiply
@cuda.jit
def matmul(A, B, C):
    row, col = cuda.grid(2)
    if row < C.shape[0] and col < C.shape[1]:
        tmp = 0.
        for k in range(A.shape[1]):
            tmp += A[row, k] * B[k, col]
        C[row, col] = tmp


# seed 000: matrix multiply through shared memory
@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    if x >= C.shape[0] and y >= C.shape[1]:
        return
    tmp = 0.
    for i in range(bpg):
        sA[tx, ty] = A[x, ty + i * TPB]
        sB[tx, ty] = B[tx + i * TPB, y]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[tx, j] * sB[j, ty]
        cuda.syncthreads()
    C[x, y] = tmp


# seed 000: Mandelbrot with a device function declared by argtypes/restype
def mandel(x, y, max_iters):
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return max_iters


mandel_gpu = cuda.jit(restype=uint32, argtypes=[float32, float32, uint32], device=True)(mandel)


@cuda.jit(argtypes=[float32, float32, float32, float32, uint8[:, :], uint32])
def create_fractal_kernel(xmin, xmax, ymin, ymax, image, iters):
    height, width = image.shape
    pixel_size_x = (xmax - xmin) / width
    pixel_size_y = (ymax - ymin) / height
    startX, startY = cuda.grid(2)
    gridX = cuda.gridDim.x * cuda.blockDim.x
    gridY = cuda.gridDim.y * cuda.blockDim.y
    for x in range(startX, width, gridX):
        real = xmin + x * pixel_size_x
        for y in range(startY, height, gridY):
            imag = ymin + y * pixel_size_y
            color = mandel_gpu(real, imag, iters)
            image[y, x] = color


# seed 003: primes with a scalar argument
@cuda.jit
def check_prime_gpu_kernel(num, result):
    result[0] = num
    for i in range(2, (num // 2) + 1):
        if (num % i) == 0:
            result[0] = 0
            break


# seed 004: histogram with atomics
@cuda.jit
def histogram(x, xmin, xmax, histogram_out):
    nbins = histogram_out.shape[0]
    bin_width = (xmax - xmin) / nbins
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        bin_number = np.int32((x[i] - xmin) / bin_width)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            cuda.atomic.add(histogram_out, bin_number, 1)


# seed 004: atomics on a counter, and the race they fix
@cuda.jit
def thread_counter_race_condition(global_counter):
    global_counter[0] += 1  # This is bad


@cuda.jit
def thread_counter_safe(global_counter):
    cuda.atomic.add(global_counter, 0, 1)


# seed 004: Monte-Carlo pi with xoroshiro128+
@cuda.jit
def compute_pi(rng_states, iterations, out):
    thread_id = cuda.grid(1)
    inside = 0
    for i in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, thread_id)
        y = xoroshiro128p_uniform_float32(rng_states, thread_id)
        if x ** 2 + y ** 2 <= 1.0:
            inside += 1
    out[thread_id] = 4.0 * inside / iterations


# seed 004: a device function returning a tuple
@cuda.jit(device=True)
def polar_to_cartesian(rho, theta):
    x = rho * math.cos(theta)
    y = rho * math.sin(theta)
    return x, y


@cuda.jit
def polar_distance_kernel(rho1, theta1, rho2, theta2, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        x1, y1 = polar_to_cartesian(rho1[i], theta1[i])
        x2, y2 = polar_to_cartesian(rho2[i], theta2[i])
        out[i] = ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5


# seed 004: GPU ufuncs
SQRT_2PI = np.float32((2 * math.pi) ** 0.5)


@kiln.vectorize(['float32(float32, float32, float32)'], target='cuda')
def gaussian_pdf(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


@kiln.vectorize(['float32(float32, float32, float32, float32)'], target='cuda')
def polar_distance(rho1, theta1, rho2, theta2):
    x1, y1 = polar_to_cartesian(rho1, theta1)
    x2, y2 = polar_to_cartesian(rho2, theta2)
    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5


# seed 003: primes as a GPU ufunc
@kiln.vectorize(['int32(int32)'], target='cuda')
def check_prime_gpu(num):
    for i in range(2, (num // 2) + 1):
        if (num % i) == 0:
            return 0
    return num


# seed 004: GPU gufuncs
@kiln.guvectorize(['(float32[:], float32[:])'],  # have to include the output array in the type signature
                  '(i)->()',                     # map a 1D array to a scalar output
                  target='cuda')
def l2_norm(vec, out):
    acc = 0.0
    for value in vec:
        acc += value**2
    out[0] = math.sqrt(acc)


@kiln.guvectorize(['void(float32[:,:], float32[:,:], float32[:,:])'], '(m,n),(n,p)->(m,p)', target='cuda')
def matmulcore(A, B, C):
    m, n = A.shape
    n, p = B.shape
    for i in range(m):
        for j in range(p):
            C[i, j] = 0
            for k in range(n):
                C[i, j] += A[i, k] * B[k, j]
