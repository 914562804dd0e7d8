#!/usr/bin/env bash
# Kiln on the GPU machine in one go: unpack the LLVM 19 carried in .device/
# (Debian's libllvm19 and the libraries it needs, plus the llvm-c headers),
# build only the _kiln extension against that machine's Python and NumPy,
# run tests/gpu, then bench/gpu_vs_numba_cuda.py. Logs go to $OUT (the device
# tool's output folder), else build-device/logs.
#
# Prepare .device/ on a Debian 12 machine first (git-ignored, ~42 MiB):
#   cd .device && apt-get download libllvm19 libz3-4 libedit2 libxml2 libicu72 &&
#   tar czhf llvm19-headers.tar.gz -C /usr/lib/llvm-19/include llvm-c llvm/Config
# In a shared checkout others' half-written files travel too: then also
#   git archive HEAD | gzip > .device/src.tar.gz
# and this script builds and tests that committed snapshot instead.
# KILN_CMAKE_FLAGS adds CMake flags (as scripts/setup.sh does).
# --build-only stops after the build and prints the environment that runs
# Kiln there (for a probe of one's own in the same device call, via eval).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$root
if [ -f "$root/.device/src.tar.gz" ]; then
  src=${TMPDIR:-/tmp}/kiln-src
  rm -rf "$src" && mkdir -p "$src" && tar xzf "$root/.device/src.tar.gz" -C "$src" || exit 1
  echo "building the snapshot .device/src.tar.gz of $(date -u -r "$root/.device/src.tar.gz"), not the working tree"
fi
build=$src/build-device
logs=${OUT:-$build/logs}
llvm=${TMPDIR:-/tmp}/kiln-llvm19
mkdir -p "$logs" "$llvm/root" "$llvm/include" "$llvm/lib"
export PYTHONUNBUFFERED=1

for deb in "$root"/.device/*.deb; do dpkg -x "$deb" "$llvm/root" || exit 1; done
tar xzf "$root/.device/llvm19-headers.tar.gz" -C "$llvm/include" || exit 1
libs=$llvm/root/usr/lib/x86_64-linux-gnu
ln -sf "$libs/libLLVM.so.19.1" "$llvm/lib/libLLVM.so.19.1"

python=${KILN_PYTHON:-$(command -v python3)}
{
  echo "== $(date -u) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
  "$python" -c 'import sys, numpy; print("python", sys.version.split()[0], "numpy", numpy.__version__)'
  cmake -S "$src" -B "$build" -DKILN_EXTENSION_ONLY=ON -DKILN_LLVM_ROOT="$llvm" \
    -DPython3_EXECUTABLE="$python" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_SHARED_LINKER_FLAGS="-Wl,-rpath-link,$libs" -DCMAKE_MODULE_LINKER_FLAGS="-Wl,-rpath-link,$libs" \
    ${KILN_CMAKE_FLAGS:-} &&
  cmake --build "$build" -j"$(nproc)" --target _kiln
} > "$logs/build.log" 2>&1
status=$?
tail -5 "$logs/build.log"
[ $status -eq 0 ] || { echo "build failed (build.log)"; grep -E "error|Error" "$logs/build.log" | head -20; exit 1; }

# Only the tests and the benchmark see the carried libraries.
export LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ "${1:-}" = --build-only ]; then
  echo "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH KILN_BUILD_DIR=$build PYTHONPATH=$build/python:$src/python"
  exit 0
fi
cd "$src"
KILN_BUILD_DIR=$build "$python" -m pytest -v -p no:cacheprovider tests/gpu > "$logs/tests.log" 2>&1
tests=$?
grep -E "passed|failed|error|FAILED|SKIPPED" "$logs/tests.log" | tail -25
PYTHONPATH=$build/python:$src/python "$python" bench/gpu_vs_numba_cuda.py 2>&1 | tee "$logs/bench.log"
bench=${PIPESTATUS[0]}
echo "tests exit $tests, bench exit $bench"
exit $(( tests != 0 || bench != 0 ))
