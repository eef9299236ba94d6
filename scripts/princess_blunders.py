#!/usr/bin/python3
"""princess_blunders.py -- issue 12's Jetan Princess-blunder check over a
results database: how many Jetan games were lost by a Princess move onto a
square where she is taken the next ply.

Usage: princess_blunders.py DB [--max N] [--list]

A game counts when it ended by `princess_captured` and the loser's last
move (the ply before the capture) landed on the square of the capture.
That is the whole test, with no replay needed: the piece standing on the
capture square when she is taken is the Princess, so a loser's move that
landed there was hers (a normal move or the escape `x^y`, whose square is
the last one written). Moves are read as stored (RULES.md notation, each
move's destination its last square); a capture right after the opening,
whose Princess move was one of the opening's random plies rather than an
agent's, is counted apart as `in_opening`.

Prints one row per cell (seat-0 agent, seat-1 agent by their sweep names),
then the total: Jetan games, games won by a Princess capture, Princess
blunders by the loser in seat 0 and in seat 1, and the blunders in the
opening. --list also prints each blunder's game id (rulelab replay DB ID
--show draws it). Exit status: 0; 1 with --max N when the agents' blunders
(opening ones left out) exceed N; 2 on a usage error or an unreadable
database.
"""
import re
import sqlite3
import sys

SQUARE = re.compile(r"[a-j](?:10|[1-9])")


def destination(move):
    """The square a Jetan move ends on: its last square in the text."""
    squares = SQUARE.findall(move)
    return squares[-1] if squares else None


def classify(moves, opening):
    """For a game won by a Princess capture: 'agent' if the loser's last
    move landed on the capture square, 'opening' if that move was the
    opening's last ply, None otherwise."""
    played = moves.split()
    if not played:
        return None
    target = destination(played[-1])
    if len(played) >= 2:
        return "agent" if destination(played[-2]) == target else None
    before = opening.split()
    if before and destination(before[-1]) == target:
        return "opening"
    return None


def main(argv):
    args, limit, listing = [], None, False
    it = iter(argv)
    for a in it:
        if a == "--max":
            try:
                limit = int(next(it))
            except (StopIteration, ValueError):
                print("princess_blunders.py: --max needs a whole number",
                      file=sys.stderr)
                return 2
        elif a == "--list":
            listing = True
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif a.startswith("-"):
            print(f"princess_blunders.py: unknown option {a}", file=sys.stderr)
            return 2
        else:
            args.append(a)
    if len(args) != 1:
        print("usage: princess_blunders.py DB [--max N] [--list]",
              file=sys.stderr)
        return 2
    try:
        db = sqlite3.connect(f"file:{args[0]}?mode=ro", uri=True)
        rows = db.execute(
            "SELECT id, agent0_name, agent1_name, result, reason, moves, "
            "opening FROM game_view WHERE game = 'jetan' ORDER BY id"
        ).fetchall()
    except sqlite3.Error as e:
        print(f"princess_blunders.py: {args[0]}: {e}", file=sys.stderr)
        return 2
    cells, order = {}, []
    for gid, a0, a1, result, reason, moves, opening in rows:
        key = (a0, a1)
        if key not in cells:
            cells[key] = {"games": 0, "princess": 0, "seat0": 0, "seat1": 0,
                          "opening": 0, "ids": []}
            order.append(key)
        c = cells[key]
        c["games"] += 1
        if reason != "princess_captured" or result not in ("seat0", "seat1"):
            continue
        c["princess"] += 1
        kind = classify(moves, opening)
        if kind == "agent":
            loser = "seat1" if result == "seat0" else "seat0"
            c[loser] += 1
            c["ids"].append(gid)
        elif kind == "opening":
            c["opening"] += 1
    head = ("seat0", "seat1", "games", "princess_wins", "blunders_seat0",
            "blunders_seat1", "in_opening")
    table = [head]
    total = {"games": 0, "princess": 0, "seat0": 0, "seat1": 0, "opening": 0}
    for key in order:
        c = cells[key]
        table.append((key[0], key[1], c["games"], c["princess"], c["seat0"],
                      c["seat1"], c["opening"]))
        for k in total:
            total[k] += c[k]
    table.append(("all", "", total["games"], total["princess"],
                  total["seat0"], total["seat1"], total["opening"]))
    widths = [max(len(str(r[i])) for r in table) for i in range(len(head))]
    for r in table:
        print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip())
    if listing:
        for key in order:
            for gid in cells[key]["ids"]:
                print(f"blunder: game {gid} ({key[0]} vs {key[1]})")
    blunders = total["seat0"] + total["seat1"]
    return 1 if limit is not None and blunders > limit else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
