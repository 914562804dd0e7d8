#!/usr/bin/env bash
# The compiler and its runtime under AddressSanitizer and UndefinedBehaviorSanitizer:
# the _kiln extension built with both (KILN_ASAN), loaded into Debian's python3 with the
# sanitizers' runtime preloaded, and the code it compiles instrumented too (KILN_JIT_ASAN=1,
# jit/engine/engine.c), through the compiler, NumPy, parallel, ufunc and cache suites and a
# generated-program campaign. Fails when any report was written.
# Usage: bash tests/sanitizers.sh [pytest args]   (build dir: $KILN_ASAN_BUILD_DIR or build-asan;
# KILN_SANITIZE_TESTS the test paths, default the five suites; KILN_SANITIZE_PROGRAMS generated
# programs, default 300, from program KILN_SANITIZE_START (default 0) of seed KILN_SANITIZE_SEED
# (default 7))
#        bash tests/sanitizers.sh --campaign   only the generated programs, failures shrunk into
# tests/fuzz/found/: a shard of the long campaign that tests/fuzz/CAMPAIGNS.md records
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KILN_ASAN_BUILD_DIR:-$root/build-asan}
cmake -S "$root" -B "$build" -DPython3_EXECUTABLE=/usr/bin/python3 -DKILN_ASAN=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target _kiln kiln-kernel   # the kernel: tests/numpy prints through one
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# Python is not built with the sanitizer: its runtime must be loaded first. Leaks are the
# runtime's counters' to find (every generated program and NumPy test checks them): LSan
# at exit would list the interpreter's and LLVM's own never-freed start-up memory.
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
# Kiln's own SIGSEGV handler turns faults into kiln.MemoryFault (tests/jit/test_faults.py), so ASan
# leaves that signal alone; short allocation stacks keep the interpreter's many mallocs cheap. A request
# larger than memory returns NULL, as without ASan, so Python and Kiln raise MemoryError for it
# (tests/numpy/test_lists.py's repeats) instead of ASan aborting the process.
export ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:malloc_context_size=4:allocator_may_return_null=1"
export UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1"
export KILN_JIT_ASAN=1 KILN_BUILD_DIR=$build
cd "$root"
status=0
keep=--no-keep
if [ "${1:-}" = --campaign ]; then
  keep=
else
  # the soak test measures the process's resident memory, which ASan's quarantine of freed blocks
  # inflates by design: it runs in the ordinary suite
  /usr/bin/python3 -m pytest -p no:cacheprovider ${KILN_SANITIZE_TESTS:-tests/jit tests/numpy tests/parallel tests/ufunc tests/cache} \
    --deselect tests/numpy/test_soak.py::test_a_million_calls_keep_memory_flat "$@" || status=$?
fi
/usr/bin/python3 -m tests.fuzz --programs "${KILN_SANITIZE_PROGRAMS:-300}" --seed "${KILN_SANITIZE_SEED:-7}" \
  --start "${KILN_SANITIZE_START:-0}" $keep --avoid-known || status=$?
# ASan's warning that it returned NULL for a request larger than memory, as allocator_may_return_null
# asks, is no error: a log holding only such lines is not a report
for log in "$logs"/*; do
  if [ -e "$log" ] && ! grep -qv "WARNING: AddressSanitizer failed to allocate" "$log"; then rm -f "$log"; fi
done
reports=$(ls "$logs" 2>/dev/null || true)
if [ -n "$reports" ]; then
  cat "$logs"/*
  echo "sanitizers reported errors in $(echo "$reports" | wc -l) process(es)" >&2
  exit 1
fi
echo "AddressSanitizer and UndefinedBehaviorSanitizer: no reports"
exit $status
