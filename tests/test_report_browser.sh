#!/usr/bin/env bash
# test_report_browser.sh -- the report page in a real browser (Debian's
# chromium, headless; skipped, saying so, where it is missing): it loads
# with no console message, its DOM after the page's script holds every
# cell and variant with the JSON report's numbers and every rated agent
# with the ratings JSON's (tests/html_check.py),
# clicks on a heading sort the table, and its screenshot is not blank.
# Usage: test_report_browser.sh PATH/TO/rulelab
set -u
bin=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=tests/sh_helpers.sh
. "$here/sh_helpers.sh"
if ! command -v chromium >/dev/null; then
    echo "skip: chromium is not installed (apt-get install chromium);"
    echo "scripts/test.sh installs it"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
browser() {
    # root needs --no-sandbox; a profile of its own, no first-run work
    HOME="$dir" timeout 120 chromium --headless --no-sandbox --disable-gpu \
        --disable-dev-shm-usage \
        --no-first-run --user-data-dir="$dir/profile" "$@"
}

cp "$here/fixtures/report_page.ini" "$dir/s.ini" # the shared sweep
if ! "$bin" run "$dir/s.ini" --db "$dir/s.db" --threads 2 --quiet \
        || ! "$bin" report "$dir/s.db" --format html --out "$dir/s.html" \
        || ! "$bin" report "$dir/s.db" --format json > "$dir/s.json" \
        || ! "$bin" ratings "$dir/s.db" --format json > "$dir/s.ratings.json"; then
    bad "the sweep or its report did not run"
    finish
    exit 1
fi

browser --enable-logging=stderr --v=0 --dump-dom "file://$dir/s.html" \
    > "$dir/dom.html" 2> "$dir/console.txt"
if ! grep -q '</html>' "$dir/dom.html"; then
    bad "the browser gave no DOM:"; sed 's/^/    /' "$dir/console.txt" | tail -5
elif grep -q 'CONSOLE' "$dir/console.txt"; then
    bad "the page logged to the console:"
    grep 'CONSOLE' "$dir/console.txt" | sed 's/^/    /' | head -5
else
    ok "the page loads with no console message"
fi
if /usr/bin/python3 "$here/html_check.py" "$dir/dom.html" "$dir/s.json" \
        "$dir/s.ratings.json" > "$dir/check.out"; then
    ok "the DOM holds the JSON report's numbers: $(tail -1 "$dir/check.out")"
else
    bad "the DOM's numbers"; sed 's/^/    /' "$dir/check.out" | head -10
fi

# two clicks on the cells table's "mean plies" heading sort its rows by
# it, the second one descending (the page as printed is not in that order)
sed 's#</body>#<script>var h = document.querySelector("\#cells th:nth-child(8)"); h.click(); h.click();</script>\n</body>#' \
    "$dir/s.html" > "$dir/click.html"
browser --dump-dom "file://$dir/click.html" > "$dir/clicked.html" 2>/dev/null
if /usr/bin/python3 - "$dir/s.html" "$dir/clicked.html" <<'PY'
import html.parser, sys
class Column(html.parser.HTMLParser):
    """The data-v of the 8th cell of each row of the cells table."""
    def __init__(self):
        super().__init__(); self.table = None; self.col = 0; self.values = []
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "table": self.table = a.get("id")
        if tag == "tr": self.col = 0
        if tag == "td" and self.table == "cells":
            self.col += 1
            if self.col == 8: self.values.append(float(a["data-v"]))
def column(path):
    p = Column(); p.feed(open(path, encoding="utf-8").read()); return p.values
before, after = column(sys.argv[1]), column(sys.argv[2])
print("mean plies before:", before, "after two clicks:", after)
descending = sorted(before, reverse=True)
sys.exit(0 if after == descending and before != descending else 1)
PY
then ok "two clicks on a heading sort the table, descending"
else bad "the clicks did not sort the cells by mean plies"; fi

browser --screenshot="$dir/shot.png" --window-size=1000,800 \
    "file://$dir/s.html" >/dev/null 2>&1
if /usr/bin/python3 - "$dir/shot.png" <<'PY'
import sys
import matplotlib.image
img = matplotlib.image.imread(sys.argv[1])[:, :, :3]
dark = (img.mean(axis=2) < 0.5).mean()
print("screenshot: %dx%d, %.1f%% dark pixels" % (img.shape[1], img.shape[0],
                                                 100 * dark))
sys.exit(0 if 0.005 < dark < 0.5 else 1)
PY
then ok "the screenshot is not blank"
else bad "the screenshot is blank or unreadable"; fi

finish
