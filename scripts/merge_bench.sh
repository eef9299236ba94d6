#!/usr/bin/env bash
# merge_bench.sh -- how fast `rulelab merge` is: plays a cheap real sweep
# (random against random in tafl, 16 cells of 10,000 games at ply caps 10
# to 25) as 16 shards of 10,000 games each, then times merging them into
# a new database, re-merging them unchanged (each skipped on its content
# marker), and re-merging them read in full (the markers forgotten: every
# row checked against OUT and none added). Prints the figures; the targets
# are under 10 s and under 1 s.
# Usage: scripts/merge_bench.sh [-b PATH/TO/rulelab] [-d DIR] [-n SHARDS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/rulelab
dir=
shards=16
while [ $# -gt 0 ]; do
    case $1 in
    -b) bin=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    -n) shards=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "merge_bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$bin" ] || { echo "merge_bench.sh: no $bin: build first" >&2; exit 1; }
if [ -z "$dir" ]; then
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
cat >"$dir/bench.ini" <<'INI'
[sweep]
name = merge_bench
seed = 1
games = 10000
[game tafl]
max_plies = 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25
[agents]
r = random
[matchups]
pairs = r vs r
orders = given
INI
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
t0=$(now)
inputs=()
for ((k = 0; k < shards; k++)); do
    "$bin" run "$dir/bench.ini" --db "$dir/shard$k.db" --shard "$k/$shards" --quiet
    inputs+=("$dir/shard$k.db")
done
made=$(since "$t0")
per_shard=$(sqlite3 "$dir/shard0.db" "SELECT COUNT(*) FROM games")
echo "made $shards shards of $per_shard games each in $made s"
rm -f "$dir/out.db"*
t0=$(now); "$bin" merge "$dir/out.db" "${inputs[@]}" --quiet; first=$(since "$t0")
t0=$(now); "$bin" merge "$dir/out.db" "${inputs[@]}" --quiet; again=$(since "$t0")
sqlite3 "$dir/out.db" "DELETE FROM merges"
t0=$(now); "$bin" merge "$dir/out.db" "${inputs[@]}" --quiet; full=$(since "$t0")
games=$(sqlite3 "$dir/out.db" "SELECT COUNT(*) FROM games")
echo "merged into $games games: first merge $first s (target < 10 s)"
echo "re-merge unchanged (skipped on their markers): $again s (target < 1 s)"
echo "re-merge read in full (markers forgotten, nothing added): $full s"
[ "$games" -eq $((shards * per_shard)) ]
