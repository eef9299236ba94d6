#!/usr/bin/env bash
# test_report.sh -- end-to-end tests of what `report`, `export` and `run`
# must never do with exit 0: lose output to a full disk (/dev/full gives
# ENOSPC on every write), play into a throw-away database (`--db ""`),
# report an unknown sweep as empty; and `report --format json` must be
# valid JSON (checked with Python's json module, the U+FFFD replacements
# checked against Python's own UTF-8 decoder) whatever bytes the names hold.
# Usage: test_report.sh PATH/TO/rulelab
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
py=/usr/bin/python3
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$root/tests/sh_helpers.sh"

cat >"$dir/small.ini" <<'INI'
[sweep]
name = report_test
seed = 5
games = 4
[game serbest]
max_plies = 40
[agents]
a = random
b = mcts(iterations=2)
[matchups]
pairs = a vs b
orders = given
INI

cd "$dir" || exit 1
check "run --db empty"      2 '--db needs a path'  -- "$bin" run small.ini --db "" --quiet
[ ! -e results ] && ok "run --db empty created nothing" \
    || bad "run --db empty created results/"
check "run"                 0 ''                    -- "$bin" run small.ini --db r.db --quiet
check "report"              0 'ply'         -- "$bin" report r.db --format csv --sweep report_test
check "report > /dev/full"  1 'writing the report failed: No space left on device' \
    -- sh -c "'$bin' report r.db > /dev/full"
check "report json > /dev/full" 1 'No space left on device' \
    -- sh -c "'$bin' report r.db --format json > /dev/full"
check "export > /dev/full"  1 'writing the CSV failed: No space left on device' \
    -- sh -c "'$bin' export r.db --csv > /dev/full"
check "export --out /dev/full" 1 'writing /dev/full failed: No space left on device' \
    -- "$bin" export r.db --csv --out /dev/full
check "replay > /dev/full"  1 'rulelab replay: writing the output failed: No space left on device' \
    -- sh -c "'$bin' replay r.db 1 > /dev/full"
check "show > /dev/full"    1 'rulelab show: writing the output failed: No space left on device' \
    -- sh -c "'$bin' show tafl > /dev/full"
check "report --sweep nosuch" 1 "holds no sweep named 'nosuch'; its sweeps: report_test" \
    -- "$bin" report r.db --sweep nosuch

# Names with every kind of ill-formed UTF-8 (a lone continuation byte, an
# overlong form, a surrogate, a truncated 3- and 4-byte sequence, 0xff)
# and control characters, written into the database as raw bytes.
names_hex='61ff0962c0af0aed a080 e282 78f0 9f98 01 22 5c 7f e282ac'
names_hex=$(tr -d ' ' <<<"$names_hex")
"$py" - "$dir/r.db" "$names_hex" <<'PY'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.execute(f"UPDATE cells SET agent0_name = CAST(X'{sys.argv[2]}' AS TEXT)")
con.commit()
PY
"$bin" report r.db --format json >report.json 2>report.err
rc=$?
out=$("$py" - report.json "$names_hex" <<'PY' 2>&1
import json, sys
raw = open(sys.argv[1], "rb").read()
report = json.loads(raw.decode("utf-8"))  # strict: fails on invalid UTF-8
want = bytes.fromhex(sys.argv[2]).decode("utf-8", "replace")
got = report["cells"][0]["seat0"]
assert got == want, f"seat0 is {got!r}, want {want!r}"
print(f"{len(report['cells'])} cells, seat0 {got!r}")
PY
)
pyrc=$?
if [ "$rc" -eq 0 ] && [ "$pyrc" -eq 0 ]; then ok "report json is valid with non-UTF-8 names: $out"
else bad "report json with non-UTF-8 names (rc $rc): $out $(cat report.err)"; fi

