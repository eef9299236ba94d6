#!/usr/bin/env bash
# test_princess_blunders.sh -- scripts/princess_blunders.py on a database
# whose answer is known by hand. A sweep of random agents in Jetan makes a
# real database (schema, cells, views); its three games are then
# rewritten to hand-made ones, and `rulelab replay` confirms each as
# consistent before the script reads them:
#  - game A, `f1^e8 e9e8`: Black's Princess escapes to e8, which the
#    Panthans of d9, e9 and f9 attack (docs/rules.md#jetan-how-pieces-move:
#    a Panthan steps forward or diagonally forward), and e9 takes her: a
#    blunder by seat 0, and not forced (from the start Black had moves that
#    lose nothing, e.g. b2b3);
#  - game B, `f1^e8 j9i7 b2b3 e9e8`: the same square, but Black's last
#    move before the capture was a Panthan's (b2b3), so no blunder;
#  - game C, game 119 of experiments/sweeps/dev/jetan_princess.ini as
#    ab(ms=100,nodes=0) played it (2026-12-03, before the file's strong
#    spec took contempt=150): opening `c2d3 g10j7 f1g3 e10^f5`, then 15
#    plies ending `d8a7 f6c5 a7c4 c5c4`. Before a7c4 Orange's Princess
#    (her escape used in the opening) is on a7 and Black's Chief on c5.
#    She moves exactly 3 steps to a square within 3 of a7
#    (docs/rules.md#jetan-the-princess); a9-d10 hold Orange's own pieces,
#    so her squares are a4-d8, all within 3 of c5 and open to the Chief;
#    any other move leaves her on a7, which
#    the Chief reaches by c5-b5-a6-a7, c5-b6-b7-a7 or c5-c6-b6-a7 (no one
#    square blocks all three), and no Orange piece reaches c5 to take the
#    Chief (all are 5 or more ranks away, and none moves more than 3). So
#    every move loses at once: a blunder by seat 1 (Orange, to move
#    second after the 4 opening plies), and forced.
# Expected: 3 games, 3 won by a Princess capture, 1 blunder in seat 0 and
# 1 in seat 1, 1 of them forced, none in the opening; --max 0 exits 1
# (game A is avoidable), --max 1 exits 0 (game C is forced, so not
# counted); --list names games A and C, C as forced.
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
games = 3
[game jetan]
[agents]
r = random
[matchups]
pairs = r vs r
orders = both
INI
"$bin" run "$dir/s.ini" --db "$dir/b.db" --threads 1 --quiet >/dev/null 2>&1 \
    && ok "sweep" || bad "sweep"
# its three games, rewritten (one cell: r vs r in both orders is one)
ids=$(sqlite3 "$dir/b.db" "SELECT id FROM games ORDER BY id")
a=$(echo "$ids" | sed -n 1p) b=$(echo "$ids" | sed -n 2p)
c=$(echo "$ids" | sed -n 3p)
cell=$(sqlite3 "$dir/b.db" "SELECT cell_id FROM games WHERE id = $a")
sqlite3 "$dir/b.db" "
  UPDATE games SET cell_id = $cell WHERE id IN ($b, $c);
  UPDATE games SET moves = 'f1^e8 e9e8', plies = 2, result = 'seat1',
    winner_seat = 1, reason = 'princess_captured' WHERE id = $a;
  UPDATE games SET moves = 'f1^e8 j9i7 b2b3 e9e8', plies = 4,
    result = 'seat1', winner_seat = 1, reason = 'princess_captured'
    WHERE id = $b;
  UPDATE games SET opening = 'c2d3 g10j7 f1g3 e10^f5',
    moves = 'd1e4 f5h6 e1c3 j9h8 c3f4 h6j9 f4h6 j9g10 e4d7 g10d8 h6f6 d8a7 f6c5 a7c4 c5c4',
    plies = 15, result = 'seat0', winner_seat = 0,
    reason = 'princess_captured' WHERE id = $c;" \
    && "$bin" replay "$dir/b.db" "$a" >/dev/null \
    && "$bin" replay "$dir/b.db" "$b" >/dev/null \
    && "$bin" replay "$dir/b.db" "$c" >/dev/null \
    && ok "hand games replay" || bad "hand games replay"

out=$(/usr/bin/python3 "$script" "$dir/b.db" --list --rulelab "$bin")
rc=$?
row=$(echo "$out" | awk '$1 == "all" { print $2, $3, $4, $5, $6, $7 }')
[ $rc -eq 0 ] && [ "$row" = "3 3 1 1 1 0" ] \
    && echo "$out" | grep -q "^blunder: game $a (r vs r)$" \
    && echo "$out" | grep -q "^blunder: game $c (r vs r), forced$" \
    && [ "$(echo "$out" | grep -c '^blunder:')" -eq 2 ] \
    && ok "counts" || bad "counts: $out"

/usr/bin/python3 "$script" "$dir/b.db" --max 0 --rulelab "$bin" >/dev/null
[ $? -eq 1 ] && ok "--max 0" || bad "--max 0"
/usr/bin/python3 "$script" "$dir/b.db" --max 1 --rulelab "$bin" >/dev/null
[ $? -eq 0 ] && ok "--max 1" || bad "--max 1"
/usr/bin/python3 "$script" "$dir/b.db" --rulelab "$dir/no-such" >/dev/null 2>&1
[ $? -eq 2 ] && ok "rulelab missing" || bad "rulelab missing"
/usr/bin/python3 "$script" "$dir/none.db" >/dev/null 2>&1
[ $? -eq 2 ] && ok "missing db" || bad "missing db"

finish
