#!/usr/bin/env bash
# Kiln's main job: set up, then run every bundled notebook through the Kiln kernel with
# nbclient: the kernel tour, the compile-against-run course, the GPU course, and the course
# pack (notebooks/courses/, the five seed courses written for Kiln); GPU work runs on the CUDA
# simulator where there is no GPU. Each executed notebook and its HTML export land in
# build/notebooks/, with index.html linking them. Every notebook runs even if one fails; the
# job fails if any did.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KILN_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" "$build"
notebooks=("$root"/notebooks/{hello,compile_vs_run,gpu_course}.ipynb "$root"/notebooks/courses/*.ipynb)
executed=()
status=0
for nb in "${notebooks[@]}"; do
  /usr/bin/python3 "$root/scripts/run_notebook.py" "$nb" "$build" || status=1
  executed+=("$build/notebooks/$(basename "$nb")")
done
/usr/bin/python3 "$root/scripts/notebook_index.py" "$build/notebooks" "${executed[@]}"
exit $status
