"""(*a, *b, x): tuples spread into a tuple display, each part read once, in order; what is not a
tuple (its length unknown when compiling) is refused, naming the * the user wrote."""
import numpy as np
import pytest

import kiln


def spread(a, b):
    return (*a, 1.5, *b)


def test_a_spread_of_something_else_than_a_tuple_is_refused_at_its_star():
    for value, name in ((np.ones(2), "array(float64, 1d, C)"), ([1, 2], "list(int64)")):
        with pytest.raises(kiln.TypingError) as info:
            kiln.njit(spread)(value, (1,))
        assert f"*x in a tuple display needs a tuple in compiled code; got {name}" in str(info.value)
    with pytest.raises(kiln.TypingError, match="takes tuples of numbers in compiled code, not of array"):
        kiln.njit(spread)((np.ones(2),), (1,))


def test_shapes_spread_into_a_new_shape():
    @kiln.njit
    def grown(x):
        return np.zeros((*x.shape, 2)).shape, (1, *x.shape[1:])

    assert grown(np.ones((2, 3))) == ((2, 3, 2), (1, 3))
