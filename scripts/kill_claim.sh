#!/usr/bin/env bash
# kill_claim.sh -- the kill campaign for `rulelab claim`: SIGKILLs a claim
# at seeded moments KILLS times, resuming it each time (the same command
# again), lets the last one finish, and compares the claims rows with those
# of an uninterrupted claim of the same games on every content column (all
# but id and the timing columns seconds and created): lost, duplicated and
# differing rows must all be 0, and PRAGMA integrity_check ok after every
# kill. Exit 0 when all hold.
#
# The moments: each round kills after a delay of u * 0.9 * T * left / all,
# u drawn from [0, 1) by awk's rand seeded by SEED, T the uninterrupted
# claim's wall time, left/all the share of its answers still missing (so
# kills land while the claim runs, also near its end); a claim that ended
# before its kill is counted apart (the kill missed). The campaign stops
# early once every answer is stored.
#
# Usage: scripts/kill_claim.sh [KILLS] [SEED] [RULELAB] [GAMES]
#        (defaults: 20 kills, seed 1, build/rulelab, 30 games)
set -u
kills=${1:-20}
seed=${2:-1}
bin=${3:-build/rulelab}
games=${4:-30}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cat >"$dir/s.ini" <<INI
[sweep]
name = kill_claim
seed = 3
games = $games
[game serbest]
kings_landing = 8, 9
max_plies = 200
[agents]
rnd = random
[matchups]
pairs = rnd vs rnd
INI
"$bin" run "$dir/s.ini" --db "$dir/base.db" --threads 1 --quiet || exit 1
claim_args=(--plies 3 --nodes 2000 --mb 1 --threads 2)
claim() { "$bin" claim "$1" "${claim_args[@]}"; }
key="game_id, ply, question, plies, node_budget"
content="variant, position, answer, nodes, pv, proof"

cp "$dir/base.db" "$dir/ref.db"
start=$(date +%s.%N)
claim "$dir/ref.db" >/dev/null 2>&1 || { echo "the reference claim failed"; exit 1; }
T=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
all=$(sqlite3 "$dir/ref.db" "SELECT COUNT(*) FROM claims")

cp "$dir/base.db" "$dir/camp.db"
draws=$(awk -v n="$kills" -v s="$seed" \
    'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.4f\n", rand() }')
hit=0
missed=0
bad_integrity=0
for u in $draws; do
    have=$(sqlite3 "$dir/camp.db" "SELECT COUNT(*) FROM claims")
    [ "$have" -ge "$all" ] && break
    d=$(awk -v u="$u" -v t="$T" -v l=$((all - have)) -v a="$all" \
        'BEGIN { printf "%.3f", u * 0.9 * t * l / a }')
    # rulelab itself in the background (not the claim function: that would
    # be a subshell, and the kill would leave rulelab running)
    "$bin" claim "$dir/camp.db" "${claim_args[@]}" >/dev/null 2>&1 &
    pid=$!
    sleep "$d"
    if kill -9 $pid 2>/dev/null; then hit=$((hit + 1)); else missed=$((missed + 1)); fi
    wait $pid 2>/dev/null
    [ "$(sqlite3 "$dir/camp.db" "PRAGMA integrity_check")" = ok ] \
        || bad_integrity=$((bad_integrity + 1))
done
claim "$dir/camp.db" >/dev/null 2>&1 || { echo "the final resume failed"; exit 1; }
[ "$(sqlite3 "$dir/camp.db" "PRAGMA integrity_check")" = ok ] \
    || bad_integrity=$((bad_integrity + 1))

q() { sqlite3 "$dir/camp.db" "ATTACH '$dir/ref.db' AS ref; $1"; }
ref_rows=$(q "SELECT COUNT(*) FROM ref.claims")
got_rows=$(q "SELECT COUNT(*) FROM main.claims")
lost=$(q "SELECT COUNT(*) FROM (SELECT $key FROM ref.claims EXCEPT SELECT $key FROM main.claims)")
extra=$(q "SELECT COUNT(*) FROM (SELECT $key FROM main.claims EXCEPT SELECT $key FROM ref.claims)")
dup=$(q "SELECT COUNT(*) - (SELECT COUNT(*) FROM (SELECT DISTINCT $key FROM main.claims)) FROM main.claims")
differ=$(q "SELECT COUNT(*) FROM (SELECT $key, $content FROM main.claims EXCEPT SELECT $key, $content FROM ref.claims) WHERE ($key) IN (SELECT $key FROM ref.claims)")

echo "kill_claim: $hit kills while the claim ran ($missed after it had ended), seed $seed, $games games, uninterrupted claim ${T%.*} s"
echo "kill_claim: rows: $ref_rows uninterrupted, $got_rows after the kills; lost $lost, extra $extra, duplicated $dup, differing $differ; integrity_check failures $bad_integrity"
[ "$ref_rows" -gt 0 ] && [ "$lost" -eq 0 ] && [ "$extra" -eq 0 ] && [ "$dup" -eq 0 ] \
    && [ "$differ" -eq 0 ] && [ "$bad_integrity" -eq 0 ]
