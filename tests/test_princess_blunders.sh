#!/usr/bin/env bash
# test_princess_blunders.sh -- scripts/princess_blunders.py on a database
# whose answer is known by hand. A two-game sweep of random agents in
# Jetan makes a real database (schema, cells, views); its two games are
# then rewritten to hand-made games from the start, and `rulelab replay`
# confirms each as consistent before the script reads them:
#  - game A, `f1^e8 e9e8`: Black's Princess escapes to e8, which the
#    Panthans of d9, e9 and f9 attack (RULES.md: a Panthan steps forward or
#    diagonally forward), and e9 takes her: a blunder by seat 0;
#  - game B, `f1^e8 j9i7 b2b3 e9e8`: the same square, but Black's last
#    move before the capture was a Panthan's (b2b3), so no blunder.
# Expected: 2 games, 2 won by a Princess capture, 1 blunder in seat 0,
# none in seat 1 or in the opening; --max 0 exits 1, --max 1 exits 0;
# --list names game A.
# Usage: test_princess_blunders.sh PATH/TO/rulelab
set -u
bin=$1
script="$(cd "$(dirname "$0")/.." && pwd)/scripts/princess_blunders.py"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"

cat >"$dir/s.ini" <<'INI'
[sweep]
name = blunders
games = 2
[game jetan]
[agents]
r = random
[matchups]
pairs = r vs r
orders = both
INI
"$bin" run "$dir/s.ini" --db "$dir/b.db" --threads 1 --quiet >/dev/null 2>&1 \
    && ok "sweep" || bad "sweep"
# keep the two games of the first cell, rewritten; drop the other cell's
ids=$(sqlite3 "$dir/b.db" "SELECT id FROM games ORDER BY id")
a=$(echo "$ids" | sed -n 1p) b=$(echo "$ids" | sed -n 2p)
cell=$(sqlite3 "$dir/b.db" "SELECT cell_id FROM games WHERE id = $a")
sqlite3 "$dir/b.db" "
  UPDATE games SET cell_id = $cell WHERE id = $b;
  DELETE FROM games WHERE id NOT IN ($a, $b);
  UPDATE games SET moves = 'f1^e8 e9e8', plies = 2, result = 'seat1',
    winner_seat = 1, reason = 'princess_captured' WHERE id = $a;
  UPDATE games SET moves = 'f1^e8 j9i7 b2b3 e9e8', plies = 4,
    result = 'seat1', winner_seat = 1, reason = 'princess_captured'
    WHERE id = $b;" \
    && "$bin" replay "$dir/b.db" "$a" >/dev/null \
    && "$bin" replay "$dir/b.db" "$b" >/dev/null \
    && ok "hand games replay" || bad "hand games replay"

out=$(/usr/bin/python3 "$script" "$dir/b.db" --list)
rc=$?
row=$(echo "$out" | awk '$1 == "all" { print $2, $3, $4, $5, $6 }')
[ $rc -eq 0 ] && [ "$row" = "2 2 1 0 0" ] \
    && echo "$out" | grep -q "^blunder: game $a (r vs r)$" \
    && [ "$(echo "$out" | grep -c '^blunder:')" -eq 1 ] \
    && ok "counts" || bad "counts: $out"

/usr/bin/python3 "$script" "$dir/b.db" --max 0 >/dev/null
[ $? -eq 1 ] && ok "--max 0" || bad "--max 0"
/usr/bin/python3 "$script" "$dir/b.db" --max 1 >/dev/null
[ $? -eq 0 ] && ok "--max 1" || bad "--max 1"
/usr/bin/python3 "$script" "$dir/none.db" >/dev/null 2>&1
[ $? -eq 2 ] && ok "missing db" || bad "missing db"

finish
