"""Compiles done in worker processes, told back to the process that sent
them the functions, so that a notebook's footer shows what its pool or Dask
cluster compiled.

The sender makes a folder of its own (private to its user, removed at exit)
and names it in every function it pickles by value (pickling.py). A process
that unpickles such a function and is not its sender writes its compile
records there, one JSON line each, in a file named by its pid, after each
compile. The sender reads the lines it has not read yet when a cell ends.
A worker on another machine has no such folder and tells nothing: the
footer then shows only what compiled here."""
import json
import os

import _kiln

_own = None        # (pid, folder) of the folder this process's workers write into
_target = None     # the sender's folder this process writes into, as a worker
_sent = 0          # compile records of this process already written there
_read_at = {}      # file in _own's folder -> bytes already read


def folder():
    """The folder this process's workers tell their compiles in (made on first use)."""
    global _own
    if _own is None or _own[0] != os.getpid():   # a forked child makes its own
        import atexit, shutil, tempfile   # only a process that sends functions needs them
        path = tempfile.mkdtemp(prefix="kiln-worker-compiles-")
        atexit.register(shutil.rmtree, path, ignore_errors=True)
        _own = (os.getpid(), path)
    return _own[1]


def adopt(sender_folder):
    """Called where a pickled function arrives: from now on this process,
    a worker of sender_folder's process, tells its compiles there."""
    global _target, _sent
    own = _own[1] if _own is not None and _own[0] == os.getpid() else None
    if sender_folder is None or sender_folder == own or sender_folder == _target:
        return
    if os.path.isdir(sender_folder):
        _target = sender_folder
        _sent = len(_kiln.profiler_compiles())   # what compiled before is not the sender's work


def tell():
    """Writes this worker's compile records made since the last call."""
    global _sent
    if _target is None:
        return
    records = _kiln.profiler_compiles(_sent)
    if not records:
        return
    _sent += len(records)
    lines = "".join(json.dumps(dict(r, pid=os.getpid())) + "\n" for r in records)
    try:
        with open(os.path.join(_target, f"{os.getpid()}.jsonl"), "a") as fh:
            fh.write(lines)
    except OSError:
        pass   # the sender has exited: nobody is left to tell


def collect():
    """The compile records this process's workers wrote since the last call,
    each a dict of profiler_compiles() with the worker's pid."""
    if _own is None or _own[0] != os.getpid():
        return []
    out = []
    for name in sorted(os.listdir(_own[1])):
        path = os.path.join(_own[1], name)
        with open(path, "rb") as fh:
            fh.seek(_read_at.get(path, 0))
            data = fh.read()
        complete = data[:data.rfind(b"\n") + 1]   # a line being written is read next time
        _read_at[path] = _read_at.get(path, 0) + len(complete)
        out.extend(json.loads(line) for line in complete.splitlines())
    return out
