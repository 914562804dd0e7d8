"""Lists at the boundary: made in compiled code they come back as Python
lists of Python numbers; passed between kiln functions they are shared;
passed in from Python (numbers, or tuples of numbers, of one type) they are
copied in and the caller's list takes what the call left in the copy, as
Numba's reflected lists; other lists are refused with advice."""
import numpy as np
import pytest

import kiln
from np_diff import live


@kiln.jit
def total(xs):
    t = 0
    for x in xs:
        t += x
    xs.append(t)
    return t


@kiln.jit
def build_and_share(n):
    a = [i for i in range(n)]
    t = total(a)
    return t, a


def test_list_passed_between_kiln_functions_is_shared():
    before = live()
    t, a = build_and_share(5)
    assert t == 10 and a == [0, 1, 2, 3, 4, 10]
    assert all(type(x) is int for x in a)
    del t, a
    assert live() == before


def test_returned_items_are_python_numbers():
    @kiln.jit
    def f(n):
        return [i / 2 for i in range(n)], [i > 1 for i in range(n)]
    floats, bools = f(3)
    assert floats == [0.0, 0.5, 1.0] and all(type(x) is float for x in floats)
    assert bools == [False, False, True] and all(type(x) is bool for x in bools)


@kiln.jit
def edit(xs, k):
    xs[0] = xs[-1] * k
    xs.append(xs[0] + 1)
    if k > 2:
        xs.pop()
        xs.sort()
    if k < 0:
        raise ValueError("negative k")
    return len(xs)


@kiln.jit
def first_of_sorted(pairs):
    pairs.sort()
    return pairs[0][1]


@kiln.jit
def read_only(xs):
    return sum(xs) + len(xs)


@pytest.mark.parametrize("values, k", [([1.5, -2.0, 3.25], 2), ([7, 1, -4], 3), ([5], 1),
                                       ([2**62, -3], 5), ([0.5, float("nan"), -0.0], 4)])
def test_a_python_list_passed_in_takes_the_changes_as_in_python(values, k):
    before = live()
    mine, ref = list(values), list(values)
    assert edit(mine, k) == edit.py_func(ref, k)
    assert repr(mine) == repr(ref) and [type(x) for x in mine] == [type(x) for x in ref]
    assert live() == before


def test_changes_made_before_a_raise_are_seen_as_in_python():
    mine, ref = [1.0, 2.0], [1.0, 2.0]
    with pytest.raises(ValueError, match="negative k"):
        edit(mine, -1)
    with pytest.raises(ValueError, match="negative k"):
        edit.py_func(ref, -1)
    assert mine == ref == [-2.0, 2.0, -1.0]


def test_lists_of_tuples_and_lists_left_alone():
    pairs = [(3, 1.5), (1, 2.5), (2, 0.5)]
    assert first_of_sorted(pairs) == 2.5 and pairs == [(1, 2.5), (2, 0.5), (3, 1.5)]
    floats = [0.1, 0.2]
    items = [id(x) for x in floats]
    assert read_only(floats) == pytest.approx(2.3)
    assert [id(x) for x in floats] == items   # nothing changed: the caller's objects stay


@kiln.jit
def sorted_with_one_more(records):
    records.append(records[0])
    return sorted(records)


@kiln.jit
def distinct(records):
    return sorted(set(records))


@pytest.mark.parametrize("records", [
    # narrow fields before wide ones: a compiled list packs a tuple's fields, no padding between
    [(np.int32(5), -1.5, np.bool_(True)), (np.int32(-2), 0.25, np.bool_(False)), (np.int32(5), -1.5, np.bool_(True))],
    [(np.int64(2**40), np.int32(-7), np.bool_(False)), (np.int64(3), np.int32(9), np.bool_(True))],
    [(np.uint8(200), np.int16(-300), np.float32(0.5))]])
def test_lists_of_tuples_of_mixed_widths_pass_in_and_out_as_in_python(records):
    mine, ref = list(records), list(records)
    assert sorted_with_one_more(mine) == sorted_with_one_more.py_func(ref)
    assert mine == ref


