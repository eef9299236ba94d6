#!/usr/bin/env bash
# test_records.sh -- games as text: `rulelab export DB --games FILE` and
# `rulelab import FILE --db DB` end to end:
# - a sweep with openings in two games, exported and imported: every
#   stored column of every game the same, the report the same line for
#   line, and `run` on the imported database has nothing left to play;
# - importing the same file again stores nothing new;
# - a record with an illegal move, a wrong result, a wrong plies count, an
#   unknown reason, another behaviour version: an error naming the line,
#   the game and (for the move) its number, and no database left behind;
# - hand-written records without a sweep file (as another tool would
#   write them): imported into a sweep made for them, which report reads.
# Usage: test_records.sh PATH/TO/rulelab
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(dirname "$0")/sh_helpers.sh"
py=/usr/bin/python3

games() { # every stored column but ids, the run and the time it was stored
    "$py" -c 'import sqlite3, sys
q = """select s.name, s.seed, s.file_text, v.canonical, c.agent0_name,
  c.agent1_name, a0.spec, a1.spec, g.game_index, g.seed, g.side0, g.side1,
  g.result, g.winner_seat, g.reason, g.plies, g.duration_ms, g.moves,
  g.opening, g.opening_position, g.pair_id, c.openings
  from games g join cells c on c.id = g.cell_id
  join sweeps s on s.id = c.sweep_id join variants v on v.id = c.variant_id
  join agents a0 on a0.id = c.agent0_id join agents a1 on a1.id = c.agent1_id
  order by s.name, v.canonical, c.agent0_name, c.agent1_name, g.game_index"""
for row in sqlite3.connect(sys.argv[1]).execute(q):
    print(repr(row))' "$1"
}

cat >"$dir/s.ini" <<'INI'
[sweep]
name = records
seed = 9
games = 6
[game tafl]
openings = safe_plies:2
[game jetan]
max_plies = 120
[agents]
rnd = random
mcts = mcts(iterations=20)
[matchups]
pairs = rnd vs mcts
INI
"$bin" run "$dir/s.ini" --db "$dir/a.db" --quiet >/dev/null 2>&1
check "export --games" 0 "" -- "$bin" export "$dir/a.db" --games "$dir/a.games"
check "export needs one form" 2 "one of --csv and --games FILE" -- "$bin" export "$dir/a.db"
check "export --games with --out" 2 "--out is for --csv" -- "$bin" export "$dir/a.db" --games "$dir/x" --out "$dir/y"
check "export --games onto the database" 1 "" -- "$bin" export "$dir/a.db" --games "$dir/a.db"
check "import" 0 "24 games imported into $dir/b.db in 1 sweep" -- \
    "$bin" import "$dir/a.games" --db "$dir/b.db"
if [ "$(games "$dir/a.db")" = "$(games "$dir/b.db")" ] && [ "$(games "$dir/a.db" | wc -l)" -eq 24 ]; then
    ok "the same 24 games, every column"
else bad "the imported games differ"; diff <(games "$dir/a.db") <(games "$dir/b.db") | head -4; fi
if [ "$("$bin" report "$dir/a.db")" = "$("$bin" report "$dir/b.db")" ]; then
    ok "the same report"
else bad "the reports differ"; fi
check "run on the imported database plays nothing" 0 "nothing to do: every game" -- \
    "$bin" run "$dir/s.ini" --db "$dir/b.db"
check "imported again: nothing new" 0 "0 games imported into $dir/b.db in 1 sweep; 24 were there already" -- \
    "$bin" import "$dir/a.games" --db "$dir/b.db"

