#!/usr/bin/env bash
# Kiln's main job: set up, then run the bundled notebooks (the kernel tour, the
# compile-against-run course, and the GPU course, on the CUDA simulator where
# there is no GPU) through the Kiln kernel with nbclient; each executed
# notebook and its HTML export land in build/notebooks/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KILN_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" "$build"
for nb in hello compile_vs_run gpu_course; do
  /usr/bin/python3 "$root/scripts/run_notebook.py" "$root/notebooks/$nb.ipynb" "$build"
done
