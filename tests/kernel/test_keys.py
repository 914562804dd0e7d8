"""The connection file's key and signature_scheme, as jupyter_client uses them: the key is bytes of
any length and content (a NUL too), any hmac-<hashlib name> scheme signs, and what the kernel cannot
honour stops it at start with a message. Each test starts its own kernel from a connection file
written here, and talks to it with a real jupyter_client."""
import json
import subprocess
import time

import pytest
import zmq
from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.connect import write_connection_file
from jupyter_client.session import Session

from conftest import KERNEL_EXE, TIMEOUT, of_type, run

SECRET = b"0f5e3a8c-2d7b-4c1e-9a6f-b84d2e7c1a90"


class OwnKernel:
    """A kiln-kernel started on a connection file, its log (stderr) in a file, and a client."""

    def __init__(self, tmp_path, key, scheme="hmac-sha256", text=None):
        self.conn, self.info = write_connection_file(str(tmp_path / "kernel.json"), key=key,
                                                     signature_scheme=scheme)
        if text is not None:  # the file as given; the client reads it as jupyter_client does
            with open(self.conn, "wb") as f:
                f.write(text)
            self.info = json.loads(text)
        self.log_path = tmp_path / "kernel-log.txt"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([KERNEL_EXE, "-f", self.conn], stderr=self.log,
                                     stdout=subprocess.DEVNULL)
        self.kc = BlockingKernelClient(connection_file=self.conn)
        self.kc.load_connection_file()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=TIMEOUT)

    def log_text(self):
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def wait_for_log(self, text, timeout=10):
        deadline = time.monotonic() + timeout
        while text not in self.log_text():
            assert time.monotonic() < deadline, f"{text!r} never logged:\n{self.log_text()}"
            time.sleep(0.05)

    def forge(self, key, code):
        """Sends an execute_request signed with `key` on a shell connection of its own; returns
        the reply it gets within 2 s, or None."""
        session = Session(key=key, signature_scheme=self.info["signature_scheme"])
        ctx = zmq.Context()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(f"tcp://{self.info['ip']}:{self.info['shell_port']}")
        try:
            session.send(sock, "execute_request", {"code": code, "silent": False})
            return sock.recv_multipart() if sock.poll(2000) else None
        finally:
            sock.close()
            ctx.term()

    def close(self):
        self.kc.stop_channels()
        self.proc.terminate()
        self.proc.wait(timeout=TIMEOUT)
        self.log.close()


@pytest.fixture
def own_kernel(tmp_path):
    kernels = []

    def start(key, scheme="hmac-sha256", text=None):
        kernels.append(OwnKernel(tmp_path, key, scheme, text))
        return kernels[-1]

    yield start
    for k in kernels:
        k.close()


def result(kc, code):
    reply, msgs = run(kc, code)
    assert reply["status"] == "ok", reply
    return of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"]


@pytest.mark.parametrize("key,forged_key", [(b"a\x00" + SECRET, b"a"), (b"\x00" + SECRET, b"")],
                         ids=["nul-inside", "nul-first"])
def test_a_key_holding_a_nul_signs_with_every_byte(own_kernel, tmp_path, key, forged_key):
    k = own_kernel(key)
    marker = tmp_path / "forged-code-ran"
    # signed with the key's bytes up to the NUL (none at all for the second key)
    assert k.forge(forged_key, f"open({str(marker)!r}, 'w').close()") is None
    k.wait_for_log("bad signature" if forged_key else "missing signature")
    assert not marker.exists()
    # the client holding the whole key is served
    assert result(k.kc, f"import os; os.path.exists({str(marker)!r}), 6 * 7") == "(False, 42)"


def test_a_600_character_key(own_kernel):
    k = own_kernel((SECRET * 17)[:600])
    assert result(k.kc, "6 * 7") == "42"
    assert k.forge(SECRET, "6 * 7") is None  # a prefix of it is not the key


@pytest.mark.parametrize("name", ["sha512", "sha384", "sha1", "md5", "sha3_256", "blake2b"])
def test_any_hashlib_scheme_signs_both_ways(own_kernel, name):
    # the client rejects a reply whose signature is not its scheme's: a reply proves both ways
    k = own_kernel(SECRET, f"hmac-{name}")
    assert result(k.kc, "6 * 7") == "42"
    assert k.forge(SECRET[:-1], "6 * 7") is None


def test_an_empty_key_means_no_signing_and_says_so(own_kernel):
    k = own_kernel(b"")
    assert "messages are neither signed nor checked" in k.log_text()
    assert result(k.kc, "6 * 7") == "42"


def start_failure(tmp_path, text):
    path = tmp_path / "kernel.json"
    path.write_bytes(text)
    r = subprocess.run([KERNEL_EXE, "-f", str(path)], capture_output=True, text=True,
                       timeout=TIMEOUT)
    assert r.returncode != 0
    return r.stderr


@pytest.mark.parametrize("scheme", ["hmac-sha257", "hmac-shake_128", "sha256", "hmac-"])
def test_an_unknown_scheme_stops_the_kernel_at_start(tmp_path, scheme):
    conn, _ = write_connection_file(str(tmp_path / "ports.json"), key=SECRET)
    text = open(conn, "rb").read().replace(b'"hmac-sha256"', f'"{scheme}"'.encode())
    err = start_failure(tmp_path, text)
    assert f'unsupported signature_scheme "{scheme}"' in err, err


def connection_text(tmp_path, key_json):
    """A valid connection file's text whose key is the JSON text key_json."""
    conn, _ = write_connection_file(str(tmp_path / "ports.json"), key=SECRET)
    text = open(conn, "rb").read()
    assert b'"' + SECRET + b'"' in text
    return text.replace(b'"' + SECRET + b'"', key_json)


@pytest.mark.parametrize("key_json,message", [
    # the client's key.encode() fails on a lone surrogate too
    (b'"\\ud800abc"', "is not one valid JSON object"),
    (b"12", '"key" must be a string'),
    (b'"abc" trailing', "is not one valid JSON object"),
    (b'"abc"}} ', "is not one valid JSON object"),
], ids=["lone-surrogate", "not-a-string", "trailing-text", "text-after-the-object"])
def test_a_malformed_connection_file_stops_the_kernel_at_start(tmp_path, key_json, message):
    err = start_failure(tmp_path, connection_text(tmp_path, key_json))
    assert message in err, err


def test_an_escaped_key_is_decoded_as_python_decodes_it(own_kernel, tmp_path):
    key_json = b'"tab\\t \\"q\\" \\u00e9\\ud83d\\ude00\\/\\\\ caf\xc3\xa9 \\u0000"'
    text = connection_text(tmp_path, key_json)
    # members named "key" inside other values are not the key
    text = text.replace(b"{", b'{"extra": {"key": "decoy", "l": [1, "key", {"key": 2}]}, ', 1)
    k = own_kernel(b"", text=text)
    assert k.kc.session.key == json.loads(key_json).encode()
    assert result(k.kc, "6 * 7") == "42"
    assert k.forge(b"decoy", "6 * 7") is None
