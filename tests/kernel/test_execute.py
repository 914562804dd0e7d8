"""execute_request and the requests around it: counts, silent, history, user_expressions,
stop_on_error, errors, kernel_info, busy/idle framing, IPython's conveniences."""
import re
import time

import zmq

from conftest import collect, needs_kiln, of_type, plain, run, shell_reply, stream_text


def test_kernel_info_describes_kiln_and_the_real_python(kc):
    msg_id = kc.kernel_info()
    reply = shell_reply(kc, msg_id)
    c = reply["content"]
    assert reply["header"]["version"] == "5.3"
    assert c["protocol_version"] == "5.3"
    assert c["implementation"] == "kiln"
    li = c["language_info"]
    assert li["name"] == "python" and li["file_extension"] == ".py"
    assert li["pygments_lexer"] == "ipython3"
    assert li["codemirror_mode"] == {"name": "ipython", "version": 3}
    assert any(link["url"].startswith("https://docs.python.org") for link in c["help_links"])
    content, msgs = run(kc, "import platform; platform.python_version()")
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == repr(li["version"])


def test_busy_idle_frame_every_request_on_shell_and_control(kc):
    for send in (kc.kernel_info, lambda: kc.complete("pri"), lambda: kc.is_complete("x = ")):
        msg_id = send()
        msgs = collect(kc, msg_id)
        states = [m["content"]["execution_state"] for m in msgs if m["msg_type"] == "status"]
        assert states == ["busy", "idle"]
    msg = kc.session.msg("kernel_info_request", {})
    kc.control_channel.send(msg)
    reply = kc.get_control_msg(timeout=10)
    assert reply["msg_type"] == "kernel_info_reply"
    states = [m["content"]["execution_state"] for m in collect(kc, msg["header"]["msg_id"])]
    assert states == ["busy", "idle"]


def test_one_session_id_per_kernel(kc):
    _, first = run(kc, "1")
    _, second = run(kc, "2")
    sessions = {m["header"]["session"] for m in first + second}
    assert len(sessions) == 1
    assert all(m["header"]["version"] == "5.3" for m in first + second)


def test_execution_count_rules(kc):
    a, msgs_a = run(kc, "x = 1")
    b, msgs_b = run(kc, "x + 1")
    assert b["execution_count"] == a["execution_count"] + 1
    assert of_type(msgs_b, "execute_input")[0]["content"]["execution_count"] == b["execution_count"]
    assert of_type(msgs_b, "execute_result")[0]["content"]["execution_count"] == b["execution_count"]
    # silent: no execute_input, no result, count unchanged
    s, msgs_s = run(kc, "x + 2", silent=True)
    assert s["status"] == "ok"
    assert not of_type(msgs_s, "execute_input") and not of_type(msgs_s, "execute_result")
    # not stored: output shown, count unchanged
    n, msgs_n = run(kc, "print('shown'); x + 3", store_history=False)
    assert stream_text(msgs_n) == "shown\n"
    assert of_type(msgs_n, "execute_result")[0]["content"]["data"]["text/plain"] == "4"
    c, _ = run(kc, "x")
    assert c["execution_count"] == b["execution_count"] + 1


def test_user_expressions_are_evaluated_after_the_cell(kc):
    reply, _ = run(kc, "y = 21", user_expressions={"double": "y * 2", "bad": "1/0"})
    ue = reply["user_expressions"]
    assert ue["double"]["status"] == "ok"
    assert ue["double"]["data"]["text/plain"] == "42"
    assert ue["bad"]["status"] == "error" and ue["bad"]["ename"] == "ZeroDivisionError"


def test_error_reply_and_error_message(kc):
    reply, msgs = run(kc, "def f():\n    raise KeyError('kiln')\nf()")
    assert reply["status"] == "error"
    assert reply["ename"] == "KeyError" and reply["evalue"] == "'kiln'"
    errors = of_type(msgs, "error")
    assert len(errors) == 1
    assert errors[0]["content"]["ename"] == "KeyError"
    assert any("raise KeyError" in plain(line) for line in errors[0]["content"]["traceback"])
    syntax, msgs = run(kc, "1 +* 2")
    assert syntax["status"] == "error" and syntax["ename"] == "SyntaxError"
    assert of_type(msgs, "error")


