#!/usr/bin/env bash
# test_ext.sh -- outside programs as agents (ext) and rulelab's agents as
# outside programs (rulelab engine), end to end:
# - a faulty engine (tests/fixtures/faulty_engine.py: an illegal move in
#   game 3, too late in game 5, gone in game 7 of 10): 10 games stored
#   with those reasons, the opponent winning each, exit 0, no hang;
# - an engine that always plays an illegal move: the run stops after
#   EXT_FORFEITS_MAX (5) forfeits in a row with an error, the 5 games kept;
# - a program that does not start: an error naming it, no game stored;
# - engines files: shards run from two folders with the same engine
#   installed in each merge (the identity is its name, declared version
#   and options, not its path); a version the engine does not say stops
#   the run;
# - `rulelab engine` behind ext plays the games of the same agent in
#   process (ab and mcts at node budgets, three games, from the start and
#   after --moves);
# - the Python example engine against MCTS in a sweep, killed (-9) part
#   way and resumed: every game stored once, none forfeited, and the
#   report reads it.
# Usage: test_ext.sh PATH/TO/rulelab
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(dirname "$0")/sh_helpers.sh"
py=/usr/bin/python3

games() { # games of database $1: index, result, reason, one a line
    "$py" -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(
        "select game_index, result, reason from games order by game_index"):
    print(*r)' "$1"
}

# ---- faults ---------------------------------------------------------------
cat >"$dir/faulty.ini" <<INI
[sweep]
name = faulty
seed = 3
games = 10
[game tafl]
[agents]
faulty = ext(cmd="$py $root/tests/fixtures/faulty_engine.py $dir/count",ms=50,grace=300)
rnd = random
[matchups]
pairs = faulty vs rnd
orders = given
INI
start=$(date +%s)
check "a faulty engine: the run ends, exit 0" 0 "10 games played" -- \
    timeout 60 "$bin" run "$dir/faulty.ini" --db "$dir/faulty.db" --threads 1
if [ $(($(date +%s) - start)) -lt 20 ]; then ok "no hang (the late reply cut at its deadline)"
else bad "the faulty run took $(($(date +%s) - start)) s"; fi
want="2 seat1 forfeit_illegal
4 seat1 forfeit_time
6 seat1 forfeit_crash"
got=$(games "$dir/faulty.db" | grep forfeit)
if [ "$got" = "$want" ] && [ "$(games "$dir/faulty.db" | wc -l)" -eq 10 ]; then
    ok "games 3, 5 and 7 forfeited with their reasons, 10 stored"
else bad "forfeits: $got"; fi
check "the engine's log has rulelab's reasons" 0 "no bestmove within 350 ms" -- \
    cat "$dir"/faulty.db.engines/engine-*.log