def test_a_set_of_tuples_of_mixed_widths_from_a_list_passed_in():
    records = [(np.int64(2**40), np.int32(-7), np.bool_(False)), (np.int64(3), np.int32(9), np.bool_(True))] * 2
    assert distinct(records) == distinct.py_func(records)


@pytest.mark.parametrize("value, said", [([], "an empty list"), ([1, 2.0], "a list of mixed items (float, int)"),
                                         (["a", "b"], "a list of str"), ([[1], [2]], "a list of list")])
def test_other_python_lists_are_refused_with_advice(value, said):
    with pytest.raises(TypeError) as info:
        read_only(value)
    assert f"argument 'xs' is {said}, which Kiln cannot pass" in str(info.value)


@kiln.jit
def norms(arrays):
    return [np.sqrt((a * a).sum()) for a in arrays]


@kiln.jit
def pieces(n):
    parts = [np.arange(i, dtype=np.float64) for i in range(n)]
    return norms(parts), parts


def test_list_of_arrays_passed_between_kiln_functions_keeps_its_arrays():
    before = live()
    lengths, parts = pieces(4)
    assert lengths == [0.0, 0.0, 1.0, np.sqrt(5.0)]
    assert [p.tolist() for p in parts] == [[], [0.0], [0.0, 1.0], [0.0, 1.0, 2.0]]
    assert all(type(p) is np.ndarray and p.flags.writeable for p in parts)
    del lengths, parts
    assert live() == before


def test_python_list_of_arrays_argument_is_refused_with_advice():
    with pytest.raises(TypeError) as info:
        norms([np.zeros(2), np.ones(2)])
    assert "tuple(arrays)" in str(info.value)


@kiln.jit
def two_arrays(n):
    return [np.zeros(n), np.ones(n)]


def sort_them(n):
    arrays = two_arrays(n)
    arrays.sort()


def sorted_them(n): return sorted(two_arrays(n))
def sum_them(n): return sum(two_arrays(n))
def print_them(n): print(two_arrays(n))
def look_for_a_number(n): return 1.0 in two_arrays(n)
def index_of_a_number(n): return two_arrays(n).index(1.0)
def pair_them(n): return [(a, 1) for a in two_arrays(n)]


def append_a_view(n):
    arrays = two_arrays(n)
    arrays.append(np.zeros(3)[::2])


def append_ints(n):
    arrays = two_arrays(n)
    arrays.append(np.zeros(3, np.int64))


def assign_a_slice(n):   # Numba's test_lists' test_set_slice: a crash, before it was refused
    arrays = two_arrays(n)
    arrays[0:1] = arrays[1:2]


def assign_a_slice_of_ints(n):
    ints = [1, 2, n]
    ints[1:] = ints[:2]


@pytest.mark.parametrize("fn, message", [
    (assign_a_slice, "assigning to a slice of a list is not supported in compiled code"),
    (assign_a_slice_of_ints, "assigning to a slice of a list is not supported in compiled code"),
    (sort_them, "a list of arrays cannot be sorted"),
    (sorted_them, "sorted() of a list of arrays is not supported"),
    (sum_them, "sum() of a list of arrays is not supported"),
    (print_them, "print() in compiled code cannot print list(array(float64, 1d, C))"),
    (look_for_a_number, "`in` needs a number and a list"),
    (index_of_a_number, "list has no method 'index' with these arguments"),
    (append_a_view, "cannot append array(float64, 1d, A) to a list of array(float64, 1d, C)"),
    (append_ints, "cannot append array(int64, 1d, C) to a list of array(float64, 1d, C)"),
    (pair_them, "lists in compiled code hold numbers, tuples of numbers, arrays and lists of those, not Tuple("),
])
def test_lists_of_arrays_refuse_what_they_cannot_do(fn, message):
    with pytest.raises(kiln.TypingError) as info:
        kiln.jit(fn)(2)
    assert message in str(info.value)


