"""Kiln's version, the same wherever it is asked: `kiln-kernel --version`,
`python3 -m kiln --version` and the kernel_info reply."""
import os
import subprocess
import sys

from conftest import BUILD, KERNEL_EXE, ROOT, needs_kiln, shell_reply, start_kernel


@needs_kiln
def test_every_way_of_asking_gives_one_version():
    exe = subprocess.run([KERNEL_EXE, "--version"], capture_output=True, text=True, timeout=60)
    assert exe.returncode == 0 and exe.stdout.startswith("kiln-kernel "), exe
    version = exe.stdout.split()[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "python"), os.path.join(BUILD, "python")]))
    mod = subprocess.run([sys.executable, "-m", "kiln", "--version"], capture_output=True, text=True, env=env, timeout=60)
    assert mod.returncode == 0 and mod.stdout == f"kiln {version}\n", mod
    km, kc = start_kernel()
    try:
        reply = shell_reply(kc, kc.kernel_info())
        assert reply["content"]["implementation_version"] == version
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
