/* stream_stores: writing a large new array with non-temporal stores.
 *
 * A store to a line not in cache first reads the line (read for
 * ownership), only to overwrite all of it. When the arrays a loop touches
 * are too large to stay in the last-level cache anyway, that read is pure
 * waste: `return a * b + c` over 1e6 doubles moves 40 MB instead of 32.
 * Non-temporal (streaming) stores write whole lines without reading them:
 * that loop runs about a quarter faster, and writing then summing the
 * result still comes out ahead. Below half the cache it loses, the sum
 * reading from memory what would have been in cache (bench/MEASURED.md).
 *
 * LLVM's loop vectorizer refuses a store marked non-temporal unless the
 * scalar store is aligned to a whole vector, which an element is not. So
 * the lowering marks the store with an alias scope of its own (a kind of
 * metadata the vectorizer carries onto the vector store), states that the
 * new array's data is 64-byte aligned (the runtime's blocks are, nrt.c),
 * and after optimization kj_stream_finish makes each marked vector store
 * whose alignment LLVM proved a whole vector a non-temporal one. The
 * scalar stores of the loop's remainder stay ordinary. */
#ifndef KILN_JIT_STREAM_STORES_H
#define KILN_JIT_STREAM_STORES_H

#include "jit/lower/lower.h"

/* The run-time side: the total bytes from which a loop streams, read by
 * compiled code on any thread; written once, by kj_stream_init (under
 * pthread_once, called when the JIT starts, so before any compiled code
 * runs), to half the largest cache, or from KILN_STREAM_MIN_BYTES. */
extern int64_t kj_stream_min_bytes;
void kj_stream_init(void);

/* Whether w's code may stream (an x86-64 host target). */
bool kj_stream_possible(kj_lw *w);
/* An i1: whether a loop touching `bytes` (i64) in all should stream, that
 * is, whether they are at least half the last-level cache. */
LLVMValueRef kj_stream_wanted(kj_lw *w, LLVMValueRef bytes);
/* States that data (a fresh array's, from the runtime) is 64-byte aligned. */
void kj_stream_assume_aligned(kj_lw *w, LLVMValueRef data);
/* Marks store (a loop's store into such data) to become non-temporal. */
void kj_stream_mark(kj_lw *w, LLVMValueRef store);
/* After a streaming loop: orders its stores before whatever follows (a
 * non-temporal store is weakly ordered; another thread may read next). */
void kj_stream_fence(kj_lw *w);
/* After optimization: marked vector stores aligned to their size become
 * non-temporal. */
void kj_stream_finish(LLVMModuleRef mod);

#endif
