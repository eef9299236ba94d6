#!/usr/bin/python3
"""atlas.py -- the balance atlas's answer, generated from a results database
(the atlas parts merged: scripts/atlas.sh), never copied by hand.

Usage: atlas.py DB --defaults LIST.txt [--svg FILE] [--delta D] [--alpha A]

LIST.txt is `rulelab list`'s output (each game's parameters and their
defaults), so a variant is labelled by how it differs from its game's
defaults. Prints Markdown on stdout: one table per game, then the
variant-against-variant differences, then the sanity check; --svg also
writes the figure. Byte for byte the same for the same database.

Per variant, the rungs are the self-play cells (an agent spec against
itself), ordered by their node budget. The top rung is the largest budget,
the second the next:
  - seat-0 score = (seat-0 wins + draws / 2) / games, 95% Wilson interval;
    draw rate, mean plies, and the share of games ended by the ply cap
    (a cell over 5% is named, with how much of its capped games' last
    1,000 plies undoes the same side's move before: a piece stepping
    back and forth, the median over those games);
  - d = top's seat-0 score minus second's. Paired where every game i of
    the top rung has a game i of the second that started from the same
    opening (the atlas plays game i of every rung from one opening): the
    per-opening differences D_i (each -1 .. 1) have mean d and standard
    error SE = sd(D) / sqrt(n). Else unpaired: Newcombe's interval and the
    pooled z test, as `rulelab report --skill-trace` (SE from Wilson's
    variance at the two scores).
  - verdict: "converged" when the (1 - 2 alpha) interval of d (d +/-
    z(1 - alpha) SE, paired) lies inside +/-delta (TOST); else "still
    moving" when the two-sided test of d = 0 rejects at alpha; else "not
    enough games". power: the chance that TOST says converged when the
    true d is 0, at this SE: 2 Phi(delta / SE - z(1 - alpha)) - 1 (0 when
    negative).
  - Elo of the top rung: Davidson-Bradley-Terry with a first-move term
    (rulelab_stats.ratings_fit, the fit `rulelab ratings` makes), every
    game of the variant, the anchor rung (the cheapest spec) at 0, with
    its 95% interval; n/a without cross-play games.
Variant against variant, at the strongest rung both played (the same
agent spec; a variant given a further rung keeps being compared with
the others at the rung they share): each variant against its game's
defaults, but Kings Landing against the rank below; Newcombe's 95%
interval of the difference and the pooled z test's p, Holm-corrected
across all comparisons (openings differ by variant, so these are
unpaired).
"""
import argparse
import math
import os
import re
import sqlite3
import sys
from statistics import NormalDist

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "notebooks"))
import rulelab_stats as rs  # noqa: E402

ADJACENT = {"kings_landing"}  # compared with the value below, not the default


def parse_params(canonical):
    """'tafl(a=1,b=x)' -> ('tafl', {'a': '1', 'b': 'x'})."""
    m = re.fullmatch(r"([a-z]+)\((.*)\)", canonical)
    game, body = m.group(1), m.group(2)
    params = dict(kv.split("=", 1) for kv in body.split(",")) if body else {}
    return game, params


def read_defaults(path):
    """{game: {param: default}} from `rulelab list`'s text."""
    defaults, game = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("agents"):
                break
            m = re.match(r"^([a-z]+) - ", line)
            if m:
                game = m.group(1)
                defaults[game] = {}
                continue
            m = re.match(r"^  (\w+)\s+default (\S+)", line)
            if m and game:
                defaults[game][m.group(1)] = m.group(2)
    return defaults


def label(game, params, defaults):
    """The parameters off the game's defaults, or 'default'."""
    off = [f"{k}={v}" for k, v in sorted(params.items())
           if defaults.get(game, {}).get(k) != v]
    return ", ".join(off) if off else "default"


def nodes_of(spec):
    m = re.search(r"nodes=(\d+)", spec)
    return int(m.group(1)) if m else 0


