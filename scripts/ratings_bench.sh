#!/usr/bin/env bash
# ratings_bench.sh [RULELAB] [GAMES] [DB] -- times `rulelab ratings` on a
# database of GAMES games (default 1,000,000), intervals included.
# The database: a sweep of 3 games x 12 ordered pairs of 4 agents (36
# cells) is registered by playing 1 game per cell, then each cell gets
# its share of GAMES rows in one SQL transaction, with results from a
# fixed pattern (seat-0 wins, draws and seat-1 wins in proportions that
# depend on the cell), so the fit has finite estimates. Made once and
# kept (DB, default /tmp/rulelab_ratings_bench.db; delete it to remake).
# The ratings run on one core (taskset -c 0 where it exists; the command
# has no threads anyway), three times; prints each wall time, the
# machine (nproc, CPU model) and the table's first lines.
set -euo pipefail
bin=${1:-build/rulelab}
games=${2:-1000000}
db=${3:-/tmp/rulelab_ratings_bench.db}
if [ ! -s "$db" ]; then
    dir=$(mktemp -d)
    cat >"$dir/bench.ini" <<'INI'
[sweep]
name = ratings_bench
games = 1
max_plies = 2
[game tafl]
[game jetan]
[game serbest]
[agents]
r = random
m1 = mcts(iterations=1)
m2 = mcts(iterations=2)
m3 = mcts(iterations=3)
INI
    "$bin" run "$dir/bench.ini" --db "$db" --threads 1 --quiet
    rm -rf "$dir"
    cells=$(sqlite3 "$db" "SELECT COUNT(*) FROM cells")
    per=$(( (games - 1) / cells ))  # 1 + per games per cell: at least GAMES
    # seat 0 wins 300-600 per mille by cell, draws 150, seat 1 the rest
    sqlite3 "$db" <<SQL
BEGIN;
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $per),
c AS (SELECT id, 300 + (id * 37) % 300 AS w FROM cells),
g AS (SELECT c.id AS cell, k.i AS i, (k.i * 7919 + c.id * 104729) % 1000 AS u,
             c.w AS w FROM c, k)
INSERT INTO games (cell_id, game_index, seed, side0, side1, result,
                   winner_seat, reason, plies, duration_ms, finished, moves)
SELECT cell, i, i, 'white', 'black',
       CASE WHEN u < w THEN 'seat0' WHEN u < w + 150 THEN 'draw' ELSE 'seat1' END,
       CASE WHEN u < w THEN 0 WHEN u < w + 150 THEN NULL ELSE 1 END,
       CASE WHEN u < w + 150 AND u >= w THEN 'repetition' ELSE 'king_captured' END,
       40, 1.0, '2026-01-01T00:00:00Z', 'e2e4'
FROM g;
COMMIT;
SQL
fi
echo "database: $db, $(sqlite3 "$db" "SELECT COUNT(*) FROM games") games, $(du -h "$db" | cut -f1)"
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
for round in 1 2 3; do
    start=$(date +%s.%N)
    "${pin[@]}" "$bin" ratings "$db" >/tmp/rulelab_ratings_bench.out
    end=$(date +%s.%N)
    echo "run $round: $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", b - a}') s"
done
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
head -n 12 /tmp/rulelab_ratings_bench.out
