#!/usr/bin/env bash
# ext_bench.sh -- what playing through the line protocol costs per move:
# the random agent in process, the same agent behind ext (`rulelab engine
# --agent random`, both seats), and the Python example engine
# (agents/outside/random_engine.py, both seats), each playing the same tafl
# sweep on one thread, interleaved round by round so that load on the
# machine falls on all alike. Prints each round's microseconds per move
# (wall clock: the round trip is waiting, not CPU) and the medians.
# Usage: scripts/ext_bench.sh [RULELAB] [ROUNDS] [GAMES]
set -eu
bin=$(cd "$(dirname "${1:-build/rulelab}")" && pwd)/$(basename "${1:-build/rulelab}")
rounds=${2:-5}
games=${3:-100}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

sweep() { # sweep NAME SPEC: SPEC against itself
    cat >"$dir/$1.ini" <<INI
[sweep]
name = ext_bench_$1
seed = 5
games = $games
[game tafl]
max_plies = 200
[agents]
a = $2
[matchups]
pairs = a vs a
INI
}
sweep inprocess "random"
sweep engine "ext(cmd=\"$bin engine --agent random\",nodes=1)"
sweep python "ext(cmd=\"/usr/bin/python3 $root/agents/outside/random_engine.py\",nodes=1)"

# microseconds per move of one run of sweep $1 into a fresh database
per_move() {
    rm -rf "$dir/$1.db"*
    local t0 t1 plies
    t0=$(date +%s.%N)
    "$bin" run "$dir/$1.ini" --db "$dir/$1.db" --threads 1 --quiet >/dev/null
    t1=$(date +%s.%N)
    plies=$(/usr/bin/python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("select sum(plies) from games").fetchone()[0])' "$dir/$1.db")
    /usr/bin/python3 -c "print('%.1f' % (($t1 - $t0) * 1e6 / $plies))"
}

echo "tafl, $games games a round, one thread; microseconds per move (wall)"
echo "round  in-process  rulelab-engine  python-example"
for kind in inprocess engine python; do : >"$dir/$kind.times"; done
for r in $(seq "$rounds"); do
    line="$r"
    for kind in inprocess engine python; do
        us=$(per_move "$kind")
        echo "$us" >>"$dir/$kind.times"
        line="$line  $us"
    done
    echo "$line"
done
median() { sort -g "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo "median  $(median "$dir/inprocess.times")  $(median "$dir/engine.times")  $(median "$dir/python.times")"
