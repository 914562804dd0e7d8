"""Kernel tests drive the real kiln-kernel from $KILN_BUILD_DIR (default build/) with
jupyter_client, through a kernelspec that `kiln-kernel install --prefix` writes into a temporary
JUPYTER_PATH. IPython's history and profile go to a temporary IPYTHONDIR."""
import os
import queue
import re
import subprocess
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.abspath(os.environ.get("KILN_BUILD_DIR", os.path.join(ROOT, "build")))
KERNEL_EXE = os.path.join(BUILD, "kiln-kernel")
TIMEOUT = 30

# tests/kernel/asan.sh builds the kernel alone: a test that needs Kiln's own package in the
# kernel is skipped there, and runs in the full suite (scripts/test.sh runs both).
HAVE_KILN = os.path.isdir(os.path.join(BUILD, "python")) and any(
    n.startswith("_kiln") for n in os.listdir(os.path.join(BUILD, "python")))
needs_kiln = pytest.mark.skipif(not HAVE_KILN, reason="a kernel-only build (tests/kernel/asan.sh): no kiln extension")


def _install_kernelspec():
    """Runs once per test process, before any kernel manager looks for kernelspecs."""
    import tempfile
    if not os.path.exists(KERNEL_EXE):
        raise RuntimeError(f"{KERNEL_EXE} is missing: build it first (scripts/setup.sh)")
    tmp = tempfile.mkdtemp(prefix="kiln-kernel-tests-")
    subprocess.run([KERNEL_EXE, "install", "--prefix", tmp], check=True, capture_output=True)
    os.environ["JUPYTER_PATH"] = os.path.join(tmp, "share", "jupyter")
    os.environ["IPYTHONDIR"] = os.path.join(tmp, "ipython")
    return tmp


SPEC_PREFIX = _install_kernelspec()


def start_kernel(**kw):
    from jupyter_client.manager import start_new_kernel
    return start_new_kernel(kernel_name="kiln", startup_timeout=TIMEOUT, **kw)


def collect(kc, msg_id, timeout=TIMEOUT):
    """iopub messages of one request, from busy up to and including idle."""
    out = []
    deadline = time.monotonic() + timeout
    while True:
        msg = kc.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        out.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return out


def shell_reply(kc, msg_id, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        msg = kc.get_shell_msg(timeout=max(0.1, deadline - time.monotonic()))
        if msg["parent_header"].get("msg_id") == msg_id:
            return msg


def run(kc, code, timeout=TIMEOUT, **kw):
    """Executes code; returns (reply content, iopub messages of the request)."""
    msg_id = kc.execute(code, **kw)
    reply = shell_reply(kc, msg_id, timeout)
    return reply["content"], collect(kc, msg_id, timeout)


def stream_text(msgs, name="stdout"):
    return "".join(m["content"]["text"] for m in msgs
                   if m["msg_type"] == "stream" and m["content"]["name"] == name)


def of_type(msgs, msg_type):
    return [m for m in msgs if m["msg_type"] == msg_type]


def drain(get_msg):
    """Discards what a channel holds (kc.get_iopub_msg, kc.get_shell_msg...)."""
    while True:
        try:
            get_msg(timeout=0.2)
        except queue.Empty:
            return


@pytest.fixture(scope="module")
def kernel():
    """A kernel shared by the tests of one module: (manager, client)."""
    km, kc = start_kernel()
    yield km, kc
    kc.stop_channels()
    km.shutdown_kernel(now=False)


@pytest.fixture
def kc(kernel):
    km, client = kernel
    drain(client.get_iopub_msg)
    drain(client.get_shell_msg)
    return client


def plain(text):
    """Text without ANSI colour codes (tracebacks are coloured)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)
