#!/usr/bin/env bash
# run.sh -- the README's main command: installs what is missing, builds,
# plays the quickstart sweep (all three games, random and a small MCTS, both
# seat orders) into results/quickstart.db with a progress line, prints
# the report, and writes it as a page, results/quickstart.html. Running it
# again resumes: games already stored are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
deps_install
deps_build build -DCMAKE_BUILD_TYPE=Release -DRULELAB_SANITIZE=OFF >/dev/null

build/rulelab run experiments/sweeps/quickstart.ini --db results/quickstart.db
echo
build/rulelab report results/quickstart.db
build/rulelab report results/quickstart.db --format html > results/quickstart.html
echo
echo "The games are in results/quickstart.db (schema: results/README.md);"
echo "the report as a page, with a figure: results/quickstart.html."
echo "Try: build/rulelab report results/quickstart.db --format markdown"
