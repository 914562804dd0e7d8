/* lower_nrt: where compiled code takes and gives back references on the
 * blocks of nrt.h. The rules, for every value whose type holds arrays or
 * lists (kj_nrt_counted):
 *   - an expression's value is borrowed; an expression that makes a new
 *     reference (an allocation, a call returning an array) registers it as
 *     a temporary of the statement being lowered, given back when that
 *     statement ends (or when the function exits, for break/continue);
 *   - a local variable owns one reference: storing increments the new
 *     value and decrements the old; arguments are incremented on entry;
 *   - `return v` increments v for the caller; every exit of the function
 *     goes through one cleanup block that gives back all locals and
 *     temporaries.
 * Only the host CPU target counts (GPU code never allocates). */
#ifndef KILN_JIT_LOWER_NRT_H
#define KILN_JIT_LOWER_NRT_H

#include "jit/lower.h"

/* Whether this lowering has the host runtime (owned memory, lists,
 * print); if not, fails with "<what> is not supported on the <target>
 * target" at n and returns false. */
bool kj_nrt_host_only(kj_lw *w, const kj_node *n, const char *what);

/* Whether values of t hold references (arrays, lists, tuples of those). */
bool kj_nrt_counted(const kj_type *t);

/* Called by define() once the locals' slots exist and the arguments are
 * stored, and after the body (fills the cleanup block). */
void kj_nrt_function_begin(kj_lw *w);
void kj_nrt_function_end(kj_lw *w);
/* Ends the current block by returning status (through the cleanup block). */
void kj_nrt_ret(kj_lw *w, LLVMValueRef status);

/* Statements: temporaries registered after the mark are given back by
 * kj_nrt_release. */
int kj_nrt_mark(kj_lw *w);
void kj_nrt_release(kj_lw *w, int mark);
/* Registers v (a new reference) as a temporary; returns v. */
LLVMValueRef kj_nrt_temp(kj_lw *w, LLVMValueRef v, const kj_type *t);

/* References on the owners inside v. */
void kj_nrt_incref_value(kj_lw *w, LLVMValueRef v, const kj_type *t);
void kj_nrt_decref_value(kj_lw *w, LLVMValueRef v, const kj_type *t);
/* Before `store v -> slot` of a counted local: increments v, decrements
 * the value the slot holds. */
void kj_nrt_replace(kj_lw *w, LLVMValueRef slot, LLVMValueRef v, const kj_type *t);

#endif
