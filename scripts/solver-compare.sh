#!/usr/bin/env bash
# solver-compare.sh -- two revisions' solver on the Kings Landing questions,
# side by side in one run on this machine: builds OLD_REV and NEW_REV
# (scripts/bench_build.sh), then for each case runs `rulelab solve` with
# the old build and then the new one, and prints the answer, the nodes,
# the wall time of the whole command (search, certificate written and
# verified) and the ratio old/new. The cases are "RANK PLIES" pairs from
# the empty board, each with the README's budget (--nodes 400000 --mb
# 1024); the default is "9 5" (about 20 minutes for cbdcb07).
# Usage: scripts/solver-compare.sh OLD_REV NEW_REV [CASES]
#   e.g. scripts/solver-compare.sh cbdcb07 HEAD "9 5,8 5"
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
old_rev=$1 new_rev=$2 cases=${3:-"9 5"}
# Each case is two whole numbers, checked before the builds (minutes).
IFS=, read -ra list <<<"$cases"
for c in "${list[@]}"; do
    if ! [[ $c =~ ^\ *[0-9]+\ +[0-9]+\ *$ ]]; then
        echo "solver-compare: case '$c' is not RANK PLIES (e.g. \"9 5,8 5\")" >&2
        exit 2
    fi
done
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/bench_build.sh
. "$root/scripts/bench_build.sh"
old=$(bench_build "$old_rev") || exit 1
new=$(bench_build "$new_rev") || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run WHO BIN RANK PLIES: one solve; prints "answer | nodes | seconds"
run() {
    local t0 t1 out
    t0=$(date +%s.%N)
    out=$("$2" solve "serbest(kings_landing=$3)" --plies "$4" --nodes 400000 \
        --mb 1024 --proof "$tmp/$1.cert" 2>&1) || true
    t1=$(date +%s.%N)
    printf '%s | %s | %.2f\n' \
        "$(sed -n 's/^answer: *//p' <<<"$out" | cut -c1-40)" \
        "$(sed -n 's/^nodes: *\([0-9]*\).*/\1/p' <<<"$out")" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
}

echo "machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
echo "| rank | plies | build | answer | nodes | seconds |"
echo "| --- | --- | --- | --- | --- | --- |"
for c in "${list[@]}"; do
    read -r rank plies <<<"$c"
    o=$(run old "$old" "$rank" "$plies")
    n=$(run new "$new" "$rank" "$plies")
    echo "| $rank | $plies | $old_rev | $o |"
    echo "| $rank | $plies | $new_rev | $n |"
    awk -v r="$rank" -v p="$plies" -v o="${o##* | }" -v n="${n##* | }" \
        'BEGIN { printf "| %s | %s | old/new | | | %.1fx |\n", r, p, o / n }'
done
