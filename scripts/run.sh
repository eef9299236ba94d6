#!/usr/bin/env bash
# run.sh -- the README's main command: installs what is missing, builds, and
# runs the main job. Until the sweep runner exists this is a short real
# demonstration: the games and their rules, perft proof of the move
# generator, and random self-play throughput with outcomes.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
deps_install
deps_build build -DCMAKE_BUILD_TYPE=Release -DRULELAB_SANITIZE=OFF >/dev/null

bin=build/rulelab
echo "== games and rule parameters =="
$bin list
echo "== perft of tafl(first=defenders): RULES.md gives 56 / 3968 / 225224 =="
for d in 1 2 3 4; do
    printf 'depth %d: %s\n' "$d" "$($bin perft 'tafl(first=defenders)' "$d")"
done
echo
echo "== the start position =="
$bin show tafl
echo
echo "== random self-play, 3 seconds on $(nproc) threads =="
$bin bench tafl --seconds 3 --threads "$(nproc)"
