#!/usr/bin/env bash
# The kernel's protocol tests against a kiln-kernel (its _kiln_kernel module) built with
# AddressSanitizer and UBSan.
# Usage: bash tests/kernel/asan.sh [pytest args]   (build dir: $KILN_ASAN_BUILD_DIR or build-asan)
# Fails when any kernel process reported an ASan or LSan error. Reports go to files (log_path),
# not stderr: the kernel captures its own fd 2 into the notebook while cells run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${KILN_ASAN_BUILD_DIR:-$root/build-asan}
cmake -S "$root" -B "$build" -DPython3_EXECUTABLE=/usr/bin/python3 -DKILN_ASAN=ON >/dev/null
cmake --build "$build" -j2 --target kiln-kernel
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# The slow unwinder follows allocations through libzmq and python3, which have no frame
# pointers: without it a leak's stack stops at the library and never names Kiln's caller. Five
# frames reach from an allocation to the kernel's function that asked for it, and stop short of
# the Python frames below the kernel's main loop, which lsan.supp's python3.11 line would match.
export ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=1:fast_unwind_on_malloc=0:malloc_context_size=5"
export LSAN_OPTIONS="suppressions=$root/tests/kernel/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1"   # KILN_ASAN builds with UBSan too
cd "$root"
KILN_BUILD_DIR=$build /usr/bin/python3 -m pytest tests/kernel "$@"
# child processes of the kernel (!cmd, sys.executable) inherit ASAN_OPTIONS but not the
# sanitizers' runtime (kernel/launch.c); only reports from the kernel itself count
reports=$(grep -l "Sanitizer\|runtime error" "$logs"/asan.* "$logs"/ubsan.* 2>/dev/null || true)
if [ -n "$reports" ]; then
  cat $reports
  echo "AddressSanitizer reported errors in $(echo "$reports" | wc -l) kernel process(es)" >&2
  exit 1
fi
echo "AddressSanitizer: no errors reported by any kernel process"
