#!/usr/bin/env bash
# test_store.sh -- end-to-end tests of the results database from the
# command line, the parts a cmocka suite cannot reach:
#  - a database made by release cbdcb07 is refused by `report` with the
#    versions and the fix, upgraded by `rulelab migrate`, then read; `run`
#    upgrades one too and finds its sweep complete;
#  - `report`, `export` and `replay` read a database in a read-only folder
#    (as a user who cannot write there: when this runs as root, the reads
#    run as nobody through setpriv, since root ignores file permissions);
#  - a second `rulelab run` on a database is refused while the first runs,
#    naming it, and readers are not blocked; a run killed with SIGKILL is
#    marked `killed` by the next one, with the games it committed;
#  - `run --db ""` is refused.
# Usage: test_store.sh PATH/TO/rulelab
set -u
bin=$1
fixtures=$(cd "$(dirname "$0")/fixtures" && pwd)
dir=$(mktemp -d)
trap 'chmod -R u+w "$dir"; rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"

# ---- versions and `rulelab migrate`
sqlite3 "$dir/old.db" <"$fixtures/cbdcb07.sql"
out=$("$bin" report "$dir/old.db" 2>&1)
rc=$?
if [ $rc -eq 1 ] && grep -q "schema version 1, older than this rulelab's" <<<"$out" \
        && grep -q "rulelab migrate $dir/old.db" <<<"$out"; then
    ok "report refuses a version-1 database and says how to upgrade it"
else bad "report on a version-1 database: rc=$rc: $out"; fi
out=$("$bin" migrate "$dir/old.db" 2>&1)
if [ $? -eq 0 ] && [ "$out" = "$dir/old.db: schema version 1 -> 7" ] \
        && [ "$("$bin" export "$dir/old.db" --csv | wc -l)" -eq 7 ]; then
    ok "migrate upgrades it; export then reads its 6 games"
else bad "migrate: $out"; fi
sqlite3 "$dir/old2.db" <"$fixtures/cbdcb07.sql"
# the columns of version 1 (migrations add others, at their defaults)
v1_games="SELECT id, cell_id, game_index, seed, side0, side1, result, winner_seat, reason, plies, duration_ms, finished, moves FROM games ORDER BY id"
before=$(sqlite3 "$dir/old2.db" "$v1_games")
out=$("$bin" run "$fixtures/cbdcb07.ini" --db "$dir/old2.db" 2>&1)
if [ $? -eq 0 ] && grep -q "nothing to do" <<<"$out" \
        && [ "$(sqlite3 "$dir/old2.db" "SELECT value FROM meta")" -eq 7 ] \
        && [ "$(sqlite3 "$dir/old2.db" "SELECT COUNT(*) FROM cells")" -eq 2 ] \
        && [ "$(sqlite3 "$dir/old2.db" "$v1_games")" = "$before" ]; then
    ok "run migrates the cbdcb07 database and resumes its sweep: nothing to do, no new cell"
else bad "resuming the cbdcb07 sweep: $out"; fi
sqlite3 "$dir/old.db" "UPDATE meta SET value = '99' WHERE key = 'schema_version'"
for cmd in "report DB" "export DB --csv" "replay DB 1"; do
    # shellcheck disable=SC2086
    out=$("$bin" ${cmd/DB/$dir/old.db} 2>&1)
    if [ $? -ne 0 ] && grep -q "schema version 99, newer than this rulelab knows" <<<"$out"; then
        ok "$cmd refuses schema version 99"
    else bad "$cmd on schema version 99: $out"; fi
done

# ---- a read-only folder
ro="$dir/ro"
mkdir "$ro"
sqlite3 "$ro/r.db" <"$fixtures/cbdcb07.sql"
"$bin" migrate "$ro/r.db" >/dev/null
# rulelab writes in WAL mode, which needs a -shm file beside the database
[ "$(sqlite3 "$ro/r.db" "PRAGMA journal_mode = WAL")" = wal ] || bad "not WAL"
cp "$bin" "$dir/rulelab"
chmod 755 "$dir" "$dir/rulelab"
chmod 444 "$ro/r.db"
chmod 555 "$ro"
as_reader=()
if [ "$(id -u)" -eq 0 ]; then
    as_reader=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
