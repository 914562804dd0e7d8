/* rt_print: f-string formatting and print() for compiled code
 * (rt_print.c). */
#ifndef KILN_JIT_RT_PRINT_H
#define KILN_JIT_RT_PRINT_H

#include <stdbool.h>
#include <stdint.h>

/* f-strings: kj_fmt_begin gives an empty per-thread buffer (one of a few,
 * reused in turn); the others append to it. spec: a format spec such as
 * ".3f" or "8d", or NULL. */
char *kj_fmt_begin(void);
void kj_fmt_str(char *buf, const char *s);
void kj_fmt_int(char *buf, int64_t v, int64_t is_unsigned, const char *spec);
void kj_fmt_float(char *buf, double v, int64_t is_f32, const char *spec);
void kj_fmt_bool(char *buf, int64_t v);
/* An f-string that compiled code keeps (in a variable, a tuple, a return):
 * a copy of buf out of the ring, in memory of the thread's that lives
 * until kj_fmt_forget_kept; NULL out of memory. kj_fmt_kept_any says
 * whether any thread has kept one, so that a call that kept none pays a
 * plain load. The dispatcher forgets the calling thread's strings once a
 * call's result is boxed, a pool worker after each piece of work, a ufunc
 * loop after its call, a cfunc that keeps any before it returns. */
char *kj_fmt_keep(const char *buf);
void kj_fmt_forget_kept(void);
extern int kj_fmt_kept_any;
static inline void kj_fmt_forget_kept_if_any(void) {
    if (__atomic_load_n(&kj_fmt_kept_any, __ATOMIC_RELAXED))
        kj_fmt_forget_kept();
}
/* len() of a string: its characters (code points), not its UTF-8 bytes. */
int64_t kj_str_len(const char *s);
/* Whether a spec is one compiled code formats ([0][width][.prec][type]). */
bool kj_fmt_spec_ok(const char *spec, bool is_float);

/* One argument of print, as the generated code lays it out: ptr points at
 * the value (an i64, a double, {double, double}, a char *, an array
 * struct, a list owner). A tuple is followed by its ndim items; a list of
 * tuples (ndim 1) by its item type: a tuple item and, for each number in
 * it, an item with only its typenum. A dict (ndim 2) is followed by its
 * key and value types so, a set (ndim 1) by its item type; ndim 0 for one
 * whose types are not known yet. */
enum {
    KJ_PRINT_STR, KJ_PRINT_INT, KJ_PRINT_UINT, KJ_PRINT_FLOAT, KJ_PRINT_BOOL, KJ_PRINT_COMPLEX,
    KJ_PRINT_NONE, KJ_PRINT_ARRAY, KJ_PRINT_LIST, KJ_PRINT_TUPLE, KJ_PRINT_DICT, KJ_PRINT_SET,
};
typedef struct {
    int32_t kind, typenum;   /* typenum: NumPy's, of a float, array or list item */
    int64_t ndim;
    const void *ptr;
} kj_print_item;

/* print(*items, sep=sep, end=end) through Python's print (takes the GIL);
 * sep, end NULL for the defaults. */
void kj_print(int64_t n, const kj_print_item *items, const char *sep, const char *end);

#define KJ_RT_PRINT_SYMBOLS                         \
    {"kj_fmt_begin", (void *)kj_fmt_begin},         \
    {"kj_fmt_str", (void *)kj_fmt_str},             \
    {"kj_fmt_int", (void *)kj_fmt_int},             \
    {"kj_fmt_float", (void *)kj_fmt_float},         \
    {"kj_fmt_bool", (void *)kj_fmt_bool},           \
    {"kj_str_len", (void *)kj_str_len},             \
    {"kj_fmt_keep", (void *)kj_fmt_keep},           \
    {"kj_fmt_forget_kept", (void *)kj_fmt_forget_kept}, \
    {"kj_print", (void *)kj_print},

#endif
