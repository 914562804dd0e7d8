"""Whole-array min and max compile to a loop LLVM vectorizes (the annotate
view marks their line vectorized), with NumPy's results, and so does a
loop written by hand that keeps the smallest int; the corpus
(corpus_np_reduce.py) checks every dtype, layout and NaN placement."""
import numpy as np

import kiln


def test_contiguous_min_and_max_are_marked_vectorized():
    @kiln.njit
    def largest(a):
        return a.max()

    @kiln.njit
    def smallest(a):
        return np.amin(a)

    for dtype in (np.float64, np.float32, np.int64, np.uint8):
        a = (np.random.default_rng(1).standard_normal(1000) * 100).astype(dtype)
        assert largest(a) == a.max() and smallest(a) == a.min()
    big = np.array([1, 2**63 + 5, 7, 2**64 - 1, 3] * 7, np.uint64)   # an unsigned compare
    assert largest(big) == 2**64 - 1 and smallest(big) == 1
    source = open(__file__).read().splitlines()
    for f, text in ((largest, "return a.max()"), (smallest, "return np.amin(a)")):
        for sig in f.signatures:
            marked = {r["line"] for r in f.inspect_remarks(sig) if r["kind"] == "vectorized"}
            assert any(text in source[n - 1] for n in marked), (sig, f.inspect_remarks(sig))


def test_a_loop_that_keeps_the_smallest_int_vectorizes():
    # the same search over floats is told its test rarely holds (jit/lower/lower.c);
    # over ints that would keep LLVM from making it a min reduction
    @kiln.njit
    def smallest_by_hand(a):
        m = a[0]
        for i in range(a.shape[0]):
            if a[i] < m:
                m = a[i]
        return m

    for a in (np.array([5, -3, 7, -3, 2] * 40), np.arange(300)[::-1].copy(), np.array([-(2**63), 2**63 - 1])):
        assert smallest_by_hand(a) == a.min()
    sig = smallest_by_hand.signatures[0]
    assert any(r["kind"] == "vectorized" for r in smallest_by_hand.inspect_remarks(sig)), \
        smallest_by_hand.inspect_remarks(sig)
