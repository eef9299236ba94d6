#!/usr/bin/env bash
# fuzz.sh [TARGET] [SECONDS] -- long libFuzzer runs (not part of the test
# command). Builds the fuzz targets with clang, ASan and UBSan into
# build-fuzz, then fuzzes TARGET (default: every target, one after the
# other) for SECONDS each (default 600). Each target starts from its
# committed corpus (tests/fuzz/corpus/TARGET, only read), its dictionary
# of keywords if any (tests/fuzz/dict/TARGET.dict) and a working
# corpus in build-fuzz/corpus/TARGET that keeps growing between runs.
# Crashes, leaks, timeouts (10 s per input) and out-of-memory (2 GiB) are
# written to tests/fuzz/crashes/TARGET/ and listed at the end; the run goes
# on after each (libFuzzer's fork mode), so one run finds several.
#
# Targets: position_tafl position_jetan position_serbest moves variant
# agent sweep proof db (tests/fuzz/fuzz_TARGET.c says what each checks).
# A crash found: see tests/fuzz/README.md for turning it into a test.
set -euo pipefail
cd "$(dirname "$0")/.."

all="position_tafl position_jetan position_serbest moves variant agent sweep proof db"
targets=${1:-all}
seconds=${2:-600}
[ "$targets" = all ] && targets=$all
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number" >&2; exit 2;; esac
for t in $targets; do
    case " $all " in *" $t "*) ;; *) echo "fuzz.sh: unknown target '$t' (targets: $all)" >&2; exit 2;; esac
done
command -v clang >/dev/null || {
    echo "fuzz.sh: needs clang with libFuzzer (scripts/deps.sh installs it)" >&2; exit 1; }

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release \
    -DRULELAB_SANITIZE=ON -DRULELAB_FUZZ=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target fuzz_all >/dev/null

stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
for t in $targets; do
    work=build-fuzz/corpus/$t crashes=tests/fuzz/crashes/$t
    mkdir -p "$work" "$crashes"
    inputs=(tests/fuzz/corpus/"$t")
    [ -d tests/fuzz/regressions/"$t" ] && inputs+=(tests/fuzz/regressions/"$t")
    dict=()
    [ -f tests/fuzz/dict/"$t".dict ] && dict=(-dict=tests/fuzz/dict/"$t".dict)
    echo "fuzz.sh: $t for ${seconds}s" >&2
    # Fork mode with one worker: a crash is saved and the run goes on.
    ./build-fuzz/fuzz_"$t" -fork=1 -ignore_crashes=1 -ignore_ooms=1 \
        -ignore_timeouts=1 -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -close_fd_mask=3 -artifact_prefix="$crashes/" \
        "${dict[@]}" "$work" "${inputs[@]}" > "build-fuzz/fuzz_$t.log" 2>&1 || true
    tail -n 3 "build-fuzz/fuzz_$t.log" >&2
done

new=$(find tests/fuzz/crashes -type f -newer "$stamp" | sort)
if [ -n "$new" ]; then
    echo "fuzz.sh: new crashes (reproduce: build-fuzz/fuzz_TARGET FILE):"
    echo "$new"
    exit 1
fi
echo "fuzz.sh: no new crashes"
