"""`python3 -m kiln --version`: the version of the kiln package found."""
import sys

from . import __version__

if sys.argv[1:] == ["--version"]:
    print(f"kiln {__version__}")
else:
    print("usage: python3 -m kiln --version", file=sys.stderr)
    sys.exit(2)