def test_stop_on_error_aborts_the_queued_executes(kc):
    first = kc.execute("import time; time.sleep(0.5); raise RuntimeError('stop here')")
    queued = [kc.execute("after_error_%d = True" % i) for i in range(2)]
    assert shell_reply(kc, first)["content"]["status"] == "error"
    for msg_id in queued:
        assert shell_reply(kc, msg_id)["content"]["status"] == "aborted"
    reply, msgs = run(kc, "'after_error_0' in dir(), 'after_error_1' in dir()")
    assert reply["status"] == "ok"
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "(False, False)"


def test_a_silent_failure_does_not_abort_the_queue(kc):
    first = kc.execute("import time; time.sleep(0.3); raise RuntimeError('quiet')", silent=True)
    queued = kc.execute("after_silent = True")
    assert shell_reply(kc, first)["content"]["status"] == "error"
    assert shell_reply(kc, queued)["content"]["status"] == "ok"


def test_without_stop_on_error_the_queue_runs(kc):
    first = kc.execute("import time; time.sleep(0.3); raise RuntimeError('go on')", stop_on_error=False)
    queued = kc.execute("went_on = True")
    assert shell_reply(kc, first)["content"]["status"] == "error"
    assert shell_reply(kc, queued)["content"]["status"] == "ok"


def test_underscore_and_out(kc):
    first, _ = run(kc, "40 + 2")
    reply, msgs = run(kc, "_ + 1, Out[%d]" % first["execution_count"])
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "(43, 42)"


def test_complete_and_inspect_through_ipython(kc):
    run(kc, "def kiln_area(radius: float) -> float:\n    '''Area of a disc.'''\n    return 3.14159 * radius ** 2")
    msg_id = kc.complete("kiln_ar")
    c = shell_reply(kc, msg_id)["content"]
    assert c["status"] == "ok" and "kiln_area" in c["matches"]
    assert c["cursor_start"] == 0 and c["cursor_end"] == 7
    msg_id = kc.complete("import os; os.pa", cursor_pos=16)
    c = shell_reply(kc, msg_id)["content"]
    assert "path" in c["matches"] and c["cursor_start"] == 14
    msg_id = kc.inspect("kiln_area(", cursor_pos=9)
    c = shell_reply(kc, msg_id)["content"]
    assert c["found"] is True
    text = plain(c["data"]["text/plain"])
    assert "Area of a disc." in text and "radius: float" in text
    msg_id = kc.inspect("no_such_name_anywhere")
    c = shell_reply(kc, msg_id)["content"]
    assert c["status"] == "ok" and c["found"] is False


def test_is_complete_statuses(kc):
    def status(code):
        return shell_reply(kc, kc.is_complete(code))["content"]
    assert status("x = 1")["status"] == "complete"
    inc = status("for i in range(3):")
    assert inc["status"] == "incomplete" and inc["indent"] == "    "
    assert status("x = = 1")["status"] == "invalid"


def test_history_tail_range_search(kc):
    run(kc, "kiln_history_marker = 7")
    tail = shell_reply(kc, kc.history(hist_access_type="tail", n=1, output=False, raw=True))
    ((session, line, source),) = tail["content"]["history"]
    assert source == "kiln_history_marker = 7"
    rng = shell_reply(kc, kc.history(hist_access_type="range", session=session, start=line,
                                     stop=line + 1, raw=True, output=False))
    assert rng["content"]["history"] == [[session, line, source]]
    found = shell_reply(kc, kc.history(hist_access_type="search", pattern="kiln_history_m*",
                                       raw=True, output=False))
    assert [h[2] for h in found["content"]["history"]] == [source]


def test_magics_the_courses_use(kc):
    reply, msgs = run(kc, "t = %timeit -o -n 3 -r 2 sum(range(100))\nt.loops, len(t.all_runs)")
    assert reply["status"] == "ok"
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "(3, 2)"
    assert "per loop" in stream_text(msgs)
    _, msgs = run(kc, "%time z = sum(range(1000))")
    assert "Wall time" in stream_text(msgs)
    _, msgs = run(kc, "%%time\nw = 2 ** 10\nprint(w)")
    out = stream_text(msgs)
    assert "1024" in out and "Wall time" in out
    _, msgs = run(kc, "!echo kiln-from-the-shell")
    assert "kiln-from-the-shell" in stream_text(msgs)
    _, msgs = run(kc, "files = !echo one two\nfiles")
    assert "one two" in of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"]
    reply, _ = run(kc, "len?")
    assert reply["payload"][0]["source"] == "page"
    assert "Return the number of items" in reply["payload"][0]["data"]["text/plain"]


