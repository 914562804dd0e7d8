/* The type lattice that inference relies on: interning, names, unification
 * (int and float give float; a value and None give an optional) and
 * Numba's promotion rules. */
#include <stdio.h>
#include <string.h>

#include "jit/core/types.h"

#include "tests/c/check.h"

int main(void) {
    const kj_type *i32 = kj_int(32, true), *i64 = KJ_I64, *u64 = kj_int(64, false);
    const kj_type *f32 = kj_float(32), *f64 = KJ_F64;
    CHECK(kj_int(32, true) == i32);
    CHECK(strcmp(u64->name, "uint64") == 0);
    const kj_type *a = kj_array(f64, 2, KJ_LAYOUT_C, false);
    CHECK(a == kj_array(f64, 2, KJ_LAYOUT_C, false));
    CHECK(strcmp(a->name, "array(float64, 2d, C)") == 0);
    CHECK(kj_array(f32, 1, KJ_LAYOUT_F, false) == kj_array(f32, 1, KJ_LAYOUT_C, false));
    CHECK(kj_unify(i64, f64) == f64);
    CHECK(kj_unify(i32, i64) == i64);
    CHECK(kj_unify(i64, u64) == f64);
    CHECK(kj_unify(f32, kj_int(16, true)) == f32);
    CHECK(kj_unify(f32, i32) == f64);
    CHECK(kj_unify(kj_none(), a) == kj_optional(a));
    CHECK(kj_unify(kj_optional(i64), f64) == kj_optional(f64));
    CHECK(kj_unify(a, i64) == NULL);
    CHECK(kj_unify(a, kj_array(f64, 2, KJ_LAYOUT_F, false)) == kj_array(f64, 2, KJ_LAYOUT_A, false));
    CHECK(kj_promote(i32, i32) == i64);
    CHECK(kj_promote(kj_int(8, false), kj_int(16, false)) == u64);
    CHECK(kj_promote(f32, f32) == f32);
    CHECK(kj_promote(kj_bool(), kj_bool()) == i64);
    const kj_type *pair[2] = {i64, f64};
    const kj_type *t = kj_tuple(2, pair);
    CHECK(strcmp(t->name, "Tuple(int64, float64)") == 0);
    const kj_type *same[2] = {f64, f64};
    CHECK(strcmp(kj_tuple(2, same)->name, "UniTuple(float64 x 2)") == 0);
    CHECK(kj_can_convert(i32, f64) && !kj_can_convert(kj_complex(128), f64));
    CHECK(kj_can_convert(a, kj_array(f64, 2, KJ_LAYOUT_A, false)));
    CHECK(!kj_can_convert(kj_array(f64, 2, KJ_LAYOUT_A, false), a));
    CHECK(!kj_can_convert(kj_array(f64, 2, KJ_LAYOUT_C, true), a));
    return check_exit_status();
}
