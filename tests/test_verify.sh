#!/usr/bin/env bash
# test_verify.sh -- `rulelab verify` on large and deep proofs, made by
# tests/big_proof.c (a valid waiting strategy; see there):
#  - deep proofs (bounds 9 and 15) verify, with the number of move lines
#    that the file has (counted here with wc);
#  - a line deep in the file deleted or changed is rejected naming its line;
#  - memory does not grow with the file: under a 32 MiB address-space
#    limit (ulimit -v), verify checks a 5 MB proof of 630,921 lines. The
#    reader that held every line (40 bytes each, doubled by realloc) needed
#    more than 40 MiB there (measured: it failed at ulimit -v 40000 and
#    passed at 60000; the streaming one passes at 6000). Skipped where a
#    small proof cannot run under the limit (sanitizer builds);
#  - the committed rank-7 Kings Landing disproof (5 plies) verifies;
#  - the committed 9-ply parts of the king drops on ranks 8 and 7 verify,
#    one for each of the ten drops on the landing rank.
# Usage: test_verify.sh PATH/TO/rulelab PATH/TO/big_proof
set -u
bin=$1
gen=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"
here=$(dirname "$0")

"$gen" 4 >"$dir/w4.proof" 2>/dev/null || bad "big_proof 4 failed"
lines=$(($(wc -l <"$dir/w4.proof") - 6)) # less the 5 header lines and 'end'
out=$("$bin" verify "$dir/w4.proof" 2>&1)
if grep -qF "the side to move wins within 9 plies ($lines lines)" <<<"$out"; then
    ok "a proof 9 plies deep verifies ($lines lines)"
else bad "the 9-ply proof: $out"; fi

# Delete the last line at the deepest ply (the last Khan, at ply 9, the
# last move line): its place, line n, is then the 'end' line, where the
# attacker's move at ply 9 is missing. (The reader that held every line
# named line 2755 here: the number of move lines + 1, not a file line.)
n=$(grep -n '^9 ' "$dir/w4.proof" | tail -n 1 | cut -d: -f1)
sed "${n}d" "$dir/w4.proof" >"$dir/cut.proof"
out=$("$bin" verify "$dir/cut.proof" 2>&1)
rc=$?
if [ $rc -eq 1 ] && grep -qF "INVALID: line $n: the attacker's move at ply 9 is missing" <<<"$out"; then
    ok "a deleted ply-9 line is named (line $n)"
else bad "deleted ply-9 line $n: rc=$rc $out"; fi
# Junk after a move deep in the file.
m=$((lines / 2 + 6))
sed "${m}s/\$/ junk/" "$dir/w4.proof" >"$dir/junk.proof"
out=$("$bin" verify "$dir/junk.proof" 2>&1)
if grep -qF "INVALID: line $m: ' junk' after the move" <<<"$out"; then
    ok "junk after a move on line $m is named"
else bad "junk on line $m: $out"; fi

# Memory: the 15-ply proof under a 32 MiB address-space limit.
limit=32768
if (ulimit -v $limit && "$bin" verify "$here/../experiments/proofs/serbest_kl9_win5.proof") >/dev/null 2>&1; then
    "$gen" 7 >"$dir/w7.proof" 2>/dev/null || bad "big_proof 7 failed"
    lines=$(($(wc -l <"$dir/w7.proof") - 6))
    out=$(ulimit -v $limit && "$bin" verify "$dir/w7.proof" 2>&1)
    if grep -qF "within 15 plies ($lines lines)" <<<"$out"; then
        ok "a $(du -k "$dir/w7.proof" | cut -f1) KB proof of $lines lines verifies in 32 MiB of address space"
    else bad "the 15-ply proof under ulimit -v $limit: $out"; fi
else
    echo "skip the memory limit: even a small proof cannot run under ulimit -v $limit here"
fi

# The committed rank-7 disproof (no forced win within 5 plies from the
# empty board; the rank-8 ones are walked with serbest_ref in
# test_disproof_committed): it verifies, with the counts solve wrote.
kl7="$here/../experiments/proofs/serbest_kl7_nowin5.disproof"
out=$("$bin" verify "$kl7" 2>&1)
if grep -qF "kings_landing=7" <<<"$out" \
    && grep -qF "no forced win within 5 plies (823419 nodes, 0 shared, 0 links, 411039 leaves" <<<"$out"; then
    ok "the committed rank-7 5-ply disproof verifies"
else bad "serbest_kl7_nowin5.disproof: $out"; fi

# The committed 9-ply parts of ranks 8 and 7 (experiments/proofs/
# serbest_kl{8,7}_kings_nowin9): one per king drop on the landing rank,
# each verifies as that drop's part, forcing no win within 9 plies, and
# together they name the ten drops a..j on that rank exactly once.
for rank in 8 7; do
    want="K@a$rank K@b$rank K@c$rank K@d$rank K@e$rank K@f$rank K@g$rank K@h$rank K@i$rank K@j$rank"
    got="" fails=0
    for f in "$here/../experiments/proofs/serbest_kl${rank}_kings_nowin9"/part-*.disproof; do
        out=$("$bin" verify "$f" 2>&1)
        move=$(sed -n "s/.*the side to move's move \(K@[a-j]$rank\) forces no win within 9 plies (.*/\1/p" <<<"$out")
        if grep -q ": valid part: in serbest(.*kings_landing=$rank," <<<"$out" && [ -n "$move" ]; then
            got="$got $move"
        else fails=$((fails + 1)); echo "not a valid 9-ply king-drop part: $out"; fi
    done
    if [ $fails -eq 0 ] && [ "$(tr ' ' '\n' <<<"$got" | sort | xargs)" = "$want" ]; then
        ok "rank $rank: the ten king drops' 9-ply parts verify ($want)"
    else bad "rank $rank's 9-ply king-drop parts: $fails invalid, moves:$got"; fi
done

finish
