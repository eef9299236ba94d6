#!/usr/bin/env bash
# scale_coverage.sh -- does RULELAB_TEST_SCALE=0.25 (tests/test_scale.h)
# lose coverage? Builds the suites that read it with gcov instrumentation
# (build-coverage/, Debug -O0), runs each at scale 1 and at 0.25, and prints
# the lines of the project's sources each run covered, per suite: equal
# counts, or a difference whose lines other suites run (docs/developing.md
# says which).
# Usage: scripts/scale_coverage.sh [BUILD_DIR]   (needs gcc's gcov)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-coverage}
suites="test_agents test_jetan_games"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="--coverage -O0" \
    -DCMAKE_EXE_LINKER_FLAGS=--coverage >/dev/null
# shellcheck disable=SC2086
cmake --build "$dir" -j "$(nproc)" --target $suites >/dev/null
# Lines covered in core/, agents/ and tests/ after the last run.
covered() {
    find "$dir" -name '*.gcda' | while read -r f; do
        (cd "$(dirname "$f")" && gcov -n "$(basename "$f")" 2>/dev/null)
    done | /usr/bin/python3 -c '
import re, sys
total, name = 0, None
for line in sys.stdin:
    m = re.match(r"File .(.*).$", line.strip())
    if m:
        name = m.group(1)
        continue
    m = re.match(r"Lines executed:([\d.]+)% of (\d+)", line.strip())
    if m and name and "/usr/" not in name:
        total += round(float(m.group(1)) * int(m.group(2)) / 100)
        name = None
print(total)'
}
printf '%-26s %12s %12s\n' suite "scale 1" "scale 0.25"
for t in $suites; do
    counts=()
    for scale in 1 0.25; do
        find "$dir" -name '*.gcda' -delete
        RULELAB_TEST_SCALE=$scale "$dir/$t" >/dev/null 2>&1
        counts+=("$(covered)")
    done
    printf '%-26s %12s %12s\n' "$t" "${counts[0]}" "${counts[1]}"
done
