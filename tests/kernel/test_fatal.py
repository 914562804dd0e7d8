"""When a cell kills the process (a null pointer through ctypes, os.abort(), a C stack overflow, a
fatal signal), the notebook is told which signal and which cell, in an error on iopub parented
to the request, before the kernel dies of that signal as it would have."""
import signal
import time

import pytest

from conftest import TIMEOUT, of_type, run, start_kernel

DEEP_REPR = ("import sys; sys.setrecursionlimit(10**7)\n"
             "nested = []\n"
             "for _ in range(10**6):\n"
             "    nested = [nested]\n"
             "repr(nested)")


@pytest.mark.parametrize("code,signame", [
    ("import ctypes; ctypes.string_at(0)", "SIGSEGV"),
    ("import os; os.abort()", "SIGABRT"),
    (DEEP_REPR, "SIGSEGV"),  # the C stack overflows: the handler runs on its own stack
    ("import os, signal; os.kill(os.getpid(), signal.SIGBUS)", "SIGBUS"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGFPE)", "SIGFPE"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGILL)", "SIGILL"),
], ids=["null_pointer", "abort", "c_stack_overflow", "sigbus", "sigfpe", "sigill"])
def test_a_fatal_signal_is_reported_on_iopub_before_the_kernel_dies(code, signame):
    km, kc = start_kernel()
    try:
        run(kc, "before = 1")
        msg_id = kc.execute(code)
        msgs, deadline = [], time.monotonic() + TIMEOUT
        while not of_type(msgs, "error"):
            msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
            if msg["parent_header"].get("msg_id") == msg_id:
                msgs.append(msg)
        cell = of_type(msgs, "execute_input")[0]["content"]["execution_count"]
        error = of_type(msgs, "error")[0]["content"]
        assert error["ename"] == "KernelDied"
        assert error["evalue"] == f"the kernel died: {signame} while running cell {cell}"
        assert error["evalue"] in error["traceback"][0]
        # and then it dies of that signal, as it would have without the message
        process = km.provisioner.process
        assert process.wait(timeout=TIMEOUT) == -getattr(signal, signame)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
