#!/usr/bin/env bash
# test_split.sh -- `rulelab solve --split DIR` and `rulelab verify DIR` on
# the command line:
#  - Jetan from the start within 3 plies (no win: test_split.c says why),
#    split on 2 threads: one part per root move (as many as `perft jetan
#    1` counts), proven, and `verify DIR` agrees;
#  - a part removed: verify says INCOMPLETE naming the move, exits 1; the
#    solve run again resumes, solving that one part alone;
#  - shards 0/2 and 1/2 into one directory give the same answer;
#  - the tafl win in 3 of test_split.c: a proof part that verifies alone;
#  - bad input: --threads or --shard without --split, a bad shard, a bad
#    --threads for verify, --split with --proof.
# Usage: test_split.sh PATH/TO/rulelab
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"

n=$("$bin" perft jetan 1 | tail -n 1)
check "jetan split on 2 threads: proven no win" 0 \
    "parts:    $n of $n root moves, every part verified" -- \
    "$bin" solve jetan --plies 3 --split "$dir/j" --threads 2
check "verify DIR joins the $n parts" 0 \
    "has no forced win within 3 plies ($n parts, one per root move" -- \
    "$bin" verify "$dir/j" --threads 2
first=$(head -n 5 "$dir/j/part-00007.disproof" | tail -n 1 | cut -c6-)
rm "$dir/j/part-00007.disproof"
check "a removed part: INCOMPLETE, naming its move" 1 \
    "INCOMPLETE: every part verified, but 1 of the root's $n moves have none (the first: $first)" -- \
    "$bin" verify "$dir/j"
check "the solve resumes: that part alone is solved" 0 \
    "$((n - 1)) already done, 1 solved now (1 no win" -- \
    "$bin" solve jetan --plies 3 --split "$dir/j" --threads 1
check "shard 0/2 leaves the answer open" 0 "answer:   unknown until every shard is done" -- \
    "$bin" solve jetan --plies 3 --split "$dir/s" --shard 0/2 --threads 1
check "shard 1/2 completes it" 0 "no forced win within 3 plies (proven)" -- \
    "$bin" solve jetan --plies 3 --split "$dir/s" --shard 1/2 --threads 1
check "a tafl win: a proof part" 0 "answer:   proven win within 3 plies" -- \
    "$bin" solve tafl --position "4a4/9/9/a7a/9/9/9/4k4/9 d" --plies 3 \
    --split "$dir/t"
proof=$(ls "$dir/t"/part-*.proof 2>/dev/null | head -n 1)
check "the proof part verifies alone" 0 "the side to move wins within 3 plies" -- \
    "$bin" verify "$proof"
check "a disproof part alone says it is a part" 0 "valid part:" -- \
    "$bin" verify "$dir/j/part-00000.disproof"

check "--threads without --split" 2 "they need --split DIR" -- \
    "$bin" solve jetan --plies 3 --threads 2
check "--shard without --split" 2 "they need --split DIR" -- \
    "$bin" solve jetan --plies 3 --shard 0/2
check "a shard past N" 2 "--shard '2/2'" -- \
    "$bin" solve jetan --plies 3 --split "$dir/x" --shard 2/2
check "--split with --proof" 2 "leave out --proof" -- \
    "$bin" solve jetan --plies 3 --split "$dir/x" --proof "$dir/p"
check "--split at 1 ply" 2 "--split needs --plies 2 or more" -- \
    "$bin" solve jetan --plies 1 --split "$dir/x"
check "verify --threads 0" 2 "--threads must be a whole number from 1 to 4096" -- \
    "$bin" verify "$dir/j" --threads 0
check "verify --threads x" 2 "--threads must be a whole number from 1 to 4096" -- \
    "$bin" verify "$dir/j" --threads x
finish
