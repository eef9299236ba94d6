#!/usr/bin/env bash
# test_atlas.sh -- the balance atlas: its generator on a database with known
# rows, results/atlas.md against what scripts/atlas.sh prints from the
# committed parts, and a slice of the atlas replayed (the same games on any
# machine and thread count; shards merged equal one run).
# Usage: test_atlas.sh PATH/TO/rulelab
set -u
bin=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/.."
# shellcheck source=tests/sh_helpers.sh
. "$here/sh_helpers.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
has() { if grep -qF -- "$2" "$dir/out.md"; then ok "$1"; else
        bad "$1: no line with '$2'"; sed 's/^/    /' "$dir/out.md"; fi; }

# 1. The generator on tests/fixtures/atlas_small.sql, by hand:
# default variant, ab 20k self-play, 10 games W W W W W D D L L L (seat 0's
# view): 6 points of 10, 0.600; Wilson at z = 1.959964: centre 2x + z^2 =
# 15.841, half z sqrt(z^2 + 4 x (n - x) / n) = 1.96 x sqrt(13.441) = 7.186,
# denominator 2 (n + z^2) = 27.683: 0.313 to 0.832; 2 draws of 10 = 0.200.
# ab 5k on the same openings o0..o9: W W W D D D L L L L. The differences
# per opening: 0 0 0 .5 .5 0 .5 0 0 0, mean d = +0.150; sample variance
# (7 x 0.15^2 + 3 x 0.35^2) / 9 = 0.05833, SE = sqrt(0.05833 / 10) =
# 0.07638; the 90% interval 0.150 -/+ 1.645 x 0.07638 = +0.024 to +0.276,
# not inside +/-0.05; z = 0.150 / 0.07638 = 1.964, two-sided p = 0.0495 <
# 0.05: still moving; power 2 Phi(0.05 / 0.07638 - 1.645) - 1 < 0: 0.00.
# repetition_limit=0: one rung, 4 games: a draw at the ply cap (500 plies),
# a draw by repetition (100), a win (50), a loss (30): 0.500, Wilson 0.150
# to 0.850, draws 0.500, 170.0 plies, ply cap 0.250.
# Against the default at ab 20k: 0.500 - 0.600 = -0.100; Newcombe from
# the two Wilson intervals: -0.1 - sqrt(0.35^2 + 0.232^2) = -0.520 and
# -0.1 + sqrt(0.35^2 + 0.287^2) = +0.353; pooled z test: pbar = 8/14,
# var = pbar (1 - pbar) (1/4 + 1/10) = 0.0857, z = -0.1 / 0.2928 = -0.342,
# p = 0.733 (Holm: the one comparison, the same).
# Its ply cap share, 1 of 4, is over 5%: the capped game's moves e1e2 a5a6
# e2e1 a6a5 e1e3 undo the same side's move before at the 3rd (e2e1 after
# e1e2) and 4th (a6a5 after a5a6), not the 5th (e1e3): 2 of the 3 that
# have a move two plies back, 66.7%.
# repetition_limit=2 has only an ab 5k rung, 4 games all won by seat 0
# (1.000): it is compared with the default at ab 5k, the strongest rung
# both played (the default's ab 5k: 4.5 of 10, 0.450). d = +0.550;
# Wilson 4/4: 0.510 to 1; 4.5/10: centre 12.842 / 27.683 = 0.4639, half
# 1.96 x sqrt(3.8415 + 9.9) / 27.683 = 0.2625: 0.2014 to 0.7263; Newcombe
# 0.55 - sqrt(0.4899^2 + 0.2763^2) = -0.012, 0.55 + sqrt(0 + 0.2486^2) =
# +0.799; pooled: pbar = 8.5/14 = 0.6071, var = 0.6071 x 0.3929 x 0.35 =
# 0.08348, z = 0.55 / 0.2889 = 1.904, p = 0.057; Holm over the two
# comparisons: 2 x 0.057 = 0.114, and repetition_limit=0's stays 0.733.
sqlite3 "$dir/small.db" <"$here/fixtures/atlas_small.sql"
"$bin" list >"$dir/list.txt"
/usr/bin/python3 "$root/scripts/atlas.py" "$dir/small.db" \
    --defaults "$dir/list.txt" >"$dir/out.md" 2>&1
