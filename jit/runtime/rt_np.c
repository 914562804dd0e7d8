/* rt_np: host functions NumPy code calls: exceptions whose messages carry
 * shapes (formatted as NumPy formats them, into a per-thread buffer that
 * stays valid until the dispatcher reads the error on the same thread). */
#include "jit/runtime/rt_np.h"
#include "jit/runtime/rt_print.h"
#include "jit/runtime/rt_sort.h"
#include "jit/runtime/runtime.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char message[1024];

/* "(3,4)", "(5,)" as NumPy prints shapes in its C messages (-1, an axis
 * to infer, is "newaxis"); with comma ", ", "(3, 4)" as Python prints a
 * tuple. */
static size_t put_dims(char *buf, size_t size, int64_t nd, const int64_t *shape, const char *comma) {
    size_t used = (size_t)snprintf(buf, size, "(");
    for (int64_t k = 0; k < nd && used < size; k++) {
        const char *sep = nd == 1 ? "," : k + 1 < nd ? comma : "";
        if (shape[k] == -1)
            used += (size_t)snprintf(buf + used, size - used, "newaxis%s", sep);
        else
            used += (size_t)snprintf(buf + used, size - used, "%lld%s", (long long)shape[k], sep);
    }
    if (used < size)
        used += (size_t)snprintf(buf + used, size - used, ")");
    return used < size ? used : size - 1;
}

static size_t put_shape(char *buf, size_t size, int64_t nd, const int64_t *shape) {
    return put_dims(buf, size, nd, shape, ",");
}

void kj_np_raise_broadcast(int64_t n, const int64_t *ndims, const int64_t *shapes) {
    size_t used = (size_t)snprintf(message, sizeof message, "operands could not be broadcast together with shapes ");
    for (int64_t i = 0; i < n && used < sizeof message; i++) {
        used += put_shape(message + used, sizeof message - used, ndims[i], shapes);
        shapes += ndims[i];
        if (used < sizeof message - 1)
            message[used++] = ' ', message[used] = 0;
    }
    kj_rt_raise(PyExc_ValueError, message);
}

void kj_np_raise_dot(int64_t xnd, const int64_t *xs, int64_t ynd, const int64_t *ys) {
    size_t used = (size_t)snprintf(message, sizeof message, "shapes ");
    used += put_shape(message + used, sizeof message - used, xnd, xs);
    used += (size_t)snprintf(message + used, sizeof message - used, " and ");
    used += put_shape(message + used, sizeof message - used, ynd, ys);
    int64_t yd = ynd == 1 ? 0 : ynd - 2;
    snprintf(message + used, sizeof message - used, " not aligned: %lld (dim %lld) != %lld (dim %lld)",
             (long long)xs[xnd - 1], (long long)(xnd - 1), (long long)ys[yd], (long long)yd);
    kj_rt_raise(PyExc_ValueError, message);
}

void kj_np_raise_out(int64_t ond, const int64_t *oshape, int64_t bnd, const int64_t *bshape) {
    size_t used = (size_t)snprintf(message, sizeof message, "non-broadcastable output operand with shape ");
    used += put_shape(message + used, sizeof message - used, ond, oshape);
    used += (size_t)snprintf(message + used, sizeof message - used, " doesn't match the broadcast shape ");
    put_shape(message + used, sizeof message - used, bnd, bshape);
    kj_rt_raise(PyExc_ValueError, message);
}

void kj_np_raise_assign(int64_t snd, const int64_t *sshape, int64_t dnd, const int64_t *dshape) {
    size_t used = (size_t)snprintf(message, sizeof message, "could not broadcast input array from shape ");
    used += put_shape(message + used, sizeof message - used, snd, sshape);
    used += (size_t)snprintf(message + used, sizeof message - used, " into shape ");
    put_shape(message + used, sizeof message - used, dnd, dshape);
    kj_rt_raise(PyExc_ValueError, message);
}

/* NumPy's pairwise summation, for T = double and float: below 8 elements
 * one chain, up to 128 eight chains added as ((0+1)+(2+3))+((4+5)+(6+7))
 * then the leftovers, above that the two halves (the first a multiple of
 * 8 long) summed the same way; the whole in blocks of KJ_NP_SUM_BLOCK. */
