#!/usr/bin/env bash
# test_ab_games.sh -- ab at a fixed `nodes` budget plays the same game on
# any machine and in any build: six games of ab(nodes=2000)
# against ab(nodes=1000), two seeds in each game, played by `rulelab play`
# and compared move for move, result included, with
# tests/fixtures/ab_games.txt.
#
# What the fixture is: these games as the Release build (POPCNT on) played
# them on the 2-core AMD EPYC VM when the test was written. It is no proof
# that the moves are good; it is the record another build and another
# machine must reproduce. The test runs in all three passes of
# scripts/test.sh (Release; Release with ASan and UBSan; -O1 Debug with
# the invariant checks), and CI runs it on its own machine, so a search that read uninitialised memory, the clock, an
# address or a build-dependent path (the popcount instruction against
# arithmetic) would show here as a different game.
#
# When ab's behaviour changes on purpose (its behaviour version bumped),
# or it gains a parameter (the spec lines name every one),
# write the fixture again:  tests/test_ab_games.sh build/rulelab --write
# Usage: test_ab_games.sh PATH/TO/rulelab [--write]
set -u
bin=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fixture="$here/fixtures/ab_games.txt"
# shellcheck source=tests/sh_helpers.sh
. "$here/sh_helpers.sh"

specs='ab(nodes=2000),ab(nodes=1000)'
play_all() {
    local variant seed
    for variant in tafl jetan 'serbest(max_plies=80)'; do
        for seed in 3 4; do
            echo "## $variant --agents $specs --seed $seed"
            "$bin" play "$variant" --agents "$specs" --seed "$seed" 2>&1
        done
    done
}

if [ "${2:-}" = "--write" ]; then
    play_all >"$fixture"
    echo "wrote $fixture"
    exit 0
fi
got=$(play_all)
if [ "$got" = "$(cat "$fixture")" ]; then
    ok "six ab(nodes) games as recorded"
else
    bad "ab(nodes) games differ from tests/fixtures/ab_games.txt:"
    diff <(printf '%s\n' "$got") "$fixture" | head -40
fi
# the fixture is a record of six real games, not an empty file
check "fixture holds six results" 0 "6" -- \
    grep -c '^result: ' "$fixture"
finish
