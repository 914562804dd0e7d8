/* kiln.cuda.random: xoroshiro128+ generator states, one per thread, in
 * Numba's layout ({uint64 s0, uint64 s1} per state) and with Numba's
 * sequences, so that a course's seeded results come out the same.
 *
 * State i is state 0 jumped ahead i * 2^64 steps. Numba creates them with a
 * JIT-compiled loop (about a second, mostly compiling); here it is C. The
 * device side (next, uniform, normal) is LLVM IR text for the compiler to
 * link into kernels. */
#include "gpu/objects.h"

static inline uint64_t rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

/* The 2016 xoroshiro128+ step (rotations 55 and 36, shift 14), as Numba's. */
static inline uint64_t next(uint64_t *s0, uint64_t *s1) {
    uint64_t a = *s0, b = *s1, result = a + b;
    b ^= a;
    *s0 = rotl(a, 55) ^ b ^ (b << 14);
    *s1 = rotl(b, 36);
    return result;
}

/* Advances by 2^64 steps: the generator's jump polynomial. */
static void jump(uint64_t *s0, uint64_t *s1) {
    static const uint64_t polynomial[2] = {0xbeac0467eba5facbULL, 0xd86b048b86aa9922ULL};
    uint64_t t0 = 0, t1 = 0;
    for (int i = 0; i < 2; i++)
        for (int bit = 0; bit < 64; bit++) {
            if (polynomial[i] & (1ULL << bit)) {
                t0 ^= *s0;
                t1 ^= *s1;
            }
            next(s0, s1);
        }
    *s0 = t0;
    *s1 = t1;
}

void kg_xoroshiro_init_states(uint64_t *states, size_t n, uint64_t seed, uint64_t subsequence_start) {
    if (n == 0)
        return;
    /* SplitMix64 of the seed, so that seed 0 gives a non-zero state. */
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    uint64_t s0 = z, s1 = z;
    for (uint64_t i = 0; i < subsequence_start; i++)
        jump(&s0, &s1);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            jump(&s0, &s1);
        states[2 * i] = s0;
        states[2 * i + 1] = s1;
    }
}

/* The device functions; LOG/COS/SQRT name the math for double, the ...F
 * ones for float (libdevice on the GPU, LLVM intrinsics on the CPU). */
