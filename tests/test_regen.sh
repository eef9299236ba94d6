#!/usr/bin/env bash
# test_regen.sh -- reproducible certificates: a split's parts remade from
# the question its journal states, byte for byte, whatever the threads
# and the table; and `rulelab verify DIR --journal FILE`:
#  - Kings Landing on rank 8 within 5 plies, shard 0/68 (6 searches, 12
#    parts with their mirror twins), solved on 2 threads with a 64 MiB
#    table; `verify DIR` journals the parts under a header naming the
#    question, format 2 and the build;
#  - scripts/regen_part.sh remakes three of them from the journal alone
#    on 1 thread with a 1 MiB table, or 2 threads and 4 MiB, a mirror
#    twin among them (remade from its lower twin's search): the same
#    SHA-256 as the journal's, and cmp finds the same bytes;
#  - the script refuses a journal without a question (the committed
#    7-ply ones, of format 1) and one of a format 1 part, and reports a
#    part whose journal SHA-256 differs;
#  - verify --journal: a Jetan 3-ply split matches its own journal; a
#    changed SHA-256, a part removed, a format changed, another
#    question's journal are each named, exit 1.
# Usage: test_regen.sh PATH/TO/rulelab PATH/TO/regen_part.sh
set -u
bin=$1
regen=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"
here=$(cd "$(dirname "$0")/.." && pwd)
kl8="serbest(kings_landing=8)"

check "rank 8, 5 plies, shard 0/68 on 2 threads and 64 MiB" 0 \
    "12 in this shard: 0 already done, 12 solved now (12 no win" -- \
    "$bin" solve "$kl8" --plies 5 --split "$dir/s" --shard 0/68 --threads 2 --mb 64
check "verify DIR journals the parts (incomplete: one shard)" 1 \
    "INCOMPLETE: every part verified, but 668 of the root's 680" -- \
    "$bin" verify "$dir/s"
j=$dir/s/verified.txt
for line in "# variant serbest(" "# position 10/10/" "# plies 5" "# format 2" "# build "; do
    if grep -qF "$line" "$j"; then ok "the journal states '$line'"
    else bad "the journal lacks '$line':"; head -n 8 "$j"; fi
done
n=$(grep -c '^part-' "$j")
[ "$n" -eq 12 ] && ok "the journal has the 12 parts" || bad "the journal has $n parts"
twin=$(awk '/^part-/{i=substr($1,6,5)+0; if (i % 68) {print $1; exit}}' "$j")
[ -n "$twin" ] && ok "a mirror twin is journaled ($twin)" || bad "no mirror twin in the journal"

check "part 0 remade on 1 thread, 1 MiB: the journal's SHA-256" 0 \
    "part-00000.disproof: same SHA-256 as $j" -- \
    "$regen" "$j" 0 --bin "$bin" --threads 1 --mb 1 --keep "$dir/r0"
check "part 68 remade on 2 threads, 4 MiB" 0 \
    "part-00068.disproof: same SHA-256 as $j" -- \
    "$regen" "$j" part-00068.disproof --bin "$bin" --threads 2 --mb 4 --keep "$dir/r68"
check "the twin $twin remade from its lower twin's search" 0 \
    "$twin: same SHA-256 as $j" -- \
    "$regen" "$j" "$twin" --bin "$bin" --threads 1 --mb 1 --keep "$dir/rt"
for f in r0/part-00000.disproof r68/part-00068.disproof "rt/$twin"; do
    if cmp -s "$dir/$f" "$dir/s/$(basename "$f")"; then ok "cmp: $f is the split's, byte for byte"
    else bad "cmp: $f differs from the split's"; fi
done

sed "s/^\(part-00068.disproof\) [0-9a-f]*/\1 $(printf '0%.0s' {1..64})/" "$j" >"$dir/wrong.txt"
check "a journal SHA-256 that is not the part's: DIFFERS" 1 \
    "part-00068.disproof: DIFFERS: SHA-256" -- \
    "$regen" "$dir/wrong.txt" 68 --bin "$bin" --mb 1
check "a journal without a question (the committed 7-ply): refused" 2 \
    "states no question (# variant, # position, # plies)" -- \
    "$regen" "$here/experiments/proofs/serbest_kl8_nowin7.verified.txt" 0 --bin "$bin"
sed 's/^# format 2/# format 1/' "$j" >"$dir/old.txt"
check "a format 1 part: refused" 2 "is of certificate format 1" -- \
    "$regen" "$dir/old.txt" 0 --bin "$bin"
check "a part the journal does not name" 2 "names no part-00001.disproof" -- \
    "$regen" "$j" 1 --bin "$bin"

check "jetan 3-ply split" 0 "every part verified" -- \
    "$bin" solve jetan --plies 3 --split "$dir/jt" --threads 2
cp "$dir/jt/verified.txt" "$dir/jt.txt"
check "verify --journal: its own journal matches" 0 "matches $dir/jt.txt: its" -- \
    "$bin" verify "$dir/jt" --journal "$dir/jt.txt"
sed "s/^\(part-00003.disproof\) [0-9a-f]*/\1 $(printf 'f%.0s' {1..64})/" "$dir/jt.txt" >"$dir/jt_hex.txt"
check "verify --journal: a changed SHA-256 is named" 1 \
    "$dir/jt/part-00003.disproof: MISMATCH: SHA-256 " -- \
    "$bin" verify "$dir/jt" --journal "$dir/jt_hex.txt"
sed 's/^# format 2/# format 1/' "$dir/jt.txt" >"$dir/jt_fmt.txt"
check "verify --journal: another format is named" 1 \
    "MISMATCH: certificate format 2, the journal's is 1" -- \
    "$bin" verify "$dir/jt" --journal "$dir/jt_fmt.txt"
check "verify --journal: another question's journal" 1 \
    "MISMATCH: the journal's question (serbest(" -- \
    "$bin" verify "$dir/jt" --journal "$j"
rm "$dir/jt/part-00005.disproof"
check "verify --journal: a removed part is named missing" 1 \
    "$dir/jt/part-00005.disproof: MISMATCH: missing (the journal names it)" -- \
    "$bin" verify "$dir/jt" --journal "$dir/jt.txt"
check "verify FILE --journal: refused" 2 "give DIR, not a file" -- \
    "$bin" verify "$dir/jt/part-00000.disproof" --journal "$dir/jt.txt"
check "verify --journal of no file" 1 "cannot be read" -- \
    "$bin" verify "$dir/jt" --journal "$dir/none.txt"
check "solve --part with --shard" 2 "give one of the two" -- \
    "$bin" solve jetan --plies 3 --split "$dir/x" --part 1 --shard 0/2
check "solve --part past the root's moves" 1 "part 500: the root has 112 moves" -- \
    "$bin" solve jetan --plies 3 --split "$dir/x" --part 500
finish
