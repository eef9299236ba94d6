#!/usr/bin/env bash
# kill_campaign.sh -- the crash test of `rulelab run`: SIGKILLs a sweep at
# random (seeded) moments N times, resumes it after each kill, lets it
# finish, and compares the final database with an uninterrupted run of the
# same sweep on every content column (all but the timing ones):
#   lost       games the uninterrupted run has and the killed one lacks
#   duplicated (cell, game index) pairs stored more than once
#   differing  games stored by both whose content differs
#   extra      games the killed run has and the uninterrupted one lacks
# plus SQLite's integrity_check. Exits 0 only when all four are 0 and the
# check says ok. The README's reliability section quotes its figures.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: scripts/kill_campaign.sh [-n KILLS] [-s SEED] [-d MAX_DELAY] [-g GAMES] [-b RULELAB] [--tamper] [SWEEP.ini]

SIGKILLs `rulelab run SWEEP` KILLS times (default 100) at moments drawn
from SEED (default 1): each kill comes 0.05 s to MAX_DELAY s (default 4.0)
after the run starts (a run commits every 2 s, so some kills come before
its first commit and some after). After each kill the run is started again (resumed).
Then the sweep is run to the end and its games are compared with an
uninterrupted run of the same sweep.

SWEEP defaults to a built-in sweep of tafl and Jetan with random and a small
MCTS in both seat orders, GAMES games per cell (default 40: 160 games). RULELAB defaults to build/rulelab. Needs sqlite3.
Prints the figures: kills, kills that landed mid-sweep, games, lost,
duplicated, differing, extra, integrity_check.

--tamper deletes one stored game and changes another's moves before the
comparison, to show that it finds them (it must then report lost 1 and
differing 1, and fail).
EOF
}

kills=100
seed=1
max_delay=4.0
games_per_cell=40
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/rulelab
sweep=""
tamper=0
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        -n) kills=${2:?-n needs a number}; shift ;;
        -s) seed=${2:?-s needs a number}; shift ;;
        -d) max_delay=${2:?-d needs seconds}; shift ;;
        -g) games_per_cell=${2:?-g needs a number}; shift ;;
        -b) bin=${2:?-b needs the rulelab binary}; shift ;;
        --tamper) tamper=1 ;;
        -*) echo "kill_campaign.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) sweep=$1 ;;
    esac
    shift
done
for v in "$kills" "$seed" "$games_per_cell"; do
    if ! [[ $v =~ ^[0-9]+$ ]]; then
        echo "kill_campaign.sh: -n, -s and -g take whole numbers, not '$v'" >&2
        exit 2
    fi
done
if ! [[ $max_delay =~ ^[0-9]*\.?[0-9]+$ ]]; then
    echo "kill_campaign.sh: -d takes seconds (e.g. 0.5), not '$max_delay'" >&2
    exit 2
fi
[ -x "$bin" ] || { echo "kill_campaign.sh: no rulelab binary at $bin (build first, or -b)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "kill_campaign.sh: needs sqlite3" >&2; exit 2; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ -z "$sweep" ]; then
    sweep=$dir/campaign.ini
    cat >"$sweep" <<INI
[sweep]
name = kill_campaign
seed = 5
games = $games_per_cell
[game tafl]
max_plies = 200
[game jetan]
[agents]
rnd = random
small = mcts(iterations=40)
[matchups]
pairs = rnd vs small
INI
fi

# Every content column of a game, keyed by its cell and index.
content() {
    sqlite3 -separator '|' "$1" "SELECT variant, agent0, agent1, game_index,
        seed, side0, side1, result, winner_seat, reason, plies, moves
        FROM game_view ORDER BY variant, agent0, agent1, game_index"
}

count() { sqlite3 "$1" "SELECT COUNT(*) FROM games" 2>/dev/null || echo 0; }

"$bin" run "$sweep" --db "$dir/ref.db" --threads 2 --quiet
total=$(count "$dir/ref.db")

# Seeded moments: awk's srand/rand make them the same on every machine run.
awk -v n="$kills" -v s="$seed" -v m="$max_delay" \
    'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.3f\n", 0.05 + rand() * (m - 0.05) }' \
    >"$dir/delays"
landed=0
i=0
while read -r delay; do
    i=$((i + 1))
    "$bin" run "$sweep" --db "$dir/killed.db" --threads 2 --quiet \
        >/dev/null 2>>"$dir/runs.err" &
    pid=$!
    sleep "$delay"
    killed=0
    kill -9 "$pid" 2>/dev/null && killed=1
    wait "$pid" 2>/dev/null || true
    # It landed mid-sweep when the sweep was still unfinished after it.
    if [ $killed -eq 1 ] && [ "$(count "$dir/killed.db")" -lt "$total" ]; then
        landed=$((landed + 1))
    fi
done <"$dir/delays"
"$bin" run "$sweep" --db "$dir/killed.db" --threads 2 --quiet

if [ $tamper -eq 1 ]; then
    sqlite3 "$dir/killed.db" "DELETE FROM games WHERE id = (SELECT MIN(id) FROM games);
        UPDATE games SET moves = moves || ' a1a2' WHERE id = (SELECT MAX(id) FROM games)"
fi
content "$dir/ref.db" >"$dir/ref.txt"
content "$dir/killed.db" >"$dir/killed.txt"
key() { cut -d'|' -f1-4 "$1" | sort; }
games=$(wc -l <"$dir/ref.txt")
lost=$(comm -23 <(key "$dir/ref.txt") <(key "$dir/killed.txt" | sort -u) | wc -l)
extra=$(comm -13 <(key "$dir/ref.txt") <(key "$dir/killed.txt" | sort -u) | wc -l)
duplicated=$(key "$dir/killed.txt" | uniq -d | wc -l)
# Differing: stored by both, same key, other content.
both=$(comm -12 <(sort "$dir/ref.txt") <(sort "$dir/killed.txt") | wc -l)
common_keys=$(comm -12 <(key "$dir/ref.txt") <(key "$dir/killed.txt" | sort -u) | wc -l)
differing=$((common_keys - both))
check=$(sqlite3 "$dir/killed.db" "PRAGMA integrity_check")

echo "kill_campaign: kills $kills (seed $seed, delays 0.05-$max_delay s), landed mid-run $landed"
echo "kill_campaign: games $games, lost $lost, duplicated $duplicated, differing $differing, extra $extra, integrity_check $check"
if [ "$lost" -eq 0 ] && [ "$duplicated" -eq 0 ] && [ "$differing" -eq 0 ] \
        && [ "$extra" -eq 0 ] && [ "$check" = ok ] && [ "$games" -gt 0 ]; then
    echo "kill_campaign: 1 passed, 0 failed"
    exit 0
fi
echo "kill_campaign: 0 passed, 1 failed"
exit 1
