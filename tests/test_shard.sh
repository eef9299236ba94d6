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
pass=0
fail=0

check() { # check NAME EXPECTED_RC EXPECTED_TEXT -- command...
    local name=$1 want_rc=$2 want_text=$3
    shift 4
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want_rc" ] || ! grep -qF -- "$want_text" <<<"$out"; then
        echo "FAIL $name: rc=$rc (want $want_rc), output:"
        sed 's/^/    /' <<<"$out" | head -20
        fail=$((fail + 1))
    else
        echo "ok   $name"
        pass=$((pass + 1))
    fi
}

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
check "merge missing input"   1 "$dir/none.db: No such file" -- "$bin" merge "$dir/out.db" "$dir/none.db"

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

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
