#!/usr/bin/env bash
# The whole test suite on a fresh machine: set-up and build, the C unit tests
# (ctest), the kernel's protocol tests against an AddressSanitizer and UBSan
# build (about two minutes), the compiler under both sanitizers (a shard of
# its suites and a campaign of generated programs), then every Python and
# protocol test (pytest, Debian's python3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KILN_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" "$build"
(cd "$build" && ctest --output-on-failure)
cd "$root"
bash tests/kernel/asan.sh -q
# the compiler under the sanitizers: a fixed shard of its suites that fits CI's time (the whole: no
# KILN_SANITIZE_TESTS), then a short generated-program campaign
KILN_SANITIZE_TESTS="tests/jit tests/parallel tests/ufunc tests/cache tests/numpy/test_nrt.py tests/numpy/test_optional_arrays.py tests/numpy/test_overlapping_augassign.py" \
  KILN_SANITIZE_PROGRAMS=60 bash tests/sanitizers.sh -q
KILN_BUILD_DIR=$build /usr/bin/python3 -m pytest "$@"
