#!/usr/bin/python3
"""test_help_docs.py -- `--help` and the user guide agree.

The guide's index (docs/README.md) names, per page, the commands that page
documents. For every command that `rulelab --help` lists:
  - the index names a page for it;
  - every option its `--help` gives as its own (in its usage lines or
    heading a line of its option list) is written on one of its pages,
    in a code span (`--option` or `--option VALUE`);
and for every page, each option that a row of one of its option tables
names (a table row starting with a code span of options, "| `--x`") is an
option of one of the page's commands: the guide documents no option that
the program no longer has.

Usage: test_help_docs.py RULELAB [ROOT]
Prints one line per fault and a summary; exits 1 on a fault.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
CODE_SPAN = re.compile(r"`([^`]+)`")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def help_text(rulelab, args):
    run = subprocess.run([rulelab] + args + ["--help"], capture_output=True,
                         text=True, check=False)
    return run.stdout + run.stderr


def commands(rulelab):
    """The commands `rulelab --help` lists, in its order."""
    found, listing = [], False
    for line in help_text(rulelab, []).splitlines():
        if line.strip() == "commands:":
            listing = True
        elif listing and re.match(r"^  [a-z]+ ", line):
            found.append(line.split()[0])
        elif listing and found and not line.strip():
            break
    return found


def help_options(text):
    """The options a command's help gives as its own: those of its usage
    lines (up to the first blank line) and those that start a line of its
    option list; not the options of other commands its prose mentions."""
    usage, rest = (text.split("\n\n", 1) + [""])[:2]
    options = set(OPTION.findall(usage))
    for line in rest.splitlines():
        listed = re.match(r"^ {2,}(--[a-z][a-z0-9-]*)", line)
        if listed:
            options.add(listed.group(1))
    options.discard("--help")
    return options


def pages_of(root):
    """{command: [page, ...]} from the index's commands column."""
    owners = {}
    with open(os.path.join(root, "docs", "README.md"), encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.split("|")]
            if len(cells) < 5:
                continue
            page = re.search(r"\(([a-z_-]+\.md)\)", cells[1])
            if not page:
                continue
            for span in CODE_SPAN.findall(cells[3]):
                owners.setdefault(span.split()[0], []).append(page.group(1))
    return owners


def page_options(path):
    """(options in any code span, a span may run over a line end;
    options that head an option-table row)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    prose = FENCE.sub("", text)  # an example command documents nothing
    anywhere = set()
    for span in CODE_SPAN.findall(prose):
        anywhere.update(OPTION.findall(span))
    table_rows = set()
    for line in text.splitlines():
        row = re.match(r"^\| *`(--[^|]*)\|", line)
        if row:
            table_rows.update(OPTION.findall(row.group(1)))
    return anywhere, table_rows


def check(rulelab, root):
    """The faults of the guide at root against rulelab's help, and the
    numbers of commands and options compared."""
    faults = []
    owners = pages_of(root)
    cmds = commands(rulelab)
    if len(cmds) < 10:
        faults.append("rulelab --help lists %d commands: %s"
                      % (len(cmds), " ".join(cmds)))
    documented = {}  # page -> options of the commands it documents
    n_options = 0
    for cmd in cmds:
        pages = owners.get(cmd)
        if not pages:
            faults.append("%s: no page of docs/README.md's index documents it"
                          % cmd)
            continue
        options = help_options(help_text(rulelab, [cmd]))
        n_options += len(options)
        written = set()
        for page in pages:
            anywhere, _ = page_options(os.path.join(root, "docs", page))
            written |= anywhere
            documented.setdefault(page, set()).update(options)
        for option in sorted(options - written):
            faults.append("%s %s: in --help, on none of its pages (%s)"
                          % (cmd, option, ", ".join(pages)))
    for page, options in sorted(documented.items()):
        _, table_rows = page_options(os.path.join(root, "docs", page))
        for option in sorted(table_rows - options - {"--help"}):
            faults.append("docs/%s: its option table has %s, which none of"
                          " its commands' --help lists" % (page, option))
    return faults, len(cmds), n_options


def self_check(rulelab, root):
    """On a copy of docs/ with two faults put in (the index no longer
    names tune's page; sweeps.md's option table gains an option no
    command has), check() must find those two and no other. 0 or 1."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(root, "docs"), os.path.join(tmp, "docs"))
        index = os.path.join(tmp, "docs", "README.md")
        with open(index, encoding="utf-8") as f:
            text = f.read()
        with open(index, "w", encoding="utf-8") as f:
            f.write(text.replace(", `tune` |", " |"))
        with open(os.path.join(tmp, "docs", "sweeps.md"), "a",
                  encoding="utf-8") as f:
            f.write("\n| `--no-such-option N` | planted |\n")
        faults, _, _ = check(rulelab, tmp)
    want = ["tune: no page", "has --no-such-option"]
    found = [w for w in want if any(w in fault for fault in faults)]
    if len(found) == len(want) and len(faults) == len(want):
        print("help/docs self-check: the %d planted faults found" % len(want))
        return 0
    for fault in faults:
        print("help/docs self-check found: " + fault)
    print("help/docs self-check: wanted exactly: " + "; ".join(want))
    return 1


def main():
    rulelab = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    if self_check(rulelab, root):
        return 1
    faults, n_cmds, n_options = check(rulelab, root)
    for fault in faults:
        print("help/docs: " + fault)
    print("help/docs: %d commands, %d options compared, %d faults"
          % (n_cmds, n_options, len(faults)))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
