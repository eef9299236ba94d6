#!/usr/bin/env bash
# test_shard.sh -- `rulelab run --shard` and `rulelab merge` end to end:
# their errors and exit codes, and a sweep played in two shards, merged,
# merged again (skipped) and compared with a one-machine run on every
# column of game_view but ids and timing.
# Usage: test_shard.sh PATH/TO/rulelab
set -u
bin=$1
fixtures=$(cd "$(dirname "$0")/fixtures" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(dirname "$0")/sh_helpers.sh"

cat >"$dir/s.ini" <<'INI'
[sweep]
name = cli_shard
seed = 4
games = 5
[game tafl]
max_plies = 20
[agents]
a = random
b = mcts(iterations=3)
[matchups]
pairs = a vs b
INI

check "run --help names --shard" 0 "--shard K/N" -- "$bin" run --help
check "merge --help"          0 "usage: rulelab merge OUT.db IN.db..." -- "$bin" merge --help
check "--shard K = N"         2 "below N (0 to 3), not 4" -- "$bin" run "$dir/s.ini" --shard 4/4 --db "$dir/x.db"
check "--shard not K/N"       2 "write K/N" -- "$bin" run "$dir/s.ini" --shard 2 --db "$dir/x.db"
check "--shard N = 0"         2 "N must be from 1" -- "$bin" run "$dir/s.ini" --shard 0/0 --db "$dir/x.db"
check "--shard negative"      2 "write K/N" -- "$bin" run "$dir/s.ini" --shard -1/4 --db "$dir/x.db"
check "--shard no value"      2 "needs a value" -- "$bin" run "$dir/s.ini" --shard
check "--dry-run --shard"     0 "shard 1/2 plays 5 of the 10 games" -- "$bin" run "$dir/s.ini" --shard 1/2 --dry-run
[ ! -e "$dir/x.db" ] && { echo "ok   a bad --shard creates no database"; pass=$((pass + 1)); } \
    || { echo "FAIL a bad --shard created $dir/x.db"; fail=$((fail + 1)); }
check "merge needs two"       2 "needs the output database and at least one input" -- "$bin" merge "$dir/out.db"
check "merge nothing"         2 "needs the output database" -- "$bin" merge
check "merge missing input"   1 "input $dir/none.db cannot be read: No such file" -- "$bin" merge "$dir/out.db" "$dir/none.db"

"$bin" run "$dir/s.ini" --db "$dir/whole.db" --quiet --threads 2
"$bin" run "$dir/s.ini" --db "$dir/s0.db" --quiet --threads 2 --shard 0/2
"$bin" run "$dir/s.ini" --db "$dir/s1.db" --quiet --threads 2 --shard 1/2
check "resume a done shard"   0 "nothing to do" -- "$bin" run "$dir/s.ini" --db "$dir/s1.db" --shard 1/2
check "merge two shards"      0 "$dir/out.db: 10 games added" -- "$bin" merge "$dir/out.db" "$dir/s0.db" "$dir/s1.db"
check "merge again: skipped"  0 "unchanged since its last merge, skipped" -- "$bin" merge "$dir/out.db" "$dir/s0.db" "$dir/s1.db"
check "OUT as an input"       1 "is the output database itself" -- "$bin" merge "$dir/out.db" "$dir/out.db"
q="SELECT sweep, sweep_seed, game, variant, agent0_name, agent1_name, agent0, agent1, game_index, seed, side0, side1, result, winner_seat, reason, plies, moves, opening_position, opening, pair_id, openings FROM game_view ORDER BY variant, agent0, agent1, game_index"
if [ "$(sqlite3 "$dir/out.db" "$q")" = "$(sqlite3 "$dir/whole.db" "$q")" ] \
        && [ "$(sqlite3 "$dir/out.db" "SELECT COUNT(*) FROM games")" -eq 10 ]; then
    echo "ok   the merge equals the one-machine run"; pass=$((pass + 1))
else echo "FAIL the merge differs from the one-machine run"; fail=$((fail + 1)); fi
check "report reads the merge" 0 "tafl(max_plies=20)  a      b      5" -- "$bin" report "$dir/out.db"
cp "$dir/whole.db" "$dir/bad.db"
sqlite3 "$dir/bad.db" "UPDATE games SET moves = moves || ' a1a2' WHERE game_index = 3 AND cell_id = 2"
check "conflicting game"      1 "hold game 3 of cell" -- "$bin" merge "$dir/out.db" "$dir/bad.db"
check "... names both files"  1 "$dir/bad.db and $dir/s" -- "$bin" merge "$dir/out.db" "$dir/bad.db"
sqlite3 "$dir/old.db" <"$fixtures/cbdcb07.sql"
check "an old input"          1 "rulelab migrate" -- "$bin" merge "$dir/out.db" "$dir/old.db"

# A stop-rule sweep dealt by a plan: the calibration, the plan file, its
# refusals, and two planned shards merged equal to a one-machine run.
cat >"$dir/stop.ini" <<'INI'
[sweep]
name = cli_plan
seed = 6
games = 6
stop = sprt
min_games = 4
[game tafl]
max_plies = 16, 24, 32
[agents]
a = random
b = mcts(iterations=5)
[matchups]
pairs = a vs b
orders = given
INI
check "dry-run estimates"     0 "estimated cost: " -- "$bin" run "$dir/stop.ini" --dry-run --calibrate 0.01 --threads 2
check "... counts calibration" 0 "calibration games (each cell's first" -- "$bin" run "$dir/stop.ini" --dry-run --calibrate 0.01
check "--calibrate 0: none"   0 "early stop: sprt" -- "$bin" run "$dir/stop.ini" --dry-run --calibrate 0
if "$bin" run "$dir/stop.ini" --dry-run --calibrate 0 2>&1 | grep -q "estimated"; then
    echo "FAIL --calibrate 0 printed an estimate"; fail=$((fail + 1))
else echo "ok   --calibrate 0 prints no estimate"; pass=$((pass + 1)); fi
check "--calibrate no dry-run" 2 "--calibrate '0.1': with --dry-run" -- "$bin" run "$dir/stop.ini" --calibrate 0.1
check "--calibrate negative"  2 "from 0 (no estimate) to 3600" -- "$bin" run "$dir/stop.ini" --dry-run --calibrate -1
check "--write-plan alone"    2 "--write-plan FILE goes with --dry-run and --shards N" -- "$bin" run "$dir/stop.ini" --dry-run --write-plan "$dir/p.plan"
check "--shards alone"        2 "--shards N goes with --write-plan" -- "$bin" run "$dir/stop.ini" --dry-run --shards 2
check "--plan needs --shard"  2 "--plan FILE goes with --shard K/N" -- "$bin" run "$dir/stop.ini" --plan "$dir/p.plan"
check "--plan, no stop rule"  2 "has no early-stop rule" -- "$bin" run "$dir/s.ini" --shard 0/2 --plan "$dir/p.plan"
check "write a plan"          0 "plan for 2 shards written to $dir/p.plan" -- "$bin" run "$dir/stop.ini" --dry-run --calibrate 0.01 --write-plan "$dir/p.plan" --shards 2
check "... says how to play"  0 "--shard K/2 --plan $dir/p.plan" -- "$bin" run "$dir/stop.ini" --dry-run --calibrate 0.01 --write-plan "$dir/p.plan" --shards 2
check "plan for other N"      1 "the plan deals 2 shards, not 3" -- "$bin" run "$dir/stop.ini" --shard 0/3 --plan "$dir/p.plan" --db "$dir/p.db"
check "plan missing"          1 "$dir/none.plan: No such file" -- "$bin" run "$dir/stop.ini" --shard 0/2 --plan "$dir/none.plan" --db "$dir/p.db"
sed 's/seed = 6/seed = 7/' "$dir/stop.ini" >"$dir/stop7.ini"
check "plan of another sweep" 1 "the plan is for sweep cli_plan (seed 6)" -- "$bin" run "$dir/stop7.ini" --shard 0/2 --plan "$dir/p.plan" --db "$dir/p.db"
[ ! -e "$dir/p.db" ] && { echo "ok   a refused plan creates no database"; pass=$((pass + 1)); } \
    || { echo "FAIL a refused plan created $dir/p.db"; fail=$((fail + 1)); }
check "dry-run with the plan" 0 "whole cells, as the plan deals them" -- "$bin" run "$dir/stop.ini" --dry-run --calibrate 0 --shard 1/2 --plan "$dir/p.plan"
"$bin" run "$dir/stop.ini" --db "$dir/pwhole.db" --quiet --threads 2
"$bin" run "$dir/stop.ini" --db "$dir/p0.db" --quiet --threads 2 --shard 0/2 --plan "$dir/p.plan"
"$bin" run "$dir/stop.ini" --db "$dir/p1.db" --quiet --threads 2 --shard 1/2 --plan "$dir/p.plan"
check "merge planned shards"  0 "games added" -- "$bin" merge "$dir/pout.db" "$dir/p0.db" "$dir/p1.db"
if [ "$(sqlite3 "$dir/pout.db" "$q")" = "$(sqlite3 "$dir/pwhole.db" "$q")" ] \
        && [ -n "$(sqlite3 "$dir/pwhole.db" "$q")" ]; then
    echo "ok   the planned shards' merge equals the one-machine run"; pass=$((pass + 1))
else echo "FAIL the planned shards' merge differs from the one-machine run"; fail=$((fail + 1)); fi
# each cell wholly in the shard the plan names: the plan's comment line
# under "cell INDEX SHARD ..." is "# VARIANT: SEAT0 vs SEAT1"
for k in 0 1; do
    want=$(awk -v k=$k 'take { sub(/^# /, ""); sub(/: a vs b$/, ""); print; take = 0 }
                        $1 == "cell" && $3 == k { take = 1 }' "$dir/p.plan" | sort | tr '\n' ' ')
    got=$(sqlite3 "$dir/p$k.db" "SELECT DISTINCT variant FROM game_view" | sort | tr '\n' ' ')
    if [ "$want" = "$got" ]; then echo "ok   shard $k played the cells the plan deals it"; pass=$((pass + 1))
    else echo "FAIL shard $k played cells '$got', the plan deals it '$want'"; fail=$((fail + 1)); fi
done

# A shard resumed under another deal of its games is refused, and the
# refused run writes nothing (its runs, games, cells and sweep rows are as
# they were): without a stop rule another games count deals other games to
# shard 0; with one, a plan with every cell's shard swapped deals shard 0
# the other cells.
rows() { sqlite3 "$1" "SELECT * FROM runs; SELECT COUNT(*) FROM games;
    SELECT * FROM cells; SELECT * FROM sweeps"; }
rows_before=$(rows "$dir/s0.db")
sed 's/^games = 5/games = 6/' "$dir/s.ini" >"$dir/s6.ini"
check "another games count"   1 "shard 0/2 of this sweep was played here under another deal" -- "$bin" run "$dir/s6.ini" --db "$dir/s0.db" --shard 0/2
if [ "$(rows "$dir/s0.db")" = "$rows_before" ]; then
    echo "ok   the refused run changed no run, game, cell or sweep row"; pass=$((pass + 1))
else echo "FAIL the refused run changed the database's rows"; fail=$((fail + 1)); fi
if [ "$(sqlite3 "$dir/s0.db" "SELECT COUNT(DISTINCT deal) || ':' || MIN(length(deal)) FROM runs")" = "1:64" ]; then
    echo "ok   each shard run records its deal (64 hex digits)"; pass=$((pass + 1))
else echo "FAIL runs.deal is not one 64-digit fingerprint"; fail=$((fail + 1)); fi
check "the same deal resumes" 0 "nothing to do" -- "$bin" run "$dir/s.ini" --db "$dir/s0.db" --shard 0/2
awk '$1 == "cell" { $3 = 1 - $3 } { print }' "$dir/p.plan" >"$dir/swapped.plan"
check "another plan"          1 "under another deal of its games" -- "$bin" run "$dir/stop.ini" --db "$dir/p0.db" --shard 0/2 --plan "$dir/swapped.plan"
check "the same plan resumes" 0 "nothing to do" -- "$bin" run "$dir/stop.ini" --db "$dir/p0.db" --shard 0/2 --plan "$dir/p.plan"

finish
