#!/usr/bin/env bash
# test_notebooks.sh -- end-to-end test of the notebooks and scripts/figures.sh:
#  - a tiny sweep (all three games, a few variants of each, random and a
#    very small MCTS) is played into a temporary database;
#  - notebooks/rulelab_stats.py gives the numbers of `rulelab report`, and
#    rulelab_data.compare_variants its "variants compared" (differences,
#    Newcombe intervals, z tests, trends), and rulelab_data.game_metrics
#    its game metrics;
#  - scripts/figures.sh executes every notebook on it without an error and
#    writes every expected PNG (non-empty) and an HTML copy of each, leaving
#    the database and the notebooks unchanged;
#  - without --all, only the notebooks about the games in the database run;
#  - on a database without the variants (no games at all, but a solver
#    `claims` table) every notebook still runs (--all), says so in its
#    reading, and draws its figures, the claim figure included;
#  - a missing database is a clear error; --help works; the notebooks are
#    stored without outputs.
# Usage: test_notebooks.sh PATH/TO/rulelab
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
figures=$root/scripts/figures.sh
py=/usr/bin/python3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"

# Every figure a notebook always draws, by name.
expected="
overview_seat0_score overview_draw_rates overview_end_reasons overview_game_lengths
first_mover_score_by_strength first_mover_equivalence first_mover_significance
first_mover_side_vs_seat
kings_landing_first_lander_wins kings_landing_khan_share kings_landing_game_length
kings_landing_seat0_score
tafl_repetition_seat0_score tafl_repetition_draws tafl_repetition_end_reasons
tafl_repetition_game_length
jetan_escape_seat0_score jetan_escape_game_length jetan_escape_end_reasons
skill_trace_score skill_trace_draws skill_trace_verdicts"
notebooks="overview first_mover skill_trace kings_landing tafl_repetition jetan_escape"

