"""The Python half of the Kiln kernel: IPython's InteractiveShell, driven by the C kernel.

The C side (kernel/*.c) owns the sockets, threads, signing, output capture and interrupts. For
each shell request it calls ``handle(msg_type, content_json, buffers, header_json)`` here, which
returns ``(reply_content_json or None, stop_queue)``. Outputs go back through the builtin
``_kiln_kernel`` module: ``publish`` (iopub, parented to the current request), ``input_request``
(the stdin channel), ``flush``, ``log``, ``request_shutdown`` and ``session``. Printed output
needs no messages here: fd 1 and fd 2 are pipes read by the C side, and sys.stdout/sys.stderr
are ``_kiln_kernel.FdWriter`` streams writing each line to them."""
import builtins
import getpass
import io
import json
import os
import sys
import traceback
import types

import _kiln_kernel
import kiln_kernel_comm
from kiln_kernel_comm import manager as comm_manager
from kiln_kernel_json import dumps

from IPython.core import page, payloadpage
from IPython.core.completer import provisionalcompleter, rectify_completions
from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.error import StdinNotImplementedError, UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.tokenutil import token_at_cursor

shell = None  # the KilnShell, once start() ran


class KilnDisplayHook(DisplayHook):
    """Cell results become execute_result messages."""

    def start_displayhook(self):
        self._content = {"data": {}, "metadata": {}}

    def write_output_prompt(self):
        self._content["execution_count"] = self.prompt_count

    def write_format_data(self, format_dict, md_dict=None):
        self._content["data"] = format_dict
        self._content["metadata"] = md_dict or {}

    def finish_displayhook(self):
        content, self._content = self._content, None
        if content["data"]:
            _kiln_kernel.publish("execute_result", dumps(content))


class KilnDisplayPublisher(DisplayPublisher):
    """display(), update_display() and clear_output() become iopub messages."""

    def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs):
        content = {"data": data, "metadata": metadata or {}, "transient": transient or {}}
        _kiln_kernel.publish("update_display_data" if update else "display_data", dumps(content))

    def clear_output(self, wait=False):
        _kiln_kernel.publish("clear_output", dumps({"wait": bool(wait)}))


class KilnShell(InteractiveShell):
    displayhook_class = KilnDisplayHook
    display_pub_class = KilnDisplayPublisher

    def init_environment(self):
        # no terminal: pagers in subprocesses would wait for a key that never comes
        os.environ["PAGER"] = "cat"
        os.environ["GIT_PAGER"] = "cat"
        os.environ.setdefault("CLICOLOR", "1")

    def init_hooks(self):
        super().init_hooks()
        # `obj?` and %page go to the frontend's pager as a payload of the execute_reply
        self.set_hook("show_in_pager", page.as_hook(payloadpage.page), 99)

    def enable_matplotlib(self, gui=None):
        # a bare %matplotlib means the kernel's own backend (IPython would pick matplotlibrc's,
        # TkAgg on Debian, which cannot run here)
        return super().enable_matplotlib("inline" if gui in (None, "auto") else gui)

    def enable_gui(self, gui=None):
        if gui not in (None, "inline"):
            raise UsageError(f"the Kiln kernel has no {gui!r} event loop; use %matplotlib inline")

    def _showtraceback(self, etype, evalue, stb):
        content = {"ename": etype.__name__, "evalue": str(evalue), "traceback": stb}
        _kiln_kernel.publish("error", dumps(content))
        self._last_traceback = stb

    def set_next_input(self, text, replace=False):
        self.payload_manager.write_payload({"source": "set_next_input", "text": text, "replace": replace})

    def ask_exit(self):
        # as with ipykernel, exit() ends the kernel process (its manager may restart it) and the
        # payload tells the frontend why
        self.payload_manager.write_payload({"source": "ask_exit", "keepkernel": False})
        _kiln_kernel.request_shutdown()


def _kiln_input(prompt=""):
    return _kiln_kernel.input_request(str(prompt), False)


def _kiln_getpass(prompt="Password: ", stream=None):
    return _kiln_kernel.input_request(str(prompt), True)


def _no_input(*args, **kwargs):
    raise StdinNotImplementedError(
        "input was requested, but this frontend does not support input requests (allow_stdin is false)")


def _error(ename, evalue, tb=()):
    return {"status": "error", "ename": ename, "evalue": evalue, "traceback": list(tb)}


# ---- request handlers: content dict -> reply content dict (None: no reply) ----

