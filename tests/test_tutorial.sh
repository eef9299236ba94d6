#!/usr/bin/env bash
# test_tutorial.sh -- docs/tutorial.md shows real output: its sweep
# (experiments/sweeps/tutorial.ini, node budgets, so the same games on any
# machine and thread count) is played again, and every line the tutorial
# quotes from the report's variants table and from `--compare first` must
# be a line of what the report prints now.
# Usage: test_tutorial.sh PATH/TO/rulelab
set -u
bin=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/.."
# shellcheck source=tests/sh_helpers.sh
. "$here/sh_helpers.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

check "the tutorial's sweep plays" 0 "400 games played" \
    -- "$bin" run "$root/experiments/sweeps/tutorial.ini" --db "$dir/t.db" \
    --threads 2
"$bin" report "$dir/t.db" > "$dir/report.txt" 2>&1
"$bin" report "$dir/t.db" --compare first > "$dir/compare.txt" 2>&1
# the quoted report lines: those of docs/tutorial.md's code blocks that
# start with a variant or with the sweep's name
quoted=$(awk '/^```/ { inside = !inside; next }
              inside && /^(tafl|tutorial)[ (]/ { print }' "$root/docs/tutorial.md")
n=0
while IFS= read -r line; do
    n=$((n + 1))
    if grep -qxF -- "$line" "$dir/report.txt" "$dir/compare.txt"; then
        ok "quoted line $n is printed: ${line:0:60}..."
    else
        bad "quoted line $n is not what the report prints now: $line"
        sed 's/^/    /' "$dir/report.txt" "$dir/compare.txt" | head -30
    fi
done <<<"$quoted"
if [ "$n" -eq 3 ]; then ok "the tutorial quotes 3 report lines"
else bad "the tutorial quotes $n report lines, not 3"; fi
finish
