"""Kiln functions defined in a `%%time` cell (seed 000 times its Dask cell so), a
`%%timeit` cell or a `%%capture` cell compile as in any other cell, on a call in that cell
or in a later one, after other timed cells have taken over the name IPython compiles every
timed cell under."""
from conftest import needs_kiln, of_type, run, stream_text


def result(msgs):
    return of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"]


@needs_kiln
def test_functions_of_timed_cells_compile(kc):
    reply, msgs = run(kc, "%%time\nimport kiln\n\n@kiln.njit\ndef tri(n):\n    s = 0\n"
                          "    for i in range(n):\n        s += i\n    return s\n\ntri(100)")
    assert reply["status"] == "ok", reply
    assert result(msgs) == "4950" and "Wall time" in stream_text(msgs)
    reply, msgs = run(kc, "%%time\n@kiln.njit\ndef sq(x):\n    return x * x\n\nsq(7)")
    assert reply["status"] == "ok" and result(msgs) == "49"
    reply, msgs = run(kc, "tri(10), tri(10.5 > 1)")   # tri's text is its own cell's, not the later one's
    assert reply["status"] == "ok", reply
    assert result(msgs) == "(45, 0)"


@needs_kiln
def test_functions_of_timeit_and_capture_cells_compile(kc):
    reply, msgs = run(kc, "%%timeit -n 1 -r 1\nimport kiln\n\n@kiln.njit\ndef plus2(n):\n    return n + 2\n\nplus2(1)")
    assert reply["status"] == "ok", reply
    assert "per loop" in stream_text(msgs)
    reply, msgs = run(kc, "%%capture captured\nimport kiln\n\n@kiln.njit\ndef plus3(n):\n    return n + 3\n\nprint(plus3(1))")
    assert reply["status"] == "ok", reply
    reply, msgs = run(kc, "captured.stdout, plus3(2)")
    assert result(msgs) == "('4\\n', 5)"
