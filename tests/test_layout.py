#!/usr/bin/python3
"""test_layout.py -- the source tree keeps its plan (docs/developing.md,
Layout): every #include "NAME" of a file in core/, agents/ or experiments/
names a header of its own subsystem or of a subsystem on a lower layer,
and a header in a subsystem's internal/ folder is included by that
subsystem's files alone. The build already refuses a private header of
another subsystem (it is not on the include path); this test also
catches a header included sideways or upwards, which the include path
allows (a public header is visible to every subsystem above the one that
publishes it, and the link would take a cycle).

Usage: test_layout.py [ROOT]   (ROOT: the repository, default ..)
Prints one line per fault and "layout: N files, M includes checked";
exits 1 on a fault. First it checks itself: on a copy of the tree with
three faults put in (an include upwards, one sideways, and another
subsystem's private header) it must find exactly those three.
"""
import os
import re
import shutil
import sys
import tempfile

# Subsystem folders, the longest first so that agents/solve/ is not taken
# for agents/, with their layer: a file may include headers of its own
# subsystem and of subsystems on a lower layer, never sideways or up.
SUBSYSTEMS = [
    ("experiments/cli/", "cli", 6),
    ("experiments/run/", "run", 5),
    ("experiments/analysis/", "analysis", 4),
    ("experiments/prove/", "prove", 4),
    ("experiments/cluster/", "cluster", 4),
    ("experiments/store/", "store", 3),
    ("experiments/sweep/", "sweep", 2),
    ("agents/solve/", "solve", 1),
    ("agents/", "agents", 1),
    ("core/", "core", 0),
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def subsystem_of(path):
    for prefix, name, layer in SUBSYSTEMS:
        if path.startswith(prefix):
            return name, layer
    return None, None


def sources(root):
    """Every .c and .h under the subsystem folders, as repository paths."""
    found = []
    for top in ("core", "agents", "experiments"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".c", ".h")):
                    full = os.path.join(folder, name)
                    found.append(os.path.relpath(full, root))
    return sorted(found)


def check(root):
    """The faults of the tree at root, and the number of includes read."""
    files = sources(root)
    by_name = {}
    for path in files:
        by_name.setdefault(os.path.basename(path), []).append(path)
    faults = []
    for name, paths in sorted(by_name.items()):
        if name.endswith(".h") and len(paths) > 1:
            faults.append("two headers named %s: %s" % (name, " ".join(paths)))
    checked = 0
    for path in files:
        mine, my_layer = subsystem_of(path)
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        for included in INCLUDE.findall(text):
            targets = by_name.get(os.path.basename(included))
            if not targets:
                continue  # a generated table (build/generated/*.inc)
            target = targets[0]
            theirs, their_layer = subsystem_of(target)
            checked += 1
            if "/internal/" in target and theirs != mine:
                faults.append("%s (%s) includes %s, private to %s"
                              % (path, mine, target, theirs))
            elif theirs != mine and their_layer >= my_layer:
                faults.append("%s (%s, layer %d) includes %s (%s, layer %d):"
                              " only lower layers may be used"
                              % (path, mine, my_layer, target, theirs,
                                 their_layer))
    return faults, len(files), checked


def not_source(folder, names):
    """copytree's ignore: every file of names but .c and .h files."""
    return [n for n in names if not n.endswith((".c", ".h"))
            and not os.path.isdir(os.path.join(folder, n))]


# The faults put into a copy of the tree: (file, the include added, the
# words its fault line must hold).
PLANTED = [
    ("core/game.c", "agent.h", "only lower layers"),
    ("experiments/analysis/report.c", "shard.h", "only lower layers"),
    ("experiments/cli/cli.c", "store_internal.h", "private to store"),
]


def self_check(root):
    """1 when check() misses a planted fault or finds another, else 0."""
    with tempfile.TemporaryDirectory() as tmp:
        for top in ("core", "agents", "experiments"):
            shutil.copytree(os.path.join(root, top), os.path.join(tmp, top),
                            ignore=not_source)
        for path, header, _ in PLANTED:
            with open(os.path.join(tmp, path), "a", encoding="utf-8") as f:
                f.write('\n#include "%s"\n' % header)
        faults, _, _ = check(tmp)
    missed = [p for p in PLANTED
              if not any(f.startswith(p[0] + " ") and p[2] in f
                         for f in faults)]
    for path, header, _ in missed:
        print("layout self-check: %s including %s was not found"
              % (path, header))
    if missed or len(faults) != len(PLANTED):
        for fault in faults:
            print("layout self-check found: " + fault)
        return 1
    print("layout self-check: the %d planted faults found" % len(PLANTED))
    return 0


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    if self_check(root):
        return 1
    faults, n_files, checked = check(root)
    for fault in faults:
        print("layout: " + fault)
    print("layout: %d files, %d includes checked, %d faults"
          % (n_files, checked, len(faults)))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
