#!/usr/bin/env bash
# test_slurm_script.sh -- `rulelab slurm` without a Slurm: the scripts it
# writes (array range, shard and thread arguments, sbatch options, the
# node-local database, snapshots, signal and requeue, the merge job and
# its inputs), the commands it prints, --submit through a stand-in
# sbatch, and the errors for bad input. tests/test_slurm.sh runs the
# scripts on a real Slurm.
# Usage: test_slurm_script.sh PATH/TO/rulelab
set -u
bin=$1
bin=$(readlink -f "$1")
abs_bin=$bin
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"
has() { # has FILE TEXT DESCRIPTION: FILE holds the line fragment TEXT
    if grep -qF -- "$2" "$1"; then ok "$3"; else bad "$3: no '$2' in $1"; fi
}

cat >"$dir/s.ini" <<'INI'
[sweep]
name = slurmy
seed = 3
games = 10
[game tafl]
[agents]
rnd = random
[matchups]
pairs = rnd vs rnd
INI

cd "$dir"
out=$("$bin" slurm s.ini --tasks 7 --dir "out dir" --partition short \
    --time 2:00:00 --cpus 4 --mem 3G --local /scratch/me --snapshot-every 60)
[ $? -eq 0 ] && ok "slurm writes the scripts" || bad "slurm failed: $out"
t="$dir/out dir/tasks.sbatch"
m="$dir/out dir/merge.sbatch"
[ -x "$t" ] && [ -x "$m" ] && [ -d "$dir/out dir/shards" ] && [ -d "$dir/out dir/logs" ] \
    && ok "tasks.sbatch, merge.sbatch, shards/ and logs/ in DIR" || bad "files in DIR: $(ls "$dir/out dir")"
has "$t" "#SBATCH --array=0-6" "the array is 0-6 for 7 tasks"
has "$t" "#SBATCH --cpus-per-task=4" "--cpus is --cpus-per-task"
has "$t" "#SBATCH --partition=short" "--partition"
has "$t" "#SBATCH --time=2:00:00" "--time"
has "$t" "#SBATCH --mem=3G" "--mem"
has "$t" "#SBATCH --requeue" "the array is requeueable"
has "$t" "#SBATCH --signal=B:USR1@120" "USR1 to the batch shell 120 s before the limit"
has "$t" "#SBATCH --output=\"$dir/out dir/logs/task-%a.out\"" "a log per task in DIR/logs, quoted"
has "$t" "RULELAB='$abs_bin'" "the scripts call this binary by its absolute path"
has "$t" "INPUT='$dir/s.ini'" "the sweep by its absolute path"
has "$t" "DIR='$dir/out dir'" "DIR absolute and quoted"
has "$t" "N=7" "N=7"
has "$t" '"$RULELAB" run "$INPUT" --shard "$K/$N" --threads "$THREADS" --db "$LIVE"' \
    "each task runs --shard \$SLURM_ARRAY_TASK_ID/N into its live database"
has "$t" 'K=${SLURM_ARRAY_TASK_ID:' "K is the array task id"
has "$t" 'THREADS=${SLURM_CPUS_PER_TASK:-1}' "threads are the task's CPUs"
has "$t" "--snapshot \"\$SNAP\" --snapshot-every 60" "snapshots every --snapshot-every seconds"
has "$t" 'SNAP="$DIR/shards/shard-$K-of-$N.db"' "the snapshot in DIR/shards"
has "$t" "LOCAL_BASE='/scratch/me'" "--local is the node-local folder"
has "$t" 'scontrol requeue "$SLURM_JOB_ID"' "the task requeues itself after USR1"
has "$t" 'cp "$SNAP" "$LIVE.part"' "a task without its live database restores it from the snapshot"
bash -n "$t" && bash -n "$m" && ok "both scripts are valid bash" || bad "bash -n fails"
has "$m" "#SBATCH --job-name=rulelab-slurmy-merge" "the merge job's name"
has "$m" "#SBATCH --partition=short" "the merge job in the same partition"
has "$m" 'OUT="$DIR/slurmy.db"' "the merged database is DIR/NAME.db"
has "$m" '"$RULELAB" merge "$work/merged.db" "${shards[@]}" --snapshot "$OUT"' \
    "the merge job merges the snapshots locally and publishes OUT"
has "$m" "incomplete shards" "the merge job names incomplete shards"
echo "$out" | grep -qF "sbatch --dependency=afterany:\${jid%%;*} '$dir/out dir/merge.sbatch'" \
    && echo "$out" | grep -qF "jid=\$(sbatch --parsable '$dir/out dir/tasks.sbatch')" \
    && ok "prints the sbatch commands, the merge after the array (afterany)" \
    || bad "printed: $out"

