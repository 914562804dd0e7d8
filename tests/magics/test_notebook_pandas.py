"""Seed 000's "Numba and Pandas" section in a real notebook, run by nbclient
through the real Kiln kernel, ported by changing the import: a vectorize
ufunc on a column's NumPy array and on the Series itself, %timeit -o
against pandas' apply and pandas' own multiply, the prange square_mean on
df.to_numpy() against df.apply(square_mean, axis=1) for several row
counts, the bar chart; and what happens when a Series or a DataFrame is
passed to a kiln.njit function: a TypeError that says what to pass, and
the session's variables kept.

The seed's %timeit -o runs as many loops as fill its time; -n 3 -r 3 here
keep the test to seconds, and the seed's largest frame (100,000 rows) is
left out of the per-row loop, where pandas' apply takes seconds a call."""
import nbformat
import pytest

import magics_notebook as mn

CELLS = [
    ("setup", """
import numpy as np
import kiln as nb
from kiln import njit, prange
import pandas as pd

def multiply(x):
    return x * 5

@nb.vectorize
def multiply_numba(x):
    return x * 5
"""),
    ("frame", "df = pd.DataFrame(np.random.randint(0,100,size=(100000, 4)),columns=['a', 'b', 'c', 'd'])\ndf"),
    ("apply", "time_apply = %timeit -o -n 3 -r 3 df['new_col1'] = df['a'].apply(multiply)"),
    ("pandas", "time_pandas = %timeit -o -n 3 -r 3 df['new_col2'] = df['a'] * 5"),
    ("numba", "time_numba1 = %timeit -o -n 3 -r 3 df['new_col3'] = multiply_numba(df['a'].to_numpy())"),
    ("ratios", """
print("Multiply Apply:  {}".format(time_apply.best/time_apply.best))
print("Multiply Pandas: {}".format(time_apply.best/time_pandas.best))
print("Multiply Numba:  {}".format(time_apply.best/time_numba1.best))
"""),
    ("columns", """
series = multiply_numba(df['a'])   # a NumPy ufunc: pandas hands it the values and wraps the result
print(type(series).__name__, series.dtype, series.equals(df['new_col2']))
print(df['new_col1'].equals(df['new_col2']), np.array_equal(df['new_col3'], df['new_col2']))
"""),
    ("square_mean", """
def square_mean(row):
    row = np.power(row, 2)
    return np.mean(row)

@njit
def square_mean_numba(arr):
    res = np.empty(arr.shape[0])
    arr = np.power(arr, 2)
    for i in prange(arr.shape[0]):
        res[i] = np.mean(arr[i])
    return res
"""),
    ("rows", "nrows_list = [10, 100, 1000]"),
    ("pandas_times", """
pandas_times = list()
for nrows in nrows_list:
    df = pd.DataFrame(np.random.randint(0,100,size=(nrows, 2)),columns=['a', 'b'])
    tp = %timeit -o -q -n 3 -r 3 df['new_col'] = df.apply(square_mean, axis=1)
    pandas_times.append(tp.best)
"""),
    ("numba_times", """
numba_times = list()
same = list()
for nrows in nrows_list:
    df = pd.DataFrame(np.random.randint(0,100,size=(nrows, 2)),columns=['a', 'b'])
    tn = %timeit -o -q -n 3 -r 3 df['new_col'] = square_mean_numba(df.to_numpy())
    numba_times.append(tn.best)
    ab = df[['a', 'b']]
    same.append(np.array_equal(ab.apply(square_mean, axis=1).to_numpy(), square_mean_numba(ab.to_numpy())))
print(same, len(numba_times), len(pandas_times), all(t > 0 for t in numba_times + pandas_times))
"""),
    ("plot", """
import matplotlib.pyplot as plt

x = np.arange(len(nrows_list))

fig, axes = plt.subplots(nrows=1, ncols=1)
width = 0.25
axes.bar(x, pandas_times, width, label='Pandas apply')
axes.bar(x + width, numba_times, width, label='Numba function')
axes.set_xticks(x)
axes.set_xticklabels(nrows_list)
axes.legend(prop={'size': 10})
axes.set_yscale('log')
axes.set_xlabel('Number of rows')
axes.set_ylabel("Time (s)")
"""),
    ("series_arg", "square_mean_numba(df['a'])"),
    ("frame_arg", "square_mean_numba(df)"),
    ("after", "print(len(df), square_mean_numba(df.to_numpy())[:2].tolist() == df.apply(square_mean, axis=1)[:2].tolist())"),
]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    nb = nbformat.v4.new_notebook()
    for tag, src in CELLS:
        nb.cells.append(nbformat.v4.new_code_cell(src.strip(), metadata={"tags": [tag]}))
    # the two error cells must not stop the run
    return mn.execute_cells(nb, allow_errors=True)


def stdout(nb, tag):
    return "".join(o.text for o in mn.cell(nb, tag).outputs if o.output_type == "stream" and o.name == "stdout")


def error(nb, tag):
    (e,) = [o for o in mn.cell(nb, tag).outputs if o.output_type == "error"]
    return e


def test_only_the_two_wrong_arguments_fail(run):
    assert sorted(mn.errors(run)) == [(["frame_arg"], "TypeError"), (["series_arg"], "TypeError")]


def test_vectorize_on_a_column_gives_pandas_numbers(run):
    assert stdout(run, "columns") == "Series int64 True\nTrue True\n"


def test_timeit_o_results_give_the_seeds_ratios(run):
    lines = stdout(run, "ratios").splitlines()
    assert [line.split(":")[0] for line in lines] == ["Multiply Apply", "Multiply Pandas", "Multiply Numba"]
    assert lines[0].endswith(" 1.0")
    assert all(float(line.split()[-1]) > 0 for line in lines)   # what they are is the bench's business
    for tag in ("apply", "pandas", "numba"):
        assert "per loop (mean ± std. dev. of 3 runs, 3 loops each)" in stdout(run, tag)


def test_square_mean_matches_pandas_apply_at_every_size(run):
    assert stdout(run, "numba_times") == "[True, True, True] 3 3 True\n"


def test_the_bar_chart_is_drawn(run):
    assert mn.outputs(run, "plot", "image/png")


def test_a_series_or_a_frame_argument_says_what_to_pass(run):
    series = error(run, "series_arg")
    assert series.evalue.startswith("square_mean_numba(): argument 'arr' is a pandas Series of dtype int64, "
                                    "which Kiln cannot pass")
    assert series.evalue.endswith("pass its NumPy array: arr.to_numpy()")
    frame = error(run, "frame_arg")
    assert "argument 'arr' is a pandas DataFrame" in frame.evalue
    assert frame.evalue.endswith("pass its columns as NumPy arrays: arr['a'].to_numpy(), "
                                 "or all of them as one 2-D array: arr.to_numpy()")
    # the session goes on with its variables
    assert stdout(run, "after") == "1000 True\n"
