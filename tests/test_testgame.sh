#!/usr/bin/env bash
# test_testgame.sh -- a fourth game as a checklist: the test-only Nim
# (tests/games/nim.c), joined through the registry alone (tests/games/main.c
# registers it; no file outside its own names it), runs through perft,
# play, a sweep, its report, replay and solve in `rulelab-testgames`, and
# is not in the shipped `rulelab`.
# Usage: test_testgame.sh PATH/TO/rulelab-testgames PATH/TO/rulelab
set -u
bin=$1
shipped=$2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=tests/sh_helpers.sh
. "$here/sh_helpers.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

check "listed in the test build" 0 "nim - take-away Nim" -- "$bin" list
if "$shipped" list | grep -q '^nim'; then
    bad "the shipped rulelab lists nim"
else
    ok "the shipped rulelab does not list nim"
fi

# perft: 3^d while three stones or more are left; depth 8 by hand in
# tests/test_conformance.c (6516)
check "perft nim 6 = 3^6" 0 "729" -- "$bin" perft nim 6
check "perft nim 8 = 6516" 0 "6516" -- "$bin" perft nim 8

check "play, random against random" 0 "by no_moves" \
    -- "$bin" play nim --agents random,random --seed 1

# a sweep: 5 and 8 stones, random self-play, 30 games each
cat > "$dir/nim.ini" <<'EOF'
[sweep]
name = nim_check
seed = 5
games = 30

[game nim]
stones = 5, 8

[agents]
r = random

[matchups]
pairs = r vs r
EOF
check "a sweep runs" 0 "" -- "$bin" run "$dir/nim.ini" --db "$dir/nim.db" \
    --threads 2 --quiet
# every game ends by no_moves; from 5 stones in 2 to 5 plies, from 8 in 3
# to 8 (each move takes 1 to 3)
rows=$(sqlite3 "$dir/nim.db" "SELECT variant, COUNT(*), SUM(reason =
    'no_moves'), MIN(plies), MAX(plies) FROM game_view GROUP BY variant
    ORDER BY variant")
want="nim(first=first,stones=5,take=3)|30|30|2|5
nim(first=first,stones=8,take=3)|30|30|3|8"
plies_ok=1
while IFS='|' read -r variant n by_rule lo hi; do
    case "$variant" in
        *stones=5*) [ "$n" = 30 ] && [ "$by_rule" = 30 ] && [ "$lo" -ge 2 ] \
                        && [ "$hi" -le 5 ] || plies_ok=0 ;;
        *stones=8*) [ "$n" = 30 ] && [ "$by_rule" = 30 ] && [ "$lo" -ge 3 ] \
                        && [ "$hi" -le 8 ] || plies_ok=0 ;;
        *) plies_ok=0 ;;
    esac
done <<<"$rows"
if [ "$plies_ok" = 1 ] && [ "$(wc -l <<<"$rows")" = 2 ]; then
    ok "60 games stored, each ending by no_moves within its plies"
else
    bad "the stored games: got"; sed 's/^/    /' <<<"$rows"
    echo "    want (plies within): $want"
fi
check "the report reads it" 0 '"nim(first=first,stones=8,take=3)",r,r,30' \
    -- "$bin" report "$dir/nim.db" --format csv
check "replay checks a stored game" 0 "consistent" \
    -- "$bin" replay "$dir/nim.db" 1

# an agent that needs an evaluation is refused when the sweep is read
sed 's/^r = random$/r = random\na = ab(nodes=100)/; s/^pairs = r vs r$/pairs = a vs r/' \
    "$dir/nim.ini" > "$dir/nim_ab.ini"
check "ab refused: no evaluation" 1 "agent ab evaluates positions, and nim has no evaluation" \
    -- "$bin" run "$dir/nim_ab.ini" --db "$dir/nim_ab.db"
[ -e "$dir/nim_ab.db" ] && bad "the refused sweep made a database" \
    || ok "the refused sweep made no database"

# solve, against the theory in tests/games/nim.c: 5 stones are won in 3
# plies (take 1, then answer k with 4 - k), not in 1; 8 are lost; 21 are
# won in 2 x 5 + 1 = 11 plies and no sooner
check "5 stones: won within 3" 0 "proven win within 3 plies" \
    -- "$bin" solve 'nim(stones=5)' --plies 3
check "5 stones: not within 1" 0 "no forced win within 1 plies (proven)" \
    -- "$bin" solve 'nim(stones=5)' --plies 1
check "8 stones: lost" 0 "no forced win within 7 plies (proven)" \
    -- "$bin" solve 'nim(stones=8)' --plies 7
check "21 stones: won within 11" 0 "proven win within 11 plies" \
    -- "$bin" solve nim --plies 11
check "21 stones: not within 9" 0 "no forced win within 9 plies (proven)" \
    -- "$bin" solve nim --plies 9

finish
