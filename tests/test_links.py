#!/usr/bin/python3
"""test_links.py -- the documentation's links and paths lead somewhere.

In every tracked Markdown file (the README, docs/, results/, experiments/
and the other folders' READMEs):
  - a link [text](target) to a file of the repository names a file or
    folder that exists, and its #anchor, if any, a heading of that file
    (anchors as GitHub makes them: lower case, punctuation dropped,
    spaces as hyphens, a repeated heading numbered -1, -2, ...);
  - a path written in a code span (`experiments/sweeps/quickstart.ini`),
    one that starts with a top-level folder of the repository and holds
    no placeholder (NAME, <x>, *, {a,b}, ...), names a file or folder
    that exists, or is one that the build, a run or a script writes
    (under build*/, results/figures/, a database, a log), which git
    ignores.
Links to the web (http, https, mailto) are not followed.

Usage: test_links.py [ROOT]
Prints one line per fault and a summary; exits 1 on a fault.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
TOP = ("core/", "agents/", "experiments/", "scripts/", "tests/", "docs/",
       "results/", "notebooks/", "cmake/", ".ci/")
PLACEHOLDER = re.compile(r"[<>*{}$]|\.\.\.|[A-Z]{2,}|\bK\b|\bN\b")
MADE = re.compile(r"(^build[^/]*/|^results/figures|\.db$|\.db\.|\.png$|\.log$|/tmp)")


def tracked_markdown(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "*.md"],
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.split("\n") if p]


def anchor(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link: its text
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(path, memo={}):
    if path not in memo:
        with open(path, encoding="utf-8") as f:
            text = FENCE.sub("", f.read())
        seen, found = {}, set()
        for _, heading in HEADING.findall(text):
            a = anchor(heading)
            n = seen.get(a, 0)
            found.add(a if n == 0 else "%s-%d" % (a, n))
            seen[a] = n + 1
        memo[path] = found
    return memo[path]


def check(root):
    faults, links, paths = [], 0, 0
    for md in tracked_markdown(root):
        with open(os.path.join(root, md), encoding="utf-8") as f:
            text = f.read()
        prose = FENCE.sub("", text)
        here = os.path.dirname(md)
        for target in LINK.findall(prose):
            if re.match(r"^(https?|mailto):", target):
                continue
            links += 1
            file_part, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(here, file_part)) \
                if file_part else md
            full = os.path.join(root, dest)
            if not os.path.exists(full):
                faults.append("%s: link to %s: no such file" % (md, target))
            elif frag and dest.endswith(".md") \
                    and frag not in anchors_of(full):
                faults.append("%s: link to %s: %s has no heading #%s"
                              % (md, target, dest, frag))
        for span in CODE_SPAN.findall(prose):
            span = span.strip()
            if " " in span or not span.startswith(TOP) \
                    or PLACEHOLDER.search(span) or MADE.search(span):
                continue
            paths += 1
            if not os.path.exists(os.path.join(root, span.split(":")[0])):
                faults.append("%s: `%s`: no such file or folder" % (md, span))
    return faults, links, paths


def self_check(root):
    """A copy of the Markdown with three faults put in (a link to a file
    that is not there, a link to a heading that is not there, a path in a
    code span that is not there) must give exactly those three."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["git", "init", "-q", tmp], check=True)
        for md in tracked_markdown(root):
            os.makedirs(os.path.join(tmp, os.path.dirname(md)), exist_ok=True)
            shutil.copy(os.path.join(root, md), os.path.join(tmp, md))
        with open(os.path.join(tmp, "docs", "README.md"), "a",
                  encoding="utf-8") as f:
            f.write("\n[a](nowhere.md) [b](sweeps.md#no-such-heading)"
                    " `experiments/no_such_file.c`\n")
        subprocess.run(["git", "-C", tmp, "add", "-A"], check=True)
        faults, _, _ = check(tmp)
    planted = [f for f in faults if f.startswith("docs/README.md:")
               and ("nowhere.md" in f or "no-such-heading" in f
                    or "no_such_file" in f)]
    if len(planted) == 3:
        print("links self-check: the 3 planted faults found")
        return 0
    for fault in planted:
        print("links self-check found: " + fault)
    print("links self-check: wanted the 3 planted faults")
    return 1


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    if self_check(root):
        return 1
    faults, links, paths = check(root)
    for fault in faults:
        print("links: " + fault)
    print("links: %d links and %d paths checked, %d faults"
          % (links, paths, len(faults)))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
