#!/usr/bin/env bash
# test_report_html.sh -- `rulelab report --format html`: one self-contained
# page whose numbers are the JSON report's and the ratings JSON's, with
# --metrics the game metrics too (tests/html_check.py parses its tables),
# that validates (Debian's tidy: no errors and no warnings; the
# check is skipped, saying so, where tidy is missing), that fetches
# nothing, and that renders hostile names as text, an empty database and
# a one-game database too.
# Usage: test_report_html.sh PATH/TO/rulelab
set -u
bin=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=tests/sh_helpers.sh
. "$here/sh_helpers.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cp "$here/fixtures/report_page.ini" "$dir/s.ini" # the shared sweep
"$bin" run "$dir/s.ini" --db "$dir/s.db" --threads 2 --quiet \
    || bad "the sweep did not run"

# page: validated by tidy (no error, no warning) where tidy is installed
valid() {
    if ! command -v tidy >/dev/null; then
        echo "skip $1: tidy is not installed (apt-get install tidy)"
    elif tidy -q -e "$2" >"$dir/tidy.out" 2>&1; then
        ok "$1"
    else
        bad "$1: tidy says"; sed 's/^/    /' "$dir/tidy.out" | head -10
    fi
}

check "html page" 0 "<!DOCTYPE html>" \
    -- "$bin" report "$dir/s.db" --format html
"$bin" report "$dir/s.db" --format html > "$dir/s.html"
"$bin" report "$dir/s.db" --format json > "$dir/s.json"
"$bin" ratings "$dir/s.db" --format json > "$dir/s.ratings.json"
valid "the page validates" "$dir/s.html"
if /usr/bin/python3 "$here/html_check.py" "$dir/s.html" "$dir/s.json" \
        "$dir/s.ratings.json" > "$dir/check.out"; then
    ok "the page's numbers are the JSON report's: $(tail -1 "$dir/check.out")"
else
    bad "the page's numbers"; sed 's/^/    /' "$dir/check.out" | head -10
fi
# self-contained: nothing is fetched (no src=, no href=, no url(), no
# http:// or https:// but the SVG namespace)
if grep -qE 'src=|href=|url\(|https?://' \
        <(sed 's#xmlns="http://www.w3.org/2000/svg"##' "$dir/s.html"); then
    bad "the page refers to something outside itself"
else
    ok "the page refers to nothing outside itself"
fi
"$bin" report "$dir/s.db" --format html --skill-trace > "$dir/sk.html"
"$bin" report "$dir/s.db" --format json --skill-trace > "$dir/sk.json"
valid "the skill-trace page validates" "$dir/sk.html"
if /usr/bin/python3 "$here/html_check.py" "$dir/sk.html" "$dir/sk.json" \
        > "$dir/check.out"; then
    ok "the skill trace's verdicts are the JSON's: $(tail -1 "$dir/check.out")"
else
    bad "the skill trace's verdicts"; sed 's/^/    /' "$dir/check.out" | head
fi
"$bin" report "$dir/s.db" --format html --metrics > "$dir/m.html"
valid "the page with --metrics validates" "$dir/m.html"
if /usr/bin/python3 "$here/html_check.py" "$dir/m.html" "$dir/s.json" \
        > "$dir/check.out" && grep -q 'id="metrics"' "$dir/m.html"; then
    ok "the game metrics are the JSON's: $(tail -1 "$dir/check.out")"
else
    bad "the game metrics"; sed 's/^/    /' "$dir/check.out" | head
fi
check "a figure with its numbers in words" 0 "<desc>" \
    -- cat "$dir/s.html"

# --out: the same page, written whole; never onto the database or another
"$bin" report "$dir/s.db" --format html --out "$dir/out.html"
if cmp -s "$dir/out.html" "$dir/s.html"; then ok "--out writes the same page"
else bad "--out wrote another page"; fi
check "--out onto the database refused" 1 "is the same file as the input" \
    -- "$bin" report "$dir/s.db" --format html --out "$dir/s.db"