# the report counts them apart: 3 by seat 0 of 10, and seat 0's score
# over the 7 games played out, computed here from the stored games
played=$("$py" -c 'import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "select result from games where reason not like \"forfeit%\"").fetchall()
points = sum({"seat0": 1, "draw": 0.5}.get(r, 0) for (r,) in rows)
print("%.3f" % (points / len(rows)))' "$dir/faulty.db")
report=$("$bin" report "$dir/faulty.db")
if grep -Eq "^tafl +faulty +rnd +10 +3 +0 +[0-9.]+ +$played" <<<"$report"; then
    ok "the report counts the forfeits apart (played out: $played)"
else bad "report (want $played played out): $(grep -A2 '^forfeits' <<<"$report")"; fi
check "the report page has them" 0 'id="forfeits"' -- "$bin" report "$dir/faulty.db" --format html
check "the JSON has them" 0 '"forfeits": [3, 0]' -- "$bin" report "$dir/faulty.db" --format json

cat >"$dir/illegal.ini" <<'INI'
[sweep]
name = illegal
games = 10
[game tafl]
[agents]
; a whole engine in the command: quotes keep its ';' and ')' in the spec
bad = ext(cmd="while read l; do case $l in rulelab*) echo ready 1;; go*) echo bestmove zz99;; esac; done",ms=100)
rnd = random
[matchups]
pairs = bad vs rnd
orders = given
INI
check "forfeits in a row stop the run" 1 "forfeited 5 games in a row (the last: forfeit_illegal)" -- \
    timeout 60 "$bin" run "$dir/illegal.ini" --db "$dir/illegal.db" --threads 1
if [ "$(games "$dir/illegal.db" | grep -c forfeit_illegal)" -eq 5 ]; then
    ok "the 5 forfeited games stay stored"
else bad "stored: $(games "$dir/illegal.db")"; fi

sed 's/^bad = .*/bad = ext(cmd="exit 3",ms=100)/' "$dir/illegal.ini" >"$dir/dead.ini"
check "a program that does not start" 1 "the program \`exit 3\` did not start" -- \
    timeout 60 "$bin" run "$dir/dead.ini" --db "$dir/dead.db" --threads 1
if [ "$(games "$dir/dead.db" | wc -l)" -eq 0 ]; then ok "no game stored"
else bad "games stored for a program that never started"; fi

# ---- engines files: the identity is the engine's name, version and
# options, so shards run from two folders (two machines) merge -----------
for m in m1 m2; do
    mkdir -p "$dir/$m/bin"
    cp "$root/agents/outside/random_engine.py" "$dir/$m/bin/"
    cat >"$dir/$m/engines.ini" <<INI
; the same engine, installed in another folder
[engine rnd]
command = $py random_engine.py
folder = bin
version = 1
option Depth = 3
INI
    cat >"$dir/$m/s.ini" <<'INI'
[sweep]
name = engines
seed = 4
games = 6
engines = engines.ini
[game tafl]
[agents]
rnd = ext(engine=rnd,ms=100)
random = random
[matchups]
pairs = rnd vs random
INI
done
check "shard 0/2 in one folder" 0 "games played" -- "$bin" run "$dir/m1/s.ini" --shard 0/2 --db "$dir/m1/a.db"
check "shard 1/2 in another" 0 "games played" -- "$bin" run "$dir/m2/s.ini" --shard 1/2 --db "$dir/m2/b.db"
check "the shards merge" 0 "" -- "$bin" merge "$dir/merged.db" "$dir/m1/a.db" "$dir/m2/b.db"
if [ "$(games "$dir/merged.db" | wc -l)" -eq 12 ]; then ok "12 games merged"
else bad "merged: $(games "$dir/merged.db" | wc -l) games"; fi
spec=$("$py" -c 'import sqlite3, sys
print(*[r[0] for r in sqlite3.connect(sys.argv[1]).execute(
    "select identity from agents where identity like \"ext%\"")])' "$dir/merged.db")
if [ "$spec" = 'ext(engine=rnd,grace=2000,ms=100,nodes=0,options="Depth=3",version=1)' ]; then
    ok "the identity: name, version, options, no path"
else bad "identity: $spec"; fi
sed -i 's/^version = 1/version = 2/' "$dir/m2/engines.ini"
check "a version the engine does not say" 1 "it says version '1', its engines file declares '2'" -- \
    "$bin" run "$dir/m2/s.ini" --db "$dir/m2/c.db"
check "an engine in no engines file" 1 "no engine nope in an engines file" -- \
    "$bin" play tafl --agents 'ext(engine=nope,ms=100),random'

# ---- rulelab engine ------------------------------------------------------
check "engine --help" 0 "usage: rulelab engine --agent SPEC" -- "$bin" engine --help
check "engine needs --agent" 2 "needs --agent SPEC" -- "$bin" engine
check "engine with a bad spec" 2 "unknown agent 'nope'" -- "$bin" engine --agent nope
check "a session" 0 "bestmove" -- bash -c \
    "printf 'rulelab 1\nnewgame tafl 5\nposition startpos\ngo nodes 100\nquit\n' | '$bin' engine --agent 'ab(nodes=100)'"

moves_of() { # the move lines and the result, without the agents' specs
    grep -E '^ *[0-9]+\. seat|^result' | sed 's/ (attackers, .*//; s/ (defenders, .*//; s/ (\(white\|black\|orange\|yellow\), .*//'
}
for v in tafl jetan serbest; do
    for seed in 1 2; do
        pre=""
        [ "$seed" = 2 ] && pre=$("$bin" play "$v" --agents random,random --seed 9 | grep -E '^ *[1-4]\. seat' | awk '{print $NF}' | tr '\n' ' ')
        a="ab(nodes=300)" b="mcts(iterations=200)"
        ea="ext(cmd=\"$bin engine --agent '$a'\",nodes=1)"
        eb="ext(cmd=\"$bin engine --agent '$b'\",nodes=1)"
        in=$("$bin" play "$v" --agents "$a,$b" --seed "$seed" ${pre:+--moves "$pre"} | moves_of)
        out=$("$bin" play "$v" --agents "$ea,$eb" --seed "$seed" ${pre:+--moves "$pre"} | moves_of)
        if [ -n "$in" ] && [ "$in" = "$out" ]; then
            ok "engine behind ext = in process: $v seed $seed${pre:+ after $pre}($(wc -l <<<"$in") lines)"
        else
            bad "engine behind ext differs: $v seed $seed"
            diff <(echo "$in") <(echo "$out") | head -5
        fi
    done
done

# ---- the example engine in a sweep, killed and resumed -----------------
cat >"$dir/example.ini" <<INI
[sweep]
name = example
seed = 11
games = 40
[game tafl]
openings = safe_plies:2
[agents]
example = ext(cmd="$py $root/agents/outside/random_engine.py",ms=100)
mcts = mcts(iterations=300)
[matchups]
pairs = example vs mcts
INI
"$bin" run "$dir/example.ini" --db "$dir/example.db" --threads 2 --quiet &
pid=$!
for _ in $(seq 100); do # until some games are committed
    n=$([ -f "$dir/example.db" ] && games "$dir/example.db" 2>/dev/null | wc -l || echo 0)
    [ "${n:-0}" -ge 4 ] && break
    sleep 0.1
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
before=$(games "$dir/example.db" | wc -l)
if [ "$before" -lt 80 ]; then ok "killed part way ($before of 80 games)"
else bad "the run ended before the kill"; fi
check "resumed" 0 "games played" -- "$bin" run "$dir/example.ini" --db "$dir/example.db" --threads 2
n=$(games "$dir/example.db" | wc -l)
distinct=$("$py" -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(
    "select count(distinct cell_id || \"/\" || game_index) from games").fetchone()[0])' "$dir/example.db")
if [ "$n" -eq 80 ] && [ "$distinct" -eq 80 ] && ! games "$dir/example.db" | grep -q forfeit; then
    ok "80 games, each once, none forfeited"
else bad "after the resume: $n games, $distinct distinct"; fi
check "the report reads it" 0 "example" -- "$bin" report "$dir/example.db"
if "$bin" report "$dir/example.db" | grep -q '^forfeits'; then
    bad "a forfeits table without forfeits"
else ok "no forfeits table without forfeits"; fi
finish