def test_execute_input_comes_before_outputs(kc):
    _, msgs = run(kc, "print('a'); 5")
    kinds = [m["msg_type"] for m in msgs]
    assert kinds == ["status", "execute_input", "stream", "execute_result", "status"]


def test_kernel_answers_control_while_a_cell_runs(kc):
    msg_id = kc.execute("import time; time.sleep(1.5)")
    time.sleep(0.3)
    msg = kc.session.msg("kernel_info_request", {})
    t0 = time.monotonic()
    kc.control_channel.send(msg)
    reply = kc.get_control_msg(timeout=5)
    assert reply["msg_type"] == "kernel_info_reply"
    assert time.monotonic() - t0 < 1.0  # answered before the cell ended, not after
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"


def test_heartbeat_echoes_while_a_cell_runs(kernel, kc):
    km, _ = kernel
    info = km.get_connection_info()
    msg_id = kc.execute("import time; time.sleep(1.5)")
    time.sleep(0.3)
    ctx = zmq.Context()
    req = ctx.socket(zmq.REQ)
    req.linger = 0
    req.connect(f"tcp://{info['ip']}:{info['hb_port']}")
    try:
        req.send(b"kiln-ping")
        assert req.poll(1000), "no heartbeat echo within a second while the cell runs"
        assert req.recv() == b"kiln-ping"
    finally:
        req.close()
        ctx.term()
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"


def test_libraries_can_tell_they_run_in_a_notebook_kernel(kc):
    _, msgs = run(kc, "ip = get_ipython(); 'IPKernelApp' in ip.config, hasattr(ip, 'kernel')")
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "(True, True)"


@needs_kiln
def test_tracebacks_show_the_users_frames_not_kilns(kc):
    """A refused argument and an error inside %timeit end at the user's line;
    kiln.config.SHOW_KILN_FRAMES brings Kiln's own frames back."""
    run(kc, "import kiln\n@kiln.njit\ndef first(a):\n    return a[0]\n"
            "@kiln.njit\ndef bad(n):\n    raise ValueError('bad n')\n")

    def traceback_of(code):
        reply, msgs = run(kc, code)
        assert reply["status"] == "error"
        return plain("\n".join(of_type(msgs, "error")[0]["content"]["traceback"]))

    refused = traceback_of("first([])")   # a list's items must say its type
    assert "first([])" in refused and "argument 'a' is an empty list" in refused
    assert "kiln/" not in refused and "_specialize" not in refused, refused
    timed = traceback_of("%timeit -n 1 -r 1 bad(3)")
    assert "bad(3)" in timed and "ValueError: bad n" in timed
    assert "timeit_note" not in timed and "kiln/ipython.py" not in timed, timed
    run(kc, "kiln.config.SHOW_KILN_FRAMES = 1")
    assert "_specialize" in traceback_of("first([])")
    run(kc, "kiln.config.SHOW_KILN_FRAMES = 0")


def progress_displays(msgs):
    """The displays and updates of one display id: a progress line and what replaces it."""
    return [m for m in msgs if m["msg_type"] in ("display_data", "update_display_data")
            and "display_id" in m["content"]["transient"]]


@needs_kiln
def test_a_long_compare_shows_its_progress_in_a_line_its_table_then_replaces(kc):
    # two statements of five 0.15 s calls each: past a second, a progress line appears and is updated
    reply, msgs = run(kc, "import time\ndef nap():\n    time.sleep(0.15)\n%compare -n 1 -r 4 a: nap(); b: nap()")
    assert reply["status"] == "ok"
    shown = progress_displays(msgs)
    assert shown and shown[0]["msg_type"] == "display_data"
    assert all(m["msg_type"] == "update_display_data" for m in shown[1:]) and len(shown) >= 3
    assert len({m["content"]["transient"]["display_id"] for m in shown}) == 1
    lines = [m["content"]["data"]["text/plain"] for m in shown[:-1]]
    assert all(re.fullmatch(r"kiln: %compare: b, run [1-4] of 4 \(statement 2 of 2\) \(\d+%\)", line) for line in lines), lines
    assert "<progress" in shown[0]["content"]["data"]["text/html"]
    table = shown[-1]["content"]["data"]["text/plain"]
    assert table.startswith("label") and "\na " in table and "\nb " in table   # the table took its place
    assert not [m for m in msgs if m["msg_type"] == "display_data" and "display_id" not in m["content"]["transient"]
                and m["content"]["data"]["text/plain"].startswith("label")]   # and was not shown twice