check_outputs() { # check_outputs OUTDIR WHAT [EXTRA_PNG...]
    local out=$1 what=$2 missing="" name
    shift 2
    for name in $expected "$@"; do
        if [ ! -s "$out/$name.png" ] \
                || [ "$(head -c 8 "$out/$name.png" | od -An -tx1 | tr -d ' \n')" \
                     != 89504e470d0a1a0a ]; then
            missing="$missing $name.png"
        fi
    done
    for name in $notebooks; do
        [ -s "$out/$name.html" ] || missing="$missing $name.html"
    done
    if [ -z "$missing" ]; then
        ok "$what: all $(($(wc -w <<<"$expected $*"))) PNGs and $(wc -w <<<"$notebooks") HTML copies written"
    else bad "$what: missing or empty:$missing"; fi
}
sums() { # the bytes of the databases (not the -shm index) and notebooks
    sha256sum "$dir"/*.db "$dir"/*.db-wal "$root"/notebooks/*.ipynb 2>/dev/null
}

if ! "$py" -c 'import pandas, matplotlib, nbformat, nbconvert, ipykernel' 2>/dev/null; then
    echo "FAIL $py lacks pandas/matplotlib/nbformat/nbconvert/ipykernel" \
         "(scripts/deps.sh installs them: run scripts/test.sh as root)"
    echo "0 passed, 1 failed"
    exit 1
fi

# The notebooks are stored without outputs.
if "$py" - "$root"/notebooks/*.ipynb <<'PY'
import sys, nbformat
dirty = [p for p in sys.argv[1:] for c in nbformat.read(p, 4).cells
         if c.cell_type == "code" and (c.outputs or c.execution_count is not None)]
sys.exit(f"cells with outputs in: {sorted(set(dirty))}" if dirty else 0)
PY
then ok "notebooks are stored without outputs"
else bad "notebooks hold outputs (clear them before committing)"; fi

cat >"$dir/tiny.ini" <<'INI'
[sweep]
name = notebooks_test
seed = 3
games = 6
record = search
[game tafl]
repetition_limit = 0, 3
first = attackers, defenders
max_plies = 200
[game jetan]
princess_escape = any, off
max_plies = 200
[game serbest]
kings_landing = 7, 8, 9
max_plies = 120
[agents]
random = random
mcts = mcts(iterations=10)
[matchups]
pairs = random vs random, mcts vs mcts, random vs mcts
INI
start=$SECONDS
if "$bin" run "$dir/tiny.ini" --db "$dir/tiny.db" --threads 2 --quiet; then
    ok "tiny sweep: $(sqlite3 "$dir/tiny.db" 'SELECT COUNT(*) FROM games') games in $((SECONDS - start)) s"
else bad "tiny sweep failed"; fi

# rulelab_stats against the report, row by row (cells and variants).
"$bin" metrics "$dir/tiny.db" --quiet >/dev/null || bad "rulelab metrics on tiny.db failed"
"$bin" report "$dir/tiny.db" --format json >"$dir/report.json"
if out=$(PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/notebooks" "$py" - "$dir/report.json" <<'PY'
import json, sys
import rulelab_stats as rs
report = json.load(open(sys.argv[1]))
worst = 0.0
rows = 0
for table in ("cells", "variants"):
    ps = []
    for r in report[table]:
        n, d = r["games"], r["draws_rules"] + r["draws_cap"]
        lo, hi = rs.wilson(r["s0_wins"] + d / 2, n)
        p = rs.binom_two_sided_p(r["s0_wins"], r["s0_wins"] + r["s1_wins"])
        ps.append(p)
        worst = max(worst, abs(lo - r["s0_ci95"][0]), abs(hi - r["s0_ci95"][1]),
                    abs(p - r["p"]) / max(r["p"], 1e-300),
                    abs((r["s0_wins"] + d / 2) / n - r["s0_score"]))
    for r, adj in zip(report[table], rs.holm(ps)):
        worst = max(worst, abs(adj - r["p_holm"]) / max(r["p_holm"], 1e-300))
        rows += 1
print(f"{rows} rows, largest difference {worst:.1e}")
sys.exit(worst > 1e-5)
PY
); then ok "rulelab_stats agrees with rulelab report: $out"
else bad "rulelab_stats differs from rulelab report: $out"; fi

# A Python check on stdin, with the notebooks' modules, args "$@".
pycheck() {
    PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/notebooks" MPLBACKEND=Agg \
        "$py" - "$@"
}

# The variants compared, from the games, against the report's (whole-number
# parameters: repetition_limit and kings_landing here, with a trend over
# kings_landing 7, 8, 9; enums are compared by the report alone).
if out=$(pycheck "$dir/tiny.db" "$dir/report.json" <<'PY' 2>&1
import json, math, sys
import rulelab_data as rd
report = json.load(open(sys.argv[2]))
games = rd.load_games(rd.connect(sys.argv[1]))
pairs, trends = rd.compare_variants(games)
mine = {(r.sweep, r.seat0, r.seat1, r.variant0, r.variant1): r
        for r in pairs.itertuples()}
worst, seen, ints = 0.0, 0, 0
def close(a, b):
    if b is None:
        return math.isnan(a)
    return abs(a - b) <= 1e-5 * max(1.0, abs(b))
for c in report["compared"]:
    try:
        int(c["value0"]); int(c["value1"])
    except ValueError:
        continue  # an enum: compared by the report alone
    ints += 1
    r = mine[(c["sweep"], c["seat0"], c["seat1"], c["variant0"], c["variant1"])]
    seen += 1
    ci = c["s0_diff_ci95"] or [None, None]
    di = c["draw_diff_ci95"] or [None, None]
    for a, b in [(r.s0_diff, c["s0_diff"]), (r.s0_lo, ci[0]), (r.s0_hi, ci[1]),
                 (r.s0_p, c["p"]), (r.draw_diff, c["draw_diff"]),
                 (r.draw_lo, di[0]), (r.draw_hi, di[1]), (r.draw_p, c["draw_p"])]:
        assert close(a, b), (c, r)
        if b is not None:
            worst = max(worst, abs(a - b))
assert seen == ints == len(pairs), (seen, ints, len(pairs))
tm = {(r.sweep, r.seat0, r.seat1, r.param, tuple(r.values)): r
      for r in trends.itertuples()}
assert len(tm) == len(report["trends"]), (len(tm), len(report["trends"]))
for t in report["trends"]:
    r = tm[(t["sweep"], t["seat0"], t["seat1"], t["param"], tuple(t["values"]))]
    for a, b in [(r.s0_slope, t["s0_slope"]), (r.s0_p, t["s0_trend_p"]),
                 (r.draw_slope, t["draw_slope"]), (r.draw_p, t["draw_trend_p"])]:
        assert close(a, b), (t, r)
        if b is not None:
            worst = max(worst, abs(a - b))
assert seen and tm, "nothing compared"
print(f"{seen} comparisons and {len(tm)} trends, largest difference {worst:.1e}")
PY
); then ok "rulelab_data.compare_variants agrees with the report: $out"
else bad "rulelab_data.compare_variants differs from the report: $out"; fi

# The game metrics per cell, from the games, against the report's.
if out=$(pycheck "$dir/tiny.db" "$dir/report.json" <<'PY' 2>&1
import json, sys
import rulelab_data as rd
report = json.load(open(sys.argv[2]))
games = rd.load_games(rd.connect(sys.argv[1]))
mine = rd.game_metrics(rd.summarise(games, ["variant", "agent0_name", "agent1_name"]))
mine = {(r.variant, r.agent0_name, r.agent1_name): r for r in mine.itertuples()}
assert len(mine) == len(report["metrics"]) > 0, (len(mine), len(report["metrics"]))
worst = 0.0
for m in report["metrics"]:
    r = mine[(m["variant"], m["seat0"], m["seat1"])]
    pairs = [(r.games, m["games"]), (r.decisive, m["decisive"]),
             (r.rule_draws, m["draws_rules"]), (r.cap_draws, m["draws_cap"]),
             (r.mean_plies, m["mean_plies"]), (r.median_plies, m["median_plies"])]
    for name, a in (("decisive_ci95", (r.decisive_lo, r.decisive_hi)),
                    ("draws_rules_ci95", (r.rule_draws_lo, r.rule_draws_hi)),
                    ("draws_cap_ci95", (r.cap_draws_lo, r.cap_draws_hi)),
                    ("mean_plies_ci95", (r.plies_lo, r.plies_hi))):
        pairs += list(zip(a, m[name]))
    for a, b in pairs:
        worst = max(worst, abs(a - b))
        assert abs(a - b) <= 1e-5 * max(1.0, abs(b)), (m, r)
print(f"{len(mine)} cells, largest difference {worst:.1e}")
PY
); then ok "rulelab_data.game_metrics agrees with the report: $out"
else bad "rulelab_data.game_metrics differs from the report: $out"; fi

# The metrics from game_metrics and move_stats (rulelab_data.play_metrics,
# its own walk over the values), against the report's.
if out=$(pycheck "$dir/tiny.db" "$dir/report.json" <<'PY' 2>&1
import json, math, sys
import rulelab_data as rd
report = json.load(open(sys.argv[2]))
mine = rd.play_metrics(rd.connect(sys.argv[1]))
mine = {(r.variant, r.agent0_name, r.agent1_name): r for r in mine.itertuples()}
assert len(mine) == len(report["metrics"]) > 0, (len(mine), len(report["metrics"]))
worst, leads = 0.0, 0
for m in report["metrics"]:
    r = mine[(m["variant"], m["seat0"], m["seat1"])]
    for name in ["branching", "lead_changes", "lead_settled"]:
        a, b = getattr(r, name), m[name]
        assert (b is None) == math.isnan(a), (name, m, r)
        if b is not None:
            worst = max(worst, abs(a - b))
            assert abs(a - b) <= 1e-5 * max(1.0, abs(b)), (name, m, r)
    assert r.branching_games == m["branching_games"] == m["games"], (m, r)
    assert r.lead_games == m["lead_changes_games"], (m, r)
    assert r.settled_games == m["lead_settled_games"], (m, r)
    leads += m["lead_changes"] is not None
assert leads > 0, "no cell with move values"
print(f"{len(mine)} cells, {leads} with move values, largest difference {worst:.1e}")
PY
); then ok "rulelab_data.play_metrics agrees with the report: $out"
else bad "rulelab_data.play_metrics differs from the report: $out"; fi

# The skill trace, from the games (rulelab_data.skill_trace, with its own
# ratings fit, rulelab_stats.ratings_fit), against `report --skill-trace`:
# on the tiny database and on a small ladder (random, two MCTS budgets,
# self-play and adjacent cross-play) whose ratings connect, at delta 0.1.
cat >"$dir/ladder.ini" <<'INI'
[sweep]
name = ladder
seed = 4
games = 12
[game jetan]
[agents]
r = random
m3 = mcts(iterations=3)
m12 = mcts(iterations=12)
[matchups]
pairs = r vs r, m3 vs m3, m12 vs m12, r vs m3, m3 vs m12
INI
"$bin" run "$dir/ladder.ini" --db "$dir/ladder.db" --threads 2 --quiet
cat >"$dir/check_skill.py" <<'PY'
import json, math, sys
import rulelab_data as rd
import rulelab_stats as rs
con = rd.connect(sys.argv[1])
report = json.load(open(sys.argv[2]))["skill_trace"]
games = rd.load_games(con)
rungs, verdicts = rd.skill_trace(con, games, report["delta"], report["alpha"])
def close(a, b):
    if b is None:
        return a is None or (isinstance(a, float) and math.isnan(a))
    return abs(a - b) <= 1e-4 * max(1.0, abs(b))
worst, n = 0.0, 0
assert len(report["variants"]) == len(verdicts), (len(report["variants"]), len(verdicts))
for v in report["variants"]:
    mv = verdicts[verdicts["variant"] == v["variant"]].iloc[0]
    assert mv["ratings_status"] == v["ratings_status"], (mv, v)
    assert mv["verdict"] == v["verdict"], (mv, v)
    assert (mv["top"] or None) == v["top"] and (mv["second"] or None) == v["second"], (mv, v)
    ci = v["tost_ci"] or [None, None]
    for a, b in [(mv["s0_diff"], v["s0_diff"]), (mv["tost_lo"], ci[0]),
                 (mv["tost_hi"], ci[1]), (mv["p"], v["p"]), (mv["los"], v["los"])]:
        assert close(a, b), (a, b, v)
        if b is not None:
            worst = max(worst, abs(a - b))
    mine = rungs[rungs["variant"] == v["variant"]]
    assert len(mine) == len(v["rungs"]), (len(mine), v)
    for g in v["rungs"]:
        r = mine[mine["spec"] == g["spec"]].iloc[0]
        assert bool(r["rated"]) == g["rated"], (r, g)
        sc = g["s0_ci95"] or [None, None]
        dc = g["draw_ci95"] or [None, None]
        ec = g["elo_ci95"] or [None, None]
        for a, b in [(r["games"], g["games"]), (r["score"], g["s0_score"]),
                     (r["lo"], sc[0]), (r["hi"], sc[1]), (r["draw_rate"], g["draw_rate"]),
                     (r["draw_lo"], dc[0]), (r["draw_hi"], dc[1]), (r["elo"], g["elo"]),
                     (r["elo_lo"], ec[0]), (r["elo_hi"], ec[1])]:
            assert close(a, b), (a, b, g)
            if b is not None:
                worst = max(worst, abs(a - b))
        n += 1
print(f"{len(verdicts)} variants, {n} rungs, verdicts "
      f"{dict(verdicts['verdict'].value_counts())}, largest difference {worst:.1e}")
PY
for db in tiny ladder; do
    "$bin" report "$dir/$db.db" --skill-trace --delta 0.1 --format json >"$dir/$db.skill.json"
    if out=$(pycheck "$dir/$db.db" "$dir/$db.skill.json" <"$dir/check_skill.py" 2>&1); then
        ok "rulelab_data.skill_trace agrees with report --skill-trace on $db.db: $out"
    else bad "rulelab_data.skill_trace differs from report --skill-trace on $db.db: $out"; fi
done

# figures.sh on the tiny database: every notebook, every figure. Where a
# network namespace can be made (as root), it runs in one with no network
# at all, not even loopback: the kernels must talk over Unix sockets, since
# TCP ports picked by kernels starting together can collide (the kernel
# then dies before replying to kernel_info, a failure seen under load).
before=$(sums)
start=$SECONDS
isolate=()
if unshare -n true 2>/dev/null; then isolate=(unshare -n); fi
if "${isolate[@]}" "$figures" "$dir/tiny.db" "$dir/figs" >"$dir/figs.log" 2>&1; then
    ok "figures.sh ran all notebooks in $((SECONDS - start)) s${isolate:+, without TCP}"
else bad "figures.sh failed: $(tail -30 "$dir/figs.log")"; fi
for nb in $notebooks; do
    grep -q "^figures.sh: $nb: ok" "$dir/figs.log" || bad "notebook $nb did not run"
done
check_outputs "$dir/figs" "tiny database"
[ ! -e "$dir/figs/kings_landing_claims.png" ] \
    && ok "no claim figure without solver answers" \
    || bad "a claim figure was drawn without solver answers"
[ "$(sums)" = "$before" ] && ok "the database and the notebooks are unchanged" \
    || bad "figures.sh changed the database or a notebook"

# Notebook selection: on a database of Jetan games only, without --all,
# the notebooks about the other games do not run.
cat >"$dir/jetan.ini" <<'INI'
[sweep]
name = jetan_only
games = 4
[game jetan]
[agents]
random = random
[matchups]
pairs = random vs random
INI
"$bin" run "$dir/jetan.ini" --db "$dir/jetan.db" --threads 2 --quiet
sel=$("$figures" --list "$dir/jetan.db" 2>&1)
if grep -q "would run: overview first_mover skill_trace jetan_escape$" <<<"$sel"; then
    ok "without --all only the relevant notebooks run"
else bad "notebook selection: $sel"; fi

# A database without any of the variants the notebooks are about (its games
# deleted), but with solver answers in the claims table as `rulelab claim`
# writes it (the table is made here if this build's store does not make it).
cp "$dir/jetan.db" "$dir/empty.db"
sqlite3 "$dir/empty.db" "DELETE FROM games;
  CREATE TABLE IF NOT EXISTS claims (id INTEGER PRIMARY KEY,
    game_id INTEGER, ply INTEGER NOT NULL, variant TEXT NOT NULL,
    position TEXT NOT NULL, question TEXT NOT NULL, plies INTEGER NOT NULL,
    node_budget INTEGER NOT NULL, answer TEXT NOT NULL, nodes INTEGER NOT NULL,
    seconds REAL NOT NULL, pv TEXT NOT NULL, proof TEXT, created TEXT NOT NULL);
  INSERT INTO claims (game_id, ply, variant, position, question, plies,
    node_budget, answer, nodes, seconds, pv, proof, created) VALUES
    (1, 0, 'serbest(kings_landing=9)', '-', 'king_landing', 3, 100, 'win', 5, 0, '', NULL, ''),
    (2, 0, 'serbest(kings_landing=9)', '-', 'king_landing', 3, 100, 'win', 5, 0, '', NULL, ''),
    (3, 0, 'serbest(kings_landing=9)', '-', 'king_landing', 3, 100, 'unknown', 5, 0, '', NULL, ''),
    (4, 0, 'serbest(kings_landing=8)', '-', 'king_landing', 3, 100, 'no_win', 5, 0, '', NULL, '');"
start=$SECONDS
if "$figures" --all "$dir/empty.db" "$dir/empty" >"$dir/empty.log" 2>&1; then
    ok "figures.sh --all on a database without games ran in $((SECONDS - start)) s"
else bad "figures.sh --all on a database without games: $(tail -30 "$dir/empty.log")"; fi
check_outputs "$dir/empty" "database without games" kings_landing_claims
said=0
for want in "overview:holds no games yet" "first_mover:holds no self-play games" \
        "kings_landing:holds no Serbest games" "tafl_repetition:holds no tafl games" \
        "jetan_escape:holds no Jetan games" "skill_trace:holds no self-play games" \
        "kings_landing:of 3 sampled positions 67%"; do
    if grep -q "${want#*:}" "$dir/empty/${want%%:*}.html"; then
        said=$((said + 1))
    else echo "     ${want%%:*}.html does not say '${want#*:}'"; fi
done
[ $said -eq 7 ] && ok "the readings say what is missing, and read the claims" \
    || bad "readings: $said of 7 expected sentences found"

# Errors and help.
err=$("$figures" "$dir/no_such.db" "$dir/x" 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "no results database at" <<<"$err"; then
    ok "a missing database is a clear error (exit $rc)"
else bad "missing database: rc=$rc: $err"; fi
if "$figures" --help | grep -q "^Usage: scripts/figures.sh"; then
    ok "--help"
else bad "--help"; fi

finish
