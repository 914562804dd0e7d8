"""Global NumPy arrays read by compiled code are frozen when the function
compiles, as Numba freezes them: a C-ordered copy of their values becomes
read-only data of the machine code. A later change to the global is not
seen by that compiled code; writing to one is a TypingError."""
import numpy as np
import pytest

import kiln

WEIGHTS = np.array([0.5, -1.0, 2.0])
GRID = np.arange(24, dtype=np.int16).reshape(4, 6)[::2, ::-3]   # a strided view: frozen in C order
NOTHING = np.zeros((0, 3))
WORDS = np.array(["a", "b"])


@kiln.njit
def weigh(x):
    return (WEIGHTS * x).sum(), GRID.sum(axis=1), GRID[1, 0], NOTHING.shape[0], WEIGHTS


def test_global_arrays_compile_as_their_values_and_come_back_read_only():
    total, sums, corner, empty, w = weigh(2.0)
    assert total == 3.0 and sums.tolist() == GRID.sum(axis=1).tolist() and corner == GRID[1, 0] and empty == 0
    assert w.tolist() == WEIGHTS.tolist() and not w.flags.writeable


def test_a_change_after_the_compile_is_not_seen():
    table = np.array([1.0, 2.0])

    @kiln.njit
    def first():
        return table[0]
    assert first() == 1.0
    table[0] = 9.0
    assert first() == 1.0                        # frozen
    assert kiln.njit(first.py_func)() == 9.0     # a new compile reads it again


@kiln.njit
def overwrite():
    WEIGHTS[0] = 1.0


@kiln.njit
def words():
    return WORDS


def test_writing_to_a_global_array_or_holding_strings_is_a_typing_error():
    with pytest.raises(kiln.TypingError, match=r"cannot write to a read-only array \(readonly array\(float64, 1d, C\)\)"):
        overwrite()
    with pytest.raises(kiln.TypingError, match="global 'WORDS' is an array of dtype numpy.str_, which compiled code cannot hold"):
        words()
