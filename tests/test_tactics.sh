#!/usr/bin/env bash
# test_tactics.sh -- `rulelab tactics` from the outside: --help, the
# usage errors (unknown game, bad agent spec, unknown action) exit 2, a
# missing set file exits 1 naming it, and a run over a two-line set built
# here by hand (the tafl fork and must-defend positions of
# tests/test_tactics.c, whose answers and legal move counts -- 16, the
# king's, and 46 -- are derived there) reports one row per kind with the
# right position counts, as a table and as JSON; `tactics verify` accepts
# the hand set's stored moves (c5c1 wins, b7b1 is the one defence);
# --missed lists on stderr exactly the positions the table counts as not
# solved, each with its kind and the hand set's position.
# Usage: test_tactics.sh PATH/TO/rulelab
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"

"$bin" tactics --help | grep -q 'usage: rulelab tactics' \
    && ok "--help" || bad "--help"

"$bin" tactics --games chess --set "$dir" >/dev/null 2>"$dir/err"
[ $? -eq 2 ] && grep -q "unknown game 'chess'" "$dir/err" \
    && ok "unknown game" || bad "unknown game"

"$bin" tactics --agents 'random,nosuch(x=1)' --set "$dir" >/dev/null \
    2>"$dir/err"
[ $? -eq 2 ] && grep -q "bad agent 'nosuch(x=1)'" "$dir/err" \
    && ok "bad spec" || bad "bad spec"

"$bin" tactics frobnicate >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown action" || bad "unknown action"

"$bin" tactics --games tafl --set "$dir" >/dev/null 2>"$dir/err"
[ $? -eq 1 ] && grep -q "tafl.txt" "$dir/err" \
    && ok "missing set" || bad "missing set"

v=tafl
{
    echo "# hand-built"
    printf 'win3\t%s\t9/7a1/6a2/9/2k6/9/9/9/9 d\t16\thand\thand\tc5c1\t-\n' "$v"
    printf 'defend\t%s\t9/9/1a7/9/7a1/9/9/2a6/2kd5 a\t46\thand\thand\tb7b1\t-\n' "$v"
} >"$dir/tafl.txt"

out=$("$bin" tactics --games tafl --set "$dir" --agents random --quiet)
[ $? -eq 0 ] \
    && echo "$out" | grep -Eq '^random +tafl +win3 +1 ' \
    && echo "$out" | grep -Eq '^random +tafl +win5 +0 ' \
    && echo "$out" | grep -Eq '^random +tafl +defend +1 ' \
    && ok "table" || bad "table: $out"

out=$("$bin" tactics --games tafl --set "$dir" --agents random,random --json \
    --quiet)
[ $? -eq 0 ] && [ "$(echo "$out" | grep -c '"kind"')" -eq 6 ] \
    && echo "$out" | grep -q '"kind": "defend", "positions": 1' \
    && ok "json" || bad "json: $out"

"$bin" tactics verify --games tafl --set "$dir" >"$dir/out" 2>&1 \
    && grep -q 'tafl: 2 positions, 0 certificates: all verified' "$dir/out" \
    && ok "verify" || bad "verify: $(cat "$dir/out")"

# --missed: one line per position not solved, as many as the table's
# positions less solved, each naming its kind and position
"$bin" tactics --games tafl --set "$dir" --agents random --quiet --missed \
    >"$dir/out" 2>"$dir/err"
unsolved=$(awk '$1 == "random" { n += $4 - $5 } END { print n + 0 }' \
    "$dir/out")
listed=$(grep -c '^missed	random	tafl	' "$dir/err")
[ "$unsolved" -eq "$listed" ] \
    && ! grep -v '^missed	random	tafl	\(win3	.*9/7a1/6a2/9/2k6/9/9/9/9 d\|defend	.*9/9/1a7/9/7a1/9/9/2a6/2kd5 a\)$' "$dir/err" \
        | grep -q . \
    && ok "missed ($listed of 2)" || bad "missed: $unsolved vs $(cat "$dir/err")"

finish
