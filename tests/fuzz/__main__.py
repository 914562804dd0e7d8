"""python3 -m tests.fuzz --programs N --seed S [--workers W] [--no-keep] [--avoid-known]
python3 -m tests.fuzz --shrink FILE

Runs a campaign and prints one line per failure as it is found, then the
summary: programs run, passed, and failures by kind; exits 1 when a program
failed."""
import argparse
import sys

from .campaign import run, shrink_file, summary
from .gen_program import KNOWN_OPEN_CONSTRUCTS


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m tests.fuzz", description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="the first program's number (to rerun one: --start n --programs 1)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-keep", action="store_true", help="do not shrink failures into tests/fuzz/found/")
    ap.add_argument("--avoid-known", action="store_true",
                    help="leave out the constructs of known open bugs (as the CI campaign does)")
    ap.add_argument("--shrink-limit", type=int, default=12, help="at most this many new reproducers")
    ap.add_argument("--shrink", metavar="FILE", help="shrink the program in FILE into found/ instead of a campaign")
    args = ap.parse_args(argv)
    if args.shrink:
        path = shrink_file(args.shrink)
        print(f"kept {path}" if path else "it does not fail")
        return 0
    counts, failures = run(args.programs, args.seed, args.workers, keep=not args.no_keep,
                           shrink_limit=args.shrink_limit, start=args.start,
                           avoid=KNOWN_OPEN_CONSTRUCTS if args.avoid_known else ())
    print(summary(counts, args.programs))
    return 1 if failures else 0   # tests/sanitizers.sh fails on a failing campaign


if __name__ == "__main__":
    sys.exit(main())