# ---- bad records: the error names them, nothing is left -----------------
first_game=$(grep -n '^\[Sweep "records"\]' "$dir/a.games" | head -1 | cut -d: -f1)
moves_line=$(awk -v f="$first_game" 'NR > f && /^1\. / {print NR; exit}' "$dir/a.games")
bad_file() { # bad_file NAME SED: a copy of a.games with SED applied
    sed "$2" "$dir/a.games" >"$dir/$1.games"
}
expect_refused() { # NAME TEXT
    check "$1 refused" 1 "$2" -- "$bin" import "$dir/$1.games" --db "$dir/$1.db"
    if [ -e "$dir/$1.db" ]; then bad "$1: a database was left"; else ok "$1: no database left"; fi
}
# the first game's second move made illegal: its first move again
first_move=$(sed -n "${moves_line}p" "$dir/a.games" | awk '{print $2}')
bad_file illegal "${moves_line}s/^1\. \([^ ]*\) [^ ]*/1. \1 $first_move/"
expect_refused illegal "line $first_game (sweep records, "
check "the illegal move is named by its number" 1 "move 2 '$first_move'" -- \
    "$bin" import "$dir/illegal.games" --db "$dir/illegal.db"
# a decisive game's result turned round, in its tag and after its moves
decisive=$(awk -v f="$first_game" 'NR > f && /^\[Result "(1-0|0-1)"\]/ {print NR; exit}' "$dir/a.games")
result=$(sed -n "${decisive}p" "$dir/a.games" | cut -d'"' -f2)
other=$([ "$result" = "1-0" ] && echo "0-1" || echo "1-0")
end=$(awk -v d="$decisive" 'NR > d && / (1-0|0-1|1\/2-1\/2)$/ {print NR; exit}' "$dir/a.games")
bad_file result "${decisive}s/$result/$other/; ${end}s/ $result\$/ $other/"
expect_refused result "the record says $other"
bad_file result_tag "${decisive}s/$result/$other/"
expect_refused result_tag "the Result tag says $other, the moves end with $result"
bad_file plies "$((first_game + 13)),$((first_game + 40))s/\[Plies \"\([0-9]*\)\"\]/[Plies \"1\1\"]/"
expect_refused plies "Plies differs from the moves"
bad_file reason "$((first_game + 13)),$((first_game + 40))s/\[Reason \"[a-z_]*\"\]/[Reason \"resigned\"]/"
expect_refused reason "unknown reason 'resigned'"
bad_file behaviour "$((first_game + 13)),$((first_game + 40))s/\[Behaviour \"1 1 2\"\]/[Behaviour \"1 1 1\"]/"
expect_refused behaviour "played at behaviour versions 1 1 1"
bad_file duration "$((first_game + 13)),$((first_game + 40))s/\[DurationMs \"[^\"]*\"\]/[DurationMs \"fast\"]/"
expect_refused duration "DurationMs is no number of milliseconds"
printf '[Variant "tafl"]\n[Seat0 "a"]\n' >"$dir/cut.games"
expect_refused cut "no result (1-0, 0-1 or 1/2-1/2)"

# ---- records another tool wrote: no sweep file, no index ------------------
moves=$("$bin" play tafl --agents random,random --seed 4 | grep -E '^ *[0-9]+\. seat' | awk '{print $NF}' | tr '\n' ' ')
end=$("$bin" play tafl --agents random,random --seed 4 | grep '^result')
case "$end" in
    *"seat 0 wins"*) token=1-0 ;;
    *"seat 1 wins"*) token=0-1 ;;
    *) token=1/2-1/2 ;;
esac
reason=$(sed 's/.* by \([a-z_]*\).*/\1/' <<<"$end")
{
    for i in 1 2; do
        printf '[Variant "tafl"]\n[Seat0 "x"]\n[Seat0Spec "random"]\n'
        printf '[Seat1 "y"]\n[Seat1Spec "random"]\n[Result "%s"]\n' "$token"
        printf '[Reason "%s"]\n%s %s\n\n' "$reason" "$moves" "$token"
    done
} >"$dir/foreign.games"
check "records without a sweep file" 0 "2 games imported" -- \
    "$bin" import "$dir/foreign.games" --db "$dir/f.db"
check "the report reads them" 0 ",x,x,2," -- "$bin" report "$dir/f.db" --format csv
finish
