"""What a cell shows: streams (coalesced, captured at fd level), rich displays, display ids,
clear_output, inline matplotlib figures, objects' _repr_*_ methods."""
import base64
import json

from conftest import of_type, run, stream_text


def test_100000_lines_arrive_complete_in_order_and_coalesced(kc):
    reply, msgs = run(kc, "for i in range(100000):\n    print(i)", timeout=120)
    assert reply["status"] == "ok"
    assert stream_text(msgs) == "".join(f"{i}\n" for i in range(100000))
    assert len(of_type(msgs, "stream")) < 100  # a few large messages, not 100,000 small ones


def test_c_level_output_lands_in_the_cell_in_order(kc):
    code = ("import ctypes, os, sys\n"
            "libc = ctypes.CDLL(None)\n"
            "print('python 1')\n"
            "libc.printf(b'from C %d\\n', 42)\n"
            "os.write(1, b'raw fd 1\\n')\n"
            "print('python 2')\n"
            "os.write(2, b'raw fd 2\\n')\n"
            "os.system('echo from a child process')\n")
    reply, msgs = run(kc, code)
    assert reply["status"] == "ok"
    assert stream_text(msgs) == "python 1\nfrom C 42\nraw fd 1\npython 2\nfrom a child process\n"
    assert stream_text(msgs, "stderr") == "raw fd 2\n"


def test_output_without_newline_and_invalid_utf8_still_arrive(kc):
    # stdout is line-buffered, as in a terminal: a partial line is written at a flush, and at
    # the latest when the cell ends
    code = ("import os, sys\n"
            "print('no newline', end='')\n"
            "sys.stdout.flush()\n"
            "os.write(1, b' bad:\\xff\\xfe ok \\xe2\\x82\\xac')\n"
            "print(' tail', end='')")
    _, msgs = run(kc, code)
    assert stream_text(msgs) == "no newline bad:\ufffd\ufffd ok \u20ac tail"


def test_every_character_python_prints_arrives_nul_and_control_characters_too(kc):
    text = "a\x00b \x01\x07\x08\t\x0b\x0c\r\x1b[0m\x1f\x7f \"quoted\" back\\slash / \u20ac\U0001f600"
    code = (f"import os, sys\n"
            f"print({text!r})\n"
            f"print('\\x00', file=sys.stderr)\n"
            f"sys.stdout.flush()\n"
            f"os.write(1, b'fd:\\x00:\\xff:')")
    reply, msgs = run(kc, code)
    assert reply["status"] == "ok"
    assert stream_text(msgs) == text + "\nfd:\x00:\ufffd:"
    assert stream_text(msgs, "stderr") == "\x00\n"


def test_prints_come_before_a_display_that_follows_them(kc):
    _, msgs = run(kc, "print('before')\ndisplay('shown')\nprint('after')")
    kinds = [(m["msg_type"], m["content"].get("text")) for m in msgs
             if m["msg_type"] in ("stream", "display_data")]
    assert kinds == [("stream", "before\n"), ("display_data", None), ("stream", "after\n")]


def test_display_id_update_and_clear_output(kc):
    code = ("h = display('first', display_id='kiln-1')\n"
            "h.update('second')\n"
            "from IPython.display import clear_output\n"
            "clear_output(wait=True)")
    _, msgs = run(kc, code)
    shown = of_type(msgs, "display_data")[0]["content"]
    assert shown["transient"] == {"display_id": "kiln-1"}
    assert shown["data"]["text/plain"] == "'first'"
    update = of_type(msgs, "update_display_data")[0]["content"]
    assert update["transient"] == {"display_id": "kiln-1"}
    assert update["data"]["text/plain"] == "'second'"
    assert of_type(msgs, "clear_output")[0]["content"] == {"wait": True}


