"""Comms as ipywidgets-style libraries use them: targets registered in the kernel, comms opened
from either side, messages both ways, comm_info, close."""
from conftest import collect, of_type, run, shell_reply

TARGET = """
import comm
log = []
def on_open(c, msg):
    log.append(('open', msg['content']['data']))
    c.send({'echo': msg['content']['data']})
    c.on_msg(lambda m: c.send({'got': m['content']['data']}))
    c.on_close(lambda m: log.append(('close', m['content']['data'])))
get_ipython().kernel.comm_manager.register_target('kiln-echo', on_open)
comm.get_comm_manager() is get_ipython().kernel.comm_manager
"""


def send(kc, msg_type, content):
    msg = kc.session.msg(msg_type, content)
    kc.shell_channel.send(msg)
    return collect(kc, msg["header"]["msg_id"])


def test_frontend_opened_comm_round_trip(kc):
    reply, msgs = run(kc, TARGET)
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "True"
    msgs = send(kc, "comm_open", {"comm_id": "c1", "target_name": "kiln-echo", "data": {"x": 1}})
    echo = of_type(msgs, "comm_msg")
    assert echo and echo[0]["content"] == {"comm_id": "c1", "data": {"echo": {"x": 1}}}
    info = shell_reply(kc, kc.comm_info(target_name="kiln-echo"))["content"]
    assert info["status"] == "ok" and info["comms"] == {"c1": {"target_name": "kiln-echo"}}
    msgs = send(kc, "comm_msg", {"comm_id": "c1", "data": {"y": 2}})
    assert of_type(msgs, "comm_msg")[0]["content"]["data"] == {"got": {"y": 2}}
    send(kc, "comm_close", {"comm_id": "c1", "data": {"bye": True}})
    _, msgs = run(kc, "log")
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == \
        "[('open', {'x': 1}), ('close', {'bye': True})]"
    assert shell_reply(kc, kc.comm_info())["content"]["comms"] == {}


def test_comm_open_to_an_unknown_target_is_closed(kc):
    msgs = send(kc, "comm_open", {"comm_id": "c2", "target_name": "nobody", "data": {}})
    assert of_type(msgs, "comm_close")[0]["content"]["comm_id"] == "c2"


def test_kernel_opened_comm(kc):
    code = ("from comm import create_comm\n"
            "k = create_comm(target_name='kiln-front', data={'hello': 1})\n"
            "k.send({'n': 2})\n"
            "k.close()")
    reply, msgs = run(kc, code)
    assert reply["status"] == "ok"
    opened = of_type(msgs, "comm_open")[0]["content"]
    assert opened["target_name"] == "kiln-front" and opened["data"] == {"hello": 1}
    assert of_type(msgs, "comm_msg")[0]["content"]["data"] == {"n": 2}
    assert of_type(msgs, "comm_close")[0]["content"]["comm_id"] == opened["comm_id"]
    _, msgs = run(kc, "k.kernel is get_ipython().kernel")  # widget libraries look for it
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "True"
