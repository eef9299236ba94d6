#!/usr/bin/env bash
# bench-compare.sh -- two revisions' engine speed side by side, measured in
# one run on this machine: builds OLD_REV and NEW_REV (Release, in git
# worktrees under ${BENCH_DIR:-/tmp/rulelab-bench}, kept for the next run),
# then for each game runs both binaries in alternating order, round by
# round, so that drift in the machine's speed falls on both alike, and
# prints each figure's median and the ratio new/old:
#   plies/s      uniformly random playouts, one thread (`bench --json`)
#   playouts/s   the same run's games per second
#   mcts it/s    MCTS iterations per second with random playouts, one thread
#   speed-up     plies/s on 2 threads over 1 (`bench --threads 2`)
#   perft n/s    perft nodes per second: full legal move generation and
#                apply at every inner node (the leaves are counted, not
#                applied), tafl and jetan to depth 4, serbest to 3; its
#                time is the run's wall time less that of `perft GAME 1`
#                just before (the process's start, some 4-6 ms against
#                40-55 ms for a run of `perft tafl 4`)
# and whether the playout signatures agree (they change only when a game's
# behaviour does). A figure the old build does not print is "n/a".
# Usage: scripts/bench-compare.sh OLD_REV NEW_REV [ROUNDS] [SECONDS]
#   e.g. scripts/bench-compare.sh cbdcb07 HEAD 5 2
# GAMES="tafl jetan" limits the games; a variant spec works too, e.g.
# GAMES="tafl(escape=edge,king_armed=1,throne_hostile=1,throne_passable=0,king_capture=custodial,repetition_limit=0,no_capture_limit=0,max_plies=0)".
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,23p' "$0" >&2; exit 2; }
old_rev=$1 new_rev=$2 rounds=${3:-5} seconds=${4:-2}
root=$(cd "$(dirname "$0")/.." && pwd)

# shellcheck source=scripts/bench_build.sh
. "$root/scripts/bench_build.sh"
old=$(bench_build "$old_rev") || exit 1
new=$(bench_build "$new_rev") || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p" | head -1; }
median() {
    sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "n/a";
        else print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
# the figures of one binary on one game, each appended to tmp/WHO.FIGURE
measure() { # measure WHO BIN GAME
    local who=$1 bin=$2 game=$3 json depth t0 t1 nodes extra=()
    "$bin" bench --help 2>&1 | grep -q -- "--mcts-iterations" && extra=(--mcts-iterations 0)
    json=$("$bin" bench "$game" --seconds "$seconds" "${extra[@]}" --json)
    field plies_per_sec <<<"$json" >>"$tmp/$who.plies"
    field playouts_per_sec <<<"$json" >>"$tmp/$who.playouts"
    field mcts_iterations_per_sec <<<"$json" >>"$tmp/$who.mcts"
    field signature <<<"$json" >"$tmp/$who.signature"
    json=$("$bin" bench "$game" --seconds "$seconds" --threads 2 "${extra[@]}" --json)
    field speedup <<<"$json" >>"$tmp/$who.speedup"
    case "$game" in serbest*) depth=3 ;; *) depth=4 ;; esac
    t0=$(date +%s.%N)
    "$bin" perft "$game" 1 >/dev/null
    t1=$(date +%s.%N)
    nodes=$("$bin" perft "$game" "$depth" | tail -1)
    t2=$(date +%s.%N)
    awk -v n="$nodes" -v a="$t0" -v b="$t1" -v c="$t2" \
        'BEGIN { printf "%.0f\n", n / ((c - b) - (b - a)) }' >>"$tmp/$who.perft"
}

echo "old: $old_rev ($old)"
echo "new: $new_rev ($new)"
echo "$rounds rounds of ${seconds} s a run, alternating which goes first; $(nproc) cores, $(uname -m)"
printf '%-12s %-12s %14s %14s %8s\n' game figure old new new/old
for game in ${GAMES:-tafl jetan serbest}; do
    rm -f "$tmp"/old.* "$tmp"/new.*
    for ((r = 0; r < rounds; r++)); do
        if [ $((r % 2)) -eq 0 ]; then
            measure old "$old" "$game"; measure new "$new" "$game"
        else
            measure new "$new" "$game"; measure old "$old" "$game"
        fi
    done
    name=${game%%(*}
    [ "$name" = "$game" ] || name="$name(...)"
    for fig in plies playouts mcts speedup perft; do
        o=$(median <"$tmp/old.$fig")
        n=$(median <"$tmp/new.$fig")
        ratio=$(awk -v a="$n" -v b="$o" 'BEGIN { if (a == "n/a" || b == "n/a" || b == 0) print "n/a"; else printf "%.3f", a / b }')
        label=$(case $fig in plies) echo "plies/s" ;; playouts) echo "playouts/s" ;;
                mcts) echo "mcts it/s" ;; speedup) echo "speed-up" ;; perft) echo "perft n/s" ;; esac)
        printf '%-12s %-12s %14s %14s %8s\n' "$name" "$label" "$o" "$n" "$ratio"
    done
    so=$(cat "$tmp/old.signature") sn=$(cat "$tmp/new.signature")
    printf '%-12s %-12s %14s %14s %8s\n' "$name" "signature" "$so" "$sn" \
        "$([ "$so" = "$sn" ] && echo same || echo DIFFER)"
done
