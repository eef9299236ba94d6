"""rulelab_data -- reading a results database and saving figures, for the
notebooks.

  - The database is RULELAB_DB (a path; relative paths are taken from the
    current directory if the file is there, else from the repository root)
    or results/<default>; it is opened read-only (sqlite URI mode=ro), which
    is safe while `rulelab run` writes it (WAL).
  - Figures go to RULELAB_FIGURES (default results/figures) as PNG files.
  - summarise() gives, per group of games, the report's numbers (see
    rulelab_stats): the seat-0 score with its 95% Wilson interval, the sign
    test p and its Holm correction across the rows of that table.
  - Cells that the sweep's stop rule (sprt or ci) ended early had their
    number of games chosen by their results, so a fixed-sample interval or
    p-value is not valid for them (optional stopping), nor for a group that
    includes them. load_games() marks their games (stopped_early, stop),
    summarise() gives such groups NaN for lo, hi, p, p_holm (left out of
    Holm), fixed_sample False and the stop rule's own words in `stop`, as
    `rulelab report` does; fmt_ci and change() say so in the text, and
    errorbars() draws those points as red crosses without a bar.
"""
import math
import os
import re
import sqlite3
import urllib.parse
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

import rulelab_stats as rs

REPO = Path(__file__).resolve().parent.parent


def _resolve(text):
    p = Path(text).expanduser()
    if p.is_absolute() or p.exists():
        return p.resolve()
    return (REPO / p).resolve()


def db_path(default_name):
    """The database to read: $RULELAB_DB, else results/<default_name>."""
    return _resolve(os.environ.get("RULELAB_DB") or f"results/{default_name}")


def figures_dir():
    """$RULELAB_FIGURES (default results/figures), created if missing."""
    d = _resolve(os.environ.get("RULELAB_FIGURES") or "results/figures")
    d.mkdir(parents=True, exist_ok=True)
    return d


