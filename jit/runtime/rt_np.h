/* rt_np: host functions compiled NumPy code calls (messages with shapes,
 * sorting, histograms, random arrays, printing, lists). KJ_RT_NP_SYMBOLS
 * lists them for the engine (nrt.c's table). */
#ifndef KILN_JIT_RT_NP_H
#define KILN_JIT_RT_NP_H

#include <Python.h>
#include <stdint.h>

/* ValueErrors with NumPy's messages; shapes are the operands' shapes one
 * after the other (ndims[i] values each). */
void kj_np_raise_broadcast(int64_t n, const int64_t *ndims, const int64_t *shapes);
void kj_np_raise_dot(int64_t xnd, const int64_t *xs, int64_t ynd, const int64_t *ys);
void kj_np_raise_reshape(int64_t size, int64_t nd, const int64_t *shape);
/* np.array of arrays whose shapes agree only on the first nd - 1 axes of
 * shape (the list's length first). */
void kj_np_raise_ragged(int64_t nd, const int64_t *shape);
void kj_np_raise_out(int64_t ond, const int64_t *oshape, int64_t bnd, const int64_t *bshape);
void kj_np_raise_assign(int64_t snd, const int64_t *sshape, int64_t dnd, const int64_t *dshape);
/* cls with fmt (up to three %lld) formatted with v, v2 and v3. */
void kj_np_raise_i64(PyObject *cls, const char *fmt, int64_t v, int64_t v2, int64_t v3);
void kj_np_raise_mask(int64_t dim, int64_t size, int64_t mask_size);
void kj_np_raise_mask_assign(int64_t have, int64_t want);
void kj_np_raise_index(int64_t index, int64_t axis, int64_t size);
/* What np.histogram refuses (a KJ_HIST_* code of rt_sort.h). */
void kj_np_raise_histogram(int32_t code, double lo, double hi);
/* numpy's AxisError for axis on an array of ndim dimensions; compiled code
 * raising it calls kj_np_prepare_axis_error while compiling (GIL held). */
void kj_np_raise_axis(int64_t axis, int64_t ndim);
int kj_np_prepare_axis_error(void);

/* The sum of n contiguous floats, in NumPy's order: a running
 * total over blocks of 8192 (the buffer NumPy's reduction hands its inner
 * loop), each block summed pairwise (eight running sums below 128
 * elements, halves above), so that np.sum and np.mean of a float array
 * give NumPy's result to the last bit, at the speed of eight independent
 * additions rather than one chain. */
#define KJ_NP_SUM_BLOCK 8192
double kj_np_sum_f64(const double *data, int64_t n);
float kj_np_sum_f32(const float *data, int64_t n);

/* An array as compiled code lays it out in memory (lower.c's kj_lltype):
 * owner, data, then shape[nd] and strides[nd] (bytes). */
typedef struct {
    void *owner;
    char *data;
    int64_t dims[];
} kj_np_layout;

/* 1 when writing out (nd dimensions) element by element could change a
 * (and dimensions) before it is read: they share bytes and a is not out
 * itself (the same data, shape and strides), else 0. */
int32_t kj_np_overlaps(const kj_np_layout *a, int64_t and, int64_t aitem, const kj_np_layout *out, int64_t ond,
                       int64_t oitem);

/* Copies the C-contiguous elements at src (itemsize bytes each) into the
 * array at dst with nd dimensions of the given shape and byte strides: the
 * buffer an array expression went through when its target overlapped an
 * operand (lower_np_ewise.c). Rare, so a call rather than a loop to compile. */
void kj_np_unbuffer(char *dst, const int64_t *shape, const int64_t *strides, int64_t nd, const char *src,
                    int64_t itemsize);

#define KJ_RT_NP_SYMBOLS                                              \
    {"kj_np_raise_broadcast", (void *)kj_np_raise_broadcast},         \
    {"kj_np_raise_dot", (void *)kj_np_raise_dot},                     \
    {"kj_np_raise_reshape", (void *)kj_np_raise_reshape},             \
    {"kj_np_raise_ragged", (void *)kj_np_raise_ragged},               \
    {"kj_np_raise_i64", (void *)kj_np_raise_i64},                     \
    {"kj_np_raise_out", (void *)kj_np_raise_out},                     \
    {"kj_np_raise_axis", (void *)kj_np_raise_axis},                   \
    {"kj_np_raise_mask", (void *)kj_np_raise_mask},                   \
    {"kj_np_raise_mask_assign", (void *)kj_np_raise_mask_assign},     \
    {"kj_np_raise_index", (void *)kj_np_raise_index},                 \
    {"kj_np_raise_histogram", (void *)kj_np_raise_histogram},                     \
    {"kj_np_raise_assign", (void *)kj_np_raise_assign},               \
    {"kj_np_unbuffer", (void *)kj_np_unbuffer},                       \
    {"kj_np_overlaps", (void *)kj_np_overlaps},                       \
    {"kj_np_sum_f64", (void *)kj_np_sum_f64},                         \
    {"kj_np_sum_f32", (void *)kj_np_sum_f32},

#endif
