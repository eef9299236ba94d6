#!/usr/bin/env bash
# test_cli.sh -- end-to-end tests of the rulelab command line: exit codes,
# --help everywhere, perft and show output, bench's JSON keys.
# Usage: test_cli.sh PATH/TO/rulelab
set -u
bin=$1
# shellcheck source=tests/sh_helpers.sh
. "$(dirname "$0")/sh_helpers.sh"

check "no command"         2 "usage: rulelab"        -- "$bin"
check "main help"          0 "perft"                 -- "$bin" --help
check "unknown command"    2 "unknown command 'frob'" -- "$bin" frob
for cmd in list perft show bench play run report ratings tune replay export solve verify claim; do
    check "$cmd --help"    0 "usage: rulelab $cmd"   -- "$bin" "$cmd" --help
done
check "unknown option"     2 "unknown option '--bogus'" -- "$bin" perft tafl 1 --bogus
check "missing value"      2 "needs a value"         -- "$bin" perft tafl 1 --moves
check "perft needs depth"  2 "needs VARIANT and DEPTH" -- "$bin" perft tafl
check "bad depth"          2 "DEPTH must be"         -- "$bin" perft tafl x
check "bad variant"        1 "unknown key 'frist'"   -- "$bin" perft "tafl(frist=defenders)" 1
check "list shows params"  0 "repetition_limit"      -- "$bin" list
check "list one game"      0 "throne_passable"       -- "$bin" list tafl
check "list unknown game"  1 "unknown game"          -- "$bin" list chess

out=$("$bin" perft "tafl(first=defenders)" 3 | tail -n 1)
if [ "$out" = "225224" ]; then echo "ok   perft 3 last line"; pass=$((pass+1));
else echo "FAIL perft 3 last line: '$out'"; fail=$((fail+1)); fi

out=$("$bin" perft tafl 2 --divide)
lines=$(wc -l <<<"$out")
last=$(tail -n 1 <<<"$out")
sum=$(head -n -1 <<<"$out" | awk '{s += $2} END {print s}')
if [ "$lines" -eq 73 ] && [ "$last" = 3944 ] && [ "$sum" = 3944 ]; then
    echo "ok   perft --divide"; pass=$((pass+1))
else echo "FAIL perft --divide: $lines lines, last $last, sum $sum"; fail=$((fail+1)); fi

check "perft with moves"   0 "50"                    -- "$bin" perft tafl 1 --moves "d1d3"
check "illegal move"       1 "move 2: move 'd1d2' is not legal here" -- "$bin" perft tafl 1 --moves "d1d3 d1d2"
check "bad position"       1 "tafl position"         -- "$bin" perft tafl 1 --position "9/9 a"
check "show"               0 "legal moves (50)"      -- "$bin" show tafl --moves d1d3
check "show position"      0 "to move:  defenders (seat 1)" -- "$bin" show tafl --position "9/9/9/9/4k4/9/9/9/1a7 d"
check "show game over"     0 "game over: seat 1 wins (king_escaped), defenders win" -- "$bin" show tafl --position "8k/9/9/9/9/9/9/9/1a7 a"
check "bench json"         0 '"plies_per_sec"'       -- "$bin" bench tafl --seconds 0.2 --json
check "bench threads"      0 "speed-up"              -- "$bin" bench tafl --seconds 0.2 --threads 2
check "bench bad seconds"  2 "--seconds must be"     -- "$bin" bench tafl --seconds -1

check "list shows agents"  0 "mcts - UCT"            -- "$bin" list
check "play"               0 "result: "              -- "$bin" play tafl --agents "random,mcts(iterations=20)"
check "play needs agents"  2 "needs VARIANT and --agents" -- "$bin" play tafl
check "play one agent"     2 "two specs"             -- "$bin" play tafl --agents random
check "play bad agent"     1 "unknown agent 'alpha'" -- "$bin" play tafl --agents random,alpha
check "play bad key"       1 "unknown key 'iters'"   -- "$bin" play tafl --agents "random,mcts(iters=3)"
check "play --show"        0 "iterations"            -- "$bin" play "tafl(max_plies=4)" --agents "mcts(iterations=30),random" --show
a=$("$bin" play serbest --agents "random,mcts(iterations=30)" --seed 9)
b=$("$bin" play serbest --agents "random,mcts(iterations=30)" --seed 9)
if [ "$a" = "$b" ]; then echo "ok   play same seed, same game"; pass=$((pass+1));
else echo "FAIL play same seed gave two games"; fail=$((fail+1)); fi
out=$(printf 'moves\nz9z9\nquit\n' | "$bin" play tafl --agents human,random 2>&1)
if grep -q "legal moves (72)" <<<"$out" && grep -q "is not a tafl move" <<<"$out" \
        && grep -q "game abandoned" <<<"$out"; then
    echo "ok   play human"; pass=$((pass+1))
