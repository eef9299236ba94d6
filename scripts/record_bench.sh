#!/usr/bin/env bash
# record_bench.sh -- what `record = search` costs the harness, and that
# with it off nothing is lost: the same sweep played by an older rulelab
# (before move_stats existed), by this one without the key, and by this
# one with `record = search`, interleaved round by round on one thread so
# that load on the machine falls on all three alike. Prints each round's
# games per CPU-second and the medians' ratios to the older binary.
# Usage: scripts/record_bench.sh OLD_RULELAB NEW_RULELAB [ROUNDS] [GAMES]
#   e.g. git worktree add /tmp/old bdf4274 && cmake -S /tmp/old -B /tmp/old/build
#        -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/old/build -j2
#        scripts/record_bench.sh /tmp/old/build/rulelab build/rulelab
set -eu
old=$1
new=$2
rounds=${3:-5}
games=${4:-200}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# random against a small MCTS in tafl and Jetan: many short moves, so the
# per-move bookkeeping weighs as much as it ever does
sweep() { # sweep FILE RECORD
    cat >"$1" <<INI
[sweep]
name = record_bench
seed = 3
games = $games
$2
[game tafl]
max_plies = 200
[game jetan]
max_plies = 200
[agents]
rnd = random
small = mcts(iterations=20)
[matchups]
pairs = rnd vs small
INI
}
sweep "$dir/off.ini" ""
sweep "$dir/on.ini" "record = search"
total=$((games * 4))

# play BIN SWEEP: games per CPU-second (user + system) of one fresh run on
# one thread: CPU time, not wall time, so other load on the machine counts
# little (a commit's wait for the disk is not counted either)
play() {
    rm -f "$dir/db" "$dir/db-wal" "$dir/db-shm" "$dir/db.lock"
    local TIMEFORMAT='%U %S'
    { time "$1" run "$2" --db "$dir/db" --threads 1 --quiet; } 2>"$dir/time"
    awk -v n="$total" '{ printf "%.1f", n / ($1 + $2) }' "$dir/time"
}

echo "sweep: $total games (tafl and jetan, random vs mcts(iterations=20), both orders), 1 thread"
echo "games per CPU-second, round by round:"
echo "round  old  new,off  new,record=search"
: >"$dir/old" && : >"$dir/off" && : >"$dir/on"
for ((r = 1; r <= rounds; r++)); do
    a=$(play "$old" "$dir/off.ini")
    b=$(play "$new" "$dir/off.ini")
    c=$(play "$new" "$dir/on.ini")
    echo "$a" >>"$dir/old"
    echo "$b" >>"$dir/off"
    echo "$c" >>"$dir/on"
    printf "%5d  %12s  %7s  %16s\n" "$r" "$a" "$b" "$c"
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mo=$(median "$dir/old")
mf=$(median "$dir/off")
mn=$(median "$dir/on")
awk -v o="$mo" -v f="$mf" -v n="$mn" 'BEGIN {
    printf "median games per CPU-second: old %.1f, new without record %.1f (%.3fx), new with record = search %.1f (%.3fx)\n",
        o, f, f / o, n, n / o }'
