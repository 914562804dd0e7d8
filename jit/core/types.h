/* types: Kiln's types. Every type is interned (one kj_type per distinct
 * type, kept for the life of the process), so types compare with ==.
 * Interning is guarded by the GIL: types are only made while it is held. */
#ifndef KILN_JIT_TYPES_H
#define KILN_JIT_TYPES_H

#include <Python.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum {
    KJ_T_NONE,
    KJ_T_BOOL,
    KJ_T_INT,        /* bits 8..64, is_signed */
    KJ_T_FLOAT,      /* bits 32, 64 */
    KJ_T_COMPLEX,    /* bits 64, 128 (the whole number) */
    KJ_T_ARRAY,      /* dtype, ndim, layout, readonly */
    KJ_T_TUPLE,      /* n, elems */
    KJ_T_OPTIONAL,   /* elem: a value of elem or None */
    KJ_T_LIST,       /* elem: a reference-counted list of numbers (containers/lists.h) */
    KJ_T_DICT,       /* n 2, elems: key and value types of a reference-counted dict (dicts.h); NULL for `{}` */
    KJ_T_SET,        /* elem: the item type of a reference-counted set (sets.h); NULL for set() */
    KJ_T_RANGE,      /* iterables only usable in `for` */
    KJ_T_ENUMERATE,  /* elem: the iterable enumerated */
    KJ_T_REVERSED,   /* elem: the range, array or list gone through backwards */
    KJ_T_ZIP,        /* n, elems: the iterables zipped */
    KJ_T_DICTVIEW,   /* elem: the dict; bits: 'k' keys(), 'v' values(), 'i' items() */
    KJ_T_NDINDEX,    /* ndim: np.ndindex's number of dimensions */
    KJ_T_NDENUMERATE, /* elem: the array np.ndenumerate walks */
    KJ_T_STR,        /* a string constant or f-string: for print, raise and == (strings.c) */
    KJ_T_FUNC,       /* obj: a kiln function passed as a value; the type names it, the value holds nothing */
} kj_kind;
#define KJ_KIND_COUNT (KJ_T_FUNC + 1)   /* the last kind above, plus one */

typedef enum { KJ_LAYOUT_C = 'C', KJ_LAYOUT_F = 'F', KJ_LAYOUT_A = 'A' } kj_layout;

typedef struct kj_type kj_type;
struct kj_type {
    kj_kind kind;
    int bits;
    bool is_signed;
    int ndim;
    char layout;
    bool readonly;
    const kj_type *elem;          /* array dtype, optional/enumerate inner */
    int n;                        /* tuple / zip arity */
    const kj_type **elems;
    void *obj;                    /* KJ_T_FUNC: the kiln dispatcher (a PyObject, kept alive by the type) */
    char name[512];               /* "float64", "array(float64, 2d, C)": room for a tuple of a dozen arrays */
};

const kj_type *kj_none(void);
/* The type of what never comes back: a call whose function returns on no
 * path (each raises), or an expression that evaluates one. It unifies with
 * anything as the other type (a variable assigned such a call and a number
 * is the number). Its kind is KJ_T_NONE, so code that knows only kinds lays
 * it out and boxes it as None; inference and lowering tell it by identity. */
const kj_type *kj_never(void);
const kj_type *kj_bool(void);
const kj_type *kj_int(int bits, bool is_signed);
const kj_type *kj_float(int bits);
const kj_type *kj_complex(int bits);
/* The number type NumPy names name ("bool", "int8" ... "uint64", "float32",
 * "float64", "complex64", "complex128"), or NULL. */
