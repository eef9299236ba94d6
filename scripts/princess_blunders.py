#!/usr/bin/python3
"""princess_blunders.py -- the Jetan Princess-blunder check of the strength
yardstick, over a results database: how many Jetan games were lost by a
Princess move onto a square where she is taken the next ply, and how many
of those the loser could have avoided.

Usage: princess_blunders.py DB [--max N] [--list] [--rulelab PATH]

A game counts when it ended by `princess_captured` and the loser's last
move (the ply before the capture) landed on the square of the capture.
That is the whole test, with no replay needed: the piece standing on the
capture square when she is taken is the Princess, so a loser's move that
landed there was hers (a normal move or the escape `x^y`, whose square is
the last one written). Moves are read as stored (the notation of
docs/rules.md#notation, each move's destination its last square); a
capture right after the opening, whose Princess move was one of the
opening's random plies rather than an agent's, is counted apart as
`in_opening`.

Each blunder is then judged with rulelab (PATH, default build/rulelab of
this repository): it is `forced` when every legal move the loser had in
its place lets the opponent win at once (`rulelab show` lists the moves,
`rulelab solve --plies 1` answers for each; a move that ends the game
itself saves her, as in Jetan a move can only end it with the mover's
win or a draw). A forced one is no mistake of that move: the game was
lost before it.

Prints one row per cell (seat-0 agent, seat-1 agent by their sweep names),
then the total: Jetan games, games won by a Princess capture, Princess
blunders by the loser in seat 0 and in seat 1, how many of those were
forced, and the blunders in the opening. --list also prints each
blunder's game id (rulelab replay DB ID --show draws it). Exit status: 0;
1 with --max N when the agents' avoidable blunders (forced and opening
ones left out) exceed N; 2 on a usage error, an unreadable database or a
rulelab that does not run.
"""
import os
import subprocess
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


def rulelab_out(rulelab, args):
    """rulelab's standard output and error for args, as one text."""
    done = subprocess.run([rulelab] + args, capture_output=True, text=True,
                          check=False)
    return done.stdout + done.stderr


def is_forced(rulelab, variant, position, before):
    """Whether every legal move of the side to move after the moves
    `before` (from `position`, '' for the start) lets the opponent win at
    once. Raises RuntimeError when rulelab gives no list of moves."""
    where = ["--position", position] if position else []
    shown = rulelab_out(rulelab, ["show", variant] + where
                        + ["--moves", " ".join(before)])
    m = re.search(r"legal moves \((\d+)\):\n((?:.*\n?)*)", shown)
    if not m:
        raise RuntimeError(f"rulelab show gave no legal moves:\n{shown}")
    legal = m.group(2).split()
    if len(legal) != int(m.group(1)):
        raise RuntimeError(f"rulelab show listed {len(legal)} of "
                           f"{m.group(1)} moves")
    for move in legal:
        answer = rulelab_out(rulelab, ["solve", variant, "--plies", "1",
                                       "--mb", "1"] + where
                             + ["--moves", " ".join(before + [move])])
        if "proven win" not in answer:
            return False  # no win at once for the opponent, or game over
    return True


def main(argv):
    args, limit, listing = [], None, False
    rulelab = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                           "build", "rulelab")
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
        elif a == "--rulelab":
            rulelab = next(it, None)
            if rulelab is None:
                print("princess_blunders.py: --rulelab needs a path",
                      file=sys.stderr)
                return 2
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif a.startswith("-"):
            print(f"princess_blunders.py: unknown option {a}", file=sys.stderr)
            return 2
        else:
            args.append(a)
    if len(args) != 1:
        print("usage: princess_blunders.py DB [--max N] [--list] "
              "[--rulelab PATH]",
              file=sys.stderr)
        return 2
    try:
        db = sqlite3.connect(f"file:{args[0]}?mode=ro", uri=True)
        rows = db.execute(
            "SELECT id, agent0_name, agent1_name, result, reason, moves, "
            "opening, variant, opening_position FROM game_view "
            "WHERE game = 'jetan' ORDER BY id"
        ).fetchall()
    except sqlite3.Error as e:
        print(f"princess_blunders.py: {args[0]}: {e}", file=sys.stderr)
        return 2
    cells, order = {}, []
    for gid, a0, a1, result, reason, moves, opening, variant, position in rows:
        key = (a0, a1)
        if key not in cells:
            cells[key] = {"games": 0, "princess": 0, "seat0": 0, "seat1": 0,
                          "forced": 0, "opening": 0, "ids": []}
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
            try:
                before = opening.split() + moves.split()[:-2]
                forced = is_forced(rulelab, variant, position, before)
            except (OSError, RuntimeError) as e:
                print(f"princess_blunders.py: game {gid}: {e}",
                      file=sys.stderr)
                return 2
            c["forced"] += forced
            c["ids"].append((gid, forced))
        elif kind == "opening":
            c["opening"] += 1
    head = ("seat0", "seat1", "games", "princess_wins", "blunders_seat0",
            "blunders_seat1", "forced", "in_opening")
    table = [head]
    total = {"games": 0, "princess": 0, "seat0": 0, "seat1": 0, "forced": 0,
             "opening": 0}
    for key in order:
        c = cells[key]
        table.append((key[0], key[1], c["games"], c["princess"], c["seat0"],
                      c["seat1"], c["forced"], c["opening"]))
        for k in total:
            total[k] += c[k]
    table.append(("all", "", total["games"], total["princess"],
                  total["seat0"], total["seat1"], total["forced"],
                  total["opening"]))
    widths = [max(len(str(r[i])) for r in table) for i in range(len(head))]
    for r in table:
        print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip())
    if listing:
        for key in order:
            for gid, forced in cells[key]["ids"]:
                print(f"blunder: game {gid} ({key[0]} vs {key[1]})"
                      + (", forced" if forced else ""))
    blunders = total["seat0"] + total["seat1"] - total["forced"]
    return 1 if limit is not None and blunders > limit else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
