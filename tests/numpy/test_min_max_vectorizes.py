"""Whole-array min and max compile to a loop LLVM vectorizes (the annotate
view marks their line vectorized), with NumPy's results; the corpus
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
