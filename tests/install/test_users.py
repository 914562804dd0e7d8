"""Several users on one machine, as a JupyterHub has them: two users created here
(not root, unable to read the checkout's build) run notebooks at the same time
through the system-wide "kiln" kernelspec; each one's cache=True entries are
their own; and in a cache directory they share, neither links the other's
machine code. Needs root (to create the users), as CI and scripts/test.sh run."""
import json
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
import uuid

import pytest

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("useradd"),
                                reason="creating users needs root and useradd")

NOTEBOOK_RUNNER = """\
import json, sys
import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

nb = new_notebook(cells=[
    new_code_cell("import kiln, numpy as np\\n"
                  "@kiln.njit(cache=True)\\n"
                  "def scaled_sum(a, k):\\n"
                  "    s = 0.0\\n"
                  "    for x in a:\\n"
                  "        s += k * x\\n"
                  "    return s\\n"
                  "scaled_sum(np.arange(1000.0), " + sys.argv[1] + ")"),
    new_code_cell("import getpass, kiln.cache\\nprint(getpass.getuser(), kiln.cache.cache_dir())"),
])
NotebookClient(nb, kernel_name="kiln", timeout=300).execute()
print(json.dumps([[o.get("text") or o.get("data", {}).get("text/plain") for o in c.outputs] for c in nb.cells]))
"""

CACHE_PROBE = """\
import json
import numpy as np
import _kiln, kiln

@kiln.njit(cache=True)
def shared_probe(a):
    return a.sum() * 2.0

value = shared_probe(np.ones(8))
records = [r for r in _kiln.profiler_compiles() if r["function"] == "shared_probe"]
print(json.dumps({"value": value, "compiled": sum(not r["from_cache"] for r in records),
                  "loaded": sum(bool(r["from_cache"]) for r in records)}))
"""


@pytest.fixture
def users():
    names = [f"kiln{uuid.uuid4().hex[:8]}" for _ in range(2)]
    try:
        for name in names:
            subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", name], check=True)
        yield names
    finally:
        for name in names:
            subprocess.run(["userdel", "--remove", name], capture_output=True)


def as_user(name, argv, extra_env=None, cwd=None):
    home = pwd.getpwnam(name).pw_dir
    env = ["HOME=" + home, "USER=" + name, "PATH=/usr/local/bin:/usr/bin:/bin"]
    env += [f"{k}={v}" for k, v in (extra_env or {}).items()]
    return subprocess.Popen(["runuser", "-u", name, "--", "env", "-i", *env, *argv], cwd=cwd or home,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc, timeout=600):
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture
def scripts():
    """A folder every user can read, for the scripts they run."""
    folder = tempfile.mkdtemp(prefix="kiln-users-")
    os.chmod(folder, 0o755)
    for name, text in (("run_notebook.py", NOTEBOOK_RUNNER), ("cache_probe.py", CACHE_PROBE)):
        path = os.path.join(folder, name)
        with open(path, "w") as fh:
            fh.write(text)
        os.chmod(path, 0o644)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_two_users_run_notebooks_at_once_through_the_system_kernelspec(users, scripts):
    running = [as_user(name, ["/usr/bin/python3", os.path.join(scripts, "run_notebook.py"), str(k)])
               for k, name in enumerate(users, start=2)]
    results = [finish(proc) for proc in running]
    for k, (name, (first, second)) in enumerate(zip(users, results), start=2):
        assert first[0] == repr(float(k * 499500)), first
        assert first[1].startswith("kiln: compiled scaled_sum(array(float64, 1d, C), int64) in "), first
        user, cache = second[0].split()
        home = pwd.getpwnam(name).pw_dir
        assert user == name and cache == os.path.join(home, ".cache", "kiln")
        st = os.stat(cache)
        assert st.st_uid == pwd.getpwnam(name).pw_uid and stat.S_IMODE(st.st_mode) == 0o700
        entries = [os.path.join(cache, f) for f in os.listdir(cache) if f.startswith("scaled_sum")]
        assert entries and all(os.stat(e).st_uid == pwd.getpwnam(name).pw_uid for e in entries)
        assert all(not os.stat(e).st_mode & 0o077 for e in entries)


def test_an_entry_another_user_wrote_is_never_linked(users, scripts):
    shared = tempfile.mkdtemp(prefix="kiln-shared-cache-")
    os.chmod(shared, 0o1777)   # like /tmp: anyone may write, no one may replace another's file
    try:
        probe = ["/usr/bin/python3", os.path.join(scripts, "cache_probe.py")]
        env = {"KILN_CACHE_DIR": shared}
        first = finish(as_user(users[0], probe, env, cwd=scripts))
        again = finish(as_user(users[0], probe, env, cwd=scripts))
        for entry in os.listdir(shared):    # the writer lets everyone read them
            os.chmod(os.path.join(shared, entry), 0o644)
        other = finish(as_user(users[1], probe, env, cwd=scripts))
        assert first == {"value": 16.0, "compiled": 1, "loaded": 0}
        assert again == {"value": 16.0, "compiled": 0, "loaded": 1}   # its writer links the entry
        assert other == {"value": 16.0, "compiled": 1, "loaded": 0}   # another user compiles their own
    finally:
        shutil.rmtree(shared, ignore_errors=True)
