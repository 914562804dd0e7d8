"""A worker process: reads one JSON request a line on stdin
({"id", "source"}), writes the program to a file of its own (Kiln reads a
function's source back from its file), runs it (harness.run_program) and
answers one JSON line. Compiled code that kills the process kills only this
worker: the driver records the crash and starts another. Anything the
program prints goes to stderr, so that stdout carries only answers."""
import json
import os
import sys
import tempfile

CANNOT_START = 75   # EX_TEMPFAIL


def main():
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    try:
        from .harness import run_program   # after the redirection: kiln may print while loading
    except ImportError as exc:   # the build being remade: the driver waits and starts another
        print(f"worker cannot import kiln: {exc}", file=sys.stderr)
        sys.exit(CANNOT_START)
    with tempfile.TemporaryDirectory(prefix="kiln_fuzz_") as folder:
        serve(folder, answers, run_program)


def serve(folder, answers, run_program):
    for line in sys.stdin:
        req = json.loads(line)
        path = os.path.join(folder, f"prog_{req['id']}.py")
        with open(path, "w") as f:
            f.write(req["source"])
        res = run_program(req["source"], path)
        os.unlink(path)
        res["id"] = req["id"]
        answers.write(json.dumps(res) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