# defaults: results/NAME-slurm, 1 CPU, $TMPDIR, no partition/time/mem
"$bin" slurm s.ini --tasks 1 >/dev/null || bad "defaults"
t="$dir/results/slurmy-slurm/tasks.sbatch"
has "$t" "#SBATCH --array=0-0" "one task: --array=0-0"
has "$t" "#SBATCH --cpus-per-task=1" "1 CPU by default"
has "$t" 'LOCAL_BASE=${TMPDIR:-/tmp}' "\$TMPDIR by default"
grep -q "partition\|--time\|--mem" "$t" && bad "options not given are absent" \
    || ok "sbatch options not given are left out"

# the merge script, run by hand on a DIR without shards: says all missing
(cd "$dir/results/slurmy-slurm" && bash merge.sbatch >"$dir/merge.out" 2>&1)
[ $? -eq 3 ] && grep -q "incomplete shards of 1: 0" "$dir/merge.out" \
    && ok "merge.sbatch with nothing done: status 3, names shard 0" \
    || bad "merge.sbatch: $(cat "$dir/merge.out")"

# --submit through a stand-in sbatch that records its arguments
mkdir "$dir/fake"
cat >"$dir/fake/sbatch" <<FAKE
#!/bin/sh
echo "\$*" >>"$dir/fake/calls"
n=\$(wc -l <"$dir/fake/calls")
echo "\$((100 + n));cluster"
FAKE
chmod +x "$dir/fake/sbatch"
out=$(PATH="$dir/fake:$PATH" "$bin" slurm s.ini --tasks 3 --dir sub --submit)
rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "array job 101 (3 tasks), merge job 102" \
    && ok "--submit prints the job ids" || bad "--submit: $rc $out"
sed -n 1p "$dir/fake/calls" | grep -q -- "--parsable .*sub/tasks.sbatch" \
    && sed -n 2p "$dir/fake/calls" | grep -q -- "--dependency=afterany:101 .*sub/merge.sbatch" \
    && ok "--submit: the array, then the merge with afterany on it" \
    || bad "sbatch calls: $(cat "$dir/fake/calls")"
printf '#!/bin/sh\nexit 1\n' >"$dir/fake/sbatch"
PATH="$dir/fake:$PATH" "$bin" slurm s.ini --tasks 3 --dir sub --submit >/dev/null 2>"$dir/err"
[ $? -eq 1 ] && grep -q "sbatch" "$dir/err" && ok "a failing sbatch fails --submit, saying so" \
    || bad "failing sbatch: $(cat "$dir/err")"

# a sweep that stops cells early: its whole cells dealt by a plan
cat >"$dir/stop.ini" <<'INI'
[sweep]
name = stopper
seed = 3
games = 8
stop = sprt
[game tafl]
max_plies = 10, 20, 30
[agents]
rnd = random
m = mcts(iterations=4)
[matchups]
pairs = rnd vs m
orders = given
INI
out=$("$bin" slurm stop.ini --tasks 2 --dir plan --calibrate 0.01 2>"$dir/err")
rc=$?
p="$dir/plan/plan.txt"
[ $rc -eq 0 ] && [ -s "$p" ] && ok "a stop-rule sweep gets DIR/plan.txt" || bad "plan: $out $(cat "$dir/err")"
echo "$out" | grep -q "plan: $p, whole cells dealt by estimated cost" \
    && echo "$out" | grep -q "cell c to shard c mod N: " \
    && ok "slurm says the plan's estimates beside the round-robin deal's" || bad "printed: $out"
grep -q "calibrating each cell" "$dir/err" && ok "slurm says it calibrates" || bad "stderr: $(cat "$dir/err")"
has "$dir/plan/tasks.sbatch" "PLAN='$p'" "the tasks read DIR/plan.txt"
has "$dir/plan/tasks.sbatch" '--shard "$K/$N" --plan "$PLAN"' "each task runs its shard of the plan"
"$bin" run stop.ini --shard 1/2 --plan "$p" --dry-run --calibrate 0 >/dev/null \
    && ok "rulelab run reads the plan slurm wrote" || bad "run --plan $p fails"
"$bin" slurm stop.ini --tasks 2 --dir plan0 --calibrate 0 >/dev/null
[ ! -e "$dir/plan0/plan.txt" ] && ! grep -q PLAN "$dir/plan0/tasks.sbatch" \
    && ok "--calibrate 0: no plan, cell c to task c mod N" || bad "--calibrate 0 wrote a plan"