def test_array_of_an_empty_list_of_arrays_keeps_their_dimensions():
    # NumPy sees no arrays in [] and gives shape (0,); compiled code knows the
    # items are 1-d arrays, so the result is 2-d, as for lists of tuples
    @kiln.jit
    def rows(n):
        return np.array([np.zeros(3) for _ in range(n)])
    assert rows(0).shape == (0, 0) and rows(0).dtype == np.float64
    assert rows(2).shape == (2, 3)


def join_other_arrays(n): return [np.zeros(n)] + [np.zeros(n, np.int64)]
def repeat_by_a_float(n): return [n] * 2.5
def add_a_tuple(n): return [n] + (n,)


@pytest.mark.parametrize("fn, message, hint", [
    (join_other_arrays, "cannot join a list of array(float64, 1d, C) and a list of array(int64, 1d, C)", None),
    (repeat_by_a_float, "unsupported operand types for this operator: list(int64) and float64",
     "Lists take + with a list and * with an int."),
    (add_a_tuple, "unsupported operand types for this operator: list(int64) and UniTuple(int64 x 1)",
     "Lists take + with a list and * with an int."),
])
def test_list_operators_take_lists_and_ints(fn, message, hint):
    with pytest.raises(kiln.TypingError) as info:
        kiln.jit(fn)(2)
    assert message in str(info.value)
    assert hint is None or hint in str(info.value)


@kiln.jit
def fill(out, n):
    for i in range(n):
        out.append(i * 0.5)
    return len(out)


@kiln.jit
def made_empty_filled_elsewhere(n):
    out = []
    k = fill(out, n)
    return k, out


def test_an_empty_list_filled_by_another_kiln_function_takes_its_type():
    before = live()
    assert made_empty_filled_elsewhere(3) == (3, [0.0, 0.5, 1.0])
    assert made_empty_filled_elsewhere(0) == (0, [])
    assert live() == before


@kiln.jit
def two_lists(n):
    return [[n], [n, 1]]



def sort_lists(n):
    rows = two_lists(n)
    rows.sort()
def sorted_lists(n): return sorted(two_lists(n))
def print_lists(n): print(two_lists(n))
def index_of_a_list_item(n): return two_lists(n).index(1)
def unknown_list_method(n): return [n].push(n)
def sorted_by_key(n):
    xs = [n, 1]
    xs.sort(key=abs)
def popped_at_a_float(n): return [n].pop(0.5)
def lists_of_two_item_types(n):
    rows = two_lists(n)
    rows.append([0.5])


@pytest.mark.parametrize("fn, message", [
    (sort_lists, "a list of lists cannot be sorted"),
    (sorted_lists, "sorted() of a list of lists is not supported"),
    (print_lists, "print() in compiled code cannot print list(list(int64))"),
    (index_of_a_list_item, "list has no method 'index' with these arguments"),
    (lists_of_two_item_types, "cannot append list(float64) to a list of list(int64)"),
    (unknown_list_method, "list has no method 'push' in compiled code"),
    (unknown_list_method, "list has the methods append, clear, copy, count, extend, index, insert, pop, remove, reverse and sort."),
    (sorted_by_key, "list.sort takes no keyword argument 'key' in compiled code"),
    (popped_at_a_float, "list has no method 'pop' with these arguments in compiled code"),
])
def test_lists_of_lists_refuse_what_they_cannot_do(fn, message):
    with pytest.raises(kiln.TypingError) as info:
        kiln.jit(fn)(2)
    assert message in str(info.value)



@kiln.jit
def repeated(n, times):
    return list(range(n)) * times


@kiln.jit
def repeated_in_place(n, times):
    a = list(range(n))
    a *= times
    return a


@pytest.mark.parametrize("fn", [repeated, repeated_in_place])
@pytest.mark.parametrize("n, times", [(1, 2**58), (1, 2**62), (8, 2**61)])
def test_a_repeat_too_large_for_memory_raises_memoryerror_as_python(fn, n, times):
    # Numba's test_lists' test_mul_error: before, the repeat appended until memory ran out
    with pytest.raises(MemoryError):
        fn.py_func(n, times)
    with pytest.raises(MemoryError):
        fn(n, times)
    assert fn(3, 2) == fn.py_func(3, 2) and fn(2, -1) == fn.py_func(2, -1) == []
