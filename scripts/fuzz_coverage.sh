#!/usr/bin/env bash
# fuzz_coverage.sh [BUILD_DIR] -- line coverage of each parser's functions
# reached by the committed fuzz corpus (tests/fuzz/corpus and
# tests/fuzz/regressions), measured with gcc --coverage and gcov.
#
# Builds the fuzz targets with gcc as corpus replayers (tests/fuzz/
# replay_main.c) into BUILD_DIR (default build-fuzz-cov), then, target by
# target: clears the counters, replays the target's corpus, and sums gcov's
# per-function line counts over that target's parser functions (the table
# below). Prints one line per target and a line per function under 90%.
# Exits 0; the figures are for reading (the issue's goal is >= 90%).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-fuzz-cov}
CC=gcc cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS="--coverage -O0" -DRULELAB_SANITIZE=OFF \
    -DRULELAB_FUZZ=ON >/dev/null
cmake --build "$dir" -j "$(nproc)" --target fuzz_all >/dev/null

# target | object directory under $dir/CMakeFiles | source | functions
# ("*" = every function in the file; "-name" leaves one out)
table='
position_tafl|rulelab_core.dir/core|tafl.c|parse_board tafl_from_text parse_square tafl_move_from_text
position_tafl|rulelab_core.dir/core|game.c|game_parse_side_and_counters
position_jetan|rulelab_core.dir/core|jetan.c|kind_of_letter parse_board split_words parse_fields jetan_from_text parse_square jetan_move_from_text
position_serbest|rulelab_core.dir/core|serbest.c|count_piece parse_board serbest_from_text parse_square kind_of_letter serbest_move_from_text
position_serbest|rulelab_core.dir/core|game.c|game_parse_side_and_counters
moves|rulelab_core.dir/core|game.c|game_setup game_parse_move
moves|rulelab_core.dir/core|tafl.c|parse_square tafl_move_from_text
moves|rulelab_core.dir/core|jetan.c|parse_square jetan_move_from_text
moves|rulelab_core.dir/core|serbest.c|parse_square kind_of_letter serbest_move_from_text
variant|rulelab_core.dir/core|variant.c|* -variant_get
agent|rulelab_core.dir/core|variant.c|parse_value trim_copy parse_assignment spec_split spec_parse_args spec_canonical
agent|rulelab_agents.dir/agents|agent.c|agent_create
sweep|rulelab_sweep.dir/experiments/sweep|sweep.c|* -sweep_load
sweep|rulelab_sweep.dir/experiments/sweep|sweep_read.c|*
proof|rulelab_solve.dir/agents/solve|proof.c|*
db|rulelab_cli.dir/experiments/cli|cli.c|cli_open_readonly
db|rulelab_cli.dir/experiments/cli|cmd_report.c|run_report
db|rulelab_cli.dir/experiments/cli|cmd_replay.c|replay_moves run_replay
db|rulelab_cli.dir/experiments/cli|cmd_export.c|csv_field run_export
db|rulelab_store.dir/experiments/store|store_open.c|store_open store_close store_error
db|rulelab_analysis.dir/experiments/analysis|report.c|*
'
targets=$(echo "$table" | cut -d'|' -f1 | awk 'NF' | uniq)
printf '%-18s %8s %8s %8s\n' target lines covered percent
for t in $targets; do
    find "$dir" -name '*.gcda' -delete
    inputs=(tests/fuzz/corpus/"$t")
    [ -d tests/fuzz/regressions/"$t" ] && inputs+=(tests/fuzz/regressions/"$t")
    "$dir/fuzz_$t" "${inputs[@]}" >/dev/null 2>&1
    echo "$table" | awk -F'|' -v t="$t" '$1 == t' | while IFS='|' read -r _ obj src funcs; do
        echo "@@ $src $funcs"
        (cd "$dir/CMakeFiles/$obj" && gcov -f -n "$src.gcda" 2>/dev/null) || true
    done | /usr/bin/python3 -c '
import re, sys
target = sys.argv[1]
total = covered = 0
low = []
want = None
seen = {}
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("@@ "):
        parts = line.split()
        src, names = parts[1], parts[2:]
        want = (src, {n for n in names if not n.startswith("-")},
                {n[1:] for n in names if n.startswith("-")}, "*" in names)
        continue
    m = re.match(r"Function .(\w+).$", line)
    if m:
        fn = m.group(1)
        continue
    m = re.match(r"Lines executed:([\d.]+)% of (\d+)", line)
    if m and want and fn:
        src, names, skip, every = want
        if (every and fn not in skip) or fn in names:
            n = int(m.group(2)); c = round(float(m.group(1)) * n / 100)
            if (src, fn) not in seen:
                seen[(src, fn)] = 1
                total += n; covered += c
                if n and c < 0.9 * n:
                    low.append("    %s:%s %d/%d" % (src, fn, c, n))
        fn = None
print("%-18s %8d %8d %7.1f%%" % (target, total, covered,
      100.0 * covered / total if total else 0))
for l in low:
    print(l)
' "$t"
done
