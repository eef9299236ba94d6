#!/usr/bin/env bash
# verify_memory.sh -- the peak memory (RSS, from /usr/bin/time -v) and time
# of `rulelab verify` on the committed Kings Landing proof and on valid
# synthetic proofs of growing size made by tests/big_proof.c (the waiting
# strategy described there; WAITS 6, 7, 8 give 0.9, 5.4 and 33 MB).
# Usage: scripts/verify_memory.sh [BUILD_DIR] [WAITS...]   (default: build 6 7 8)
set -eu
build=${1:-build}
shift || true
waits=${*:-6 7 8}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
measure() { # measure FILE: one line of figures
    /usr/bin/time -f "%M %e" -o "$dir/time" "$build/rulelab" verify "$1" >"$dir/out" \
        || { echo "verify failed: $(cat "$dir/out")"; exit 1; }
    read -r kb s <"$dir/time"
    printf '%-28s %10s bytes %9s lines  peak RSS %7s KB  %6s s\n' \
        "$(basename "$1")" "$(stat -c %s "$1")" "$(($(wc -l <"$1") - 6))" "$kb" "$s"
}
measure "$root/experiments/proofs/serbest_kl9_win5.proof"
for w in $waits; do
    "$build/big_proof" "$w" >"$dir/waits$w.proof" 2>/dev/null
    measure "$dir/waits$w.proof"
done