out=$("$bin" slurm stop.ini --tasks 2 --dir plan2 --plan "$p")
cmp -s "$p" "$dir/plan2/plan.txt" && echo "$out" | grep -q "copied to $dir/plan2/plan.txt" \
    && ok "--plan FILE is checked and copied to DIR/plan.txt" || bad "--plan: $out"

# slurm_clean_stale (tests/slurm_cluster.sh) removes only the folders of
# test runs that are gone: another clone's test, still running, keeps its
# cluster
(
    SLURM_TEST_BASE="$dir/base"
    mkdir -p "$SLURM_TEST_BASE"
    # shellcheck source=tests/slurm_cluster.sh
    . "$here/slurm_cluster.sh"
    b=$SLURM_TEST_BASE
    mkdir "$b/rulelab-slurm.live" "$b/rulelab-slurm.dead" "$b/rulelab-slurm.reused" \
        "$b/rulelab-slurm.new" "$b/rulelab-slurm.old"
    echo "$$ $(_slurm_start_time $$)" >"$b/rulelab-slurm.live/owner"
    echo "999999999 12345" >"$b/rulelab-slurm.dead/owner"
    echo "$$ 1" >"$b/rulelab-slurm.reused/owner"
    touch -d "10 minutes ago" "$b/rulelab-slurm.old"
    slurm_clean_stale 2>/dev/null
    ls "$b" | tr '\n' ' '
) >"$dir/stale.out"
[ "$(cat "$dir/stale.out")" = "rulelab-slurm.live rulelab-slurm.new " ] \
    && ok "slurm_clean_stale keeps a live test's cluster and a folder being made, removes the dead, the reused PID's and the old" \
    || bad "slurm_clean_stale left: $(cat "$dir/stale.out")"

# bad input
expect() { # expect STATUS PATTERN DESCRIPTION ARGS...
    local want=$1 pat=$2 what=$3
    shift 3
    "$bin" slurm "$@" >/dev/null 2>"$dir/err"
    local got=$?
    if [ $got -eq "$want" ] && grep -q -- "$pat" "$dir/err"; then ok "$what"
    else bad "$what: status $got, $(cat "$dir/err")"; fi
}
expect 2 "needs --tasks" "--tasks is required" s.ini
expect 2 "from 1 to" "--tasks 0 is refused" s.ini --tasks 0
expect 2 "from 1 to" "--tasks x is refused" s.ini --tasks x
expect 2 "from 1 to" "--cpus 0 is refused" s.ini --tasks 2 --cpus 0
expect 1 "no-such.ini" "a missing sweep file" no-such.ini --tasks 2
printf '[sweep]\nname = x\n' >"$dir/bad.ini"
expect 1 "bad.ini" "an invalid sweep file" bad.ini --tasks 2
mkdir "$dir/ro" && chmod 555 "$dir/ro"
if [ "$(id -u)" -ne 0 ]; then
    expect 1 "cannot" "an unwritable DIR" s.ini --tasks 2 --dir "$dir/ro/x"
fi
: >"$dir/afile"
expect 1 "cannot make" "DIR that is a file" s.ini --tasks 2 --dir "$dir/afile/x"
expect 1 "choose another --dir" "DIR with a % is refused" s.ini --tasks 2 --dir "$dir/50%"
expect 2 "absolute" "--local must be absolute" s.ini --tasks 2 --local scratch
expect 2 "sbatch value" "--partition with a space" s.ini --tasks 2 --partition "a b"
expect 2 "sbatch value" "--time with a newline" s.ini --tasks 2 --time "$(printf '1\n#x')"
expect 2 "unknown option" "an unknown option" s.ini --tasks 2 --nodes 3
expect 2 "has no early-stop rule" "--plan on a sweep without a stop rule" s.ini --tasks 2 --plan "$p"
expect 2 "from 0 (no plan) to" "--calibrate -1 is refused" stop.ini --tasks 2 --calibrate -1
expect 2 "give one" "--plan and --calibrate together" stop.ini --tasks 2 --plan "$p" --calibrate 1
expect 1 "the plan deals 2 shards, not 3" "a plan for other N" stop.ini --tasks 3 --plan "$p"
"$bin" slurm --help | grep -q -- "--submit" && "$bin" slurm --help | grep -q "Example" \
    && ok "--help shows the options and an example" || bad "--help"

finish
