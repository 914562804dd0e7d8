/* The owned-memory runtime and the list, sort and histogram runtimes
 * without Python: blocks are counted, freed at the last reference with
 * their destructor, told apart from borrowed owners by the low bit; lists
 * grow, insert, slice and sort; sorting puts NaN last. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit/containers/lists.h"
#include "jit/runtime/nrt.h"
#include "jit/runtime/rt_list.h"
#include "jit/runtime/rt_sort.h"

#include "tests/c/check.h"

static int dtor_calls;
static void count_dtor(kj_block_t *b) {
    (void)b;
    dtor_calls++;
}

static void test_blocks(void) {
    kj_nrt_stats_t s0 = kj_nrt_stats();
    kj_block_t *b = kj_nrt_alloc_zeroed(100);
    CHECK(b != NULL);
    CHECK(((uintptr_t)kj_nrt_data(b) & 63) == 0);
    CHECK(((char *)kj_nrt_data(b))[99] == 0);
    b->dtor = count_dtor;
    void *owner = (char *)b + 1;
    CHECK(kj_nrt_is_block(owner) && kj_nrt_block(owner) == b);
    kj_nrt_stats_t s1 = kj_nrt_stats();
    CHECK(s1.allocs == s0.allocs + 1 && s1.live_bytes == s0.live_bytes + 100);
    kj_nrt_incref(owner);
    kj_nrt_decref(owner);
    CHECK(dtor_calls == 0 && kj_nrt_stats().frees == s0.frees);
    kj_nrt_decref(owner);
    CHECK(dtor_calls == 1);
    kj_nrt_stats_t s2 = kj_nrt_stats();
    CHECK(s2.frees == s0.frees + 1 && s2.live_bytes == s0.live_bytes);
    /* borrowed owners (a PyObject address, NULL) are left alone */
    static _Alignas(8) char not_a_block[16];
    kj_nrt_incref(not_a_block);
    kj_nrt_decref(not_a_block);
    kj_nrt_decref(NULL);
    CHECK(kj_nrt_stats().frees == s2.frees);
    CHECK(kj_nrt_alloc(-1) == NULL);
    /* a large block: aligned too, half a page from where NumPy's large
     * arrays start (nrt.c, 4K aliasing); freed whole (ASan would see a
     * free of an address malloc did not return) */
    for (int k = 0; k < 8; k++) {
        kj_block_t *big = kj_nrt_alloc((int64_t)(1 + k) << 20);
        CHECK(big != NULL && ((uintptr_t)kj_nrt_data(big) & 4095) == 2048);
        ((char *)kj_nrt_data(big))[((1 + k) << 20) - 1] = 1;
        kj_nrt_decref((char *)big + 1);
    }
    CHECK(kj_nrt_stats().live_bytes == s0.live_bytes);
}

static int64_t item(void *list, int64_t i) {
    kj_list_header *h = kj_nrt_data(kj_nrt_block(list));
    return ((int64_t *)h->items)[i];
}

static void test_lists(void) {
    kj_nrt_stats_t s0 = kj_nrt_stats();
    void *l = kj_list_new(0, 0);   /* `[]`: the item size comes with the first append */
    for (int64_t i = 0; i < 1000; i++)
        CHECK(kj_list_append(l, &i, 8) == 0);
    kj_list_header *h = kj_nrt_data(kj_nrt_block(l));
    CHECK(h->n == 1000 && h->itemsize == 8 && h->cap >= 1000 && item(l, 999) == 999);
    int64_t x = -5;
    CHECK(kj_list_insert(l, -1, &x, 8) == 0 && item(l, 999) == -5 && item(l, 1000) == 999);
    CHECK(kj_list_insert(l, -5000, &x, 8) == 0 && item(l, 0) == -5);
    kj_list_remove_at(l, 0);
    CHECK(h->n == 1001 && item(l, 0) == 0);
    void *s = kj_list_slice(l, 10, 5, 3, 8);
    CHECK(s && item(s, 0) == 10 && item(s, 4) == 22);
    int64_t field = KJ_LIST_FIELD('i', 8, 0);
    CHECK(kj_list_sort(l, &field, 1, 1) == 0);
    CHECK(item(l, 0) == 999 && item(l, 1000) == -5);
    CHECK(kj_list_extend(s, s, 8) == 0 && ((kj_list_header *)kj_nrt_data(kj_nrt_block(s)))->n == 10);
    kj_nrt_decref(l);
    kj_nrt_decref(s);
    kj_nrt_stats_t s1 = kj_nrt_stats();
    CHECK(s1.allocs - s1.frees == s0.allocs - s0.frees && s1.live_bytes == s0.live_bytes);
}

static void test_sorting(void) {
    double v[] = {3.0, NAN, -1.0, 2.0, -1.0, NAN};
    int64_t idx[6];
    CHECK(kj_np_argsort(v, 6, 'f', 8, idx) == 0);
    CHECK(idx[0] == 2 && idx[1] == 4 && idx[2] == 3 && idx[3] == 0 && idx[4] == 1 && idx[5] == 5);   /* stable, NaN last */
    int64_t m = kj_np_unique(v, 6, 'f', 8);
    CHECK(m == 4 && v[0] == -1.0 && v[2] == 3.0 && isnan(v[3]));
    double key = 2.5;
    CHECK(kj_np_searchsorted(v, 3, 8, 'f', 8, &key, 0) == 2);
    double twice[] = {1.0, 2.0, 2.0, 5.0}, two = 2.0;
    CHECK(kj_np_searchsorted(twice, 4, 8, 'f', 8, &two, 0) == 1 && kj_np_searchsorted(twice, 4, 8, 'f', 8, &two, 1) == 3);
    CHECK(kj_np_monotonic(twice, 4) == 1 && kj_np_monotonic((double[]){3.0, 3.0, 1.0}, 3) == -1 &&
          kj_np_monotonic((double[]){1.0, 3.0, 2.0}, 3) == 0);
    uint8_t u[] = {200, 3, 255, 0};
    kj_np_sort(u, 4, 'u', 1);
    CHECK(u[0] == 0 && u[3] == 255);
}

static void test_histogram(void) {
    double x[] = {1, 2, 2, 3, 9};
    int64_t counts[4];
    double edges[5], lo, hi;
    CHECK(kj_np_histogram(x, 5, 4, 0, 0, 0, counts, edges, &lo, &hi) == 0);
    CHECK(counts[0] == 3 && counts[1] == 1 && counts[2] == 0 && counts[3] == 1);
    CHECK(edges[0] == 1 && edges[4] == 9);
    CHECK(kj_np_histogram(x, 5, 0, 0, 0, 0, counts, edges, &lo, &hi) == KJ_HIST_BAD_BINS);
    CHECK(kj_np_histogram(x, 5, 2, 1, 5, 1, counts, edges, &lo, &hi) == KJ_HIST_BAD_RANGE);
}

int main(void) {
    test_blocks();
    test_lists();
    test_sorting();
    test_histogram();
    return check_exit_status();
}
