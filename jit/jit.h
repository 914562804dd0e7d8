/* jit: Kiln's compiler for the host CPU. Public names are prefixed kj_.
 *
 * How a call becomes machine code, and where to read it:
 *
 *   dispatch.c   the Python callable (_kiln.Dispatcher): types the arguments
 *                (types.c kj_typeof), finds the specialization, unboxes,
 *                calls, boxes; a miss goes to python/kiln/dispatcher.py
 *   compile.c    one compile: the phases below, timed, wrapped as a
 *                Specialization (IR, assembly, remarks, per-line types)
 *   source.c     the function's text (linecache: files and notebook cells)
 *   frontend.c   CPython's ast objects -> Kiln IR (ir.h, ir.c): expressions
 *                here, statements in frontend_stmt.c (shared: frontend_int.h); globals.c
 *                reads globals and closure cells at compile time; bind.c
 *                binds keywords, defaults and *args of calls to kiln
 *                functions; inner.c lifts functions defined inside compiled
 *                ones; np_rewrite.c writes NumPy calls such as np.outer,
 *                np.isclose and np.diff as the NumPy expressions they are
 *   infer.c      type inference (types.h: interned types, unification);
 *                builtins.c says how known functions are typed
 *   lower*.c     typed IR -> LLVM IR for a target (target.h; the host is
 *                target_cpu.c): statements and loops, expressions, arrays,
 *                builtins; every function returns a status, exceptions
 *                are recorded in the runtime; NumPy code in lower_np*.c
 *                (lower_np.h), whose math calls name glibc's SIMD versions
 *                to the vectorizer (np_vecmath.c); on the GPU targets a
 *                loop whose range proves its bounds checks also gets a copy
 *                without them (lower_range_checks.c); on the host a loop
 *                whose in-order float sum gains nothing from vector lanes
 *                stays scalar (lower_strict_sums.c); reads of a local some
 *                path reaches unassigned check a flag (unbound.c)
 *   engine.c     O2 with the new pass manager, loop-vectorize remarks (and
 *                Kiln's "ordered" remark for a float sum vectorized in
 *                order), ORC LLJIT; LLVM's one-time start-up on a thread
 *                begun at import
 *   runtime.c    what compiled code calls: exceptions, the interrupt flag
 *                (SIGINT), random numbers, integer helpers; NumPy's own in
 *                rt_*.c (nrt.c owned memory, rt_np.c errors and sums,
 *                rt_sort.c sorting, histograms and interp, rt_random.c
 *                distributions, rt_list.c lists, rt_print.c print,
 *                rt_linalg.c np.linalg on the system's LAPACK)
 *   fault.c      a segmentation fault in a call (an index far out of
 *                bounds, runaway recursion) as kiln.MemoryFault or
 *                RecursionError, the process kept
 *   errors.c     TypingError / UnsupportedError with the line and a caret
 *
 * Beside that path (issue 7; parallel_module.c adds their Python face):
 *   pool.c       the persistent worker threads parallel code runs on
 *   parallel_*.c prange: the dependence checker (parallel_check.c) and the
 *                outlining of cleared loops and array expressions
 *                (parallel_lower.c), with the report parallel_diagnostics reads;
 *                per-thread arrays of `acc += a[i]` (parallel_array.c); np.sum,
 *                min, max, argmax... of a whole array or of an array
 *                expression (np.sum(x * y)) split across the pool
 *                (parallel_reduce.c); a loop kept serial whose statements
 *                are all elementwise, run element by element across the
 *                pool (parallel_interchange.c)
 *   ufunc*.c     vectorize / guvectorize: an LLVM loop around the kernel
 *                (ufunc_loop.c) handed to NumPy as a real ufunc (ufunc.c)
 *   cache.c      cache=True: the object file a second process links instead
 *                of compiling (python/kiln/cache.py keys and stores it)
 *
 * The conventions every part keeps: errors are values (kj_error), types are
 * compared by pointer, nothing in front end, IR or inference knows the
 * target, and each file says why it does what it does. */
#ifndef KILN_JIT_H
#define KILN_JIT_H

#include <Python.h>

/* Adds the compiler's functions and types to the _kiln module.
 * Returns 0, or -1 with a Python exception set. */
int kj_module_init(PyObject *module);

#endif
