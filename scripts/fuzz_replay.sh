#!/usr/bin/env bash
# fuzz_replay.sh [BUILD_DIR] -- the fuzzing stage of the test command.
# Builds the fuzz targets under ASan+UBSan into BUILD_DIR (default
# build-fuzz) and runs their ctest tests (label "fuzz"):
#   fuzz_replay_TARGET  every file of tests/fuzz/corpus/TARGET and of
#                       tests/fuzz/regressions/TARGET (fixed crashes) once;
#   fuzz_run_TARGET     (clang only) RULELAB_FUZZ_RUNS (2000) libFuzzer
#                       inputs mutated from that corpus from seed 1: the
#                       same inputs on every run of the same code, and the
#                       committed corpus is only read.
# Without clang the targets are built with the default compiler as corpus
# replayers, so the replay still runs (the fuzz_run_* tests do not exist).
# Exits non-zero if any input crashes, leaks or breaks a checked property.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-fuzz}
cc=()
if command -v clang >/dev/null; then
    cc=(-DCMAKE_C_COMPILER=clang)
else
    echo "fuzz_replay.sh: no clang; replaying the corpus only" >&2
fi
cmake -S . -B "$dir" "${cc[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DRULELAB_SANITIZE=ON -DRULELAB_FUZZ=ON >/dev/null
cmake --build "$dir" -j "$(nproc)" --target fuzz_all >/dev/null
cd "$dir"
ctest -L fuzz -j "$(nproc)" --output-on-failure
