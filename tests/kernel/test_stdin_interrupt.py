"""input() and getpass through the stdin channel, both ways; interrupts in message mode
(interrupt_request on control) and signal mode (SIGINT) of a busy loop, a sleep and a blocked
input(), after which the kernel keeps every variable."""
import time

import pytest

from conftest import collect, of_type, run, shell_reply, stream_text


def test_input_goes_through_the_stdin_channel(kc):
    msg_id = kc.execute("name = input('your name? ')", allow_stdin=True)
    req = kc.get_stdin_msg(timeout=10)
    assert req["msg_type"] == "input_request"
    assert req["content"] == {"prompt": "your name? ", "password": False}
    kc.input("kiln")
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
    _, msgs = run(kc, "name")
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "'kiln'"


def test_getpass_asks_for_a_password(kc):
    msg_id = kc.execute("import getpass; secret = getpass.getpass('pin: ')", allow_stdin=True)
    req = kc.get_stdin_msg(timeout=10)
    assert req["content"] == {"prompt": "pin: ", "password": True}
    kc.input("1234")
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
    _, msgs = run(kc, "len(secret)")
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "4"


def test_post_mortem_debugger_reads_through_stdin(kc):
    run(kc, "def broken(x):\n    y = x * 2\n    return y / 0\nbroken(21)")
    msg_id = kc.execute("%debug", allow_stdin=True)
    req = kc.get_stdin_msg(timeout=10)
    assert "ipdb>" in req["content"]["prompt"]
    kc.input("p y")
    req = kc.get_stdin_msg(timeout=10)
    kc.input("q")
    reply = shell_reply(kc, msg_id)["content"]
    assert reply["status"] == "ok"
    out = stream_text(collect(kc, msg_id))
    assert "42" in out  # `p y` printed the frame's variable


def test_input_without_stdin_fails_at_once_with_a_clear_error(kc):
    t0 = time.monotonic()
    reply, msgs = run(kc, "input('never asked ')", allow_stdin=False)
    assert time.monotonic() - t0 < 5
    assert reply["status"] == "error"
    assert reply["ename"] == "StdinNotImplementedError"
    assert "does not support input requests" in reply["evalue"]


def test_input_from_another_thread_is_a_clear_error(kc):
    code = ("import threading\n"
            "errors = []\n"
            "def ask():\n"
            "    try:\n"
            "        input('from a thread ')\n"
            "    except RuntimeError as e:\n"
            "        errors.append(str(e))\n"
            "t = threading.Thread(target=ask); t.start(); t.join()\n"
            "errors")
    reply, msgs = run(kc, code, allow_stdin=True)
    assert reply["status"] == "ok"
    assert "only in the thread running the cell" in of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"]


def _interrupt_by_message(km, kc):
    msg = kc.session.msg("interrupt_request", {})
    kc.control_channel.send(msg)
    assert kc.get_control_msg(timeout=5)["content"]["status"] == "ok"


def _interrupt_by_signal(km, kc):
    km.interrupt_kernel()  # the kernelspec says interrupt_mode signal: SIGINT to the process


@pytest.mark.parametrize("interrupt", [_interrupt_by_message, _interrupt_by_signal],
                         ids=["message", "signal"])
@pytest.mark.parametrize("code", ["while True: pass", "import time; time.sleep(100)",
                                  "input('blocked? ')"], ids=["loop", "sleep", "input"])
def test_interrupt_ends_the_cell_and_keeps_the_variables(kernel, kc, interrupt, code):
    km, _ = kernel
    run(kc, "kept = [1, 2, 3]")
    msg_id = kc.execute(code, allow_stdin=True)
    if code.startswith("input"):
        assert kc.get_stdin_msg(timeout=10)["msg_type"] == "input_request"
    else:
        time.sleep(0.3)
    interrupt(km, kc)
    reply = shell_reply(kc, msg_id, timeout=10)["content"]
    assert reply["status"] == "error" and reply["ename"] == "KeyboardInterrupt"
    errors = of_type(collect(kc, msg_id), "error")
    assert errors and errors[0]["content"]["ename"] == "KeyboardInterrupt"
    reply, msgs = run(kc, "kept")
    assert reply["status"] == "ok"
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "[1, 2, 3]"


def test_an_interrupt_while_idle_does_not_hit_the_next_cell(kernel, kc):
    km, _ = kernel
    km.interrupt_kernel()
    _interrupt_by_message(km, kc)
    time.sleep(0.2)
    reply, _ = run(kc, "sum(range(10))")
    assert reply["status"] == "ok"