else echo "FAIL play human:"; sed 's/^/    /' <<<"$out" | tail -5; fail=$((fail+1)); fi
# play tells the agents the --moves that led to the position: after a
# shuttle X, e3d3, X back, d3e3 the position after X has been met, so ab
# with repdraw (and a contempt that makes any draw its worst outcome)
# plays another first move than X, while without repdraw it plays X again
rep='tafl(repetition_draw=0,repetition_limit=0)'
first() { "$bin" play "$rep" --agents "$1,random" --moves "$2" | sed -n 4p \
          | awk '{print $NF}'; }
x=$(first "ab(depth=2,nodes=0,contempt=90000,repdraw=0)" "")
back="${x:2:2}${x:0:2}"
again=$(first "ab(depth=2,nodes=0,contempt=90000,repdraw=0)" "$x e3d3 $back d3e3")
avoid=$(first "ab(depth=2,nodes=0,contempt=90000,repdraw=1)" "$x e3d3 $back d3e3")
if [ -n "$x" ] && [ "$again" = "$x" ] && [ -n "$avoid" ] && [ "$avoid" != "$x" ]; then
    echo "ok   play tells agents the --moves (repdraw avoids $x, plays $avoid)"
    pass=$((pass+1))
else echo "FAIL play --moves not told: x=$x again=$again avoid=$avoid"
    fail=$((fail+1)); fi
out=$(printf 'd1d3\n' | "$bin" play "tafl(max_plies=2)" --agents human,random 2>&1)
if grep -q "1. seat 0 (attackers): d1d3" <<<"$out" && grep -q "result: draw by ply_cap" <<<"$out"; then
    echo "ok   play human move"; pass=$((pass+1))
else echo "FAIL play human move:"; sed 's/^/    /' <<<"$out" | tail -5; fail=$((fail+1)); fi

json=$("$bin" bench tafl --seconds 0.2 --json)
for key in playouts_per_sec plies_per_sec avg_plies threads mcts_iterations_per_sec; do
    if grep -q "\"$key\"" <<<"$json"; then pass=$((pass+1)); echo "ok   json has $key";
    else fail=$((fail+1)); echo "FAIL json lacks $key: $json"; fi
done

