/* lower_nrt: where compiled code takes and gives back references on the
 * blocks of nrt.h. The rules, for every value whose type holds arrays,
 * lists, dicts or sets (kj_nrt_counted), which every feature that makes,
 * stores or unpacks such values follows:
 *   - an expression's value is borrowed; an expression that makes a new
 *     reference (an allocation, a call returning an array) registers it as
 *     a temporary of the statement being lowered, given back when that
 *     statement ends (or when the function exits, for break/continue);
 *   - a value borrowed from a local lives only while that local holds it:
 *     a statement that may rebind the local before it is done with the
 *     value takes a reference of its own first (a temporary). Tuple
 *     assignment does, for every part: `u, v = v, u`;
 *   - a local variable owns one reference: storing increments the new
 *     value before it decrements the old; arguments the body rebinds are
 *     incremented on entry (the others borrow the caller's);
 *   - a container owns one reference on each item it holds (a list, a
 *     dict's values), taken when the item is stored, given back when it is
 *     replaced or the container is freed;
 *   - `return v` increments v for the caller; every exit of the function,
 *     by return or by an exception raised on any line, goes through one
 *     cleanup block that gives back all locals and temporaries;
 *   - a fault skips those cleanups: the guarded call then frees whatever
 *     its thread allocated that is still live (nrt.h's rings).
 * Only the host CPU target counts (GPU code never allocates). */
#ifndef KILN_JIT_LOWER_NRT_H
#define KILN_JIT_LOWER_NRT_H

#include "jit/lower/lower.h"

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
