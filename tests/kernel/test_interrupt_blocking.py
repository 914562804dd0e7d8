"""Interrupts reach Python wherever a cell blocks: in a system call (a lock, a pipe, a socket, a
child's exit), and in compiled code after Python code has replaced the SIGINT handler (asyncio.run
does, and restores Python's default after). Each cell is interrupted after it says it is about to
block; the reply must be KeyboardInterrupt, soon, and the kernel's variables must survive."""
import signal
import subprocess
import time

import pytest
from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.connect import write_connection_file

from conftest import KERNEL_EXE, collect, needs_kiln, of_type, run, shell_reply, stream_text

DEADLINE = 5  # seconds; the issue asks for one, the bound is loose for a busy machine

BLOCKING = {
    "event_wait": "import threading; threading.Event().wait()",
    "pipe_read": "import os; r, w = os.pipe(); os.read(r, 1)",
    "queue_get": "import queue; queue.Queue().get()",
    "socket_recv": "import socket; a, b = socket.socketpair(); a.recv(1)",
    "thread_join": ("import threading, time\n"
                    "t = threading.Thread(target=time.sleep, args=(60,), daemon=True); t.start()\n"
                    "t.join()"),
    "subprocess_run": "import subprocess; subprocess.run(['sleep', '60'])",
}


def interrupt_by_message(km, kc):
    kc.control_channel.send(kc.session.msg("interrupt_request", {}))
    assert kc.get_control_msg(timeout=5)["content"]["status"] == "ok"


def interrupt_by_signal(km, kc):
    km.interrupt_kernel()  # interrupt_mode signal: SIGINT to the process


def interrupted_within_deadline(km, kc, code, interrupt):
    """Runs code, which prints 'blocking' just before it blocks, interrupts it, and checks that
    the cell ends in KeyboardInterrupt within DEADLINE and that `kept` survived."""
    run(kc, "kept = [1, 2, 3]")
    msg_id = kc.execute("print('blocking', flush=True)\n" + code)
    deadline = time.monotonic() + 30
    while True:  # the cell has started when its first output arrives
        msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
        if (msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream"
                and "blocking" in msg["content"]["text"]):
            break
    time.sleep(0.5)  # well inside the blocking call by now
    sent = time.monotonic()
    interrupt(km, kc)
    reply = shell_reply(kc, msg_id, timeout=DEADLINE)["content"]
    took = time.monotonic() - sent
    assert reply["status"] == "error" and reply["ename"] == "KeyboardInterrupt", reply
    assert took < DEADLINE
    collect(kc, msg_id)
    reply, msgs = run(kc, "kept")
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "[1, 2, 3]"


@pytest.mark.parametrize("interrupt", [interrupt_by_message, interrupt_by_signal],
                         ids=["message", "signal"])
@pytest.mark.parametrize("name", list(BLOCKING))
def test_a_cell_blocked_in_a_system_call_is_interrupted(kernel, kc, name, interrupt):
    km, _ = kernel
    interrupted_within_deadline(km, kc, BLOCKING[name], interrupt)


SPIN = """
import kiln

@kiln.njit
def spin(n):
    x = 0
    while n > 0:
        x += 1
    return x

spin(0)  # compiled now, not while the test waits
"""


@needs_kiln
@pytest.mark.parametrize("before", [
    "import asyncio; asyncio.run(asyncio.sleep(0))",
    "import signal; signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))",
    "import signal\n"
    "def on_sigint(signum, frame):\n"
    "    raise KeyboardInterrupt\n"
    "signal.signal(signal.SIGINT, on_sigint)",
], ids=["asyncio_run", "same_handler_again", "own_handler"])
@pytest.mark.parametrize("where", ["earlier_cell", "same_cell"])
def test_compiled_loop_stays_interruptible_after_python_sets_a_sigint_handler(kernel, kc, before,
                                                                               where):
    km, _ = kernel
    reply, msgs = run(kc, SPIN)
    assert reply["status"] == "ok", stream_text(msgs, "stderr")
    if where == "earlier_cell":
        assert run(kc, before)[0]["status"] == "ok"
        interrupted_within_deadline(km, kc, "spin(1)", interrupt_by_message)
    else:
        interrupted_within_deadline(km, kc, before + "\nspin(1)", interrupt_by_message)
    assert run(kc, "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)"
               )[0]["status"] == "ok"
    interrupted_within_deadline(km, kc, "spin(1)", interrupt_by_signal)


def test_a_kernel_started_with_sigint_ignored_is_interrupted(tmp_path):
    # a background job (`jupyter notebook &` from a script) starts with SIGINT ignored, and its
    # children inherit that; CPython leaves an ignored SIGINT ignored
    conn, _ = write_connection_file(str(tmp_path / "kernel.json"), key=b"k")
    proc = subprocess.Popen([KERNEL_EXE, "-f", conn], stdout=subprocess.DEVNULL,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    kc = BlockingKernelClient(connection_file=conn)
    kc.load_connection_file()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=30)
        interrupted_within_deadline(None, kc, "while True: pass", interrupt_by_message)
        interrupted_within_deadline(None, kc, "while True: pass",
                                    lambda km, kc: proc.send_signal(signal.SIGINT))
    finally:
        kc.stop_channels()
        proc.terminate()
        proc.wait(timeout=30)
