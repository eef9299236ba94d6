#!/usr/bin/env bash
# test_slurm.sh -- `rulelab slurm` on a real Slurm: a one-node cluster on
# this machine (tests/slurm_cluster.sh: its own munge, ports, slurm.conf and
# pid files, so it neither disturbs nor is disturbed by a Slurm or munge
# already here), then
#  - a trivial `sbatch --array=0-3` job runs all four tasks;
#  - a 60-game sweep (all three games, 6 cells, random vs a small MCTS) goes
#    through `rulelab slurm --tasks 4 --submit`; while it runs, task 1 gets
#    the time-limit warning (USR1, as --signal sends it) and must save,
#    requeue itself and resume, and task 2 is cancelled (scancel) mid-run;
#  - the merge job (afterany) names shard 2 as incomplete, and what it merged
#    is a part of a one-machine run of the sweep, nothing else;
#  - task 2 resubmitted (sbatch --array=2) and merged again: the merged
#    database equals the one-machine run on every column of game_view but
#    the ids and timing columns, 60 games, none lost or duplicated;
#  - merging again changes nothing, and a shard with a changed game is
#    refused, naming it;
#  - no write-ahead log is left in the shared folder (the live databases
#    were on the "node-local" folder);
#  - a sweep that stops cells early runs in 2 tasks by the plan `rulelab
#    slurm` calibrates (whole cells by cost), merged equal to one machine;
#  - a split solve (Jetan within 3 plies) as an array of 3 tasks, shard K
#    of 3 each, into one directory: `rulelab verify DIR` joins the parts,
#    one per root move.
# If the daemons cannot start it fails with their logs; it never skips.
# Needs root and the Debian packages slurm-wlm, munge and sqlite3
# (scripts/test.sh installs them). Prints its timings at the end.
# Usage: test_slurm.sh PATH/TO/rulelab
set -u
bin=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/slurm_cluster.sh"
w=$(mktemp -d /tmp/rulelab-slurm-test-work.XXXXXX)
cleanup() { slurm_stop; rm -rf "$w"; }
trap cleanup EXIT
trap 'exit 1' INT TERM
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"
die() { bad "$1"; slurm_logs; echo "$pass passed, $fail failed"; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

t_start=$(now)
slurm_start || die "the one-node Slurm cluster did not start (logs above)"
ok "one-node cluster up in $(since "$t_start") s (node $SLURM_TEST_HOST, $SLURM_TEST_CPUS CPUs, $SLURM_TEST_DIR)"

# wait_gone SECONDS JOB...: until squeue knows none of the jobs
wait_gone() {
    local limit=$1 t0
    shift
    t0=$(date +%s)
    while [ $(( $(date +%s) - t0 )) -lt "$limit" ]; do
        [ -z "$(squeue -h -j "$(IFS=,; echo "$*")" 2>/dev/null)" ] && return 0
        sleep 0.5
    done
    echo "still queued after $limit s:" >&2
    squeue -j "$(IFS=,; echo "$*")" >&2
    return 1
}

# 1. a trivial job array
jid=$(sbatch --parsable --array=0-3 --output="$w/trivial-%a.out" \
    --wrap 'echo "task $SLURM_ARRAY_TASK_ID on $(hostname -s)"') \
    || die "sbatch of a trivial array failed"
wait_gone 60 "$jid" || die "the trivial array did not finish in 60 s"
n=$(cat "$w"/trivial-*.out 2>/dev/null | grep -c "^task [0-3] on ")
[ "$n" -eq 4 ] && ok "a trivial sbatch --array=0-3 --wrap job ran its 4 tasks" \
    || die "the trivial array ran $n of 4 tasks"

# 2. the sweep, on one machine
cat >"$w/sweep.ini" <<'INI'
[sweep]
name = slurmtest
seed = 7
games = 10
[game tafl]
max_plies = 200
[game jetan]
max_plies = 300
[game serbest]
max_plies = 200
[agents]
rnd = random
small = mcts(iterations=150)
[matchups]
pairs = rnd vs small
INI
total=60
t0=$(now)
"$bin" run "$w/sweep.ini" --db "$w/one.db" --threads 2 --quiet \
    || die "the one-machine run failed"
t_one=$(since "$t0")
[ "$(sqlite3 "$w/one.db" 'SELECT COUNT(*) FROM games')" -eq $total ] \
    && ok "one-machine run: $total games in $t_one s on 2 threads" \
    || die "the one-machine run holds $(sqlite3 "$w/one.db" 'SELECT COUNT(*) FROM games') games"

# every column of game_view but the ids and the timing columns
cols=$(sqlite3 "$w/one.db" "SELECT group_concat(name, ', ') FROM
    pragma_table_info('game_view') WHERE name NOT IN
    ('id', 'cell_id', 'run_id', 'duration_ms', 'finished')")
rows() {
    sqlite3 "$1" "SELECT $cols FROM game_view ORDER BY sweep, sweep_seed,
        variant, agent0, agent1, game_index"
}
count() { sqlite3 "$1" "SELECT COUNT(*) FROM games" 2>/dev/null || echo 0; }
rows "$w/one.db" >"$w/one.rows"

# 3. through Slurm: 4 tasks, one warned of its time limit, one cancelled
dir="$w/shared"
local_dir="$w/node-local"
t0=$(now)
out=$("$bin" slurm "$w/sweep.ini" --tasks 4 --dir "$dir" --local "$local_dir" \
    --snapshot-every 2 --submit) || die "rulelab slurm --submit failed: $out"
array=$(echo "$out" | sed -n 's/^array job \([0-9]*\) .*/\1/p')
merge=$(echo "$out" | sed -n 's/.*merge job \([0-9]*\) .*/\1/p')
[ -n "$array" ] && [ -n "$merge" ] && ok "rulelab slurm --tasks 4 --submit: array $array, merge $merge" \
    || die "no job ids in: $out"
live() { echo "$local_dir"/rulelab-slurmtest-*/"shard-$1-of-4/shard.db"; }
task_id() { squeue -h -r -j "$array" -o "%i %A" | awk -v k="${array}_$1" '$1 == k { print $2 }'; }
warned=0 cancelled=0 released=0 t_loop=$(date +%s)
while [ $(( $(date +%s) - t_loop )) -lt 400 ]; do
    if [ $warned -eq 0 ] && [ "$(count "$(live 1)")" -ge 2 ] \
        && [ ! -e "$dir/shards/shard-1-of-4.done" ]; then
        # what --signal=B:USR1@120 does before the time limit. (scancel
        # delivers it, then says "Job can not be altered now" and retries
        # for a while, which would warn the requeued task again: so in
        # the background, and stopped once the task is requeued.)
        timeout 20 scancel --batch --signal=USR1 "${array}_1" >/dev/null 2>&1 &
        usr1=$!
        warned=1
        echo "     task 1 warned (USR1) with $(count "$(live 1)") games in its live database"
    fi
    if [ $warned -eq 1 ]; then
        id=$(task_id 1)
        state=$([ -n "$id" ] && squeue -h -j "$id" -o "%T %r" 2>/dev/null)
        case "$state" in
        PENDING*)
            [ $released -eq 0 ] && kill "$usr1" 2>/dev/null
            # a requeued job waits for a begin time Slurm sets a minute
            # or two ahead; the test need not wait for it
            case "$state" in *BeginTime*)
                scontrol update JobId="$id" StartTime=now && released=$((released + 1)) ;;
            esac ;;
        esac
    fi
    if [ $cancelled -eq 0 ] && [ "$(count "$(live 2)")" -ge 2 ] \
        && [ ! -e "$dir/shards/shard-2-of-4.done" ]; then
        cancelled_at=$(count "$(live 2)")
        timeout 20 scancel "${array}_2" >/dev/null 2>&1 &
        cancelled=1
        echo "     task 2 cancelled (scancel) with $cancelled_at games in its live database"
    fi
    [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break
    sleep 0.2
done
t_array=$(since "$t0")
[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] \
    || { squeue; die "the array and the merge job are not done after 400 s"; }
[ $warned -eq 1 ] && [ $cancelled -eq 1 ] \
    || die "could not catch tasks 1 and 2 mid-run (warned $warned, cancelled $cancelled)"
ok "the array and the merge job done in $t_array s (4 tasks on $SLURM_TEST_CPUS CPUs)"

grep -q "requeued to resume" "$dir/logs/task-1.out" \
    && grep -q "shard 1 of 4, .*start 2" "$dir/logs/task-1.out" \
    && grep -q "shard 1 of 4 complete" "$dir/logs/task-1.out" \
    && [ -e "$dir/shards/shard-1-of-4.done" ] \
    && ok "task 1, warned of its time limit, saved, requeued itself and completed its shard" \
    || bad "task 1 after USR1: $(cat "$dir/logs/task-1.out")"
n2=$(count "$dir/shards/shard-2-of-4.db")
[ ! -e "$dir/shards/shard-2-of-4.done" ] && [ "$n2" -lt 15 ] \
    && grep -q "shard 2 stopped" "$dir/logs/task-2.out" \
    && ok "task 2, cancelled, saved a snapshot of $n2 of its 15 games and is not marked complete" \
    || bad "task 2 after scancel: done=$([ -e "$dir/shards/shard-2-of-4.done" ] && echo yes || echo no), $n2 games; $(cat "$dir/logs/task-2.out")"
mlog="$dir/logs/merge-$merge.out"
grep -q "incomplete shards of 4: 2 " "$mlog" \
    && ok "the merge job names shard 2 as incomplete" || bad "merge log: $(cat "$mlog")"
n=$(count "$dir/slurmtest.db")
rows "$dir/slurmtest.db" >"$w/partial.rows"
extra=$(LC_ALL=C comm -13 <(LC_ALL=C sort "$w/one.rows") \
    <(LC_ALL=C sort "$w/partial.rows") | wc -l)
[ "$n" -eq $((45 + n2)) ] && [ "$extra" -eq 0 ] \
    && ok "the partial merge holds $n games, each as the one-machine run has it" \
    || bad "partial merge: $n games (want $((45 + n2))), $extra not in the one-machine run"

# 4. resubmit the cancelled task, merge again
t0=$(now)
again=$(sbatch --parsable --array=2 "$dir/tasks.sbatch") || die "resubmitting task 2 failed"
merge2=$(sbatch --parsable --dependency=afterany:"$again" "$dir/merge.sbatch") \
    || die "submitting the merge again failed"
wait_gone 300 "$again" "$merge2" || die "the resubmitted task and merge did not finish"
t_again=$(since "$t0")
grep -q "restoring the live database from\|start" "$dir/logs/task-2.out"
grep -q "all 4 shards complete" "$dir/logs/merge-$merge2.out" \
    && ok "task 2 resubmitted and merged again in $t_again s: all 4 shards complete" \
    || bad "second merge: $(cat "$dir/logs/merge-$merge2.out")"
rows "$dir/slurmtest.db" >"$w/merged.rows"
dups=$(sqlite3 "$dir/slurmtest.db" "SELECT COUNT(*) - COUNT(DISTINCT cell_id || '/' || game_index) FROM games")
if [ "$(count "$dir/slurmtest.db")" -eq $total ] && [ "$dups" -eq 0 ] \
    && cmp -s "$w/one.rows" "$w/merged.rows"; then
    ok "the merged database equals the one-machine run: $total games, none lost or duplicated, every column of game_view but ids and timing"
else
    bad "merged differs: $(count "$dir/slurmtest.db") games, $dups duplicated; $(diff "$w/one.rows" "$w/merged.rows" | head -5)"
fi
played=$(sqlite3 "$dir/slurmtest.db" "SELECT group_concat(shard_index || ':' || status, ' ') FROM
    (SELECT shard_index, status FROM runs ORDER BY shard_index, id)")
echo "     runs in the merged database (shard:status): $played"

# 5. merging again changes nothing; a conflicting shard is refused
dump() { # every table but merges (OUT's record of its inputs), in order
    local t
    for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type = 'table'
                             AND name NOT IN ('merges') ORDER BY name"); do
        echo "== $t"
        sqlite3 "$1" "SELECT * FROM \"$t\" ORDER BY 1"
    done
}
dump "$dir/slurmtest.db" >"$w/before.dump"
cp "$dir/slurmtest.db" "$w/again.db"
"$bin" merge "$w/again.db" "$dir"/shards/shard-*-of-4.db >"$w/again.out" 2>&1
rc=$?
bash "$dir/merge.sbatch" >"$w/again2.out" 2>&1
rc2=$?
dump "$dir/slurmtest.db" >"$w/after.dump"
dump "$w/again.db" >"$w/again.dump"
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s "$w/before.dump" "$w/after.dump" \
    && cmp -s "$w/before.dump" "$w/again.dump" \
    && grep -q ": 0 games added" "$w/again.out" \
    && ok "merging again (rulelab merge, and merge.sbatch by hand) adds and changes nothing" \
    || bad "merging again: status $rc/$rc2; $(cat "$w/again.out" "$w/again2.out")"
cp "$dir/shards/shard-0-of-4.db" "$w/conflict.db"
sqlite3 "$w/conflict.db" "UPDATE games SET plies = plies + 1 WHERE id = (SELECT MIN(id) FROM games)"
cp "$dir/slurmtest.db" "$w/refuse.db"
"$bin" merge "$w/refuse.db" "$w/conflict.db" >/dev/null 2>"$w/refuse.err"
rc=$?
dump "$w/refuse.db" >"$w/refuse.dump"
[ $rc -eq 1 ] && grep -q "conflict.db and .*shard-0-of-4.db hold game 0 of cell" "$w/refuse.err" \
    && cmp -s "$w/before.dump" "$w/refuse.dump" \
    && ok "a shard with a changed game is refused, naming it, the shard that holds the game, and the game; nothing merged" \
    || bad "conflicting shard: status $rc, $(cat "$w/refuse.err")"

# 6. no write-ahead log in the shared folder (checked before section 7
# adds its own node-local folder)
wal=$(find "$dir" -name '*-wal' -o -name '*-shm' -o -name '*.tmp-*' | head -3)
[ -z "$wal" ] && [ -z "$(ls "$local_dir"/rulelab-slurmtest-* 2>/dev/null)" ] \
    && ok "no -wal, -shm or temporary file in the shared folder; the node-local databases removed once complete" \
    || bad "left: $wal $(ls "$local_dir"/rulelab-slurmtest-* 2>/dev/null)"

# 7. a sweep that stops cells early: whole cells, dealt by the plan that
# rulelab slurm calibrates and writes, equal to a one-machine run
cat >"$w/stop.ini" <<'INI'
[sweep]
name = slurmstop
seed = 8
games = 24
stop = ci
ci_width = 0.35
min_games = 6
[game tafl]
max_plies = 100, 200
[game jetan]
max_plies = 200
[agents]
rnd = random
small = mcts(iterations=40)
[matchups]
pairs = rnd vs small
orders = given
INI
# (random loses nearly every game: the 95% interval of its score is 0.35
# wide after about 10 games, and the cell stops)
"$bin" run "$w/stop.ini" --db "$w/stop-one.db" --threads 2 --quiet \
    || die "the one-machine run of the stop-rule sweep failed"
t0=$(now)
out=$("$bin" slurm "$w/stop.ini" --tasks 2 --dir "$w/stop" --local "$local_dir" \
    --calibrate 0.05 --submit 2>&1) || die "rulelab slurm on the stop-rule sweep failed: $out"
sarray=$(echo "$out" | sed -n 's/^array job \([0-9]*\) .*/\1/p')
smerge=$(echo "$out" | sed -n 's/.*merge job \([0-9]*\) .*/\1/p')
wait_gone 300 "$sarray" "$smerge" || die "the stop-rule array and merge did not finish"
t_stop=$(since "$t0")
rows "$w/stop-one.db" >"$w/stop-one.rows"
rows "$w/stop/slurmstop.db" >"$w/stop-merged.rows" 2>/dev/null
grep -q -- '--plan "$PLAN"' "$w/stop/tasks.sbatch" \
    && grep -q "all 2 shards complete" "$w/stop/logs/merge-$smerge.out" \
    && [ "$(count "$w/stop-one.db")" -gt 0 ] && [ "$(count "$w/stop-one.db")" -lt 72 ] \
    && cmp -s "$w/stop-one.rows" "$w/stop-merged.rows" \
    && ok "a stop-rule sweep in 2 tasks by the calibrated plan ($t_stop s): the merge equals the one-machine run, $(count "$w/stop-one.db") of 72 games (cells stopped early)" \
    || bad "stop-rule sweep: $out; $(cat "$w/stop/logs/merge-$smerge.out" 2>/dev/null); $(diff "$w/stop-one.rows" "$w/stop-merged.rows" | head -5)"

# 4. a split solve as a job array: 3 tasks, one shard of the root's moves
# each, into one directory; verify joins them
t0=$(now)
sjid=$(sbatch --parsable --array=0-2 --output="$w/split-%a.out" \
    --wrap "\"$bin\" solve jetan --plies 3 --split \"$w/split\" --shard \${SLURM_ARRAY_TASK_ID}/3 --threads 1") \
    || die "sbatch of the split solve failed"
wait_gone 120 "$sjid" || die "the split solve's array did not finish in 120 s"
t_split=$(since "$t0")
nroot=$("$bin" perft jetan 1 | tail -n 1)
out=$("$bin" verify "$w/split" 2>&1)
grep -qF "has no forced win within 3 plies ($nroot parts, one per root move" <<<"$out" \
    && [ "$(grep -l "shard [0-2]/3" "$w"/split-*.out | wc -l)" -eq 3 ] \
    && ok "a split solve as an array of 3 shards ($t_split s): verify joins its $nroot parts" \
    || bad "split solve array: $out; $(cat "$w"/split-*.out | head -20)"

wait
echo "timings: one-machine run ${t_one} s;" \
    "slurm array of 4 + merge (with a requeue and a cancel) ${t_array} s;" \
    "resubmitted task + merge ${t_again} s; stop-rule sweep in 2 tasks + merge ${t_stop} s;" \
    "split solve in 3 tasks ${t_split} s;" \
    "whole test $(since "$t_start") s"
finish
