#!/usr/bin/env bash
# The whole test suite on a fresh machine: set-up and build, the C unit tests
# (ctest), the kernel's protocol tests against an AddressSanitizer and UBSan
# build (about two minutes), the compiler under both sanitizers (its suites
# and a campaign of generated programs), then every Python and protocol test
# (pytest, Debian's python3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KILN_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" "$build"
(cd "$build" && ctest --output-on-failure)
cd "$root"
bash tests/kernel/asan.sh -q
# the compiler's five suites under the sanitizers, then a short generated-program campaign
KILN_SANITIZE_PROGRAMS=60 bash tests/sanitizers.sh -q
KILN_BUILD_DIR=$build /usr/bin/python3 -m pytest "$@"
