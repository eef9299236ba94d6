#!/usr/bin/env bash
# bench_ab.sh OLD NEW [ROUNDS] [SECONDS] -- compares the playout speed of
# two rulelab binaries, e.g. before and after a change: for each game, runs
# `bench GAME --seconds SECONDS --json` (default 2) ROUNDS times (default
# 5), old and new interleaved so that drift in the machine's speed hits
# both alike, and prints each binary's median playouts per second, the
# ratio new/old, and whether the signatures (the behaviour) agree.
# One thread each; run it on an otherwise idle machine. GAMES="jetan"
# limits it to some games.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench_ab.sh OLD NEW [ROUNDS] [SECONDS]" >&2; exit 2; }
old=$1 new=$2 rounds=${3:-5} seconds=${4:-2}
field() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
printf '%-8s %12s %12s %7s  %s\n' game old/s new/s ratio signatures
for game in ${GAMES:-tafl jetan serbest}; do
    : > /tmp/bench_ab.old.$$; : > /tmp/bench_ab.new.$$
    for _ in $(seq "$rounds"); do
        "$old" bench "$game" --seconds "$seconds" --json > /tmp/bench_ab.o.$$
        "$new" bench "$game" --seconds "$seconds" --json > /tmp/bench_ab.n.$$
        field playouts_per_sec < /tmp/bench_ab.o.$$ >> /tmp/bench_ab.old.$$
        field playouts_per_sec < /tmp/bench_ab.n.$$ >> /tmp/bench_ab.new.$$
    done
    so=$(field signature < /tmp/bench_ab.o.$$) sn=$(field signature < /tmp/bench_ab.n.$$)
    mo=$(median < /tmp/bench_ab.old.$$) mn=$(median < /tmp/bench_ab.new.$$)
    same=$([ "$so" = "$sn" ] && echo "same ($so)" || echo "DIFFER ($so vs $sn)")
    printf '%-8s %12.1f %12.1f %7.3f  %s\n' "$game" "$mo" "$mn" \
        "$(awk -v a="$mn" -v b="$mo" 'BEGIN {print a / b}')" "$same"
done
rm -f /tmp/bench_ab.*.$$