def connect(path):
    """A read-only connection to the database at path (which must exist)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(
            f"no results database at {path}: set RULELAB_DB to a database "
            "written by `rulelab run`")
    uri = "file:" + urllib.parse.quote(str(path)) + "?mode=ro"
    con = sqlite3.connect(uri, uri=True)
    con.execute("PRAGMA query_only = 1")
    return con


def table_exists(con, name):
    row = con.execute("SELECT 1 FROM sqlite_master WHERE name = ? AND "
                      "type IN ('table', 'view')", (name,)).fetchone()
    return row is not None


def parse_spec(spec):
    """'tafl(first=defenders,repetition_limit=2)' -> ('tafl', {'first':
    'defenders', 'repetition_limit': 2}); integer values become ints."""
    m = re.fullmatch(r"\s*([A-Za-z_0-9]+)\s*(?:\((.*)\))?\s*", spec or "")
    if not m:
        return spec, {}
    params = {}
    for item in filter(None, (m.group(2) or "").split(",")):
        key, _, value = item.partition("=")
        value = value.strip()
        try:
            value = int(value)
        except ValueError:
            pass
        params[key.strip()] = value
    return m.group(1), params


def strength(spec):
    """A sort key for an agent spec, weakest first: random, then MCTS by
    iterations, then MCTS by milliseconds, then anything else by text."""
    name, params = parse_spec(spec)
    if name == "random":
        return (0, 0, "")
    if name == "mcts":
        it, ms = params.get("iterations", 0), params.get("ms", 0)
        if isinstance(ms, int) and ms > 0:
            return (2, ms, "")
        return (1, it if isinstance(it, int) else 0, "")
    return (3, 0, spec)


def _sweep_stop_settings(text):
    """The stop rule of a stored sweep file: a dict with stop, sprt_p0,
    sprt_p1, alpha, beta, ci_width (the defaults of experiments/sweep/sweep.c
    where the file leaves them out), or None if the [sweep] section cannot
    be read."""
    settings = {"stop": "none", "sprt_p0": 0.5, "sprt_p1": 0.55,
                "alpha": 0.05, "beta": 0.05, "ci_width": 0.1}
    section = None
    try:
        for line in (text or "").splitlines():
            line = line.split(";", 1)[0].strip()
            if line.startswith("["):
                section = line.strip("[] ").lower()
            elif section == "sweep" and "=" in line:
                key, _, value = line.partition("=")
                key, value = key.strip(), value.strip()
                if key == "stop":
                    settings["stop"] = value
                elif key in settings:
                    settings[key] = float(value)
    except ValueError:
        return None
    return settings


def cell_stops(con):
    """One row per cell (index cell_id): stopped_early (a stop rule ended it
    before its planned games) and stop (the rule's words, as the report's
    stop column: the SPRT decision with its log-likelihood ratio and bounds,
    or the interval rule's width; '' for a fixed sample)."""
    cols = ["stopped_early", "stop"]
    if not table_exists(con, "cells"):
        return pd.DataFrame(columns=cols)
    rows = con.execute(
        "SELECT c.id, c.stopped_at, c.games_planned, s.file_text,"
        " SUM(g.result = 'seat0'), SUM(g.result = 'draw'),"
        " SUM(g.result = 'seat1'), COUNT(g.id)"
        " FROM cells c JOIN sweeps s ON s.id = c.sweep_id"
        " LEFT JOIN games g ON g.cell_id = c.id GROUP BY c.id").fetchall()
    out = {}
    for cid, stopped_at, planned, text, w, d, l, n in rows:
        w, d, l = w or 0, d or 0, l or 0
        early = stopped_at is not None and stopped_at < planned
        st = _sweep_stop_settings(text)
        words = ""
        if st is not None and st["stop"] == "sprt":
            p0, p1 = st["sprt_p0"], st["sprt_p1"]
            decision, llr, lower, upper = rs.sprt(w, d, l, p0, p1, st["alpha"],
                                                  st["beta"])
            if early and decision != "none":
                h1 = decision == "accept_h1"
                words = (f"sprt stopped after {stopped_at}: accept "
                         f"{'H1' if h1 else 'H0'} (score {p1 if h1 else p0:g}, "
                         f"not {p0 if h1 else p1:g}), llr {llr:.3f} "
                         f"{'>=' if h1 else '<='} {upper if h1 else lower:.3f}")
            elif early:
                words = (f"sprt stopped after {stopped_at}: llr {llr:.3f} now "
                         f"inside ({lower:.3f}, {upper:.3f})")
            else:
                words = (f"sprt: no decision in {n} games, llr {llr:.3f} in "
                         f"({lower:.3f}, {upper:.3f})")
        elif early and st is not None and st["stop"] == "ci":
            words = (f"ci stopped after {stopped_at}: 95% interval <= "
                     f"{st['ci_width']:g} wide")
        elif early:
            words = f"stopped after {stopped_at} (stop rule unreadable)"
        out[cid] = (early, words)
    return pd.DataFrame.from_dict(out, orient="index", columns=cols)


GAME_COLUMNS = ("id, sweep, game, variant, agent0_name, agent1_name, agent0, "
                "agent1, cell_id, game_index, side0, side1, result, "
                "winner_seat, reason, plies")


def load_games(con, where="", moves=False):
    """Every game of game_view (optionally filtered by an SQL condition),
    with columns added: points0 (1, 1/2, 0), draw_rules, draw_cap, params
    (the variant's parameters), label (the variant, with only the keys that
    differ between this game's variants here), name0/1 (the agents' short
    names; a name used for two specs gets the keys that differ), pair
    ("name0 vs name1")."""
    cols = GAME_COLUMNS + (", moves" if moves else "")
    sql = f"SELECT {cols} FROM game_view"
    if where:
        sql += f" WHERE {where}"
    df = pd.read_sql_query(sql + " ORDER BY id", con)
    df["points0"] = df["result"].map({"seat0": 1.0, "draw": 0.5, "seat1": 0.0})
    df["draw_cap"] = (df["result"] == "draw") & (df["reason"] == "ply_cap")
    df["draw_rules"] = (df["result"] == "draw") & ~df["draw_cap"]
    params = {v: parse_spec(v)[1] for v in df["variant"].unique()}
    df["params"] = df["variant"].map(params)
    df["label"] = df["variant"].map(variant_labels(df))
    # A short name that stands for two specs here (two sweeps) gets the
    # spec keys that tell them apart: "mcts[iterations=100]".
    specs = pd.concat([df[["agent0_name", "agent0"]].set_axis(["name", "spec"], axis=1),
                       df[["agent1_name", "agent1"]].set_axis(["name", "spec"], axis=1)])
    specs = specs.drop_duplicates()
    short = {}
    for name, group in specs.groupby("name"):
        parsed = {sp: parse_spec(sp) for sp in group["spec"]}
        keys = sorted({k for _, p in parsed.values() for k in p})
        differ = [k for k in keys
                  if len({str(p.get(k)) for _, p in parsed.values()}) > 1]
        for sp, (agent, p) in parsed.items():
            tag = ",".join(f"{k}={p.get(k)}" for k in differ) or agent
            short[(name, sp)] = f"{name}[{tag}]" if len(parsed) > 1 else name
    for seat in "01":
        df["name" + seat] = pd.Series(
            [short[(n, sp)] for n, sp in
             zip(df[f"agent{seat}_name"], df[f"agent{seat}"])],
            index=df.index, dtype=object)
    df["pair"] = df["name0"] + " vs " + df["name1"]
    stops = cell_stops(con)
    df["stopped_early"] = df["cell_id"].map(stops["stopped_early"]).fillna(
        False).astype(bool)
    df["stop"] = df["cell_id"].map(stops["stop"]).fillna("")
    return df


def fixed_sample(games):
    """Whether a fixed-sample interval or p-value is valid for these games:
    none of them comes from a cell a stop rule ended early."""
    return not ("stopped_early" in games and bool(games["stopped_early"].any()))


def score_interval(games, points=None):
    """(lo, hi): the 95% Wilson interval of points (default: seat 0's
    points) over len(games), or (NaN, NaN) when the games include a cell
    stopped early (see fixed_sample)."""
    if not fixed_sample(games):
        return math.nan, math.nan
    return rs.wilson(games["points0"].sum() if points is None else points,
                     len(games))


def variant_labels(df, exclude=()):
    """canonical -> 'game(key=value,...)' with only the keys whose values
    differ between the variants of that game in df ('game' if none do),
    leaving out the keys in exclude."""
    labels = {}
    for game, sub in df.groupby("game"):
        variants = list(sub["variant"].unique())
        parsed = {v: parse_spec(v)[1] for v in variants}
        keys = sorted({k for p in parsed.values() for k in p})
        varying = [k for k in keys if k not in exclude
                   and len({str(p.get(k)) for p in parsed.values()}) > 1]
        for v in variants:
            inner = ",".join(f"{k}={parsed[v].get(k)}" for k in varying)
            labels[v] = f"{game}({inner})" if inner else game
    return labels


def param(df, key):
    """The column of one variant parameter (None where a variant lacks it)."""
    return df["params"].map(lambda p: p.get(key))


def summarise(df, by, holm_rows=True):
    """One row per group of games (by: column names), in the order of the
    groups' first games (so in cell order): games, wins0, wins1,
    draws_rules, draws_cap, draw_rate, score (seat 0), lo, hi (95% Wilson),
    p (sign test on decisive games), p_holm (Holm across these rows),
    mean_plies, median_plies, plies_lo, plies_hi (95% normal interval of the
    mean), reasons (counts per end reason), fixed_sample, stop. A group with
    games of a cell stopped early (fixed_sample False) gets NaN for lo, hi,
    p, p_holm, plies_lo and plies_hi and is left out of Holm; its stop says
    why (the stop rule's decision for a single cell)."""
    by = list(by)
    columns = by + ["games", "wins0", "wins1", "draws_rules", "draws_cap",
                    "draw_rate", "score", "lo", "hi", "p", "p_holm",
                    "mean_plies", "median_plies", "plies_lo", "plies_hi",
                    "reasons", "fixed_sample", "stop"]
    if df.empty:
        return pd.DataFrame(columns=columns)
    rows = []
    for key, g in df.groupby(by, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        n = len(g)
        w0 = int((g["result"] == "seat0").sum())
        w1 = int((g["result"] == "seat1").sum())
        dr, dc = int(g["draw_rules"].sum()), int(g["draw_cap"].sum())
        fixed = fixed_sample(g)
        lo, hi = score_interval(g, w0 + (dr + dc) / 2)
        plies = g["plies"].astype(float)
        sd = plies.std(ddof=1) if n > 1 else 0.0
        half = rs.Z95 * sd / math.sqrt(n) if n > 1 else 0.0
        half = half if fixed else math.nan
        if "stop" in g and g["cell_id"].nunique() == 1:
            stop = g["stop"].iloc[0]
        else:
            stop = "" if fixed else "includes cells stopped early"
        rows.append(dict(zip(by, key), first_id=g["id"].min(), games=n,
                         wins0=w0, wins1=w1, draws_rules=dr, draws_cap=dc,
                         draw_rate=(dr + dc) / n,
                         score=(w0 + (dr + dc) / 2) / n, lo=lo, hi=hi,
                         p=(rs.binom_two_sided_p(w0, w0 + w1) if fixed
                            else math.nan),
                         mean_plies=plies.mean(),
                         median_plies=plies.median(),
                         plies_lo=plies.mean() - half,
                         plies_hi=plies.mean() + half,
                         reasons=g["reason"].value_counts().to_dict(),
                         fixed_sample=fixed, stop=stop))
    out = pd.DataFrame(rows).sort_values("first_id", kind="stable")
    out = out.reset_index(drop=True)
    out["p_holm"] = math.nan
    valid = out.index[out["fixed_sample"]]
    ps = list(out.loc[valid, "p"])
    out.loc[valid, "p_holm"] = rs.holm(ps) if holm_rows else ps
    return out[columns]


def _as_int(v):
    try:
        return int(str(v))
    except ValueError:
        return None


def compare_variants(games, only=None):
    """The report's "variants compared", from the games: (pairs, trends).

    Cells (one per cell_id) of one sweep with the same agent specs in the
    same seats whose variants differ in one parameter alone are a family;
    pairs has one row per adjacent two values of it, later minus earlier:
    sweep, seat0, seat1 (short names from the sweep file), param, value0,
    value1, variant0, variant1, games0, games1, score0, score1, s0_diff,
    s0_lo, s0_hi (Newcombe's 95%), s0_p (two-proportion z test), draw0,
    draw1, draw_diff, draw_lo, draw_hi, draw_p, fixed_sample. trends has one
    row per family of 3+ values: sweep, seat0, seat1, param, values, games,
    scores, draws (lists), s0_slope, s0_p, draw_slope, draw_p (Cochran-
    Armitage), fixed_sample. Only whole-number parameters are compared
    here (an enum's declared order is known to the report, not to the
    database); only, if given, keeps one parameter. A family with a cell
    stopped early gets NaN intervals and p."""
    pair_cols = ["sweep", "seat0", "seat1", "param", "value0", "value1",
                 "variant0", "variant1", "games0", "games1", "score0",
                 "score1", "s0_diff", "s0_lo", "s0_hi", "s0_p", "draw0",
                 "draw1", "draw_diff", "draw_lo", "draw_hi", "draw_p",
                 "fixed_sample"]
    trend_cols = ["sweep", "seat0", "seat1", "param", "values", "games",
                  "scores", "draws", "s0_slope", "s0_p", "draw_slope",
                  "draw_p", "fixed_sample"]
    if games.empty:
        return pd.DataFrame(columns=pair_cols), pd.DataFrame(columns=trend_cols)
    cells = []
    for cell_id, g in games.groupby("cell_id", sort=True):
        first = g.iloc[0]
        n = len(g)
        draws = float((g["result"] == "draw").sum())
        cells.append(dict(
            cell_id=cell_id, sweep=first["sweep"], game=first["game"],
            spec0=first["agent0"], spec1=first["agent1"],
            seat0=first["agent0_name"], seat1=first["agent1_name"],
            variant=first["variant"], params=first["params"], n=n,
            points=float((g["result"] == "seat0").sum()) + draws / 2,
            draws=draws, fixed=fixed_sample(g)))
    families = {}
    for c in cells:
        for k, v in c["params"].items():
            value = _as_int(v)
            if value is None or (only is not None and k != only):
                continue
            rest = tuple(sorted((a, str(b)) for a, b in c["params"].items()
                                if a != k))
            key = (c["sweep"], c["game"], c["spec0"], c["spec1"], k, rest)
            families.setdefault(key, []).append((value, c))
    pairs, trends = [], []
    nan = math.nan
    for key, members in families.items():
        if len(members) < 2:
            continue
        members.sort(key=lambda m: m[0])
        k = key[4]
        for (va, a), (vb, b) in zip(members, members[1:]):
            fixed = a["fixed"] and b["fixed"]
            s_lo, s_hi = rs.newcombe_diff(b["points"], b["n"], a["points"], a["n"])
            d_lo, d_hi = rs.newcombe_diff(b["draws"], b["n"], a["draws"], a["n"])
            pairs.append(dict(
                sweep=a["sweep"], seat0=a["seat0"], seat1=a["seat1"], param=k,
                value0=va, value1=vb, variant0=a["variant"],
                variant1=b["variant"], games0=a["n"], games1=b["n"],
                score0=a["points"] / a["n"], score1=b["points"] / b["n"],
                s0_diff=b["points"] / b["n"] - a["points"] / a["n"],
                s0_lo=s_lo if fixed else nan, s0_hi=s_hi if fixed else nan,
                s0_p=(rs.two_proportion_p(b["points"], b["n"], a["points"],
                                          a["n"]) if fixed else nan),
                draw0=a["draws"] / a["n"], draw1=b["draws"] / b["n"],
                draw_diff=b["draws"] / b["n"] - a["draws"] / a["n"],
                draw_lo=d_lo if fixed else nan, draw_hi=d_hi if fixed else nan,
                draw_p=(rs.two_proportion_p(b["draws"], b["n"], a["draws"],
                                            a["n"]) if fixed else nan),
                fixed_sample=fixed))
        if len(members) >= 3:
            values = [m[0] for m in members]
            cs = [m[1] for m in members]
            n = [c["n"] for c in cs]
            fixed = all(c["fixed"] for c in cs)
            sp, sslope = rs.trend_p([c["points"] for c in cs], n, values)
            dp, dslope = rs.trend_p([c["draws"] for c in cs], n, values)
            trends.append(dict(
                sweep=cs[0]["sweep"], seat0=cs[0]["seat0"], seat1=cs[0]["seat1"],
                param=k, values=values, games=n,
                scores=[c["points"] / c["n"] for c in cs],
                draws=[c["draws"] / c["n"] for c in cs], s0_slope=sslope,
                s0_p=sp if fixed else nan, draw_slope=dslope,
                draw_p=dp if fixed else nan, fixed_sample=fixed))
    return (pd.DataFrame(pairs, columns=pair_cols),
            pd.DataFrame(trends, columns=trend_cols))


def compare_text(row, digits=2, label=None):
    """'kings_landing 7 -> 8: seat-0 score +0.05, 95% [-0.10, +0.20],
    p = 0.51; draw rate -0.02, 95% [..], p = ..' for one row of
    compare_variants' pairs; label, if given, replaces the words before the
    colon ("" leaves them and the colon out)."""
    def part(name, d, lo, hi, p):
        if math.isnan(float(lo)):
            return f"{name} {d:+.{digits}f} (no valid interval: stopped early)"
        return (f"{name} {d:+.{digits}f}, 95% [{lo:+.{digits}f}, "
                f"{hi:+.{digits}f}], p = {fmt_p(p)}")
    if label is None:
        label = f"{row['param']} {row['value0']} -> {row['value1']}"
    return ((f"{label}: " if label else "")
            + part("seat-0 score", row["s0_diff"], row["s0_lo"], row["s0_hi"],
                   row["s0_p"]) + "; "
            + part("draw rate", row["draw_diff"], row["draw_lo"],
                   row["draw_hi"], row["draw_p"]))


def proportion(k, n, fixed=True):
    """(share, lo, hi): k / n with its 95% Wilson interval (NaN if n = 0);
    lo and hi are NaN when fixed is False (the games include a cell stopped
    early: pass fixed_sample(games))."""
    if n == 0:
        return float("nan"), 0.0, 1.0
    if not fixed:
        return k / n, math.nan, math.nan
    lo, hi = rs.wilson(k, n)
    return k / n, lo, hi


def with_share(summary, count, name):
    """Adds columns name, name_lo, name_hi: summary[count] / games with its
    95% Wilson interval (NaN in rows that are not a fixed sample)."""
    summary = summary.copy()
    k = summary[count].astype(float) if len(summary) else summary[count]
    fixed = (summary["fixed_sample"] if "fixed_sample" in summary
             else [True] * len(summary))
    ci = [rs.wilson(a, b) if f else (math.nan, math.nan)
          for a, b, f in zip(k, summary["games"], fixed)]
    summary[name] = k / summary["games"] if len(summary) else k
    summary[name + "_lo"] = [c[0] for c in ci]
    summary[name + "_hi"] = [c[1] for c in ci]
    return summary


def game_metrics(summary):
    """A summarise() table with the report's game metrics added (Ludii's
    Completion, Drawishness and Timeouts, and the duration): decisive
    (games won by either seat / games), rule_draws and cap_draws (draws by
    the rules and by the ply cap / games), each with _lo and _hi, its 95%
    Wilson interval (NaN where not a fixed sample); the duration is
    summarise's mean_plies with plies_lo..plies_hi and median_plies."""
    out = summary.copy()
    out["decisive_games"] = out["wins0"] + out["wins1"]
    out = with_share(out, "decisive_games", "decisive")
    out = with_share(out, "draws_rules", "rule_draws")
    return with_share(out, "draws_cap", "cap_draws")


def play_metrics(con):
    """The report's metrics that need more than the games' rows, one row
    per cell (variant, agent0_name, agent1_name): branching (legal moves
    per position over the games cached by `rulelab metrics`, with
    branching_games), lead_changes (changes of leader a game, over the
    lead_games with per-move values from `record = search`) and
    lead_settled (the share of a decisive game played before its winner
    led for good, over settled_games). At each recorded ply the seat whose
    value is above 1/2 leads; the mover's value v at an odd ply (seat 1
    moves) is 1 - v for seat 0; exactly 1/2 leads nobody. NaN where a cell
    has none. Empty when the database has neither table."""
    keys = ["variant", "agent0_name", "agent1_name"]
    cells = pd.read_sql_query(
        "SELECT DISTINCT cell_id, variant, agent0_name, agent1_name FROM"
        " game_view", con).set_index("cell_id")
    out = cells.copy()
    for col in ["branching", "lead_changes", "lead_settled"]:
        out[col] = math.nan
    for col in ["branching_games", "lead_games", "settled_games"]:
        out[col] = 0
    if table_exists(con, "game_metrics"):
        b = pd.read_sql_query(
            "SELECT g.cell_id, COUNT(*) AS n, SUM(m.legal_moves) AS legal,"
            " SUM(m.positions) AS positions FROM game_metrics m JOIN games g"
            " ON g.id = m.game_id GROUP BY g.cell_id", con).set_index("cell_id")
        b = b[b["positions"] > 0]
        out.loc[b.index, "branching"] = b["legal"] / b["positions"]
        out.loc[b.index, "branching_games"] = b["n"]
    if table_exists(con, "move_stats"):
        rows = pd.read_sql_query(
            "SELECT g.cell_id, g.id, g.winner_seat, g.plies, m.ply, m.value"
            " FROM move_stats m JOIN games g ON g.id = m.game_id ORDER BY"
            " g.id, m.ply", con)
        per_cell = {}
        for (cell, _), game in rows.groupby(["cell_id", "id"], sort=False):
            winner = game["winner_seat"].iloc[0]
            plies = int(game["plies"].iloc[0])
            leaders = []
            for ply, value in zip(game["ply"], game["value"]):
                v0 = value if ply % 2 == 0 else 1 - value
                if v0 != 0.5:
                    leaders.append((int(ply), 0 if v0 > 0.5 else 1))
            changes = sum(1 for a, b in zip(leaders, leaders[1:]) if a[1] != b[1])
            acc = per_cell.setdefault(cell, [0, 0.0, 0, 0.0])
            acc[0] += 1
            acc[1] += changes
            if not pd.isna(winner) and plies > 0:
                settled = plies
                if leaders and leaders[-1][1] == winner:
                    settled = leaders[-1][0]
                    for ply, who in reversed(leaders):
                        if who != winner:
                            break
                        settled = ply
                acc[2] += 1
                acc[3] += settled / plies
        for cell, (n, changes, m, settled) in per_cell.items():
            out.loc[cell, "lead_games"] = n
            out.loc[cell, "lead_changes"] = changes / n
            out.loc[cell, "settled_games"] = m
            out.loc[cell, "lead_settled"] = settled / m if m else math.nan
    return out.reset_index(drop=True)[keys + [
        "branching", "branching_games", "lead_changes", "lead_games",
        "lead_settled", "settled_games"]]


def change(a, b, digits=2, percent=False, unit=""):
    """Words for the change from a to b, each (value, lo, hi): 'rises from
    0.40 to 0.55 (95% intervals apart)' or '... (intervals overlap)'."""
    f = ((lambda v: f"{v:.0%}") if percent
         else (lambda v: f"{v:.{digits}f}{' ' + unit if unit else ''}"))
    if f(a[0]) == f(b[0]):
        verb = f"stays at {f(a[0])}"
    else:
        verb = f"{'rises' if b[0] > a[0] else 'falls'} from {f(a[0])} to {f(b[0])}"
    if any(math.isnan(float(v)) for v in (a[1], a[2], b[1], b[2])):
        return verb + " (no valid 95% interval: a cell stopped early)"
    apart = b[1] > a[2] or a[1] > b[2]
    return verb + (" (95% intervals apart)" if apart else " (95% intervals overlap)")


def save(fig, name):
    """Writes fig to <figures_dir>/<name>.png and returns the path."""
    path = figures_dir() / f"{name}.png"
    fig.savefig(path, dpi=110, bbox_inches="tight")
    print(f"saved {path}")
    return path


def note(ax, text):
    """An empty-state panel: the axes off, the text in the middle."""
    ax.set_axis_off()
    ax.text(0.5, 0.5, text, ha="center", va="center", wrap=True,
            fontsize=11, color="0.3", transform=ax.transAxes)


def errorbars(ax, x, rows, label=None, **kw):
    """Points rows.score at x with the asymmetric interval rows.lo..rows.hi
    (any three columns named value, lo, hi may be passed via kw 'cols')."""
    value, lo, hi = kw.pop("cols", ("score", "lo", "hi"))
    y = rows[value].to_numpy(dtype=float)
    err = [y - rows[lo].to_numpy(dtype=float), rows[hi].to_numpy(dtype=float) - y]
    # No bar where the interval is not valid (NaN: a cell stopped early;
    # matplotlib draws nothing for a NaN error); those points get a red
    # cross.
    bars = ax.errorbar(x, y, yerr=err, fmt=kw.pop("fmt", "o"), capsize=3,
                       label=label, **kw)
    invalid = rows[lo].isna().to_numpy() | rows[hi].isna().to_numpy()
    if invalid.any():
        xs = list(x.to_numpy() if hasattr(x, "to_numpy") else x)
        ax.scatter([v for v, bad in zip(xs, invalid) if bad], y[invalid],
                   marker="x", color="red", s=60, zorder=5,
                   label="stopped early: no valid interval")
    return bars


def fmt_ci(lo, hi, digits=2):
    if math.isnan(float(lo)) or math.isnan(float(hi)):
        return "[no valid interval: stopped early]"
    return f"[{lo:.{digits}f}, {hi:.{digits}f}]"


def fmt_p(p):
    if math.isnan(float(p)):
        return "n/a (stopped early)"
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


# One colour per end reason, the same in every figure.
REASONS = ["checkmate", "khan", "stalemate", "no_moves", "princess_captured",
           "chief_captured", "chief_captured_by_other", "endgame_countdown",
           "king_escaped", "king_captured", "repetition", "no_capture",
           "ply_cap"]


_REASON_COLOURS = dict(zip(REASONS, [
    "tab:blue", "tab:orange", "tab:purple", "tab:pink", "tab:green",
    "tab:red", "tab:brown", "tab:olive", "tab:cyan", "navy", "gold", "tan",
    "0.65"]))


def reason_colour(reason):
    return _REASON_COLOURS.get(reason, "black")


def plot_reasons(ax, summary, labels, title):
    """Horizontal 100% stacked bars, one per summary row (labelled by
    labels), of the share of games per end reason."""
    if summary.empty:
        note(ax, "no games for this figure in the database")
        return
    present = {r for d in summary["reasons"] for r in d}
    order = [r for r in REASONS if r in present] + sorted(present - set(REASONS))
    y = list(range(len(summary)))[::-1]
    left = [0.0] * len(summary)
    for reason in order:
        share = [d.get(reason, 0) / n
                 for d, n in zip(summary["reasons"], summary["games"])]
        ax.barh(y, share, left=left, color=reason_colour(reason),
                label=reason, edgecolor="white", linewidth=0.5)
        left = [a + b for a, b in zip(left, share)]
    ax.set_yticks(y)
    ax.set_yticklabels(list(labels))
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8,
              title="end reason")


def plot_by_param(summary, x, x_values, series, panels, cols=("score", "lo", "hi"),
                  ylabel="seat-0 score", title="", xlabel=None, hline=None,
                  band=None, ylim=None, series_title=None, highlight=None,
                  missing="no games"):
    """A figure with one panel per value of summary[panels]: summary[cols]
    (value, lo, hi) against summary[x] (categorical, in the order x_values),
    one line per value of summary[series] (the value highlight, if given, in
    bold black). x values with no rows are marked (with the text missing)
    in each panel. Returns the figure."""
    names = list(dict.fromkeys(summary[panels])) if not summary.empty else []
    n = max(1, len(names))
    ncols = min(n, 3)
    nrows = (n + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.6 * ncols + 0.6, 3.9 * nrows),
                             squeeze=False)
    axes = [a for row in axes for a in row]
    for ax in axes[len(names):]:
        ax.set_axis_off()
    if not names:
        note(axes[0], "no games for this figure in the database")
        fig.suptitle(title)
        return fig
    positions = {v: i for i, v in enumerate(x_values)}
    for ax, name in zip(axes, names):
        sub = summary[summary[panels] == name]
        kinds = list(dict.fromkeys(sub[series]))
        for j, kind in enumerate(kinds):
            rows = sub[sub[series] == kind].copy()
            rows["_pos"] = rows[x].map(positions)
            rows = rows.sort_values("_pos")
            offset = (j - (len(kinds) - 1) / 2) * 0.07
            style = (dict(color="black", lw=2.2, zorder=3) if kind == highlight
                     else dict(alpha=0.85))
            errorbars(ax, rows["_pos"] + offset, rows, label=str(kind),
                      cols=cols, fmt="o-", **style)
        if band is not None:
            ax.axhspan(band[0], band[1], color="tab:green", alpha=0.12, lw=0)
        if hline is not None:
            ax.axhline(hline, color="0.4", lw=0.8, ls="--")
        if ylim is not None:
            ax.set_ylim(*ylim)
        ax.set_xlim(-0.5, len(x_values) - 0.5)
        ax.set_xticks(range(len(x_values)))
        ax.set_xticklabels([str(v) for v in x_values])
        seen = set(sub[x])
        for v in x_values:
            if v not in seen:
                ax.text(positions[v], 0.5, missing, rotation=90,
                        ha="center", va="center", color="0.5",
                        transform=ax.get_xaxis_transform())
        ax.set_title(str(name), fontsize=10)
        ax.set_xlabel(xlabel or x)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, title=series_title or series, title_fontsize=8,
                  loc="upper center", bbox_to_anchor=(0.5, -0.2),
                  ncol=2 if len(kinds) > 3 else 1, frameon=False)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _sweep_agent_names(text):
    """The short names of a stored sweep file's [agents] section, in order."""
    names, section = [], None
    for line in (text or "").splitlines():
        line = line.split(";", 1)[0].split("#", 1)[0].strip()
        if line.startswith("["):
            section = line.strip("[] ").lower()
        elif section == "agents" and "=" in line:
            names.append(line.partition("=")[0].strip())
    return names


