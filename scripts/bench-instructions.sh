#!/usr/bin/env bash
# bench-instructions.sh -- two revisions' engine work counted in machine
# instructions (valgrind's callgrind), which, unlike seconds, do not move
# with the machine's load: a figure to trust on a busy machine, beside
# bench-compare.sh's timings, which need a quiet one. Instructions are not
# time (cache misses and memory bandwidth are not counted), so a claim of
# speed still needs bench-compare.sh.
# For each game it counts, for OLD_REV and NEW_REV (built as
# bench-compare.sh builds them), `rulelab perft GAME D` (tafl and jetan 4,
# serbest 3: full legal move generation at every inner node, apply there,
# the leaves counted), and prints the counts and the ratio old/new (above
# 1: the new one does less work). Random playouts have no fixed-work
# command in every revision (`play` spends most of its instructions
# printing), so they are left to bench-compare.sh. Needs valgrind
# (apt-get install valgrind).
# Usage: scripts/bench-instructions.sh OLD_REV NEW_REV
#   e.g. scripts/bench-instructions.sh 75eedce HEAD
# GAMES="tafl serbest" limits the games; a variant spec works too.
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,19p' "$0" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "needs valgrind: apt-get install valgrind" >&2; exit 1; }
old_rev=$1 new_rev=$2
root=$(cd "$(dirname "$0")/.." && pwd)

# shellcheck source=scripts/bench_build.sh
. "$root/scripts/bench_build.sh"
old=$(bench_build "$old_rev") || exit 1
new=$(bench_build "$new_rev") || exit 1

# The instructions one command runs (callgrind's "I refs").
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
        | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
perft_work() { # perft_work BIN GAME
    local depth=4
    case "$2" in serbest*) depth=3 ;; esac
    instructions "$1" perft "$2" "$depth"
}
echo "old: $old_rev ($old)"
echo "new: $new_rev ($new)"
printf '%-12s %-24s %16s %16s %8s\n' game work old new old/new
for game in ${GAMES:-tafl jetan serbest}; do
    name=${game%%(*}
    [ "$name" = "$game" ] || name="$name(...)"
    o=$(perft_work "$old" "$game")
    n=$(perft_work "$new" "$game")
    printf '%-12s %-24s %16s %16s %8s\n' "$name" perft "$o" "$n" \
        "$(awk -v a="$o" -v b="$n" 'BEGIN { printf "%.3f", a / b }')"
done
