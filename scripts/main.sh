#!/usr/bin/env bash
# Kiln's main job: set up, then run the bundled course notebook through the
# Kiln kernel with nbclient; the executed notebook and its HTML export land in build/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KILN_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" "$build"
/usr/bin/python3 "$root/scripts/run_notebook.py" "$root/notebooks/hello.ipynb" "$build"
