"""Install, start, shutdown and restart: the kernelspec, clean exits, no orphan processes,
ports free for the next kernel."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

import psutil
import zmq

from conftest import BUILD, KERNEL_EXE, of_type, run, start_kernel, stream_text


def test_install_writes_a_kernelspec_jupyter_lists():
    with tempfile.TemporaryDirectory() as prefix:
        subprocess.run([KERNEL_EXE, "install", "--prefix", prefix], check=True, capture_output=True)
        spec_dir = os.path.join(prefix, "share", "jupyter", "kernels", "kiln")
        with open(os.path.join(spec_dir, "kernel.json")) as f:
            spec = json.load(f)
        assert spec["argv"] == [os.path.realpath(KERNEL_EXE), "-f", "{connection_file}"]
        assert spec["display_name"] == "Python 3 (Kiln)"
        assert spec["language"] == "python" and spec["interrupt_mode"] == "signal"
        for logo in ("logo-32x32.png", "logo-64x64.png", "logo-svg.svg"):
            assert os.path.getsize(os.path.join(spec_dir, logo)) > 0
        env = dict(os.environ, JUPYTER_PATH=os.path.join(prefix, "share", "jupyter"))
        listing = subprocess.run(["jupyter", "kernelspec", "list", "--json"], env=env,
                                 check=True, capture_output=True, text=True).stdout
        assert json.loads(listing)["kernelspecs"]["kiln"]["resource_dir"] == spec_dir


def test_cells_run_in_debians_python3_and_import_from_the_working_directory():
    """The kernel runs in /usr/bin/python3 as ipykernel does (the interpreter plain Python's speed
    depends on), under the pid Jupyter started; a module beside the notebook imports."""
    with tempfile.TemporaryDirectory() as cwd:
        with open(os.path.join(cwd, "course_helpers.py"), "w") as f:
            f.write("ANSWER = 42\n")
        km, kc = start_kernel(cwd=cwd)
        try:
            reply, msgs = run(kc, "import os, sys, course_helpers\n"
                                  "print(os.path.realpath('/proc/self/exe'), os.getpid(), sys.executable)\n"
                                  "print(course_helpers.ANSWER, sys.argv[1])")
            assert reply["status"] == "ok", reply
            exe, pid, executable, answer, flag = stream_text(msgs).split()
            assert exe == os.path.realpath(sys.executable) == os.path.realpath(executable)
            assert int(pid) == km.provisioner.process.pid
            assert (answer, flag) == ("42", "-f")
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


def test_install_rejects_unknown_flags():
    r = subprocess.run([KERNEL_EXE, "install", "--everywhere"], capture_output=True, text=True)
    assert r.returncode == 2 and "usage: kiln-kernel install" in r.stderr


def test_sysinfo_runs_kiln_sysinfo():
    r = subprocess.run([KERNEL_EXE, "--sysinfo"], capture_output=True, text=True, timeout=120)
    built = any(n.startswith("_kiln") for n in os.listdir(os.path.join(BUILD, "python"))) \
        if os.path.isdir(os.path.join(BUILD, "python")) else False
    if built:
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip()
    else:  # a kernel-only build: the clear error, not a crash
        assert r.returncode == 2 and "kiln.sysinfo" in r.stderr


def _ports_free(info):
    """Whether the next kernel (ZeroMQ, which binds with SO_REUSEADDR) can bind every port."""
    ctx = zmq.Context()
    try:
        for key in ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"):
            s = ctx.socket(zmq.ROUTER)
            s.linger = 0
            try:
                s.bind(f"tcp://{info['ip']}:{info[key]}")
            except zmq.ZMQError:
                return False
            finally:
                s.close()
        return True
    finally:
        ctx.term()


def test_shutdown_is_clean_and_frees_the_ports():
    km, kc = start_kernel()
    pid = km.provisioner.process.pid
    info = km.get_connection_info()
    run(kc, "print('some work')")
    kc.stop_channels()
    t0 = time.monotonic()
    km.shutdown_kernel(now=False)
    assert time.monotonic() - t0 < 5  # it exited on request, not killed after the grace period
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert km.provisioner is None or km.provisioner.process is None or \
        km.provisioner.process.returncode == 0
    assert _ports_free(info)


def test_restart_gives_a_fresh_kernel_on_the_same_ports():
    km, kc = start_kernel()
    old_pid = km.provisioner.process.pid
    info = km.get_connection_info()
    run(kc, "survivor = 1")
    km.restart_kernel(now=False)
    kc.wait_for_ready(timeout=30)
    assert km.provisioner.process.pid != old_pid
    assert not psutil.pid_exists(old_pid) or psutil.Process(old_pid).status() == psutil.STATUS_ZOMBIE
    assert km.get_connection_info()["shell_port"] == info["shell_port"]
    reply, msgs = run(kc, "'survivor' in dir()")
    assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "False"
    kc.stop_channels()
    km.shutdown_kernel()


def test_shutdown_while_a_cell_runs():
    km, kc = start_kernel()
    kc.execute("while True: pass")
    time.sleep(0.3)
    kc.stop_channels()
    t0 = time.monotonic()
    km.shutdown_kernel(now=False)
    assert time.monotonic() - t0 < 5


def test_no_threads_or_children_left_behind_by_a_cell():
    km, kc = start_kernel()
    proc = psutil.Process(km.provisioner.process.pid)
    base = proc.num_threads()
    for _ in range(5):
        run(kc, "print('x'); !true")
    assert proc.num_threads() == base
    assert not [c for c in proc.children(recursive=True) if c.status() != psutil.STATUS_ZOMBIE]
    kc.stop_channels()
    km.shutdown_kernel()
    assert sys.executable  # the test process itself is untouched


def test_kernel_exits_when_its_parent_is_killed(tmp_path):
    """A kernel whose launcher (say, a killed notebook server) is gone must not live on."""
    from jupyter_client.connect import write_connection_file
    conn, _ = write_connection_file(str(tmp_path / "kernel.json"))
    launcher = subprocess.Popen(
        [sys.executable, "-c",
         "import subprocess, sys, time\n"
         f"p = subprocess.Popen([{KERNEL_EXE!r}, '-f', {conn!r}], stderr=subprocess.DEVNULL)\n"
         "print(p.pid, flush=True)\n"
         "time.sleep(60)\n"],
        stdout=subprocess.PIPE, text=True)
    kernel_pid = int(launcher.stdout.readline())
    time.sleep(1.0)
    assert psutil.pid_exists(kernel_pid)
    launcher.kill()
    launcher.wait()
    kernel = psutil.Process(kernel_pid)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and kernel.is_running() and kernel.status() != psutil.STATUS_ZOMBIE:
        time.sleep(0.1)
    assert not kernel.is_running() or kernel.status() == psutil.STATUS_ZOMBIE


def test_shutdown_does_not_wait_for_a_cells_non_daemon_thread():
    km, kc = start_kernel()
    with tempfile.TemporaryDirectory() as tmp:
        marker = os.path.join(tmp, "atexit-ran")
        run(kc, "import atexit, threading, time\n"
                f"atexit.register(lambda: open({marker!r}, 'w').close())\n"
                "threading.Thread(target=time.sleep, args=(100,), name='sleeper').start()")
        proc = km.provisioner.process
        kc.stop_channels()
        t0 = time.monotonic()
        km.shutdown_kernel(now=False)
        assert time.monotonic() - t0 < 5
        assert proc.returncode == 0  # it exited by itself, not killed
        assert os.path.exists(marker)  # and the cell's atexit handler still ran


def test_exit_in_a_cell_ends_the_kernel_after_its_reply():
    km, kc = start_kernel()
    proc = km.provisioner.process
    reply, _ = run(kc, "exit()")
    assert reply["status"] == "ok"
    assert reply["payload"] == [{"source": "ask_exit", "keepkernel": False}]
    proc.wait(timeout=10)
    assert proc.returncode == 0
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def test_processes_a_cell_left_running_are_stopped_at_shutdown():
    km, kc = start_kernel()
    # in sessions of their own: jupyter_client's SIGINT to the kernel's process group before
    # shutdown must not be what ends them
    reply, msgs = run(kc, "import subprocess\n"
                          "server = subprocess.Popen(['sleep', '100'], start_new_session=True)\n"
                          "stubborn = subprocess.Popen(['sh', '-c', 'trap \"\" TERM INT; sleep 100; true'],\n"
                          "                            start_new_session=True)\n"
                          "server.pid, stubborn.pid")
    pids = list(eval(of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"]))
    time.sleep(0.2)  # let sh start its sleep: a grandchild must be stopped too
    pids += [c.pid for c in psutil.Process(pids[1]).children(recursive=True)]
    assert len(pids) == 3 and all(psutil.pid_exists(p) for p in pids)
    kc.stop_channels()
    km.shutdown_kernel(now=False)
    for pid in pids:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_ipc_transport():
    from jupyter_client.manager import KernelManager
    with tempfile.TemporaryDirectory() as tmp:
        km = KernelManager(kernel_name="kiln", transport="ipc", ip=os.path.join(tmp, "kiln"))
        km.start_kernel()
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=30)
            reply, msgs = run(kc, "6 * 7")
            assert of_type(msgs, "execute_result")[0]["content"]["data"]["text/plain"] == "42"
        finally:
            kc.stop_channels()
            km.shutdown_kernel()


def test_bad_connection_files_are_clear_errors(tmp_path):
    missing = subprocess.run([KERNEL_EXE, "-f", str(tmp_path / "none.json")], capture_output=True, text=True)
    assert missing.returncode == 1 and "cannot open connection file" in missing.stderr
    partial = tmp_path / "partial.json"
    partial.write_text('{"ip": "127.0.0.1", "key": "k"}')
    r = subprocess.run([KERNEL_EXE, "-f", str(partial)], capture_output=True, text=True)
    assert r.returncode == 1 and '"shell_port" must be a port number' in r.stderr
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    taken = tmp_path / "taken.json"
    taken.write_text(json.dumps({"ip": "127.0.0.1", "transport": "tcp", "key": "k",
                                 "signature_scheme": "hmac-sha256", "shell_port": port,
                                 "iopub_port": 0, "stdin_port": 0, "control_port": 0, "hb_port": 0}))
    try:
        r = subprocess.run([KERNEL_EXE, "-f", str(taken)], capture_output=True, text=True, timeout=30)
    finally:
        busy.close()
    assert r.returncode == 1 and f"cannot bind tcp://127.0.0.1:{port}" in r.stderr
