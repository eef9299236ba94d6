#!/usr/bin/python3
"""random_engine.py -- the smallest outside engine for rulelab: plays a
uniformly random legal move, over the line protocol of docs/protocol.md.

It knows no rules: in the handshake it asks rulelab for the legal moves
(`want legal`), and before each `go` rulelab sends them. Python's standard
library only. Try it:

    rulelab play tafl --agents 'ext(cmd="python3 agents/outside/random_engine.py",ms=100),random'

Deterministic: each game's moves depend only on the seed of its newgame
line, so a sweep replays the same games.
"""
import random
import sys


def main():
    rng = random.Random(0)
    legal = []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "rulelab":  # the hello: who we are, what we want
            print("id name random_engine.py")
            print("id version 1")
            print("want legal")
            print("ready 1")
        elif command == "newgame":  # newgame VARIANT SEED
            rng = random.Random(int(words[2]))
        elif command == "legal":
            legal = words[1:]
        elif command == "go":
            print("bestmove " + rng.choice(legal))
        elif command == "quit":
            break
        # position, option and lines of later versions: nothing to do
        sys.stdout.flush()


if __name__ == "__main__":
    main()
