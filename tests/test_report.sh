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
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

check() { # check NAME EXPECTED_RC EXPECTED_TEXT -- command...
    local name=$1 want_rc=$2 want_text=$3
    shift 4
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want_rc" ] || ! grep -qF -- "$want_text" <<<"$out"; then
        bad "$name: rc=$rc (want $want_rc), output:"
        sed 's/^/    /' <<<"$out" | head -20
    else
        ok "$name"
    fi
}

cat >"$dir/small.ini" <<'INI'
[sweep]
name = report_test
seed = 5
games = 4
[game serbest]
max_plies = 40
[agents]
a = random
b = random
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

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