@needs_kiln
def test_a_long_timeit_shows_its_runs_in_a_line_emptied_when_it_prints(kc):
    reply, msgs = run(kc, "import time\n%timeit -n 1 -r 6 time.sleep(0.25)")
    assert reply["status"] == "ok"
    shown = progress_displays(msgs)
    lines = [m["content"]["data"]["text/plain"] for m in shown]
    assert lines[-1] == "" and len(lines) >= 3, lines
    assert all(re.fullmatch(r"kiln: %timeit: run [1-6] of 6, 1 loop each \(\d+%\)", line) for line in lines[:-1]), lines
    assert "per loop (mean ± std. dev. of 6 runs, 1 loop each)" in stream_text(msgs)


@needs_kiln
def test_a_compile_past_the_threshold_shows_what_llvm_does_in_a_line_emptied_after(kc):
    # LLVM's part of a compile runs without the GIL, when a thread updates the line; with the
    # threshold at 0 the line appears during the compile, once that thread gets a core while LLVM
    # runs (two loops and the array expressions give LLVM some milliseconds of work)
    run(kc, "import kiln, numpy as np, kiln.magics.progress as progress\nafter = progress.PROGRESS_AFTER")
    try:
        reply, msgs = run(kc, "progress.PROGRESS_AFTER = 0.0\n"
                              "@kiln.njit\n"
                              "def smooth(a, b):\n"
                              "    s = 0.0\n"
                              "    for i in range(a.shape[0]):\n"
                              "        s += np.sin(a[i]) * np.exp(-a[i])\n"
                              "    for i in range(b.shape[0]):\n"
                              "        b[i] = np.sqrt(abs(b[i])) + a[i % a.shape[0]]\n"
                              "    return s + np.sum(b * 2.0) + np.max(a)\n"
                              "smooth(np.ones(8), np.ones(5))")
    finally:
        run(kc, "progress.PROGRESS_AFTER = after")
    assert reply["status"] == "ok", reply
    shown = progress_displays(msgs)
    lines = [m["content"]["data"]["text/plain"] for m in shown]
    assert shown and shown[0]["msg_type"] == "display_data" and lines[-1] == "", lines
    assert len({m["content"]["transient"]["display_id"] for m in shown}) == 1
    assert all(re.fullmatch(r"kiln: compiling smooth: (optimizing|generating machine code), \d+\.\d s", line)
               for line in lines[:-1]), lines
    footer = [m for m in msgs if m["msg_type"] == "display_data" and not m["content"]["transient"]]
    assert "compiled smooth(" in footer[-1]["content"]["data"]["text/plain"]   # the footer still says it


@needs_kiln
def test_a_long_simulator_launch_shows_its_blocks_in_a_line_emptied_after(kc):
    run(kc, "import math, numpy as np, kiln.magics.progress as progress\nfrom kiln import cuda\n"
            "after = progress.PROGRESS_AFTER")
    try:
        reply, msgs = run(kc, "progress.PROGRESS_AFTER = 0.0\n"
                              "@cuda.jit\n"
                              "def waves(out):\n"
                              "    i = cuda.grid(1)\n"
                              "    if i < out.size:\n"
                              "        s = 0.0\n"
                              "        for k in range(2000):\n"
                              "            s += math.sin(i + k * 0.5)\n"
                              "        out[i] = s\n"
                              "waves[16, 128](np.zeros(16 * 128))")
    finally:
        run(kc, "progress.PROGRESS_AFTER = after")
    assert reply["status"] == "ok", reply
    lines = [m["content"]["data"]["text/plain"] for m in progress_displays(msgs)]
    assert len(lines) >= 2 and lines[-1] == "", lines
    assert all(re.fullmatch(r"kiln: simulating waves\[16, 128\]: block \d+ of 16, \d+\.\d s \(\d+%\)", line)
               for line in lines[:-1]), lines