cp "$dir/s.db" "$dir/other.db"
check "--out onto another database refused" 1 "is a database" \
    -- "$bin" report "$dir/s.db" --out "$dir/other.db"
if cmp -s "$dir/s.db" "$dir/other.db"; then ok "the other database is untouched"
else bad "the other database changed"; fi

# run --html: the page is whole at every moment the run rewrites it (read
# in a loop while it plays: a complete, valid page each time), and the
# last one is what `report --format html` prints
sed 's/^games = 20$/games = 150/; s/^name = html_check$/name = html_live/' \
    "$dir/s.ini" > "$dir/live.ini"
"$bin" run "$dir/live.ini" --db "$dir/live.db" --threads 2 --quiet \
    --html "$dir/live.html" --html-every 1 &
runner=$!
reads=0 broken=0
while kill -0 "$runner" 2>/dev/null; do
    if cp "$dir/live.html" "$dir/read.html" 2>/dev/null; then
        reads=$((reads + 1))
        if ! head -1 "$dir/read.html" | grep -q '^<!DOCTYPE html>$' \
                || ! tail -1 "$dir/read.html" | grep -q '^</html>$' \
                || { command -v tidy >/dev/null \
                     && ! tidy -q -e "$dir/read.html" >/dev/null 2>&1; }; then
            broken=$((broken + 1))
        fi
    fi
    sleep 0.2
done
wait "$runner"
if [ "$reads" -gt 0 ] && [ "$broken" -eq 0 ]; then
    ok "the live page was whole at each of $reads reads"
else
    bad "the live page: $broken of $reads reads were not a whole page"
fi
"$bin" report "$dir/live.db" --format html > "$dir/live_report.html"
if cmp -s "$dir/live.html" "$dir/live_report.html"; then
    ok "the last live page is report --format html"
else
    bad "the last live page differs from report --format html"
    diff "$dir/live.html" "$dir/live_report.html" | head -10
fi
check "--html-every without --html refused" 2 "--html-every goes with --html" \
    -- "$bin" run "$dir/live.ini" --db "$dir/x.db" --html-every 5
check "--html with --dry-run refused" 2 "--html needs a path" \
    -- "$bin" run "$dir/live.ini" --dry-run --html "$dir/x.html"
check "--html onto the database refused" 1 "the same file as the input" \
    -- "$bin" run "$dir/live.ini" --db "$dir/live.db" --html "$dir/live.db"

# hostile names, written into the database by hand: text, never markup
cp "$dir/s.db" "$dir/h.db"
sqlite3 "$dir/h.db" "UPDATE cells SET agent0_name = '<script>alert(1)</script>',
    agent1_name = 'q\"uo''te & <b>é</b>'"
"$bin" report "$dir/h.db" --format html > "$dir/h.html"
if grep -q '<script>alert' "$dir/h.html" || grep -q '<b>é' "$dir/h.html"; then
    bad "a hostile name came out as markup"
else
    ok "hostile names are escaped"
fi
check "the escaped name is there" 0 "&lt;script&gt;alert(1)&lt;/script&gt;" \
    -- cat "$dir/h.html"
valid "the hostile page validates" "$dir/h.html"

# an empty database and a one-game one
cp "$dir/s.db" "$dir/e.db"
sqlite3 "$dir/e.db" "DELETE FROM games"
"$bin" report "$dir/e.db" --format html > "$dir/e.html" 2>/dev/null
check "an empty database renders" 0 "0 games in 0 cells of 0 variants" -- cat "$dir/e.html"
valid "the empty page validates" "$dir/e.html"
cp "$dir/s.db" "$dir/o.db"
sqlite3 "$dir/o.db" "DELETE FROM games WHERE id > 1"
"$bin" report "$dir/o.db" --format html > "$dir/o.html"
check "a one-game database renders" 0 "1 game in 1 cell of 1 variant" -- cat "$dir/o.html"
valid "the one-game page validates" "$dir/o.html"

finish