check "run needs a file"   2 "needs a sweep file"    -- "$bin" run
check "run missing file"   1 "No such file"          -- "$bin" run /nonexistent.ini
check "run dry-run"        0 "cells x 40 games"      -- "$bin" run "$(dirname "$0")/../experiments/sweeps/quickstart.ini" --dry-run --calibrate 0
check "report no db"       1 "rulelab: "             -- "$bin" report /nonexistent.db
check "report bad format"  2 "--format must be"      -- "$bin" report x.db --format xml
check "export needs a form" 2 "needs DB and one of --csv and --games FILE" -- "$bin" export x.db
check "ratings bad format" 2 "--format must be"      -- "$bin" ratings x.db --format xml
check "ratings bad anchor" 2 "--anchor takes SPEC=ELO" -- "$bin" ratings x.db --anchor random
check "ratings no db"      1 "rulelab: "             -- "$bin" ratings /nonexistent.db
# ratings on a small sweep: random against a weak MCTS, both seat orders
dir=$(mktemp -d)
printf '[sweep]\nname = rate\ngames = 20\nmax_plies = 40\n[game tafl]\n[agents]\nr = random\nm = mcts(iterations=5)\n' >"$dir/rate.ini"
"$bin" run "$dir/rate.ini" --db "$dir/rate.db" --threads 1 --quiet >/dev/null 2>&1
check "ratings table"      0 "anchor: r = 0 (default: random at 0)" -- "$bin" ratings "$dir/rate.db"
check "ratings from sweep" 0 "40 games, from sweep rate (seed 1)" -- "$bin" ratings "$dir/rate.db" --sweep rate
check "ratings json"       0 '"first_move_elo": '   -- "$bin" ratings "$dir/rate.db" --format json
check "ratings anchor"     0 "anchor: m = 100 (--anchor)" -- "$bin" ratings "$dir/rate.db" --anchor "mcts(iterations=5)=100"
check "ratings unknown anchor" 1 "no agent 'zz'"     -- "$bin" ratings "$dir/rate.db" --anchor zz=0
check "ratings unknown sweep" 1 "holds no sweep named 'nope'" -- "$bin" ratings "$dir/rate.db" --sweep nope
# tune on the same games (tafl only)
check "tune needs --game"  2 "needs --game"          -- "$bin" tune "$dir/rate.db"
check "tune unknown game"  2 "unknown game 'chess'"  -- "$bin" tune "$dir/rate.db" --game chess
check "tune no games"      1 "holds no games of jetan" -- "$bin" tune "$dir/rate.db" --game jetan
check "tune other variant" 1 "holds no games of tafl(" -- "$bin" tune "$dir/rate.db" --game tafl --variant "tafl(first=defenders)"
check "tune too few"       1 "too few positions to fit 10 weights" -- "$bin" tune "$dir/rate.db" --game tafl --positions 50
check "tune table"         0 "spec: ab(tafl_attackers=" -- "$bin" tune "$dir/rate.db" --game tafl
check "tune json"          0 '"positions_held_out": ' -- "$bin" tune "$dir/rate.db" --game tafl --format json
check "tune csv"           0 "variant,weight,hand_set,fitted" -- "$bin" tune "$dir/rate.db" --game tafl --format csv
check "tune agent spec"    0 "spec: ab(nodes=20000,tafl_attackers=" -- "$bin" tune "$dir/rate.db" --game tafl --agent "ab(nodes=20000)"
check "tune bad agent"     2 "--agent takes an agent kind" -- "$bin" tune "$dir/rate.db" --game tafl --agent random
check "tune --save"        0 "saved the fitted weights of 1 variant in" -- "$bin" tune "$dir/rate.db" --game tafl --save
check "report shows them"  0 "fitted evaluation weights per variant" -- "$bin" report "$dir/rate.db"
# metrics: the replay cache, then the report's branching column
check "metrics needs a db" 2 "needs a database"      -- "$bin" metrics
check "metrics no db"      1 "No such file"          -- "$bin" metrics "$dir/none.db"
check "metrics caches"     0 "40 games, 40 replayed and cached now, 0 cached before" -- "$bin" metrics "$dir/rate.db"
check "metrics again"      0 "40 games, 0 replayed and cached now, 40 cached before" -- "$bin" metrics "$dir/rate.db" --quiet
check "metrics no sweep"   1 "holds no games of a sweep named 'nope'" -- "$bin" metrics "$dir/rate.db" --sweep nope
json=$("$bin" report "$dir/rate.db" --format json)
if [ "$(grep -c '"branching": [0-9.]*, "branching_games": 20, "lead_changes": null' <<<"$json")" -eq 2 ]; then
    pass=$((pass+1)); echo "ok   report shows both cells' cached branching factors, no lead figures without move values"
