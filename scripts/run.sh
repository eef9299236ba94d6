#!/usr/bin/env bash
# run.sh -- the README's main command: installs what is missing, builds,
# plays the quickstart sweep (all three games, random and a small MCTS, both
# seat orders) into results/quickstart.db with a progress line, and prints
# the report. Running it again resumes: games already stored are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
deps_install
deps_build build -DCMAKE_BUILD_TYPE=Release -DRULELAB_SANITIZE=OFF >/dev/null

build/rulelab run experiments/sweeps/quickstart.ini --db results/quickstart.db
echo
build/rulelab report results/quickstart.db
echo
echo "The games are in results/quickstart.db (schema: results/README.md)."
echo "Try: build/rulelab report results/quickstart.db --format markdown"