#define SUMS(T, suffix)                                                                     \
    static T pairwise_##suffix(const T *p, int64_t n) {                                     \
        if (n < 8) {                                                                        \
            T res = 0;                                                                      \
            for (int64_t i = 0; i < n; i++)                                                 \
                res += p[i];                                                                \
            return res;                                                                     \
        }                                                                                   \
        if (n <= 128) {                                                                     \
            /* eight named chains, not an array: GCC kept an array on the stack, \
             * and every add waited for a store and a load */                   \
            T r0 = p[0], r1 = p[1], r2 = p[2], r3 = p[3], r4 = p[4], r5 = p[5], r6 = p[6], r7 = p[7]; \
            int64_t i = 8;                                                                  \
            for (; i < n - n % 8; i += 8) {                                                 \
                r0 += p[i];                                                                 \
                r1 += p[i + 1];                                                             \
                r2 += p[i + 2];                                                             \
                r3 += p[i + 3];                                                             \
                r4 += p[i + 4];                                                             \
                r5 += p[i + 5];                                                             \
                r6 += p[i + 6];                                                             \
                r7 += p[i + 7];                                                             \
            }                                                                               \
            T res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));                      \
            for (; i < n; i++)                                                              \
                res += p[i];                                                                \
            return res;                                                                     \
        }                                                                                   \
        int64_t half = n / 2;                                                               \
        half -= half % 8;                                                                   \
        return pairwise_##suffix(p, half) + pairwise_##suffix(p + half, n - half);          \
    }                                                                                       \
    T kj_np_sum_##suffix(const T *data, int64_t n) {                                        \
        T total = 0;                                                                        \
        for (int64_t i = 0; i < n; i += KJ_NP_SUM_BLOCK)                                    \
            total += pairwise_##suffix(data + i, n - i < KJ_NP_SUM_BLOCK ? n - i : KJ_NP_SUM_BLOCK); \
        return total;                                                                       \
    }
SUMS(double, f64)
SUMS(float, f32)

/* [lo, hi): the bytes array a spans (lo == hi when it is empty); strides
 * may be negative. */
static void span(const kj_np_layout *a, int64_t nd, int64_t itemsize, uintptr_t *lo, uintptr_t *hi) {
    intptr_t down = 0, up = itemsize;
    for (int64_t k = 0; k < nd; k++) {
        int64_t len = a->dims[k], stride = a->dims[nd + k];
        if (len == 0) {
            *lo = *hi = (uintptr_t)a->data;
            return;
        }
        intptr_t reach = (intptr_t)(stride * (len - 1));
        if (reach < 0)
            down += reach;
        else
            up += reach;
    }
    *lo = (uintptr_t)a->data + (uintptr_t)down;
    *hi = (uintptr_t)a->data + (uintptr_t)up;
}

int32_t kj_np_overlaps(const kj_np_layout *a, int64_t and, int64_t aitem, const kj_np_layout *out, int64_t ond,
                       int64_t oitem) {
    uintptr_t alo, ahi, olo, ohi;
    span(a, and, aitem, &alo, &ahi);
    span(out, ond, oitem, &olo, &ohi);
    if (alo == ahi || olo == ohi || ahi <= olo || ohi <= alo)
        return 0;
    bool same = and == ond && a->data == out->data;
    for (int64_t k = 0; same && k < 2 * and; k++)
        same = a->dims[k] == out->dims[k];
    return !same;
}

void kj_np_unbuffer(char *dst, const int64_t *shape, const int64_t *strides, int64_t nd, const char *src,
                    int64_t itemsize) {
    /* nd is at most KJ_NP_MAXDIM (32), the compiler's limit */
    int64_t idx[32] = {0}, inner = nd ? shape[nd - 1] : 1, step = nd ? strides[nd - 1] : 0;
    for (int64_t k = 0; k < nd; k++)
        if (shape[k] == 0)
            return;
    for (;;) {
        char *d = dst;
        for (int64_t k = 0; k + 1 < nd; k++)
            d += idx[k] * strides[k];
        for (int64_t i = 0; i < inner; i++, d += step, src += itemsize)
            memcpy(d, src, (size_t)itemsize);
        int64_t k = nd - 2;   /* the next row, in C order */
        while (k >= 0 && ++idx[k] == shape[k])
            idx[k--] = 0;
        if (k < 0)
            return;
    }
}