def skill_trace(con, games, delta=0.05, alpha=0.05):
    """The report's skill trace (`rulelab report --skill-trace`), from the
    games: (rungs, verdicts).

    rungs: one row per variant and agent spec that played itself: variant,
    agent (short name), spec, family (the agent kind), games, wins0, draws,
    wins1, score, lo, hi (seat-0 score, 95% Wilson), draw_rate, draw_lo,
    draw_hi, fixed_sample, rated, elo, elo_lo, elo_hi (the rating from
    rulelab_stats.ratings_fit on every game of the variant, cross-play
    included, anchored at random = 0 where it played, else at the first
    agent of the sweep file). verdicts: one row per variant: variant,
    ratings_status, family, top, second (specs), verdict, s0_diff,
    tost_lo, tost_hi (the (1 - 2 alpha) Newcombe interval), p (pooled z
    test), los (top over second), why."""
    rung_cols = ["variant", "label", "agent", "spec", "family", "games",
                 "wins0", "draws", "wins1", "score", "lo", "hi", "draw_rate",
                 "draw_lo", "draw_hi", "fixed_sample", "rated", "elo",
                 "elo_lo", "elo_hi"]
    verdict_cols = ["variant", "label", "ratings_status", "family", "top",
                    "second", "top_agent", "second_agent", "verdict",
                    "s0_diff", "tost_lo", "tost_hi", "p", "los", "why"]
    nan = math.nan
    if games.empty:
        return pd.DataFrame(columns=rung_cols), pd.DataFrame(columns=verdict_cols)
    sweeps = {}
    if table_exists(con, "cells"):
        cell_sweep = dict(con.execute("SELECT id, sweep_id FROM cells"))
        sweeps = {i: t for i, t in con.execute("SELECT id, file_text FROM sweeps")}
    else:
        cell_sweep = {}
    rungs, verdicts = [], []
    for variant, g in games.groupby("variant", sort=False):
        label = g["label"].iloc[0]
        # the agents in order of first appearance, and the ratings' rows
        agents, names = [], {}
        for s0, s1, n0, n1 in zip(g["agent0"], g["agent1"], g["agent0_name"],
                                  g["agent1_name"]):
            for s, n in ((s0, n0), (s1, n1)):
                if s not in names:
                    names[s] = n
                    agents.append(s)
        index = {s: i for i, s in enumerate(agents)}
        counts = {}
        for s0, s1, res in zip(g["agent0"], g["agent1"], g["result"]):
            c = counts.setdefault((index[s0], index[s1]), [0, 0, 0])
            c[{"seat0": 0, "draw": 1, "seat1": 2}[res]] += 1
        rows = [(a, b, w, d, l) for (a, b), (w, d, l) in counts.items()]
        anchor = index.get("random")
        if anchor is None:
            first = min(cell_sweep.get(c, 0) for c in g["cell_id"])
            in_first = g[g["cell_id"].map(cell_sweep) == first]
            by_name = dict(zip(in_first["agent0_name"], in_first["agent0"]))
            by_name.update(zip(in_first["agent1_name"], in_first["agent1"]))
            for name in _sweep_agent_names(sweeps.get(first)):
                if name in by_name:
                    anchor = index[by_name[name]]
                    break
        if anchor is None:
            anchor = 0
        fit = rs.ratings_fit(rows, len(agents), anchor)
        ok = fit["status"] == "ok"
        self_play = g[g["agent0"] == g["agent1"]]
        mine = []
        for spec, s in self_play.groupby("agent0", sort=False):
            n = len(s)
            w0 = int((s["result"] == "seat0").sum())
            d = int((s["result"] == "draw").sum())
            fixed = fixed_sample(s)
            lo, hi = rs.wilson(w0 + d / 2, n) if fixed else (nan, nan)
            dlo, dhi = rs.wilson(d, n) if fixed else (nan, nan)
            i = index[spec]
            rated = ok and fit["rated"][i]
            elo = fit["elo"][i] if rated else nan
            half = rs.Z95 * fit["se"][i] if rated else nan
            mine.append(dict(
                variant=variant, label=label, agent=s["agent0_name"].iloc[0],
                spec=spec, family=spec.split("(")[0], games=n, wins0=w0,
                draws=d, wins1=n - w0 - d, score=(w0 + d / 2) / n, lo=lo,
                hi=hi, draw_rate=d / n, draw_lo=dlo, draw_hi=dhi,
                fixed_sample=fixed, rated=rated, elo=elo, elo_lo=elo - half,
                elo_hi=elo + half, _index=i))
        mine.sort(key=lambda r: (not r["rated"], r["elo"] if r["rated"] else 0))
        # the verdict: the best-rated rung with a rated second in its family
        top = second = None
        for r in mine:
            if not r["rated"] or (top is not None and not r["elo"] > top["elo"]):
                continue
            partners = [q for q in mine if q is not r and q["rated"]
                        and q["family"] == r["family"]]
            if partners:
                top = r
                second = max(partners, key=lambda q: q["elo"])
        v = dict(variant=variant, label=label, ratings_status=fit["status"],
                 family=None, top=None, second=None, top_agent=None,
                 second_agent=None, verdict="not enough games", s0_diff=nan,
                 tost_lo=nan, tost_hi=nan, p=nan, los=nan, why="")
        if not mine:
            v["why"] = "no self-play games"
        elif not ok:
            v["why"] = f"no ratings ({fit['status']})"
        elif top is None:
            v["why"] = "no agent family has two rated rungs"
        else:
            v.update(family=top["family"], top=top["spec"], second=second["spec"],
                     top_agent=top["agent"], second_agent=second["agent"],
                     los=rs.ratings_los(fit, top["_index"], second["_index"]))
            if not (top["fixed_sample"] and second["fixed_sample"]):
                v["why"] = "a rung stopped early: no fixed-sample test"
            else:
                verdict, d, lo, hi, p = rs.skill_test(
                    top["score"] * top["games"], top["games"],
                    second["score"] * second["games"], second["games"],
                    delta, alpha)
                v.update(verdict=verdict, s0_diff=d, tost_lo=lo, tost_hi=hi,
                         p=p, why=(f"{top['agent']} - {second['agent']} = "
                                   f"{d:+.3f}, {1 - 2 * alpha:.0%} interval "
                                   f"{lo:+.3f} to {hi:+.3f}, p = {fmt_p(p)}"))
        for r in mine:
            r.pop("_index")
        rungs.extend(mine)
        verdicts.append(v)
    return (pd.DataFrame(rungs, columns=rung_cols),
            pd.DataFrame(verdicts, columns=verdict_cols))