# Cells stopped early: the report (CSV and JSON) and the notebooks'
# statistics (notebooks/rulelab_data.py) agree on which cells have no valid
# fixed-sample interval, and on the stop rule's words. Random attackers
# against a small MCTS in tafl: a vs b stops early (SPRT accepts H0), b vs a
# runs to its 60 games with no decision.
cat >"$dir/sprt.ini" <<'INI'
[sweep]
name = sprt
seed = 11
games = 60
stop = sprt
sprt_p0 = 0.5
sprt_p1 = 0.6
min_games = 5
[game tafl]
max_plies = 80
[agents]
a = random
b = mcts(iterations=4)
[matchups]
pairs = a vs b
INI
"$bin" run sprt.ini --db sprt.db --threads 2 --quiet
"$bin" report sprt.db --format json >sprt.json
"$bin" report sprt.db --format csv >sprt.csv
"$bin" report sprt.db >sprt.txt
if grep -q "1 cell was stopped early" sprt.txt; then ok "report says a cell was stopped early"
else bad "report table does not say a cell was stopped early: $(head -3 sprt.txt)"; fi
out=$(PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/notebooks" MPLBACKEND=Agg \
      "$py" - sprt.db sprt.json sprt.csv <<'PY' 2>&1
import csv, json, math, sys
import rulelab_data as rd
games = rd.load_games(rd.connect(sys.argv[1]))
cells = rd.summarise(games, ["cell_id", "variant"])
report = json.load(open(sys.argv[2]))
lines = open(sys.argv[3]).read().split("\n\n")[0].splitlines()[1:]
table = list(csv.DictReader(lines))
assert len(cells) == len(report["cells"]) == len(table) == 2
early = 0
for (_, mine), theirs, row in zip(cells.iterrows(), report["cells"], table):
    assert mine["games"] == theirs["games"]
    assert mine["fixed_sample"] == theirs["fixed_sample"], (mine, theirs)
    assert mine["stop"] == row["stop"], (mine["stop"], row["stop"])
    if theirs["fixed_sample"]:
        assert abs(mine["lo"] - theirs["s0_ci95"][0]) < 1e-6
        assert abs(mine["p_holm"] - theirs["p_holm"]) < 1e-6 * theirs["p_holm"]
        assert row["s0_ci95"] != "n/a"
    else:
        early += 1
        assert theirs["s0_ci95"] is None and theirs["p"] is None
        assert math.isnan(mine["lo"]) and math.isnan(mine["p_holm"])
        assert row["s0_ci95"] == row["p"] == row["p_holm"] == "n/a"
        stop = theirs["stop"]
        assert stop["decision"] in ("accept_h0", "accept_h1")
        assert stop["stopped_after"] == theirs["games"] < 60
        assert rd.fmt_ci(mine["lo"], mine["hi"]).startswith("[no valid")
variants = rd.summarise(games, ["game", "variant"])
assert not variants["fixed_sample"].iloc[0] and math.isnan(variants["lo"].iloc[0])
assert report["variants"][0]["fixed_sample"] is False
print(f"{early} early-stopped cell of 2, the same in both: {table[0]['stop']}")
sys.exit(0 if early == 1 else 1)
PY
)
[ $? -eq 0 ] && ok "report and notebooks mark the early-stopped cell: $out" \
    || bad "report and notebooks on early-stopped cells: $out"

# run: memory does not grow with the games a cell plans. Two cells of 10^7
# games each that a stop rule ends after 4 games (at n = 4 every Wilson
# interval is narrower than 0.9: the widest, 2 of 4, is 0.15..0.85), in
# 200 MB of address space. Listing the work and the waiting games per game
# took 8 + 8 bytes a planned game: 320 MB for these cells, and the run
# failed with "out of memory". Sanitizer builds reserve terabytes of
# address space, so the limit is not applied there.
cat >"$dir/big.ini" <<'INI'
[sweep]
name = big
seed = 1
games = 10000000
stop = ci
ci_width = 0.9
min_games = 4
[game serbest]
max_plies = 30
[agents]
a = random
b = mcts(iterations=2,max_mb=1)
[matchups]
pairs = a vs b
INI
if grep -qa -e __asan_init -e __tsan_init -e __msan_init "$bin"; then
    echo "skip run in 200 MB: a sanitizer build"
else
    out=$( (ulimit -v 200000; "$bin" run big.ini --db big.db --threads 2 --quiet) 2>&1)
    rc=$?
    games=$(sqlite3 big.db "SELECT group_concat(n) FROM (SELECT COUNT(*) AS n
              FROM games GROUP BY cell_id ORDER BY cell_id)" 2>&1)
    stops=$(sqlite3 big.db "SELECT group_concat(stopped_at) FROM cells" 2>&1)
    if [ "$rc" -eq 0 ] && [ "$games" = "4,4" ] && [ "$stops" = "4,4" ]; then
        ok "run of 2 x 10^7 planned games in 200 MB: 4 games a cell, stopped"
    else bad "run of 2 x 10^7 planned games in 200 MB: rc $rc, games $games, stopped $stops: $out"; fi
fi