const kj_type *kj_number_type_named(const char *name);
/* Constructors return NULL only for types too nested to name. */
const kj_type *kj_array(const kj_type *dtype, int ndim, char layout, bool readonly);
const kj_type *kj_tuple(int n, const kj_type *const *elems);
const kj_type *kj_optional(const kj_type *elem);
/* A list of numbers; elem NULL for `[]` before anything is appended. */
const kj_type *kj_list(const kj_type *elem);
const kj_type *kj_str(void);
const kj_type *kj_range(void);
const kj_type *kj_enumerate(const kj_type *iterable);
const kj_type *kj_reversed(const kj_type *sequence);
/* The element type a `for` loop gets from an iterable of type t, or NULL. */
const kj_type *kj_iter_elem(const kj_type *t);
/* A list, set or dict whose items never got a type (or enumerate, zip,
 * reversed or a view of one): nothing was ever put in it, so it is empty,
 * and a for loop over it or sorted() of it needs no item type. */
bool kj_holds_nothing(const kj_type *t);
/* A dict from key to value; both NULL for `{}` before anything is stored. */
const kj_type *kj_dict(const kj_type *key, const kj_type *value);
/* A set of item; NULL for set() before anything is added. */
const kj_type *kj_set(const kj_type *item);
/* d.keys() ('k'), d.values() ('v'), d.items() ('i'), to loop over. */
const kj_type *kj_dictview(const kj_type *dict, char which);
const kj_type *kj_zip(int n, const kj_type *const *iterables);
const kj_type *kj_ndindex(int ndim);
const kj_type *kj_ndenumerate(const kj_type *array);
/* The type of a kiln function used as a value (an argument, a variable):
 * one type per function, as in Numba, so a call through it compiles as a
 * direct call. NULL out of memory. */
const kj_type *kj_func(PyObject *dispatcher);
/* The Python type of kiln functions (_kiln.Dispatcher, set by dispatch.c at
 * import): a value of it is typed as the function it compiles, and a global
 * holding one is compiled together with its caller. */
extern PyTypeObject *kj_dispatcher_type;

#define KJ_I64 kj_int(64, true)
#define KJ_F64 kj_float(64)

static inline bool kj_is_number(const kj_type *t) {
    return t->kind == KJ_T_BOOL || t->kind == KJ_T_INT || t->kind == KJ_T_FLOAT ||
           t->kind == KJ_T_COMPLEX;
}
static inline bool kj_is_intlike(const kj_type *t) {
    return t->kind == KJ_T_BOOL || t->kind == KJ_T_INT;
}
bool kj_is_uniform_tuple(const kj_type *t);

/* The type two values share when a variable holds both (int and float give
 * float; a value and None give an optional; never gives the other); NULL
 * when there is none. */
const kj_type *kj_unify(const kj_type *a, const kj_type *b);
/* The type arithmetic on a and b is done in (Numba's rules: integers widen to
 * 64 bits, int64 with uint64 is float64, float32 stays float32 with small
 * ints). Both must be numbers. */
const kj_type *kj_promote(const kj_type *a, const kj_type *b);
/* Whether a value of type `from` may be converted to `to` for an argument or
 * a declared return (numbers to numbers, arrays to a laxer layout). */
bool kj_can_convert(const kj_type *from, const kj_type *to);

/* Types as Python data (the spec the kiln package and C exchange):
 * ("int", bits, signed), ("float", bits), ("complex", bits), ("bool",),
 * ("none",), ("array", dtype_spec, ndim, layout, readonly),
 * ("tuple", (spec, ...)), ("optional", spec), ("function", dispatcher), ("str",).
 * kj_type_from_spec returns NULL with a TypeError set on a bad spec. */
const kj_type *kj_type_from_spec(PyObject *spec);
PyObject *kj_type_to_spec(const kj_type *t);

/* The type Kiln gives a Python value passed as an argument, or NULL
 * (no exception set) if it has none. Cheap: used on every call. */
const kj_type *kj_typeof(PyObject *value);
/* The scalar type of a NumPy type number, or NULL. */
const kj_type *kj_type_from_npy(int type_num);
int kj_type_to_npy(const kj_type *t);
/* Whether NumPy casts values of dtype from to dtype to under 'same_kind',
 * the casting in-place operations allow (a float32 array *= a float64). */
bool kj_np_same_kind(const kj_type *from, const kj_type *to);

#endif