if [ ${#as_reader[@]} -gt 0 ] && ! "${as_reader[@]}" true 2>/dev/null; then
    echo "skip read-only folder: running as root without setpriv"
elif "${as_reader[@]}" touch "$ro/probe" 2>/dev/null; then
    bad "the read-only folder is writable: the test proves nothing"
else
    out=$("${as_reader[@]}" "$dir/rulelab" report "$ro/r.db" --format csv 2>&1)
    rc=$?
    lines=$("${as_reader[@]}" "$dir/rulelab" export "$ro/r.db" --csv 2>&1 | wc -l)
    rep=$("${as_reader[@]}" "$dir/rulelab" replay "$ro/r.db" 1 2>&1)
    if [ $rc -eq 0 ] && grep -q "^# cells" <<<"$out" && [ "$lines" -eq 7 ] \
            && grep -q consistent <<<"$rep"; then
        ok "report, export and replay read a database in a read-only folder"
    else bad "read-only folder: rc=$rc lines=$lines: $(head -2 <<<"$out") $rep"; fi
    ls "$ro" >"$dir/ls"
    [ "$(cat "$dir/ls")" = "r.db" ] && ok "... and left no file there" \
        || bad "files in the read-only folder: $(cat "$dir/ls")"
fi

# ---- one writer at a time, readers never blocked, killed runs marked
cat >"$dir/long.ini" <<'INI'
[sweep]
name = long
seed = 3
games = 1000000
[game tafl]
max_plies = 100
[agents]
a = random
b = mcts(iterations=20)
[matchups]
pairs = a vs b
INI
count() { sqlite3 "$1" "SELECT COUNT(*) FROM games" 2>/dev/null || echo 0; }
"$bin" run "$dir/long.ini" --db "$dir/w.db" --threads 1 --quiet &
pid=$!
for _ in $(seq 1 300); do
    [ "$(count "$dir/w.db")" -ge 1 ] && break
    sleep 0.1
done
out=$("$bin" run "$dir/long.ini" --db "$dir/w.db" --threads 1 --quiet 2>&1)
rc=$?
if [ $rc -eq 1 ] && grep -q "is being written by another rulelab command (pid $pid on host " <<<"$out"; then
    ok "a second run on the database is refused, naming the first's pid"
else bad "second writer: rc=$rc: $out"; fi
rep=$("$bin" report "$dir/w.db" --format csv 2>&1)
rc=$?
n=$(sqlite3 "$dir/w.db" "SELECT COUNT(*) FROM games")
if [ $rc -eq 0 ] && grep -q "^# cells" <<<"$rep" && [ -n "$n" ]; then
    ok "report and sqlite3 read it meanwhile"
else bad "readers during a run: rc=$rc: $(head -2 <<<"$rep")"; fi
kill -9 $pid
wait $pid 2>/dev/null
committed=$(count "$dir/w.db")
status=$(sqlite3 "$dir/w.db" "SELECT status, games FROM runs WHERE id = 1")
[ "$status" = "running|$committed" ] || bad "before resuming: runs row 1 is '$status', $committed games"
sed 's/games = 1000000/games = 1/' "$dir/long.ini" >"$dir/short.ini"
"$bin" run "$dir/short.ini" --db "$dir/w.db" --threads 1 --quiet
status=$(sqlite3 "$dir/w.db" "SELECT status, games FROM runs ORDER BY id" | tr '\n' ' ')
added=$(($(count "$dir/w.db") - committed)) # game 0 of a cell the kill left empty
if [ "$status" = "killed|$committed complete|$added " ]; then
    ok "the next run marks the SIGKILLed one killed, with its $committed committed games"
else bad "runs after the kill: '$status' ($committed games committed)"; fi

# ---- no temporary databases
out=$("$bin" run "$fixtures/cbdcb07.ini" --db "" --quiet 2>&1)
if [ $? -eq 2 ] && grep -q "needs a path" <<<"$out"; then
    ok "run --db \"\" is refused"
else bad "run --db \"\": $out"; fi

finish