# report --compare PARAM: a parameter no game of the database has is an
# error (exit 1) naming those that can be compared (here max_plies, the
# one parameter in which the two cells differ); a parameter of tafl in
# which no two cells differ only warns.
cat >"$dir/cmp.ini" <<'INI'
[sweep]
name = cmp
seed = 2
games = 2
[game tafl]
max_plies = 20, 30
[agents]
a = random
b = mcts(iterations=2)
[matchups]
pairs = a vs b
orders = given
INI
"$bin" run cmp.ini --db cmp.db --quiet
check "report --compare nosuch" 1 \
    "no game of cmp.db has a parameter 'nosuch'; parameters that can be compared: max_plies" \
    -- "$bin" report cmp.db --compare nosuch
check "report --compare first (a tafl parameter, not varied)" 0 \
    "no two cells differ in 'first' alone" -- "$bin" report cmp.db --compare first

# report --skill-trace: its options, and its sections in each format
# (valid JSON with the member skill_trace; without the flag, none).
check "report --delta without --skill-trace" 2 \
    "--delta and --alpha go with --skill-trace" -- "$bin" report cmp.db --delta 0.1
check "report --skill-trace --delta 0.5" 2 \
    "--delta takes a number above 0 and below 0.5, not '0.5'" \
    -- "$bin" report cmp.db --skill-trace --delta 0.5
check "report --skill-trace --alpha x" 2 \
    "--alpha takes a number above 0 and below 0.5, not 'x'" \
    -- "$bin" report cmp.db --skill-trace --alpha x
check "report --skill-trace (table)" 0 "skill trace verdicts: the top two rungs" \
    -- "$bin" report cmp.db --skill-trace
check "report --skill-trace --alpha 0.1 (markdown)" 0 \
    "converged = TOST, the 80% Newcombe interval" \
    -- "$bin" report cmp.db --skill-trace --alpha 0.1 --format markdown
check "report --skill-trace (csv)" 0 "# skill_verdicts" \
    -- "$bin" report cmp.db --skill-trace --format csv
if "$bin" report cmp.db --skill-trace --delta 0.1 --format json \
        | "$py" -c 'import json, sys
t = json.load(sys.stdin)["skill_trace"]
assert t["delta"] == 0.1 and t["alpha"] == 0.05, t
assert len(t["variants"]) == 2 and all(v["rungs"] == [] for v in t["variants"]), t
assert all(v["verdict"] == "not enough games" and v["why"] == "no self-play games"
           for v in t["variants"]), t' \
        && ! "$bin" report cmp.db --format json | grep -q skill_trace; then
    ok "report --skill-trace --format json: valid, delta 0.1, no self-play rungs"
else bad "report --skill-trace --format json"; fi

# openings: after a 1-ply opening the defenders move first, so the agents'
# seat 0 plays them. Who won follows from the reason alone
# (docs/rules.md#tafl-end-of-the-game: an escaped king is the defenders'
# win, a captured one the attackers'), and the stored winner must be the
# seat of that side; every game replays (the opening, then the agents'
# moves) to its stored result.
cat >"$dir/open.ini" <<'INI'
[sweep]
name = open
seed = 4
games = 8
[game tafl]
max_plies = 300
openings = random_plies:1
[agents]
a = random
b = mcts(iterations=2)
[matchups]
pairs = a vs b
INI
"$bin" run open.ini --db open.db --quiet
won=$(sqlite3 open.db "SELECT COUNT(*) FROM games WHERE reason IN
        ('king_escaped', 'king_captured')")
wrong=$(sqlite3 open.db "SELECT COUNT(*) FROM games WHERE reason IN
        ('king_escaped', 'king_captured') AND (CASE winner_seat WHEN 0 THEN
        side0 ELSE side1 END) <> (CASE reason WHEN 'king_escaped' THEN
        'defenders' ELSE 'attackers' END)")
sides=$(sqlite3 open.db "SELECT DISTINCT side0 FROM games")
replayed=0
for id in $(sqlite3 open.db "SELECT id FROM games"); do
    "$bin" replay open.db "$id" | grep -q ': consistent$' && replayed=$((replayed + 1))
done
if [ "$won" -gt 0 ] && [ "$wrong" -eq 0 ] && [ "$sides" = defenders ] \
        && [ "$replayed" -eq 16 ]; then
    ok "openings: seat 0 plays the side to move, $won games won by king: winner's side right, 16 of 16 replay"
else bad "openings: won $won, wrong winner side $wrong, side0 '$sides', replayed $replayed of 16"; fi

finish