has "the default's row" "| default | ab 20k nodes | 10 | 0.600 (0.313-0.832) | 0.200 | 40.0 | 0.000 | still moving: d = +0.150 (+0.024 to +0.276), p = 0.0495, power 0.00 (paired, 10 openings) | n/a |"
has "repetition_limit=0's row" "| repetition_limit=0 | ab 20k nodes | 4 | 0.500 (0.150-0.850) | 0.500 | 170.0 | 0.250 | not enough games: one rung | n/a |"
has "the comparison" "| tafl | repetition_limit=0 | default | ab 20k nodes | -0.100 (-0.520 to +0.353) | 0.733 | 0.733 |"
has "a comparison at the shared rung" "| tafl | repetition_limit=2 | default | ab 5k nodes | +0.550 (-0.012 to +0.799) | 0.057 | 0.114 |"
has "the cell over the ply cap limit" "Over the 5% limit: repetition_limit=0, ab 20k nodes: 1 of 4 games ended by the ply cap; in the median of them 66.7% of the last 1,000 plies undo the same side's move before."

# 2. results/atlas.md, atlas.svg and atlas.html are what the script
# prints now
if ls "$root"/results/atlas/*.db.xz >/dev/null 2>&1; then
    if ATLAS_SVG_OUT="$dir/atlas.svg" ATLAS_HTML_OUT="$dir/atlas.html" \
            bash "$root/scripts/atlas.sh" -b "$bin" \
            >"$dir/atlas.md" 2>"$dir/err" \
        && cmp -s "$dir/atlas.md" "$root/results/atlas.md" \
        && cmp -s "$dir/atlas.svg" "$root/results/atlas.svg" \
        && cmp -s "$dir/atlas.html" "$root/results/atlas.html"; then
        ok "results/atlas.md, atlas.svg and atlas.html regenerate byte for byte"
    else
        bad "results/atlas.md, atlas.svg or atlas.html is stale (a change to"
        echo "    the report page changes atlas.html): run scripts/atlas.sh --write"
        diff "$dir/atlas.md" "$root/results/atlas.md" | head -20
        cmp "$dir/atlas.svg" "$root/results/atlas.svg"
        cmp "$dir/atlas.html" "$root/results/atlas.html"
        cat "$dir/err"
    fi
else
    echo "no atlas parts committed yet: nothing to regenerate"
fi

# 3. A slice of atlas_tafl.ini: the same seed, variants and agents (so the
# same cells, seeds and openings), one game a cell, under another name.
sed -e 's/^name = atlas_tafl$/name = atlas_tafl_slice/' \
    -e 's/^games = 1720$/games = 2/' \
    "$root/experiments/sweeps/atlas_tafl.ini" >"$dir/slice.ini"
moves() { sqlite3 "$1" "SELECT v.canonical, a0.spec, g.game_index, g.opening,
          g.moves, g.result FROM games g JOIN cells c ON c.id = g.cell_id
          JOIN variants v ON v.id = c.variant_id JOIN agents a0
          ON a0.id = c.agent0_id ORDER BY 1, 2, 3"; }
"$bin" run "$dir/slice.ini" --db "$dir/t1.db" --threads 1 --quiet
"$bin" run "$dir/slice.ini" --db "$dir/t2.db" --threads 2 --quiet
if [ "$(moves "$dir/t1.db")" = "$(moves "$dir/t2.db")" ] \
    && [ "$(moves "$dir/t1.db" | wc -l)" -eq 16 ]; then
    ok "an atlas slice: the same 16 games on 1 and 2 threads"
else bad "an atlas slice differs between thread counts"; fi
"$bin" run "$dir/slice.ini" --db "$dir/s0.db" --shard 0/2 --threads 2 --quiet
"$bin" run "$dir/slice.ini" --db "$dir/s1.db" --shard 1/2 --threads 2 --quiet
"$bin" merge "$dir/m.db" "$dir/s0.db" "$dir/s1.db" --quiet
if [ "$(moves "$dir/m.db")" = "$(moves "$dir/t1.db")" ]; then
    ok "the slice's two shards merged equal one run of both"
else bad "merged shards differ from one run"; fi
# the committed part of this machine's run holds the same games (game i
# of cell c is shard (c x 1720 + i) mod 2's: game 0 of each cell in 0/2)
part="$root/results/atlas/atlas_tafl-0.db.xz"
if [ -e "$part" ]; then
    xz -dc "$part" >"$dir/part.db"
    sqlite3 "$dir/part.db" "DELETE FROM games WHERE game_index > 1" 2>/dev/null
    if [ "$(moves "$dir/part.db")" = "$(moves "$dir/t1.db" | \
            awk -F'|' '$3 == 0')" ]; then
        ok "the committed part holds the slice's games, move for move"
    else bad "the committed part's games differ from the slice's"; fi
fi
finish