def _execute(content, msg):
    code = content["code"]
    silent = bool(content.get("silent", False))
    store_history = bool(content.get("store_history", not silent)) and not silent
    if not silent:
        _kiln_kernel.publish("execute_input", dumps({"code": code, "execution_count": shell.execution_count}))
    shell._last_traceback = None
    reading = (_kiln_input, _kiln_getpass) if content.get("allow_stdin", True) else (_no_input, _no_input)
    saved = builtins.input, getpass.getpass
    builtins.input, getpass.getpass = reading
    try:
        result = shell.run_cell(code, store_history=store_history, silent=silent)
        err = result.error_before_exec or result.error_in_exec
        success = result.success
    except KeyboardInterrupt as e:  # an interrupt outside run_code, e.g. in a post_execute hook
        shell.showtraceback()
        err, success = e, False
    finally:
        builtins.input, getpass.getpass = saved
    if success:
        reply = {"status": "ok", "user_expressions": shell.user_expressions(content.get("user_expressions") or {})}
    else:
        reply = _error(type(err).__name__, str(err), shell._last_traceback or [])
        reply["user_expressions"] = {}
    # the count of the last cell that stored history, as ipykernel answers
    reply["execution_count"] = shell.execution_count - 1
    reply["payload"] = shell.payload_manager.read_payload()
    shell.payload_manager.clear_payload()
    # a silent request's failure does not abort the queue (ipykernel's rule)
    return reply, (not success) and not silent and bool(content.get("stop_on_error", True))


def _complete(content, msg):
    code = content["code"]
    pos = content.get("cursor_pos")
    pos = len(code) if pos is None else int(pos)
    with provisionalcompleter():
        found = list(rectify_completions(code, shell.Completer.completions(code, pos)))
    start = found[0].start if found else pos
    end = found[0].end if found else pos
    types_ = [{"start": c.start, "end": c.end, "text": c.text, "type": c.type,
               "signature": c.signature} for c in found]
    return {"status": "ok", "matches": [c.text for c in found], "cursor_start": start,
            "cursor_end": end, "metadata": {"_jupyter_types_experimental": types_}}


def _inspect(content, msg):
    code = content["code"]
    pos = content.get("cursor_pos")
    name = token_at_cursor(code, len(code) if pos is None else int(pos))
    try:
        data = shell.object_inspect_mime(name, detail_level=int(content.get("detail_level", 0)))
        found = True
    except KeyError:
        data, found = {}, False
    if not shell.enable_html_pager:
        data.pop("text/html", None)
    return {"status": "ok", "found": found, "data": data, "metadata": {}}


def _is_complete(content, msg):
    status, indent = shell.input_transformer_manager.check_complete(content["code"])
    reply = {"status": status}
    if status == "incomplete":
        reply["indent"] = " " * (indent or 0)
    return reply


def _history(content, msg):
    hm = shell.history_manager
    kind = content.get("hist_access_type", "tail")
    raw, output = bool(content.get("raw", True)), bool(content.get("output", False))
    if kind == "tail":
        rows = hm.get_tail(int(content.get("n", 10)), raw=raw, output=output, include_latest=True)
    elif kind == "range":
        rows = hm.get_range(int(content.get("session", 0)), int(content.get("start", 1)),
                            content.get("stop"), raw=raw, output=output)
    elif kind == "search":
        n = content.get("n")
        rows = hm.search(content.get("pattern", "*"), raw=raw, output=output,
                         n=None if n is None else int(n), unique=bool(content.get("unique", False)))
    else:
        return _error("ValueError", f"unknown hist_access_type {kind!r} (tail, range or search)")
    # IPython numbers the running session 0 in some answers and by its number in others;
    # clients compare with what an earlier reply said, so always use the number
    return {"status": "ok", "history": [[row[0] or hm.session_number, *row[1:]] for row in rows]}


def _comm_info(content, msg):
    return {"status": "ok", "comms": comm_manager.comm_info(content.get("target_name"))}


def _comm(method):
    def handler(content, msg):
        getattr(comm_manager, method)(msg)
        return None
    return handler


_HANDLERS = {
    "execute_request": _execute,
    "complete_request": _complete,
    "inspect_request": _inspect,
    "is_complete_request": _is_complete,
    "history_request": _history,
    "comm_info_request": _comm_info,
    "comm_open": _comm("comm_open"),
    "comm_msg": _comm("comm_msg"),
    "comm_close": _comm("comm_close"),
}


