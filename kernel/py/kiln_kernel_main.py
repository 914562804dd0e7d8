"""What /usr/bin/python3 runs when kiln-kernel hands over to it (kernel/launch.c):

    python3 -c BOOT GLUE_DIR KERNEL_EXE WITH_KILN PATHS -f CONNECTION_FILE
    python3 -c BOOT GLUE_DIR KERNEL_EXE WITH_KILN PATHS --sysinfo

PATHS (os.pathsep-separated) go first on sys.path: the _kiln_kernel module's folder, and the
source tree's kiln package when kiln-kernel runs from its build. sys.argv becomes what the kernel
was started with, as Jupyter wrote it."""
import os
import sys


def main():
    if os.environ.pop("KILN_SANITIZER_PRELOADED", None):  # the sanitized build: kernel/launch.c
        del os.environ["LD_PRELOAD"]
    exe, with_kiln, paths, *args = sys.argv[2:]
    sys.path[1:1] = [p for p in paths.split(os.pathsep) if p]
    sys.argv = [exe, *args]
    if args[0] == "--sysinfo":
        sys.exit(_sysinfo(with_kiln == "1"))
    import _kiln_kernel
    status, finalize = _kiln_kernel.serve(args[1], with_kiln == "1")
    if not finalize:  # threads a cell left running would hold finalization up: see shutdown()
        sys.stdout.flush()
        os._exit(status)
    sys.exit(status)


def _sysinfo(with_kiln):
    """`kiln-kernel --sysinfo`: kiln.sysinfo.main() in the kernel's Python; its status."""
    if not with_kiln:
        print("kiln-kernel --sysinfo: this build of the kernel has no kiln extension to run "
              "kiln.sysinfo with (build the whole project: scripts/setup.sh)", file=sys.stderr)
        return 2
    try:
        import kiln.sysinfo
    except ImportError:
        import traceback
        traceback.print_exc()
        print("kiln-kernel --sysinfo: this Python cannot import the kiln package "
              "(scripts/setup.sh builds and installs it)", file=sys.stderr)
        return 2
    return kiln.sysinfo.main()
