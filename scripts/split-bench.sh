#!/usr/bin/env bash
# split-bench.sh -- how much faster a split solve runs on more threads:
# the same split (whether Kings Landing on rank 8 wins by force within 7
# plies, every root move) solved into a fresh directory with each thread
# count in turn, each run stopped once its searches are done (the join,
# which verifies every part and takes hours, is not timed). Prints, per
# run, the wall seconds the solve reports, the CPU seconds the process
# used, the search nodes, and the speed-up against the first run.
#
#   scripts/split-bench.sh [BIN] [VARIANT] [PLIES] [MB] [SHARD] [THREADS...]
#
# BIN defaults to build/rulelab, VARIANT to serbest(kings_landing=8),
# PLIES to 7, MB (the table, shared by the threads) to 1024, SHARD to
# 0/1 (every root move), THREADS to "1 2". The whole default run takes
# about 10 minutes on 2 cores; `... 7 1024 0/20` takes a twentieth.
# Run it on a quiet machine: it measures wall time. The parts are
# written under $TMPDIR (default /tmp): 1.6 GB for the default run.
set -euo pipefail
bin=${1:-build/rulelab}
variant=${2:-serbest(kings_landing=8)}
plies=${3:-7}
mb=${4:-1024}
shard=${5:-0/1}
shift $(($# < 5 ? $# : 5))
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2)
[ -x "$bin" ] || { echo "split-bench: no binary at $bin" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rulelab-split-bench.XXXXXX")
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "split-bench: $variant within $plies plies, shard $shard, --mb $mb," \
     "$(nproc) cores, $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
printf '%-8s %10s %10s %14s %9s\n' threads wall_s cpu_s nodes speedup
first=
for t in "${threads[@]}"; do
    dir="$work/t$t"
    log="$work/t$t.log"
    "$bin" solve "$variant" --plies "$plies" --split "$dir" --shard "$shard" \
        --threads "$t" --mb "$mb" > "$log" 2> "$work/t$t.err" &
    pid=$!
    # The solve prints "nodes: N in S s (C s of CPU time)" when its
    # searches are done, and then joins the parts (or, for a shard,
    # stops): the run is timed up to that line.
    while ! grep -q '^nodes:' "$log"; do
        if ! kill -0 "$pid" 2>/dev/null && ! grep -q '^nodes:' "$log"; then
            echo "split-bench: the solve with $t threads ended early:" >&2
            cat "$log" "$work/t$t.err" >&2
            exit 1
        fi
        sleep 0.2
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=
    read -r nodes wall cpu < <(awk '/^nodes:/{sub(/^[(]/, "", $6); print $2, $4, $6}' "$log")
    [ -n "$first" ] || first=$wall
    printf '%-8s %10s %10s %14s %8.2fx\n' "$t" "$wall" "$cpu" "$nodes" \
        "$(awk -v a="$first" -v b="$wall" 'BEGIN{print a / b}')"
    rm -rf "$dir"
done