def rung_name(spec):
    n = nodes_of(spec)
    return f"ab {n // 1000}k nodes" if n >= 1000 and n % 1000 == 0 \
        else f"ab {n} nodes"


def load(db, sanity):
    """Games by variant: {variant: {(spec0, spec1): [game rows]}}, each row
    (game_index, score for seat 0, drawn, plies, reason, opening key,
    duration_ms, moves of a game ended by the ply cap else None): the
    games of the sanity sweeps (names ending in _start, from the variant's
    start) when `sanity`, else of the other sweeps."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT v.canonical, a0.spec, a1.spec, g.game_index, g.result,"
        " g.plies, g.reason, g.opening_position || '|' || g.opening,"
        " g.duration_ms, CASE WHEN g.reason = 'ply_cap' THEN g.moves END"
        " FROM games g JOIN cells c ON c.id = g.cell_id"
        " JOIN sweeps s ON s.id = c.sweep_id"
        " JOIN variants v ON v.id = c.variant_id"
        " JOIN agents a0 ON a0.id = c.agent0_id"
        " JOIN agents a1 ON a1.id = c.agent1_id"
        " WHERE (s.name LIKE '%\\_start' ESCAPE '\\') = ?"
        " ORDER BY v.canonical, a0.spec, a1.spec, g.game_index",
        (1 if sanity else 0,)).fetchall()
    con.close()
    out = {}
    for var, s0, s1, idx, result, plies, reason, opening, ms, moves in rows:
        score = 1.0 if result == "seat0" else 0.0 if result == "seat1" else 0.5
        out.setdefault(var, {}).setdefault((s0, s1), []).append(
            (idx, score, result == "draw", plies, reason, opening, ms, moves))
    return out


def undo_share(moves):
    """The share of the last 1,000 plies of a move list whose move undoes
    the same side's move before it (from and to squares swapped)."""
    squares = [re.match(r"([a-z]\d+)[-x]?([a-z]\d+)", m)
               for m in moves.split()[-1000:]]
    pairs = [q.groups() if q else None for q in squares]
    undone = sum(1 for i in range(2, len(pairs))
                 if pairs[i] and pairs[i - 2]
                 and pairs[i] == pairs[i - 2][::-1])
    return undone / max(1, len(pairs) - 2)


