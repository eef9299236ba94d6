#!/usr/bin/env bash
# test_resume.sh -- end-to-end tests of `rulelab run` against the database:
#  - a run killed with SIGKILL mid-sweep leaves a consistent database, and
#    resuming it gives exactly the rows of an uninterrupted run (all but the
#    timing columns);
#  - SIGINT stops the run cleanly, says how to resume, and resuming completes;
#  - `rulelab report` reads the database while a sweep is writing it;
#  - replay and export agree with the rows.
# Usage: test_resume.sh PATH/TO/rulelab
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"

# The runner commits every 2 s (or 500 games), so the sweep must run well
# past 2 s for a SIGKILL or SIGINT to land mid-run: 640 games take 5.2 s on
# 2 threads of the 2-core AMD EPYC VM (2026-12-04); the 160 this test used
# to play took 1.4 s once the engines got faster, and ended before the
# first commit when the machine was quiet.
cat >"$dir/s.ini" <<'INI'
[sweep]
name = resume
seed = 11
games = 160
[game tafl]
max_plies = 200
[game jetan]
[agents]
rnd = random
small = mcts(iterations=40)
[matchups]
pairs = rnd vs small
INI
total=640
rows() { # every column but the timing ones, in a fixed order
    sqlite3 "$1" "SELECT variant, agent0, agent1, game_index, seed, side0,
        side1, result, winner_seat, reason, plies, moves FROM game_view
        ORDER BY variant, agent0, agent1, game_index"
}
count() { sqlite3 "$1" "SELECT COUNT(*) FROM games" 2>/dev/null || echo 0; }
wait_for_games() { # wait_for_games DB N: until N games are committed
    for _ in $(seq 1 300); do
        [ "$(count "$1")" -ge "$2" ] && return 0
        sleep 0.1
    done
    return 1
}

"$bin" run "$dir/s.ini" --db "$dir/full.db" --threads 2 --quiet
[ "$(count "$dir/full.db")" -eq $total ] && ok "uninterrupted run: $total games" \
    || bad "uninterrupted run has $(count "$dir/full.db") games"

# SIGKILL in the middle, then resume.
"$bin" run "$dir/s.ini" --db "$dir/killed.db" --threads 2 --quiet &
pid=$!
if wait_for_games "$dir/killed.db" 10; then
    kill -9 $pid
    wait $pid 2>/dev/null
    n=$(count "$dir/killed.db")
    check=$(sqlite3 "$dir/killed.db" "PRAGMA integrity_check")
    if [ "$check" = ok ] && [ "$n" -lt $total ]; then
        ok "killed after $n games: database consistent"
    else bad "after SIGKILL: integrity '$check', $n games"; fi
else
    kill -9 $pid 2>/dev/null
    bad "no games committed within 30 s"
fi
"$bin" run "$dir/s.ini" --db "$dir/killed.db" --threads 2 --quiet
if [ "$(rows "$dir/killed.db")" = "$(rows "$dir/full.db")" ]; then
    ok "resumed after SIGKILL: the same rows as the uninterrupted run"
else bad "resumed rows differ from the uninterrupted run"; fi

# SIGINT: a clean stop that says how to resume.
"$bin" run "$dir/s.ini" --db "$dir/int.db" --threads 2 2>"$dir/int.err" &
pid=$!
wait_for_games "$dir/int.db" 5
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 1 ] && grep -q "To resume, run the same command again" "$dir/int.err" \
        && grep -q "interrupted" <<<"$(sqlite3 "$dir/int.db" "SELECT status FROM runs")"; then
    ok "SIGINT: exit 1, resume message, run marked interrupted"
else bad "SIGINT: rc=$rc, $(tail -2 "$dir/int.err")"; fi
"$bin" run "$dir/s.ini" --db "$dir/int.db" --threads 1 --quiet
if [ "$(rows "$dir/int.db")" = "$(rows "$dir/full.db")" ]; then
    ok "resumed after SIGINT on 1 thread: the same rows"
else bad "rows after SIGINT and resume differ"; fi

# A report while a sweep writes.
sed 's/games = 160/games = 1600/' "$dir/s.ini" >"$dir/long.ini"
"$bin" run "$dir/long.ini" --db "$dir/busy.db" --threads 2 --quiet &
pid=$!
wait_for_games "$dir/busy.db" 5
out=$("$bin" report "$dir/busy.db" --format csv 2>&1)
rc=$?
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
if [ $rc -eq 0 ] && grep -q "^# cells" <<<"$out"; then
    ok "report while the sweep writes"
else bad "report during a sweep: rc=$rc: $(head -3 <<<"$out")"; fi

# replay and export agree with the rows.
id=$(sqlite3 "$dir/full.db" "SELECT MAX(id) FROM games")
if "$bin" replay "$dir/full.db" "$id" | grep -q "consistent"; then
    ok "replay of game $id is consistent"
else bad "replay of game $id"; fi
sqlite3 "$dir/full.db" "UPDATE games SET plies = plies + 1 WHERE id = $id"
if ! "$bin" replay "$dir/full.db" "$id" >/dev/null; then
    ok "replay finds a tampered row"
else bad "replay accepted a tampered row"; fi
lines=$("$bin" export "$dir/full.db" --csv | wc -l)
[ "$lines" -eq $((total + 1)) ] && ok "export: a header and $total rows" \
    || bad "export printed $lines lines"
"$bin" report "$dir/full.db" --format json >"$dir/r.json"
games=$(sqlite3 :memory: "SELECT json_valid(readfile('$dir/r.json')),
    (SELECT SUM(json_extract(value, '\$.games'))
     FROM json_each(readfile('$dir/r.json'), '\$.cells'))")
[ "$games" = "1|$total" ] && ok "report --format json: valid, $total games in its cells" \
    || bad "report json: '$games'"

finish