#define XOROSHIRO_IR(LOG, COS, SQRT, LOGF, COSF, SQRTF)                                             \
    "define linkonce_odr i64 @kiln_xoroshiro128p_next(ptr %states, i64 %index) {\n"               \
    "  %p0 = getelementptr inbounds [2 x i64], ptr %states, i64 %index, i64 0\n"                  \
    "  %p1 = getelementptr inbounds [2 x i64], ptr %states, i64 %index, i64 1\n"                  \
    "  %s0 = load i64, ptr %p0, align 8\n"                                                         \
    "  %s1 = load i64, ptr %p1, align 8\n"                                                         \
    "  %result = add i64 %s0, %s1\n"                                                               \
    "  %b = xor i64 %s1, %s0\n"                                                                    \
    "  %r0 = call i64 @llvm.fshl.i64(i64 %s0, i64 %s0, i64 55)\n"                                 \
    "  %t = xor i64 %r0, %b\n"                                                                     \
    "  %sh = shl i64 %b, 14\n"                                                                     \
    "  %n0 = xor i64 %t, %sh\n"                                                                    \
    "  %n1 = call i64 @llvm.fshl.i64(i64 %b, i64 %b, i64 36)\n"                                   \
    "  store i64 %n0, ptr %p0, align 8\n"                                                          \
    "  store i64 %n1, ptr %p1, align 8\n"                                                          \
    "  ret i64 %result\n"                                                                          \
    "}\n"                                                                                          \
    "define linkonce_odr double @kiln_xoroshiro128p_uniform_float64(ptr %states, i64 %index) {\n" \
    "  %x = call i64 @kiln_xoroshiro128p_next(ptr %states, i64 %index)\n"                         \
    "  %m = lshr i64 %x, 11\n"                                                                     \
    "  %f = uitofp i64 %m to double\n"                                                             \
    "  %r = fmul double %f, 0x3CA0000000000000\n" /* 2^-53 */                                      \
    "  ret double %r\n"                                                                            \
    "}\n"                                                                                          \
    /* Numba's float32 draw is the float64 one rounded to float32; this is the same number         \
     * without float64 arithmetic (m is rounded once either way, and scaling by 2^-53              \
     * commutes with rounding), so a float32 kernel's work stays float32 */                        \
    "define linkonce_odr float @kiln_xoroshiro128p_uniform_float32(ptr %states, i64 %index) {\n"  \
    "  %x = call i64 @kiln_xoroshiro128p_next(ptr %states, i64 %index)\n"                          \
    "  %m = lshr i64 %x, 11\n"                                                                     \
    "  %f = uitofp i64 %m to float\n"                                                              \
    "  %r = fmul float %f, 0x3CA0000000000000\n" /* 2^-53 */                                       \
    "  ret float %r\n"                                                                             \
    "}\n"                                                                                          \
    "define linkonce_odr double @kiln_xoroshiro128p_normal_float64(ptr %states, i64 %index) {\n"  \
    "  %u1 = call double @kiln_xoroshiro128p_uniform_float64(ptr %states, i64 %index)\n"          \
    "  %u2 = call double @kiln_xoroshiro128p_uniform_float64(ptr %states, i64 %index)\n"          \
    "  %l = call double @" LOG "(double %u1)\n"                                                    \
    "  %m = fmul double -2.0, %l\n"                                                                \
    "  %s = call double @" SQRT "(double %m)\n"                                                    \
    "  %a = fmul double 0x401921FB54442D18, %u2\n" /* 2 pi */                                      \
    "  %c = call double @" COS "(double %a)\n"                                                     \
    "  %z = fmul double %s, %c\n"                                                                  \
    "  ret double %z\n"                                                                            \
    "}\n"                                                                                          \
    "define linkonce_odr float @kiln_xoroshiro128p_normal_float32(ptr %states, i64 %index) {\n"   \
    "  %u1 = call float @kiln_xoroshiro128p_uniform_float32(ptr %states, i64 %index)\n"           \
    "  %u2 = call float @kiln_xoroshiro128p_uniform_float32(ptr %states, i64 %index)\n"           \
    "  %l = call float @" LOGF "(float %u1)\n"                                                     \
    "  %m = fmul float -2.0, %l\n"                                                                 \
    "  %s = call float @" SQRTF "(float %m)\n"                                                     \
    "  %a = fmul float 0x401921FB60000000, %u2\n" /* float32(2 pi) */                              \
    "  %c = call float @" COSF "(float %a)\n"                                                      \
    "  %z = fmul float %s, %c\n"                                                                   \
    "  ret float %z\n"                                                                             \
    "}\n"                                                                                          \
    "declare i64 @llvm.fshl.i64(i64, i64, i64)\n"                                                  \
    "declare double @" LOG "(double)\n"                                                            \
    "declare double @" COS "(double)\n"                                                            \
    "declare double @" SQRT "(double)\n"                                                           \
    "declare float @" LOGF "(float)\n"                                                             \
    "declare float @" COSF "(float)\n"                                                             \
    "declare float @" SQRTF "(float)\n"

static const char gpu_ir[] =
    XOROSHIRO_IR("__nv_log", "__nv_cos", "__nv_sqrt", "__nv_logf", "__nv_cosf", "__nv_sqrtf");
static const char cpu_ir[] = XOROSHIRO_IR("llvm.log.f64", "llvm.cos.f64", "llvm.sqrt.f64", "llvm.log.f32",
                                          "llvm.cos.f32", "llvm.sqrt.f32");

const char *kg_xoroshiro_ir(int for_gpu) {
    return for_gpu ? gpu_ir : cpu_ir;
}

/* cuda_xoroshiro_fill(buffer, seed, subsequence_start): fills a writable
 * buffer of 16-byte states (kiln.cuda.random copies it to the device). */
static PyObject *py_fill(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *target, *seed_obj, *start_obj;
    if (!PyArg_ParseTuple(args, "OOO", &target, &seed_obj, &start_obj))
        return NULL;
    /* Numba wraps seeds to uint64; so do we. */
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    unsigned long long start = PyLong_AsUnsignedLongLong(start_obj);
    if (start == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(target, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (view.len % 16 != 0) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "xoroshiro128p states are 16 bytes each; the buffer has %zd",
                            view.len);
    }
    Py_BEGIN_ALLOW_THREADS
    kg_xoroshiro_init_states(view.buf, (size_t)view.len / 16, seed, start);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *py_ir(PyObject *self, PyObject *args) {
    (void)self;
    int for_gpu = 1;
    if (!PyArg_ParseTuple(args, "|p", &for_gpu))
        return NULL;
    return PyUnicode_FromString(kg_xoroshiro_ir(for_gpu));
}

static PyMethodDef methods[] = {
    {"cuda_xoroshiro_fill", py_fill, METH_VARARGS,
     "cuda_xoroshiro_fill(buffer, seed, subsequence_start): Numba-compatible xoroshiro128p states"},
    {"cuda_xoroshiro_ir", py_ir, METH_VARARGS,
     "cuda_xoroshiro_ir(for_gpu=True) -> LLVM IR text of the device-side generator functions"},
    {NULL, NULL, 0, NULL},
};

int kg_rng_init(PyObject *module) {
    return PyModule_AddFunctions(module, methods);
}
