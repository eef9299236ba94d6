#!/usr/bin/env bash
# test_snapshot.sh -- `rulelab run --snapshot`: while a sweep writes its
# database, each copy that appears is a whole, consistent database (it
# passes integrity_check, is one file with no -wal or -shm beside it, and
# holds a prefix of what the run commits), and the copy left at the end
# holds exactly the live database's games; `merge --snapshot` publishes
# its OUT the same way; the options are checked.
# Usage: test_snapshot.sh PATH/TO/rulelab
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"

# The runner commits every 2 s (or 500 games), so the sweep must run well
# past 2 s for the copies and the SIGTERM below to fall mid-run: 1440
# games take 5.3 s on 2 threads of the 2-core AMD EPYC VM
# (2026-12-04); the 360 this test used to play took 1.4 s once the
# engines got faster, before the first commit.
cat >"$dir/s.ini" <<'INI'
[sweep]
name = snap
seed = 5
games = 160
[game tafl]
max_plies = 200
[game jetan]
[game serbest]
max_plies = 200
[agents]
rnd = random
small = mcts(iterations=8)
[matchups]
pairs = rnd vs small, rnd vs rnd
INI
total=1440
rows() {
    sqlite3 "$1" "SELECT variant, agent0, agent1, game_index, seed, side0,
        side1, result, winner_seat, reason, plies, moves FROM game_view
        ORDER BY variant, agent0, agent1, game_index"
}

"$bin" run "$dir/s.ini" --db "$dir/live.db" --threads 2 --quiet \
    --snapshot "$dir/copy.db" --snapshot-every 1 &
pid=$!
seen=0 broken=0 last=0 shrank=0
while kill -0 $pid 2>/dev/null; do
    if [ -e "$dir/copy.db" ]; then
        # read a link to the file of the moment: the copy may be renamed
        # over while this reads, and the reader keeps the file it opened
        ln -f "$dir/copy.db" "$dir/reading.db" 2>/dev/null || { sleep 0.2; continue; }
        check=$(sqlite3 -readonly "$dir/reading.db" "PRAGMA integrity_check;
            PRAGMA journal_mode; SELECT COUNT(*) FROM games" 2>&1 | tr '\n' ' ')
        rm -f "$dir/reading.db"
        n=${check##*delete }
        case "$check" in
        "ok delete "*) seen=$((seen + 1))
            [ "${n% }" -lt "$last" ] && shrank=1
            last=${n% } ;;
        *) broken=$((broken + 1)); echo "  a copy read as: $check" ;;
        esac
    fi
    sleep 0.3
done
wait $pid
rc=$?
[ $rc -eq 0 ] && ok "the run with --snapshot completes" || bad "run exited $rc"
[ $broken -eq 0 ] && [ $seen -ge 2 ] && [ $shrank -eq 0 ] \
    && ok "$seen copies read while it wrote: each whole, in DELETE mode, never fewer games than the one before" \
    || bad "copies read while it wrote: $seen good, $broken broken, shrank $shrank"
ls "$dir" | grep -q 'copy\.db\.\|copy\.db-' \
    && bad "files left beside the copy: $(ls "$dir")" \
    || ok "no temporary, -wal or -shm file beside the copy"
[ "$(sqlite3 "$dir/copy.db" 'SELECT COUNT(*) FROM games')" -eq $total ] \
    && [ "$(rows "$dir/copy.db")" = "$(rows "$dir/live.db")" ] \
    && ok "the final copy holds the live database's $total games" \
    || bad "the final copy differs from the live database"

# an interrupted run leaves a copy of what it committed
rm -f "$dir"/live.db* "$dir"/copy.db
"$bin" run "$dir/s.ini" --db "$dir/live.db" --threads 2 --quiet \
    --snapshot "$dir/copy.db" --snapshot-every 60 &
pid=$!
for _ in $(seq 1 100); do
    n=$(sqlite3 "$dir/live.db" "SELECT COUNT(*) FROM games" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge 5 ] && break
    sleep 0.1
done
kill -TERM $pid
wait $pid
rc=$?
a=$(sqlite3 "$dir/copy.db" "SELECT COUNT(*) FROM games" 2>/dev/null || echo none)
b=$(sqlite3 "$dir/live.db" "SELECT COUNT(*) FROM games")
[ $rc -eq 1 ] && [ "$a" = "$b" ] && [ "$b" -lt $total ] \
    && ok "SIGTERM: the run stops (status 1) and the copy holds its $b games" \
    || bad "SIGTERM: status $rc, copy $a games, live $b"

# merge --snapshot: OUT merged, then published as one file
"$bin" merge "$dir/m.db" "$dir/live.db" --quiet --snapshot "$dir/mcopy.db"
rc=$?
[ $rc -eq 0 ] && [ "$(sqlite3 "$dir/mcopy.db" 'PRAGMA journal_mode')" = delete ] \
    && [ "$(rows "$dir/mcopy.db")" = "$(rows "$dir/live.db")" ] \
    && ok "merge --snapshot publishes OUT as one consistent file" \
    || bad "merge --snapshot: status $rc"
"$bin" merge "$dir/m.db" "$dir/live.db" --snapshot "$dir/m.db" >/dev/null 2>&1
[ $? -eq 2 ] && ok "merge --snapshot onto OUT is refused" || bad "merge --snapshot OUT"

# options
"$bin" run "$dir/s.ini" --db "$dir/x.db" --snapshot-every 5 >/dev/null 2>"$dir/err"
[ $? -eq 2 ] && grep -q "go with --snapshot" "$dir/err" \
    && ok "--snapshot-every without --snapshot is a usage error" || bad "--snapshot-every alone"
"$bin" run "$dir/s.ini" --db "$dir/x.db" --snapshot "$dir/c.db" --snapshot-every 0 \
    >/dev/null 2>"$dir/err"
[ $? -eq 2 ] && ok "--snapshot-every 0 is refused" || bad "--snapshot-every 0"
"$bin" run "$dir/s.ini" --db "$dir/x.db" --snapshot "$dir/x.db" >/dev/null 2>"$dir/err"
[ $? -eq 2 ] && grep -q "another file" "$dir/err" \
    && ok "--snapshot onto the database itself is refused" || bad "--snapshot onto --db"
"$bin" run "$dir/s.ini" --db "$dir/y.db" --quiet --snapshot "$dir/no/such/c.db" \
    >/dev/null 2>"$dir/err"
[ $? -eq 1 ] && grep -q "snapshot" "$dir/err" \
    && ok "a copy that cannot be written fails the run, saying why" \
    || bad "unwritable snapshot: $(cat "$dir/err")"

finish