def test_inline_matplotlib_figure_is_a_png(kc):
    code = ("%matplotlib inline\n"
            "import matplotlib.pyplot as plt\n"
            "plt.plot([1, 3, 2])\n"
            "plt.title('kiln')\n"
            "plt.show()")
    reply, msgs = run(kc, code)
    assert reply["status"] == "ok"
    pngs = [m["content"]["data"]["image/png"] for m in of_type(msgs, "display_data")
            if "image/png" in m["content"]["data"]]
    assert len(pngs) == 1
    assert base64.b64decode(pngs[0]).startswith(b"\x89PNG\r\n\x1a\n")


def test_bare_matplotlib_magic_selects_inline(kc):
    reply, msgs = run(kc, "%matplotlib\nimport matplotlib; matplotlib.get_backend()")
    assert reply["status"] == "ok"
    result = of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"]
    assert result == "'module://matplotlib_inline.backend_inline'"


def test_rich_reprs_become_their_mime_types(kc):
    code = ("class Rich:\n"
            "    def _repr_html_(self): return '<b>rich</b>'\n"
            "    def _repr_svg_(self): return '<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>'\n"
            "    def _repr_latex_(self): return '$x^2$'\n"
            "    def _repr_json_(self): return {'kiln': [1, 2]}\n"
            "Rich()")
    _, msgs = run(kc, code)
    data = of_type(msgs, "execute_result")[0]["content"]["data"]
    assert data["text/html"] == "<b>rich</b>"
    assert data["image/svg+xml"].startswith("<svg")
    assert data["text/latex"] == "$x^2$"
    assert data["application/json"] == {"kiln": [1, 2]}


def test_semicolon_and_none_show_no_result(kc):
    _, msgs = run(kc, "1 + 1;")
    assert not of_type(msgs, "execute_result")
    _, msgs = run(kc, "None")
    assert not of_type(msgs, "execute_result")


def test_odd_values_in_displays_are_still_sent(kc):
    code = ("import numpy as np\n"
            "from IPython.display import display\n"
            "display({'application/json': {'v': float('nan'), 'n': np.int64(3)}}, raw=True)")
    reply, msgs = run(kc, code)
    assert reply["status"] == "ok"
    data = of_type(msgs, "display_data")[0]["content"]["data"]
    assert json.dumps(data["application/json"], sort_keys=True) == '{"n": 3, "v": null}'


def test_sys_stdout_behaves_like_a_text_stream(kc):
    code = ("import sys\n"
            "sys.stdout.buffer.write(b'via buffer\\n')\n"
            "sys.stdout.flush()\n"
            "sys.stdout.writelines(['a\\n', 'b\\n'])\n"
            "print('lone surrogate \\udc80')\n"
            "n = sys.stdout.write('counted\\n')\n"
            "import io\n"
            "print(n, sys.stdout.encoding, sys.stdout.fileno(), sys.stderr.fileno(), sys.stdout.isatty(),\n"
            "      isinstance(sys.stdout, io.TextIOBase))\n"
            "try:\n"
            "    sys.stdout.write(b'bytes')\n"
            "except TypeError as e:\n"
            "    print('TypeError:', e)")
    reply, msgs = run(kc, code)
    assert reply["status"] == "ok"
    assert stream_text(msgs) == ("via buffer\na\nb\nlone surrogate \\udc80\ncounted\n"
                                 "8 utf-8 1 2 False True\n"
                                 "TypeError: write() argument must be str, not bytes\n")


def test_prints_from_multiprocessing_workers_land_in_the_cell(kc):
    code = ("from multiprocessing import Pool\n"
            "def work(x):\n"
            "    print('worker got', x, flush=True)\n"
            "    return -x\n"
            "with Pool(2) as pool:\n"
            "    result = pool.map(work, [1, 2, 3])\n"
            "result")
    reply, msgs = run(kc, code, timeout=60)
    assert reply["status"] == "ok"
    assert sorted(stream_text(msgs).splitlines()) == ["worker got 1", "worker got 2", "worker got 3"]
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "[-1, -2, -3]"
