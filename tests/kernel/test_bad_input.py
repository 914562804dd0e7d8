"""Bad input never kills the kernel: each malformed message below is logged and dropped, or
answered with an error reply where the protocol has one, and the next request still works.
Messages are built by hand on raw ZeroMQ sockets so that they can be wrong in every way."""
import hashlib
import hmac
import json
import os
import tempfile
import time
import uuid

import pytest
import zmq

from conftest import of_type, run, start_kernel


class RawClient:
    """A DEALER on shell and a SUB on iopub, signing with the kernel's key."""

    def __init__(self, info):
        self.key = info["key"] if isinstance(info["key"], bytes) else info["key"].encode()
        self.ctx = zmq.Context()
        self.shell = self.ctx.socket(zmq.DEALER)
        self.shell.linger = 0
        self.shell.connect(f"tcp://{info['ip']}:{info['shell_port']}")
        self.iopub = self.ctx.socket(zmq.SUB)
        self.iopub.linger = 0
        self.iopub.subscribe(b"")
        self.iopub.connect(f"tcp://{info['ip']}:{info['iopub_port']}")
        self.session = uuid.uuid4().hex

    def published(self):
        """The raw frames of every iopub message received so far."""
        out = []
        while self.iopub.poll(200):
            out.append(self.iopub.recv_multipart())
        return out

    def sign(self, *frames):
        return hmac.new(self.key, b"".join(frames), hashlib.sha256).hexdigest().encode()

    def frames(self, msg_type, content, header_extra=None, drop=()):
        header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": self.session,
                  "username": "test", "date": "2026-01-01T00:00:00Z", "version": "5.3"}
        header.update(header_extra or {})
        for key in drop:
            header.pop(key)
        parts = [json.dumps(header).encode(), b"{}", b"{}",
                 content if isinstance(content, bytes) else json.dumps(content).encode()]
        return header.get("msg_id"), [b"<IDS|MSG>", self.sign(*parts)] + parts

    def send(self, frames):
        self.shell.send_multipart(frames)

    def reply(self, timeout=10.0):
        """The next shell reply, or None when none comes within timeout."""
        if not self.shell.poll(int(timeout * 1000)):
            return None
        frames = self.shell.recv_multipart()
        i = frames.index(b"<IDS|MSG>")
        return {"header": json.loads(frames[i + 2]), "parent": json.loads(frames[i + 3]),
                "content": json.loads(frames[i + 5])}

    def close(self):
        self.shell.close()
        self.iopub.close()
        self.ctx.term()


@pytest.fixture(scope="module")
def logged_kernel():
    """A kernel of its own whose log (its stderr) the tests read."""
    log = tempfile.NamedTemporaryFile(prefix="kiln-kernel-log-", suffix=".txt", delete=False)
    km, kc = start_kernel(stderr=log)
    raw = RawClient(km.get_connection_info())
    yield km, kc, raw, log.name
    raw.close()
    kc.stop_channels()
    km.shutdown_kernel()
    log.close()
    os.unlink(log.name)


def log_text(path):
    time.sleep(0.2)
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def assert_still_works(raw):
    msg_id, frames = raw.frames("execute_request", {"code": "6 * 7", "silent": False})
    raw.send(frames)
    r = raw.reply()
    assert r is not None and r["parent"]["msg_id"] == msg_id
    assert r["content"]["status"] == "ok"


def test_bad_signature_is_dropped_and_logged(logged_kernel):
    km, kc, raw, log = logged_kernel
    _, frames = raw.frames("kernel_info_request", {})
    frames[1] = b"0" * 64
    raw.send(frames)
    assert raw.reply(timeout=1) is None
    assert "bad signature" in log_text(log)
    assert_still_works(raw)


def test_missing_signature_is_dropped_and_logged(logged_kernel):
    km, kc, raw, log = logged_kernel
    _, frames = raw.frames("kernel_info_request", {})
    frames[1] = b""
    raw.send(frames)
    assert raw.reply(timeout=1) is None
    assert "missing signature" in log_text(log)
    assert_still_works(raw)


def test_replayed_message_is_rejected(logged_kernel):
    km, kc, raw, log = logged_kernel
    _, frames = raw.frames("kernel_info_request", {})
    raw.send(frames)
    assert raw.reply()["header"]["msg_type"] == "kernel_info_reply"
    raw.send(frames)
    assert raw.reply(timeout=1) is None
    assert "replayed signature" in log_text(log)
    assert_still_works(raw)


def test_frames_out_of_order_are_dropped(logged_kernel):
    km, kc, raw, log = logged_kernel
    _, frames = raw.frames("kernel_info_request", {})
    raw.send([frames[0], frames[2], frames[1]] + frames[3:])  # header before signature
    raw.send(frames[1:])                                      # no delimiter
    raw.send(frames[:4])                                      # too few frames
    assert raw.reply(timeout=1) is None
    text = log_text(log)
    assert "no <IDS|MSG> delimiter" in text and "fewer than the five" in text
    assert_still_works(raw)