def summary(games):
    n = len(games)
    pts = sum(g[1] for g in games)
    draws = sum(1 for g in games if g[2])
    cap = sum(1 for g in games if g[4] == "ply_cap")
    lo, hi = rs.wilson(pts, n)
    reasons = {}
    for g in games:
        if g[1] == 1.0:
            reasons[g[4]] = reasons.get(g[4], 0) + 1
    undo = sorted(undo_share(g[7]) for g in games if g[7] is not None)
    return dict(n=n, pts=pts, score=pts / n, lo=lo, hi=hi, draw=draws / n,
                plies=sum(g[3] for g in games) / n, cap=cap / n, capped=cap,
                undo=undo[len(undo) // 2] if undo else None,
                ms=sum(g[6] for g in games) / n,
                reasons=", ".join(f"{k} {v}" for k, v in sorted(
                    reasons.items())) or "none")


def paired(top, second):
    """The per-opening differences, or None when some game of top has no
    game of second from the same opening."""
    by_index = {g[0]: g for g in second}
    diffs = []
    for g in top:
        h = by_index.get(g[0])
        if h is None or h[5] != g[5]:
            return None
        diffs.append(g[1] - h[1])
    return diffs


def verdict(top, second, delta, alpha):
    """(verdict, d, lo, hi, p, power, how) for the top and second rungs."""
    z_a = rs.normal_quantile(1.0 - alpha)
    diffs = paired(top, second)
    if diffs is not None and len(diffs) >= 2:
        n = len(diffs)
        d = sum(diffs) / n
        var = sum((x - d) ** 2 for x in diffs) / (n - 1)
        se = math.sqrt(var / n)
        lo, hi = d - z_a * se, d + z_a * se
        p = 1.0 if se == 0 else math.erfc(abs(d / se) / math.sqrt(2.0))
        how = f"paired, {n} openings"
    else:
        a, b = summary(top), summary(second)
        _, d, lo, hi, p = rs.skill_test(a["pts"], a["n"], b["pts"], b["n"],
                                        delta, alpha)
        se = math.sqrt(a["score"] * (1 - a["score"]) / a["n"]
                       + b["score"] * (1 - b["score"]) / b["n"])
        how = f"unpaired, {a['n']} and {b['n']} games"
    if se > 0:
        power = max(0.0, 2 * NormalDist().cdf(delta / se - z_a) - 1)
    else:
        power = 1.0
    v = rs.difference_verdict(lo, hi, p, delta, alpha)
    return v, d, lo, hi, p, power, how


def elo_of(cells, top_spec, anchor_spec):
    """(elo, lo, hi) of top_spec in a fit of the variant's games, the
    anchor at 0; None without a rating."""
    specs = sorted({s for pair in cells for s in pair}, key=nodes_of)
    index = {s: i for i, s in enumerate(specs)}
    rows = []
    for (s0, s1), games in sorted(cells.items()):
        w = sum(1 for g in games if g[1] == 1.0)
        d = sum(1 for g in games if g[2])
        rows.append((index[s0], index[s1], w, d, len(games) - w - d))
    if anchor_spec not in index:
        return None
    fit = rs.ratings_fit(rows, len(specs), index[anchor_spec])
    i = index[top_spec]
    if fit["status"] != "ok" or not fit["rated"][i] or i == index[anchor_spec]:
        return None
    e, se = fit["elo"][i], fit["se"][i]
    return e, e - rs.Z95 * se, e + rs.Z95 * se


def pct(x):
    return f"{x:.3f}"


def build(data, defaults, delta, alpha):
    """Per variant: its label, game, rungs and verdict."""
    rows = []
    for var in sorted(data):  # (each game's default first: see below)
        game, params = parse_params(var)
        cells = data[var]
        selfplay = sorted((s for s, t in cells if s == t), key=nodes_of)
        if not selfplay:
            continue
        specs = sorted({s for pair in cells for s in pair}, key=nodes_of)
        top = selfplay[-1]
        row = dict(var=var, game=game, params=params,
                   label=label(game, params, defaults), top=top,
                   rungs=[(s, summary(cells[(s, s)])) for s in selfplay])
        row["sum"] = summary(cells[(top, top)])
        if len(selfplay) >= 2:
            row["test"] = verdict(cells[(top, top)],
                                  cells[(selfplay[-2], selfplay[-2])],
                                  delta, alpha)
        row["elo"] = elo_of(cells, top, specs[0])
        rows.append(row)
    rows.sort(key=lambda r: r["label"] != "default")  # stable: default first
    return rows


def print_tables(rows, delta, alpha):
    level = round(100 * (1 - 2 * alpha))
    for game in ("tafl", "jetan", "serbest"):
        mine = [r for r in rows if r["game"] == game]
        if not mine:
            continue
        print(f"### {game}\n")
        print("| variant | strongest rung | games | seat-0 score (95%) | draws"
              " | mean plies | ply cap | verdict: d = top - next "
              f"({level}% interval), power | Elo of top (95%) |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in mine:
            s = r["sum"]
            if "test" in r:
                v, d, lo, hi, p, power, how = r["test"]
                test = (f"{v}: d = {d:+.3f} ({lo:+.3f} to {hi:+.3f}), p = "
                        f"{p:.3g}, power {power:.2f} ({how})")
            else:
                test = "not enough games: one rung"
            elo = ("n/a" if r["elo"] is None else
                   f"{r['elo'][0]:.0f} ({r['elo'][1]:.0f} to "
                   f"{r['elo'][2]:.0f})")
            print(f"| {r['label']} | {rung_name(r['top'])} | {s['n']} | "
                  f"{pct(s['score'])} ({pct(s['lo'])}-{pct(s['hi'])}) | "
                  f"{pct(s['draw'])} | {s['plies']:.1f} | {pct(s['cap'])} | "
                  f"{test} | {elo} |")
        print()
        caps = "; ".join(f"{r['label']}: " + ", ".join(
            f"{rung_name(spec).replace(' nodes', '')} {pct(m['cap'])}"
            for spec, m in r["rungs"]) for r in mine)
        print(f"Share of games ended by the ply cap, per self-play cell: "
              f"{caps}.\n")
        for r in mine:
            for spec, m in r["rungs"]:
                if m["cap"] > 0.05:
                    print(f"Over the 5% limit: {r['label']}, "
                          f"{rung_name(spec)}: {m['capped']} of {m['n']} "
                          "games ended by the ply cap; in the median of "
                          f"them {100 * m['undo']:.1f}% of the last 1,000 "
                          "plies undo the same side's move before.\n")
        for r in mine:
            if "test" in r and r["test"][0] == "still moving":
                s = r["sum"]
                cpu = s["n"] * s["ms"] * 4 / 1000 / 3600
                print(f"- {r['label']}: still moving; the next rung would be "
                      f"ab at {nodes_of(r['top']) * 4} nodes (four times the "
                      f"top rung's budget), about {cpu:.1f} CPU-hours for "
                      f"{s['n']} games (four times its games' mean wall "
                      "time, an upper bound where the machine was shared).")
        print()


def shared_rung(a, b):
    """(spec, a's summary, b's summary) at the strongest self-play rung
    that rows a and b both have, or None."""
    mine = dict(a["rungs"])
    theirs = dict(b["rungs"])
    both = sorted(set(mine) & set(theirs), key=nodes_of)
    return (both[-1], mine[both[-1]], theirs[both[-1]]) if both else None


def comparisons(rows, defaults):
    """(game, a, b, (spec, a's summary, b's summary)): the pairs of rows
    compared, at their strongest shared rung."""
    out = []
    for game in ("tafl", "jetan", "serbest"):
        mine = {r["label"]: r for r in rows if r["game"] == game}
        base = mine.get("default")
        for lab, r in sorted(mine.items()):
            if lab == "default":
                continue
            off = {k: v for k, v in r["params"].items()
                   if defaults.get(game, {}).get(k) != v}
            other = base
            if len(off) == 1 and next(iter(off)) in ADJACENT:
                key = next(iter(off))
                below = str(int(off[key]) - 1)
                other = next((x for x in mine.values()
                              if x["params"].get(key) == below
                              and all(x["params"][k] == v
                                      for k, v in r["params"].items()
                                      if k != key)), None)
            shared = shared_rung(r, other) if other is not None else None
            if shared is not None:
                out.append((game, r, other, shared))
    return out


def print_comparisons(rows, defaults):
    pairs = comparisons(rows, defaults)
    if not pairs:
        return
    ps, lines = [], []
    for game, a, b, (spec, x, y) in pairs:
        lo, hi = rs.newcombe_diff(x["pts"], x["n"], y["pts"], y["n"])
        p = rs.two_proportion_p(x["pts"], x["n"], y["pts"], y["n"])
        ps.append(p)
        lines.append((game, a["label"], b["label"], rung_name(spec),
                      x["score"] - y["score"], lo, hi, p))
    holm = rs.holm(ps)
    print("### Variant against variant (seat-0 score at the strongest rung "
          "both played)\n")
    print("| game | variant | against | rung | difference (95%) | p "
          "| p (Holm) |")
    print("|---|---|---|---|---|---|---|")
    for (game, a, b, rung, d, lo, hi, p), ph in zip(lines, holm):
        print(f"| {game} | {a} | {b} | {rung} | {d:+.3f} ({lo:+.3f} to "
              f"{hi:+.3f}) | {p:.3g} | {ph:.3g} |")
    print()


def print_sanity(rows):
    """The rungs' scores where theory knows the answer."""
    if not rows:
        return
    print("### Sanity: Kings Landing on rank 9, from the empty board\n")
    print("With Kings Landing on rank 9 the first mover has a forced win "
          "within 5 plies from the start (a verified proof), so a rung that "
          "finds it scores 1.0 as seat 0.\n")
    print("| variant | rung | games | seat-0 score (95%) | seat-0 wins by |")
    print("|---|---|---|---|---|")
    for r in rows:
        for spec, m in r["rungs"]:
            print(f"| {r['label']} | {rung_name(spec)} | {m['n']} | "
                  f"{pct(m['score'])} ({pct(m['lo'])}-{pct(m['hi'])}) | "
                  f"{m['reasons']} |")
    print()


def svg(rows, path):
    """Seat-0 score against rung per variant, 95% intervals: one panel per
    game, a line per variant."""
    games = [g for g in ("tafl", "jetan", "serbest")
             if any(r["game"] == g for r in rows)]
    w, h, pad = 300, 260, 50
    most = max((sum(1 for r in rows if r["game"] == g) for g in games),
               default=0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * len(games)}"'
           f' height="{h + 24 + 12 * most}" font-family="sans-serif"'
           ' font-size="11">',
           "<title>Seat-0 score against agent strength, per variant, with "
           "95% intervals</title>"]
    dashes = ["", "4,2", "1,2", "6,2,1,2", "8,3", "2,4"]
    for gi, game in enumerate(games):
        x0 = gi * w
        mine = [r for r in rows if r["game"] == game]
        budgets = sorted({nodes_of(s) for r in mine for s, _ in r["rungs"]})
        def px(b):
            k = budgets.index(b)
            span = max(len(budgets) - 1, 1)
            return x0 + pad + k * (w - 2 * pad) / span
        def py(v):
            return 20 + (1 - v) * (h - 40)
        out.append(f'<text x="{x0 + w / 2:.1f}" y="14" text-anchor="middle">'
                   f"{game}</text>")
        out.append(f'<line x1="{x0 + pad}" y1="{py(0.5):.1f}" '
                   f'x2="{x0 + w - pad}" y2="{py(0.5):.1f}" stroke="#999" '
                   'stroke-dasharray="2,2"/>')
        for v in (0.0, 0.25, 0.5, 0.75, 1.0):
            out.append(f'<text x="{x0 + pad - 4}" y="{py(v) + 4:.1f}" '
                       f'text-anchor="end">{v:.2f}</text>')
        for b in budgets:
            out.append(f'<text x="{px(b):.1f}" y="{h + 2}" '
                       f'text-anchor="middle">{b}</text>')
        for k, r in enumerate(mine):
            pts = [(px(nodes_of(s)), py(m["score"]), py(m["lo"]), py(m["hi"]))
                   for s, m in r["rungs"]]
            dash = dashes[k % len(dashes)]
            line = " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in pts)
            out.append(f'<polyline points="{line}" fill="none" stroke="#000"'
                       + (f' stroke-dasharray="{dash}"' if dash else "")
                       + f"><title>{r['label']}</title></polyline>")
            for x, y, lo, hi in pts:
                out.append(f'<line x1="{x:.1f}" y1="{lo:.1f}" x2="{x:.1f}" '
                           f'y2="{hi:.1f}" stroke="#000"/>')
            out.append(f'<text x="{x0 + 4}" y="{h + 18 + 12 * k}" '
                       f'font-size="9">{"—" if not dash else "- -"} '
                       f"{r['label']}</text>")
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("db")
    ap.add_argument("--defaults", required=True)
    ap.add_argument("--svg")
    ap.add_argument("--delta", type=float, default=0.05)
    ap.add_argument("--alpha", type=float, default=0.05)
    a = ap.parse_args()
    defaults = read_defaults(a.defaults)
    rows = build(load(a.db, False), defaults, a.delta, a.alpha)
    print_tables(rows, a.delta, a.alpha)
    print_comparisons(rows, defaults)
    print_sanity(build(load(a.db, True), defaults, a.delta, a.alpha))
    if a.svg:
        svg(rows, a.svg)


if __name__ == "__main__":
    main()
