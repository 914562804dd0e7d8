"""Replies cannot be stolen: a client's ZeroMQ identity is its session id, which any iopub
subscriber sees without the key. A peer that connects to shell, control and stdin claiming that
identity gets none of the client's replies, and the client keeps getting them; a client that
reconnects with its own identity is served again, even when its old connection hangs."""
import signal
import subprocess
import sys
import time

import zmq

from conftest import TIMEOUT, of_type, run, shell_reply, start_kernel


def result(kc, code):
    reply, msgs = run(kc, code)
    assert reply["status"] == "ok", reply
    return of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"]


def test_a_peer_claiming_the_clients_identity_gets_none_of_its_replies():
    km, kc = start_kernel()
    info = km.get_connection_info()
    ctx = zmq.Context()
    thieves = []
    try:
        assert result(kc, "6 * 7") == "42"
        identity = kc.session.bsession  # what jupyter_client's sockets present
        for port in ("shell_port", "control_port", "stdin_port"):
            sock = ctx.socket(zmq.DEALER)
            sock.linger = 0
            sock.setsockopt(zmq.IDENTITY, identity)
            sock.connect(f"tcp://{info['ip']}:{info[port]}")
            thieves.append(sock)
        # the client's requests, on each channel, are still answered to the client
        assert result(kc, "6 * 7") == "42"
        msg_id = kc.execute("name = input('who? ')", allow_stdin=True)
        assert kc.get_stdin_msg(timeout=TIMEOUT)["content"]["prompt"] == "who? "
        kc.input("kiln")
        assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
        kc.control_channel.send(kc.session.msg("kernel_info_request", {}))
        assert kc.get_control_msg(timeout=TIMEOUT)["msg_type"] == "kernel_info_reply"
        for sock in thieves:
            assert sock.poll(1000) == 0, "a reply went to the peer claiming the identity"
        # and after the peer leaves too
        for sock in thieves:
            sock.close()
        assert result(kc, "name") == "'kiln'"
    finally:
        for sock in thieves:
            sock.close()
        ctx.term()
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_a_client_that_reconnects_with_its_identity_is_served():
    km, kc = start_kernel()
    try:
        assert result(kc, "kept = 7; kept") == "7"
        identity = kc.session.bsession
        for _ in range(3):
            kc.stop_channels()
            # libzmq 4.3 leaves unserved a connection that claims an identity while the old
            # connection is still attached (docs/kernel.md): the old sockets close first
            time.sleep(1)
            kc = km.client()  # new sockets, the manager's session: the same identity
            assert kc.session.bsession == identity
            kc.start_channels()
            kc.wait_for_ready(timeout=TIMEOUT)
            assert result(kc, "kept") == "7"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


HEARTBEAT_TIMEOUT = 5  # seconds, kernel/channels.c

HOLDER = """
import sys, time, zmq
sock = zmq.Context().socket(zmq.DEALER)
sock.setsockopt(zmq.IDENTITY, sys.argv[1].encode())
sock.connect(sys.argv[2])
sock.send_multipart([b"<IDS|MSG>", b"", b"{}", b"{}", b"{}", b"{}"])  # dropped: unsigned
print("connected", flush=True)
time.sleep(600)
"""


def test_a_connection_that_hangs_gives_its_identity_back(tmp_path):
    # the client's old connection is open for TCP but answers nothing (its process stopped, as a
    # suspended laptop's): the kernel's heartbeats drop it, and the client, reconnecting with the
    # same identity, is served again. Without them the hung connection would hold the identity
    # for as long as TCP keeps it open, and the client's new connection would be refused.
    km, kc = start_kernel()
    holder = None
    try:
        info = km.get_connection_info()
        identity = kc.session.session
        kc.stop_channels()
        script = tmp_path / "holder.py"
        script.write_text(HOLDER)
        holder = subprocess.Popen([sys.executable, str(script), identity,
                                   f"tcp://{info['ip']}:{info['shell_port']}"],
                                  stdout=subprocess.PIPE, text=True)
        assert holder.stdout.readline().strip() == "connected"
        time.sleep(0.5)  # its message reached the kernel, so its connection holds the identity
        holder.send_signal(signal.SIGSTOP)
        time.sleep(HEARTBEAT_TIMEOUT + 2)  # no answer to the kernel's pings for that long
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=TIMEOUT)
        assert result(kc, "6 * 7") == "42"
    finally:
        if holder is not None:
            holder.kill()
            holder.wait()
        kc.stop_channels()
        km.shutdown_kernel(now=True)
