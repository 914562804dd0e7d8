/* jit: Kiln's compiler for the host CPU. Public names are prefixed kj_.
 *
 * Its folders, in the order a call goes through them:
 *
 *   dispatch/    the Python callable (_kiln.Dispatcher, dispatch.c): types
 *                the arguments (core/types.c kj_typeof), finds the
 *                specialization, unboxes, calls, boxes; a miss goes to
 *                python/kiln/dispatcher.py. It keeps the function's options
 *                and declared signatures (core/unit.h kj_fn_state), which
 *                compiles read there and Python as properties. Also vectorize / guvectorize
 *                (ufunc_loop.c, an LLVM loop handed to NumPy by ufunc.c),
 *                cfunc, and the module's Python face (module.c,
 *                parallel_module.c)
 *   engine/      one compile (compile.c): the phases below, timed, wrapped
 *                as a Specialization; O2 and ORC LLJIT (engine.c); the
 *                host CPU target (target_cpu.c); the cache=True object
 *                files (cache.c)
 *   frontend/    the function's text (source.c) and CPython's ast objects
 *                -> Kiln IR: expressions (frontend.c), statements
 *                (frontend_stmt.c), globals and closure cells read at
 *                compile time (globals.c), calls bound to kiln functions
 *                (bind.c), inner functions lifted (inner.c), generators
 *                inlined (generators.c), NumPy calls written as the NumPy
 *                expressions they are (np_rewrite.c: found in the
 *                registry, written with its node builders)
 *   infer/       type inference (infer.c), subscripts and `in`
 *                (infer_index.c), calls (infer_calls.c), strings
 *                (infer_strings.c); the unit's instances, made from the
 *                front end as calls are met (instances.c)
 *   lower/       typed IR -> LLVM IR for a target (core/target.h):
 *                statements and loops (lower.c), expressions
 *                (lower_expr.c), arrays' elements and views (lower_array.c),
 *                arrays on owned memory and their counted loops
 *                (array_util.c), bodies outlined for the worker pool
 *                (pool_region.c),
 *                reference counting (lower_nrt.c), raising (lower_raise.c),
 *                strings and print, reads that may find a local unassigned
 *                (unbound.c); Python's builtins (builtins.c), math and
 *                cmath (builtins_math.c) and random (builtins_random.c),
 *                a registry entry each (builtins.h);
 *                the way in to one element of a ufunc (lower_elem.c) and
 *                libmvec's vector math (vecmath.c); loops versioned by their bounds checks,
 *                hinted (loop_hints.c), and sums kept scalar where lanes
 *                gain nothing
 *   numpy/       NumPy in compiled code: the way in (infer_np.c,
 *                lower_np.c, lower_np.h: operators, indexing, a call's
 *                entry found by name), a file per function or family with
 *                its typing, lowering and registry entries (np_<name>.c;
 *                the array methods: np_method.c; some families still in an
 *                infer_np_* and lower_np_* pair), whole-array reductions
 *                (lower_np_reduce*.c); NumPy's ufuncs, a registry entry each computing
 *                one element, by family (ufunc_*.c, ufuncs.h); NumPy
 *                calls that are other NumPy code, a registry entry each
 *                naming its rewrite, by family (rewrite_*.c); what the
 *                stages ask of arrays (np_kind.c)
 *   containers/  lists, dicts and sets: typing (*_infer.c) and lowering
 *                (*_lower.c, each ending with its kind's entry); their
 *                methods, a registry entry each ("list.append") with its
 *                typing and lowering, a file per kind (*_methods.c)
 *   parallel/    prange and parallel=True: the dependence checker
 *                (parallel_check.c), prange loops outlined onto the pool
 *                (parallel_lower.c), array reductions and interchanged
 *                loops
 *   runtime/     what compiled code calls at run time, and nothing of the
 *                compiler: exceptions, the interrupt flag and helpers
 *                (runtime.c), owned memory (nrt.c), the worker pool
 *                (pool.c), faults as kiln.MemoryFault (fault.c), NumPy's
 *                sorting, linalg, random, print, lists and dicts (rt_*.c)
 *   core/        what every stage shares: the IR (ir.h), the types
 *                (types.h) and NumPy's dtype rules (np_dtype.c), errors
 *                (errors.h: TypingError with the line and a caret), the
 *                target interface (target.h), the registries (callables.h:
 *                what a called name means; kind_ops.h: what a kind of value
 *                does, and statements lowered their own way), the compile
 *                unit (unit.h)
 *
 * The stages (frontend/, infer/, lower/) name no feature: numpy/,
 * containers/ and parallel/ stand above them, use them, and plug into them
 * through the registries, so an arrow from a stage to a feature is a bug.
 *
 * The conventions every part keeps: errors are values (kj_error), types are
 * compared by pointer, nothing in front end, IR or inference knows the
 * target, a callable is found through the registry, and each file says why
 * it does what it does. */
#ifndef KILN_JIT_H
#define KILN_JIT_H

#include <Python.h>

/* Adds the compiler's functions and types to the _kiln module.
 * Returns 0, or -1 with a Python exception set. */
int kj_module_init(PyObject *module);

#endif
