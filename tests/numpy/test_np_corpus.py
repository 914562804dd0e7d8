"""The NumPy differential corpus: every function, run by CPython + NumPy
and by Kiln on its generated inputs, must agree, and give back all the
memory it allocated."""
import pytest

import kiln
import corpus_np_create  # noqa: F401  (each registers its functions)
import corpus_np_ewise  # noqa: F401
import corpus_np_reduce  # noqa: F401
import corpus_lists  # noqa: F401
import corpus_np_index  # noqa: F401
import corpus_np_complex  # noqa: F401
import corpus_np_zero_d  # noqa: F401
import corpus_np_linalg  # noqa: F401
import corpus_np_build  # noqa: F401
import corpus_dicts  # noqa: F401
import corpus_sets  # noqa: F401
from np_diff import CASES, check


@pytest.mark.parametrize("fn,argsets", CASES, ids=[f.__name__ for f, _ in CASES])
def test_kiln_agrees_with_numpy(fn, argsets):
    d = kiln.jit(fn)
    for args in argsets:
        check(d, args)


def test_corpus_is_large_enough():
    assert len(CASES) >= 150
