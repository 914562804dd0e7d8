"""`kiln-kernel --sysinfo` and `python -m kiln.sysinfo`: the counterpart of
`numba -s` in a terminal, from the real executable."""
import os
import subprocess
import sys

import _kiln
import magics_notebook as mn


def check_report(text):
    host = _kiln.host_info()
    assert text.startswith("Kiln system information\n")
    for section in ("__Hardware__", "__Software__", "__Kiln__", "__CUDA__"):
        assert section in text
    assert mn.report_field(text, "CPU name (LLVM)") == host["cpu_name"]
    assert mn.report_field(text, "LLVM") == "%d.%d.%d" % tuple(host["llvm_version"])
    assert mn.report_field(text, "CPU count") == str(os.cpu_count())
    # The first CPU feature LLVM enables appears, wrapped into the report.
    first = sorted(f[1:] for f in host["cpu_features"].split(",") if f.startswith("+"))[0]
    assert first in text.split("CPU features (LLVM)", 1)[1]


def test_kiln_kernel_sysinfo_prints_the_report():
    done = subprocess.run([os.path.join(mn.BUILD, "kiln-kernel"), "--sysinfo"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    check_report(done.stdout)


def test_python_m_kiln_sysinfo_prints_the_same_report():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-m", "kiln.sysinfo"], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    check_report(done.stdout)
