#!/usr/bin/env bash
# test.sh -- the README's test command: installs what is missing, builds,
# runs every suite through ctest, then does the same with AddressSanitizer
# and UndefinedBehaviorSanitizer. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
deps_install

echo "== release build =="
deps_build build -DCMAKE_BUILD_TYPE=Release -DRULELAB_SANITIZE=OFF
(cd build && ctest --output-on-failure -V -j "$(nproc)")

echo "== sanitizer build (ASan + UBSan) =="
deps_build build-asan -DCMAKE_BUILD_TYPE=Release -DRULELAB_SANITIZE=ON
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -V -j "$(nproc)")

echo "== all suites passed, in both builds =="