def test_invalid_json_content_is_dropped(logged_kernel):
    km, kc, raw, log = logged_kernel
    _, frames = raw.frames("execute_request", b"{not json")
    raw.send(frames)
    assert raw.reply(timeout=1) is None
    assert "content is not one valid JSON object" in log_text(log)
    assert_still_works(raw)


def test_invalid_json_header_is_dropped(logged_kernel):
    km, kc, raw, log = logged_kernel
    parts = [b"{broken", b"{}", b"{}", b"{}"]
    raw.send([b"<IDS|MSG>", raw.sign(*parts)] + parts)
    assert raw.reply(timeout=1) is None
    assert "header is not one valid JSON object" in log_text(log)
    assert_still_works(raw)


@pytest.mark.parametrize("frame,name", [(0, "header"), (1, "parent_header"), (2, "metadata"),
                                        (3, "content")])
@pytest.mark.parametrize("tail", [b"GARBAGE", b' {"x": 1}', b"\x00GARBAGE", b"]"],
                         ids=["text", "second-object", "nul", "bracket"])
def test_a_frame_with_bytes_after_its_object_is_dropped(logged_kernel, frame, name, tail):
    km, kc, raw, log = logged_kernel
    header = {"msg_id": uuid.uuid4().hex, "msg_type": "execute_request", "session": raw.session,
              "username": "test", "date": "2026-01-01T00:00:00Z", "version": "5.3"}
    parts = [json.dumps(header).encode(), b"{}", b"{}",
             json.dumps({"code": "dropped = True", "silent": False}).encode()]
    parts[frame] += tail
    raw.send([b"<IDS|MSG>", raw.sign(*parts)] + parts)
    assert raw.reply(timeout=1) is None
    assert f"{name} is not one valid JSON object" in log_text(log)
    assert_still_works(raw)
    # it never ran, and nothing on iopub carries it as a parent
    reply, msgs = run(kc, "'dropped' in globals()")
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "False"
    published = raw.published()
    assert published and not [f for m in published for f in m if tail in f]


def test_missing_header_fields(logged_kernel):
    km, kc, raw, log = logged_kernel
    _, frames = raw.frames("kernel_info_request", {}, drop=("msg_type",))
    raw.send(frames)
    assert raw.reply(timeout=1) is None
    assert "header has no msg_type" in log_text(log)
    # without a msg_id (or session, date...) the request is still answered
    _, frames = raw.frames("kernel_info_request", {}, drop=("msg_id", "session", "date"))
    raw.send(frames)
    assert raw.reply()["header"]["msg_type"] == "kernel_info_reply"
    # a request missing a required content field gets an error reply
    _, frames = raw.frames("execute_request", {"silent": False})
    raw.send(frames)
    r = raw.reply()
    assert r["header"]["msg_type"] == "execute_reply"
    assert r["content"]["status"] == "error" and r["content"]["ename"] == "KeyError"
    assert_still_works(raw)


def test_unknown_message_type_gets_an_error_reply(logged_kernel):
    km, kc, raw, log = logged_kernel
    _, frames = raw.frames("teleport_request", {})
    raw.send(frames)
    r = raw.reply()
    assert r["header"]["msg_type"] == "teleport_reply"
    assert r["content"]["status"] == "error" and r["content"]["ename"] == "UnknownMessageType"
    _, frames = raw.frames('evil","msg_type":"x_request', {})  # no JSON injection via a reply type
    raw.send(frames)
    assert raw.reply(timeout=1) is None
    _, frames = raw.frames("not_a_request_at_all", {})
    raw.send(frames)
    assert raw.reply(timeout=1) is None
    assert "unknown message type 'not_a_request_at_all'" in log_text(log)
    assert_still_works(raw)


def test_huge_message_is_handled(logged_kernel):
    km, kc, raw, log = logged_kernel
    payload = "x" * (64 << 20)
    _, frames = raw.frames("execute_request", {"code": f"big = {payload!r}\nlen(big)", "silent": True})
    raw.send(frames)
    r = raw.reply(timeout=60)
    assert r["content"]["status"] == "ok"
    reply, msgs = run(kc, "len(big)")
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == str(64 << 20)
    run(kc, "del big")


def test_comm_message_for_an_unknown_comm(logged_kernel):
    km, kc, raw, log = logged_kernel
    _, frames = raw.frames("comm_msg", {"comm_id": "no-such-comm", "data": {}})
    raw.send(frames)
    _, frames = raw.frames("comm_close", {"comm_id": "no-such-comm", "data": {}})
    raw.send(frames)
    assert raw.reply(timeout=1) is None  # comm messages have no reply
    assert "comm_msg for unknown comm 'no-such-comm'" in log_text(log)
    assert_still_works(raw)
