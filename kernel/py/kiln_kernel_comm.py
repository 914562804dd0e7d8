"""Comms for the Kiln kernel: the kernel side of comm_open / comm_msg / comm_close, so that
widget-style libraries can talk to their frontend half.

A target is registered with ``get_ipython().kernel.comm_manager.register_target(name, fn)``;
``fn(comm, open_msg)`` is called when the frontend opens a comm to it. Kernel-opened comms are
``Comm(target_name, data=...)`` (also reachable as ``create_comm``)."""
import traceback
import uuid

import _kiln_kernel
from kiln_kernel_json import dumps


kernel = None  # the shell's `kernel` namespace, set at start-up; widget libraries check comm.kernel


def _publish(msg_type, content, metadata=None, buffers=None):
    _kiln_kernel.publish(msg_type, dumps(content), dumps(metadata or {}), buffers)


class Comm:
    """One end of a comm; messages from the frontend reach the on_msg callback."""

    def __init__(self, target_name="", data=None, metadata=None, buffers=None, comm_id=None,
                 primary=True, target_module=None, **_ignored):
        self.comm_id = comm_id or uuid.uuid4().hex
        self.target_name = target_name
        self.target_module = target_module
        self.primary = primary
        self.kernel = kernel
        self._msg_callback = None
        self._close_callback = None
        self._closed = True
        if primary:
            self.open(data, metadata, buffers)
        else:
            self._closed = False
            manager.register_comm(self)

    def open(self, data=None, metadata=None, buffers=None):
        manager.register_comm(self)
        content = {"comm_id": self.comm_id, "target_name": self.target_name, "data": data or {}}
        if self.target_module:
            content["target_module"] = self.target_module
        _publish("comm_open", content, metadata, buffers)
        self._closed = False

    def send(self, data=None, metadata=None, buffers=None):
        if self._closed:
            raise ValueError(f"comm {self.comm_id} is closed")
        _publish("comm_msg", {"comm_id": self.comm_id, "data": data or {}}, metadata, buffers)

    def close(self, data=None, metadata=None, buffers=None, deleting=False):
        if self._closed:
            return
        self._closed = True
        if not deleting:
            _publish("comm_close", {"comm_id": self.comm_id, "data": data or {}}, metadata, buffers)
        manager.unregister_comm(self)

    def on_msg(self, callback):
        self._msg_callback = callback

    def on_close(self, callback):
        self._close_callback = callback

    def handle_msg(self, msg):
        if self._msg_callback:
            self._msg_callback(msg)

    def handle_close(self, msg):
        self._closed = True
        if self._close_callback:
            self._close_callback(msg)


class CommManager:
    def __init__(self):
        self.targets = {}
        self.comms = {}

    def register_target(self, target_name, callback):
        self.targets[target_name] = callback

    def unregister_target(self, target_name, callback=None):
        return self.targets.pop(target_name, None)

    def register_comm(self, comm):
        self.comms[comm.comm_id] = comm
        return comm.comm_id

    def unregister_comm(self, comm):
        self.comms.pop(comm.comm_id, None)

    def get_comm(self, comm_id):
        return self.comms.get(comm_id)

    # -- the frontend's messages; none of them has a reply --

    def comm_open(self, msg):
        content = msg["content"]
        comm_id, target = content["comm_id"], content.get("target_name", "")
        callback = self.targets.get(target)
        comm = Comm(target, comm_id=comm_id, primary=False)
        if callback is None:
            _kiln_kernel.log(f"comm_open for unknown target {target!r}; closing comm {comm_id}")
            comm.close()
            return
        try:
            callback(comm, msg)
        except Exception:
            _kiln_kernel.log(f"comm target {target!r} failed:\n{traceback.format_exc()}")
            comm.close()

    def comm_msg(self, msg):
        self._deliver(msg, "handle_msg")

    def comm_close(self, msg):
        comm = self._deliver(msg, "handle_close")
        if comm is not None:
            self.unregister_comm(comm)

    def _deliver(self, msg, method):
        comm_id = msg["content"].get("comm_id")
        comm = self.comms.get(comm_id)
        if comm is None:
            _kiln_kernel.log(f"{msg['header'].get('msg_type')} for unknown comm {comm_id!r}; ignored")
            return None
        try:
            getattr(comm, method)(msg)
        except Exception:
            _kiln_kernel.log(f"comm {comm_id} failed in {method}:\n{traceback.format_exc()}")
        return comm

    def comm_info(self, target_name=None):
        return {cid: {"target_name": c.target_name} for cid, c in self.comms.items()
                if target_name is None or c.target_name == target_name}


manager = CommManager()


def create_comm(*args, **kwargs):
    return Comm(*args, **kwargs)


def get_comm_manager():
    return manager