def handle(msg_type, content_json, buffers, header_json):
    """One shell request -> (reply content JSON or None, whether to abort the queue)."""
    try:
        content = json.loads(content_json)
        if not isinstance(content, dict):
            raise ValueError("not a JSON object")
    except ValueError as e:
        _kiln_kernel.log(f"{msg_type}: invalid content: {e}")
        return dumps(_error("ValueError", f"the message content is not a JSON object: {e}")), False
    handler = _HANDLERS.get(msg_type)
    if handler is None:
        _kiln_kernel.log(f"unknown message type {msg_type!r}")
        return dumps(_error("UnknownMessageType", f"the Kiln kernel does not handle {msg_type}")), False
    msg = {"header": json.loads(header_json), "content": content, "metadata": {}, "buffers": buffers}
    try:
        reply = handler(content, msg)
    except BaseException as e:  # a bad field, or an interrupt while completing: answer, keep going
        _kiln_kernel.log(f"{msg_type} failed:\n{traceback.format_exc()}")
        reply = _error(type(e).__name__, str(e), traceback.format_exception(e))
        if msg_type == "execute_request":
            reply["execution_count"] = shell.execution_count
    stop = False
    if isinstance(reply, tuple):
        reply, stop = reply
    return (None if reply is None else dumps(reply)), stop


def _register_comm_implementation():
    """Libraries that open comms through the `comm` package (ipywidgets 8) get Kiln's comms."""
    try:
        import comm
    except ImportError:
        return
    comm.create_comm = kiln_kernel_comm.create_comm
    comm.get_comm_manager = kiln_kernel_comm.get_comm_manager


def _load_kiln_extension():
    if not _kiln_kernel.with_kiln:
        _kiln_kernel.log("kiln.ipython not loaded: this build of the kernel has no kiln extension")
        return
    try:
        import kiln.ipython  # noqa: F401  (imported here so a failure is reported as such)
    except Exception as e:
        _kiln_kernel.log(f"kiln.ipython not loaded (import failed: {type(e).__name__}: {e})")
        return
    try:
        shell.extension_manager.load_extension("kiln.ipython")
    except BaseException:
        _kiln_kernel.log(f"kiln.ipython failed to load:\n{traceback.format_exc()}")


def start(connection_file):
    """Creates the shell; called once by the C kernel before it serves requests."""
    global shell
    # fd 1 and 2 are pipes now: write each line at once, so prints interleave with C output
    # and arrive live (FdWriter does what a line-buffered TextIOWrapper does, faster)
    io.TextIOBase.register(_kiln_kernel.FdWriter)  # isinstance checks see a text stream
    sys.stdout = _kiln_kernel.FdWriter(1, sys.stdout)
    sys.stderr = _kiln_kernel.FdWriter(2, sys.stderr)
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    shell = KilnShell.instance()
    shell.kernel = types.SimpleNamespace(comm_manager=comm_manager, session=_kiln_kernel.session(),
                                         connection_file=connection_file)
    kiln_kernel_comm.kernel = shell.kernel
    # libraries (tqdm.auto, plotting packages) tell a notebook kernel from a terminal this way
    shell.config.IPKernelApp.connection_file = connection_file
    _register_comm_implementation()
    _load_kiln_extension()


def shutdown():
    """Ends the IPython session (history is written). Returns whether the interpreter may be
    finalized. Finalizing waits for the non-daemon threads a cell left running, so a kernel asked
    to stop would hang until killed: they are treated as daemon threads instead (CPython 3.11 and
    3.12 keep the locks it waits on in threading._shutdown_locks); where that is not possible,
    the atexit handlers run here and the interpreter is left unfinalized."""
    import atexit
    import threading
    if shell is not None:
        history = shell.history_manager
        shell.atexit_operations()  # ends the history session (and drops the manager)
        atexit.unregister(shell.atexit_operations)  # registered by IPython; a second run fails
        # closed here rather than left to finalization, which skips it while threads remain
        if history.save_thread is not None:
            history.save_thread.stop()
        if hasattr(history.db, "close"):  # a disabled history has a DummyDB
            history.db.close()
    lingering = [t.name for t in threading.enumerate()
                 if t is not threading.main_thread() and t.is_alive() and not t.daemon]
    if not lingering:
        return True
    _kiln_kernel.log(f"not waiting for non-daemon threads still running: {', '.join(lingering)}")
    locks = getattr(threading, "_shutdown_locks", None)
    locks_lock = getattr(threading, "_shutdown_locks_lock", None)
    if locks is not None and locks_lock is not None:
        with locks_lock:
            locks.clear()
        return True
    atexit._run_exitfuncs()
    return False
