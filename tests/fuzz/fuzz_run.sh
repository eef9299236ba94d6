#!/bin/sh
# fuzz_run.sh EXE SCRATCH RUNS DICT INPUT_DIR... -- one short, reproducible
# libFuzzer run for ctest: starts from the given corpus directories (only
# read) with the keyword dictionary DICT ("-" for none), writes new inputs and any crash into the emptied SCRATCH
# directory, runs RUNS inputs from seed 1. Exits non-zero on a crash, a
# leak, a timeout (10 s per input) or running out of memory (2 GiB).
set -eu
exe=$1 scratch=$2 runs=$3 dict=$4
shift 4
set -- "$scratch/new" "$@"
[ "$dict" = - ] || set -- -dict="$dict" "$@"
rm -rf "$scratch"
mkdir -p "$scratch/new"
exec "$exe" -seed=1 -runs="$runs" -timeout=10 -rss_limit_mb=2048 \
    -close_fd_mask=3 -print_final_stats=1 \
    -artifact_prefix="$scratch/" "$@"