else fail=$((fail+1)); echo "FAIL report metrics: $(grep -o '"branching[^}]*' <<<"$json")"; fi
rm -rf "$dir"
for f in "$(dirname "$0")"/../experiments/sweeps/*.ini; do
    check "sweep $(basename "$f") parses" 0 "games" -- "$bin" run "$f" --dry-run --calibrate 0
done

proof=$(mktemp)
check "solve win in 3"     0 "proven win within 3 plies" -- "$bin" solve tafl --position "4a4/9/9/a7a/9/9/9/4k4/9 d" --plies 3 --proof "$proof"
check "verify the proof"   0 "valid: in tafl("       -- "$bin" verify "$proof"
sed -i '7d' "$proof"
check "verify a cut proof" 1 "INVALID: line 6: after " -- "$bin" verify "$proof"
rm -f "$proof"
check "the Kings Landing proof" 0 "the side to move wins within 5 plies (18205 lines)" -- "$bin" verify "$(dirname "$0")/../experiments/proofs/serbest_kl9_win5.proof"
check "solve no win"       0 "no forced win within 2 plies (proven)" -- "$bin" solve tafl --position "4a4/9/9/a7a/9/9/9/4k4/9 d" --plies 2
disproof=$(mktemp)
check "solve no win, disproof kept" 0 "disproof: 16 nodes" -- "$bin" solve tafl --position "4a4/9/9/a7a/9/9/9/4k4/9 d" --plies 2 --proof "$disproof"
check "verify the disproof" 0 "has no forced win within 2 plies (16 nodes" -- "$bin" verify "$disproof"
# the data's last edge (the reply e2e8, slot END) cut: the root's record
# then ends inside its last node
head -c -5 "$disproof" >"$disproof.cut"
check "verify a cut disproof" 1 "INVALID: node 15 (line: " -- "$bin" verify "$disproof.cut"
rm -f "$disproof" "$disproof.cut"
check "the Kings Landing disproof" 0 "no forced win within 3 plies (1361 nodes" -- "$bin" verify "$(dirname "$0")/../experiments/proofs/serbest_kl8_nowin3.disproof"
check "solve budget"       0 "unknown: node budget" -- "$bin" solve serbest --plies 5 --nodes 3
check "solve needs plies"  2 "needs VARIANT and --plies" -- "$bin" solve tafl
check "solve bad plies"    2 "--plies must be"       -- "$bin" solve tafl --plies 99

# bad input found in review: perft depth bound, bench --seconds, position
# counters, Serbest kings (limits: experiments/cli/cmd_perft.c and
# docs/rules.md#notation).
check "perft tafl 20 bound" 2 "depth 20 is too deep for tafl: at most 5" -- "$bin" perft tafl 20
check "perft serbest bound" 2 "at most 3"            -- "$bin" perft serbest 4
check "perft --force"      0 ""                      -- "$bin" perft tafl 6 --force --position "9/9/9/9/4k4/9/9/9/1a7 d"
for s in nan inf -inf -1 0 junk "" 1e999 3x; do
    check "bench --seconds '$s'" 2 "--seconds must be a number" -- "$bin" bench tafl --seconds "$s"
done
check "counter -1"         1 "'-1' as the no-capture plies" -- "$bin" show tafl --position "9/9/9/9/4k4/9/9/9/1a7 a -1"
check "ply overflow"       1 "ply '4294967296' is too large" -- "$bin" show tafl --position "9/9/9/9/4k4/9/9/9/1a7 a 0 4294967296"
check "serbest no king"    1 "white has no king"     -- "$bin" show serbest --position "10/10/10/10/10/10/10/10/10/10[] w"
check "serbest king in hand" 0 "to move:  white"     -- "$bin" show serbest --position "k9/10/10/10/10/10/10/10/10/10[K] w"

# Whole-number options, parsed and range-checked by cli_parse for every
# command alike (the same message, exit 2, as `--name value` or
# `--name=value`), and a value given twice refused.
check "number: not a number"  2 "--plies must be a whole number from 1 to 64, not 'x'" -- "$bin" solve tafl --plies x
check "number: below range"   2 "--plies must be a whole number from 1 to 64, not '0'" -- "$bin" solve tafl --plies=0
check "number: overflow"      2 "--seed must be a whole number from 0 to 2147483647, not '99999999999999999999'" -- "$bin" play tafl --agents random,random --seed 99999999999999999999
check "number: trailing text" 2 "--threads must be a whole number from 1 to 4096, not '2x'" -- "$bin" claim x.db --plies 3 --threads 2x
check "number: in run"        2 "--snapshot-every must be a whole number from 1 to 31536000, not '0'" -- "$bin" run x.ini --snapshot s.db --snapshot-every 0
check "number: in tactics"    2 "--limit must be a whole number from 0 to 1000000, not '-1'" -- "$bin" tactics --limit -1
check "number: given twice"   2 "option --plies is given twice" -- "$bin" solve tafl --plies 3 --plies 5
check "number: default kept"  0 "no forced win within 1 plies" -- "$bin" solve tafl --plies 1

finish
