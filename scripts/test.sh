#!/usr/bin/env bash
# test.sh -- the README's test command: installs what is missing, builds,
# runs every suite through ctest, then does the same with AddressSanitizer
# and UndefinedBehaviorSanitizer, then runs the unit suites once more in a
# Debug build with ASan, UBSan, assert() and the games' invariant checks
# (build-debug), and last replays the fuzz targets' corpus and runs each
# target briefly from a fixed seed (scripts/fuzz_replay.sh, build-fuzz).
# Exits non-zero if anything fails.
#
# scripts/test.sh --quick: the edit-compile-test loop: the Release build
# and its suites labelled `quick` (tests/CMakeLists.txt: all but the
# slowest end-to-end ones), nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh

case "${1:-}" in
    "") ;;
    --quick)
        deps_install
        echo "== release build, quick suites =="
        deps_build build -DCMAKE_BUILD_TYPE=Release -DRULELAB_SANITIZE=OFF
        (cd build && ctest --output-on-failure -j "$(nproc)" -L quick)
        echo "== the quick suites passed (scripts/test.sh runs every suite) =="
        exit 0 ;;
    -h|--help)
        echo "usage: scripts/test.sh [--quick]"
        echo "  every suite in a Release, a sanitizer and a Debug build, and"
        echo "  the fuzz targets; --quick: the quick suites of the Release build"
        exit 0 ;;
    *)
        echo "scripts/test.sh: unknown option '$1' (usage: scripts/test.sh [--quick])" >&2
        exit 2 ;;
esac

deps_install $RULELAB_TEST_PACKAGES

echo "== release build =="
deps_build build -DCMAKE_BUILD_TYPE=Release -DRULELAB_SANITIZE=OFF
(cd build && ctest --output-on-failure -V -j "$(nproc)")

# The sanitizer and Debug builds run the long random-game loops at a
# quarter (RULELAB_TEST_SCALE, tests/test_scale.h: the same lines run, by
# gcov), and the sanitizer build leaves out the notebooks test, which
# exercises Python and Jupyter, not rulelab's memory.
echo "== sanitizer build (ASan + UBSan) =="
deps_build build-asan -DCMAKE_BUILD_TYPE=Release -DRULELAB_SANITIZE=ON
(cd build-asan && RULELAB_TEST_SCALE=0.25 ASAN_OPTIONS=detect_leaks=1 \
    ctest --output-on-failure -V -j "$(nproc)" -E '^test_notebooks$')

echo "== debug build with invariant checks (ASan + UBSan, assert on) =="
# Debug (assert() on) with RULELAB_CHECK_INVARIANTS: each game's state_ok
# after every apply in perft, playouts, MCTS and ab. Runs the suites in
# DEBUG_SUITES, not the command-line, resume and notebook tests, which
# exercise the same core through the binary and would double the time
# (test_ab_games is the one shell test here: its point is that every
# build plays ab's recorded games).
DEBUG_SUITES='^test_(variant|game|shared|conformance|tafl|tafl_ludii_rules|tafl_games|tafl_ludii|random_move|bits|bits_arithmetic|jetan|jetan_end|jetan_games|serbest|serbest_games|agents|mcts|ab|ab_games|eval_serbest|eval_jetan|eval_tafl|solver|proof_files|solver_table|stats|skill|harness|tune)$'
deps_build build-debug -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
    -DRULELAB_SANITIZE=ON \
    -DRULELAB_CHECK_INVARIANTS=ON
(cd build-debug && RULELAB_TEST_SCALE=0.25 ASAN_OPTIONS=detect_leaks=1 \
    ctest --output-on-failure -V -j "$(nproc)" -R "$DEBUG_SUITES")

echo "== fuzz targets: the corpus replayed, then a short seeded run each (ASan + UBSan) =="
bash scripts/fuzz_replay.sh build-fuzz

echo "== all suites passed, in all three builds, and the fuzz targets =="