/* numpy.AxisError (numpy.exceptions.AxisError in NumPy 2), looked up while
 * compiling (with the GIL) and kept for the process. */
static PyObject *axis_error;

int kj_np_prepare_axis_error(void) {
    if (axis_error)
        return 0;
    PyObject *m = PyImport_ImportModule("numpy.exceptions");
    if (!m) {
        PyErr_Clear();
        m = PyImport_ImportModule("numpy");
    }
    axis_error = m ? PyObject_GetAttrString(m, "AxisError") : NULL;
    Py_XDECREF(m);
    if (!axis_error) {
        PyErr_Clear();
        return -1;
    }
    return 0;
}

void kj_np_raise_axis(int64_t axis, int64_t ndim) {
    snprintf(message, sizeof message, "axis %lld is out of bounds for array of dimension %lld", (long long)axis,
             (long long)ndim);
    kj_rt_raise(axis_error ? axis_error : PyExc_ValueError, message);
}

void kj_np_raise_mask(int64_t dim, int64_t size, int64_t mask_size) {
    snprintf(message, sizeof message,
             "boolean index did not match indexed array along dimension %lld; dimension is %lld but "
             "corresponding boolean dimension is %lld", (long long)dim, (long long)size, (long long)mask_size);
    kj_rt_raise(PyExc_IndexError, message);
}

void kj_np_raise_mask_assign(int64_t have, int64_t want) {
    snprintf(message, sizeof message,
             "NumPy boolean array indexing assignment cannot assign %lld input values to the %lld output "
             "values where the mask is true", (long long)have, (long long)want);
    kj_rt_raise(PyExc_ValueError, message);
}

void kj_np_raise_index(int64_t index, int64_t axis, int64_t size) {
    snprintf(message, sizeof message, "index %lld is out of bounds for axis %lld with size %lld", (long long)index,
             (long long)axis, (long long)size);
    kj_rt_raise(PyExc_IndexError, message);
}

void kj_np_raise_histogram(int32_t code, double lo, double hi) {
    if (code == KJ_HIST_BAD_BINS || code == KJ_HIST_BAD_RANGE) {
        kj_rt_raise(PyExc_ValueError, code == KJ_HIST_BAD_BINS ? "`bins` must be positive, when an integer"
                                                               : "max must be larger than min in range parameter.");
        return;
    }
    char *buf = kj_fmt_begin();
    kj_fmt_str(buf, code == KJ_HIST_AUTO_NOT_FINITE ? "autodetected range of [" : "supplied range of [");
    kj_fmt_float(buf, lo, 0, NULL);
    kj_fmt_str(buf, ", ");
    kj_fmt_float(buf, hi, 0, NULL);
    kj_fmt_str(buf, "] is not finite");
    kj_rt_raise(PyExc_ValueError, buf);
}

void kj_np_raise_i64(PyObject *cls, const char *fmt, int64_t v, int64_t v2, int64_t v3) {
    /* C ignores the arguments fmt does not use */
    snprintf(message, sizeof message, fmt, (long long)v, (long long)v2, (long long)v3);
    kj_rt_raise(cls, message);
}

void kj_np_raise_ragged(int64_t nd, const int64_t *shape) {
    size_t used = (size_t)snprintf(message, sizeof message,
                                   "setting an array element with a sequence. The requested array has an "
                                   "inhomogeneous shape after %lld dimensions. The detected shape was ",
                                   (long long)nd);
    used += put_dims(message + used, sizeof message - used, nd, shape, ", ");
    snprintf(message + used, sizeof message - used, " + inhomogeneous part.");
    kj_rt_raise(PyExc_ValueError, message);
}

void kj_np_raise_reshape(int64_t size, int64_t nd, const int64_t *shape) {
    size_t used = (size_t)snprintf(message, sizeof message, "cannot reshape array of size %lld into shape ",
                                   (long long)size);
    put_shape(message + used, sizeof message - used, nd, shape);
    kj_rt_raise(PyExc_ValueError, message);
}
