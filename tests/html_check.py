#!/usr/bin/python3
"""html_check.py -- what test_report_html.sh asks of a report page.

Usage: html_check.py PAGE.html REPORT.json [RATINGS.json]
Parses the page's variants and cells tables (the numbers sit in each
cell's data-v attribute, the full variant in the first cell's title) and
compares them with `rulelab report --format json` of the same database:
games, wins of each seat, draws, the seat-0 score and its interval, per
variant and per cell, to the JSON's precision; with a skill trace, each
variant's verdict (the headings of the skill trace section); with
--metrics, the game metrics table, every number; with
RATINGS.json (`rulelab ratings --format json`), the ratings table: each
rated agent's name, games, Elo and interval, per variant, in rank order.
Prints one line per mismatch and "html: N rows agree"; exits 1 on a
mismatch.
"""
import html.parser
import json
import sys


class Tables(html.parser.HTMLParser):
    """The rows of every table with an id: [title or text, data-v, ...]."""

    def __init__(self):
        super().__init__()
        self.tables, self.current, self.row, self.cell = {}, None, None, None
        self.h3, self.in_h3 = {}, False  # the h3 headings under each h2
        self.h2, self.in_h2 = "", False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2":
            self.in_h2, self.h2 = True, ""
        if tag == "h3":
            self.in_h3 = True
            self.h3.setdefault(self.h2, []).append("")
        if tag == "table" and "id" in a:
            self.current = self.tables.setdefault(a["id"], [])
        elif tag == "tr" and self.current is not None:
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = a.get("data-v", a.get("title"))
            self.row.append(self.cell)

    def handle_data(self, data):
        if self.in_h2:
            self.h2 += data
        if self.in_h3:
            self.h3[self.h2][-1] += data

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
        if tag == "h3":
            self.in_h3 = False
        if tag == "tr" and self.row:
            self.current.append(self.row)
            self.row = None
        elif tag == "table":
            self.current = None


def close(a, b):
    """Whether the page's full-precision a is the JSON's b, which is
    rounded to the decimals it is written with."""
    if a is None or b is None:
        return a is None and b is None
    text = repr(b)
    decimals = len(text.split(".")[1]) if "." in text and "e" not in text else 9
    return abs(float(a) - float(b)) <= 0.5 * 10 ** -decimals + 1e-12


def check_metrics(got, want, faults):
    """Compares the page's game metrics table (with --metrics) with the
    JSON's metrics; returns the rows compared."""
    if len(got) != len(want):
        faults.append("metrics: %d rows, the JSON has %d"
                      % (len(got), len(want)))
        return 0
    for g, w in zip(got, want):
        expect = [w["games"]]
        for key in ("decisive", "draws_rules", "draws_cap", "mean_plies"):
            ci = w[key + "_ci95"] or [None, None]
            expect += [w[key], ci[0], ci[1]]
        expect += [w["median_plies"], w["branching"], w["lead_changes"],
                   w["lead_settled"]]
        nums = [x if x != "" else None for x in g[3:]]
        if g[:3] != [w["variant"], w["seat0"], w["seat1"]]:
            faults.append("metrics: %r, JSON %r"
                          % (g[:3], [w["variant"], w["seat0"], w["seat1"]]))
        for k, (x, y) in enumerate(zip(nums, expect)):
            if not close(x, y):
                faults.append("metrics %s: column %d is %s, JSON %s"
                              % (w["variant"], k, x, y))
    return len(want)


def check_ratings(page, path, faults):
    """Compares the page's ratings table with the ratings JSON at path;
    returns the rows compared."""
    with open(path, encoding="utf-8") as f:
        ratings = json.load(f)
    want = []
    for v in ratings["variants"]:
        for a in v.get("agents", []):
            if v["status"] == "ok" and a["rated"]:
                want.append([v["variant"], a["agent"], a["games"], a["elo"],
                             a["ci95"][0], a["ci95"][1]])
    got = page.tables.get("ratings", [])
    if len(got) != len(want):
        faults.append("ratings: %d rows, the JSON has %d"
                      % (len(got), len(want)))
        return 0
    for g, w in zip(got, want):
        if g[:2] != w[:2]:
            faults.append("ratings: %r, JSON %r" % (g[:2], w[:2]))
        for k in range(2, 6):
            if not close(g[k], w[k]):
                faults.append("ratings %s %s: column %d is %s, JSON %s"
                              % (w[0], w[1], k, g[k], w[k]))
    return len(want)


def main():
    page = Tables()
    with open(sys.argv[1], encoding="utf-8") as f:
        page.feed(f.read())
    with open(sys.argv[2], encoding="utf-8") as f:
        report = json.load(f)
    faults, rows = [], 0
    for table, first in (("variants", 1), ("cells", 3)):
        got = page.tables.get(table, [])
        want = report[table]
        if len(got) != len(want):
            faults.append("%s: %d rows, the JSON has %d"
                          % (table, len(got), len(want)))
            continue
        for g, w in zip(got, want):
            rows += 1
            ci = w["s0_ci95"] or [None, None]
            expect = [w["games"], w["s0_wins"], w["s1_wins"],
                      w["draws_rules"] + w["draws_cap"], w["mean_plies"],
                      w["s0_score"], ci[0], ci[1]]
            nums = [x if x != "" else None for x in g[first:first + 8]]
            if g[0] != w["variant"]:
                faults.append("%s: variant %r, JSON %r"
                              % (table, g[0], w["variant"]))
            if table == "cells" and [g[1], g[2]] != [w["seat0"], w["seat1"]]:
                faults.append("cells: agents %r, JSON %r"
                              % (g[1:3], [w["seat0"], w["seat1"]]))
            for k, (x, y) in enumerate(zip(nums, expect)):
                if not close(x, y):
                    faults.append("%s %s: column %d is %s, JSON %s"
                                  % (table, w["variant"], k, x, y))
    if "skill_trace" in report:
        want = ["%s: %s" % (v["short_variant"], v["verdict"])
                for v in report["skill_trace"]["variants"]]
        got = page.h3.get("Skill trace", [])
        if got != want:
            faults.append("skill trace verdicts %r, JSON %r" % (got, want))
        rows += len(want)
    if "metrics" in page.tables:
        rows += check_metrics(page.tables["metrics"], report["metrics"],
                              faults)
    if len(sys.argv) > 3:
        rows += check_ratings(page, sys.argv[3], faults)
    for fault in faults:
        print("html: " + fault)
    print("html: %d rows compared with the JSON report, %d mismatches"
          % (rows, len(faults)))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
