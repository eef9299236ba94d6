#!/usr/bin/env bash
# test_data_safety.sh -- no command destroys or silently changes a file,
# whatever the user types. Each mistake below was once possible: the
# command must now refuse it (or do the right thing), and every file it
# refused must be byte for byte as it was (sha256 of the file and of its
# -wal where there is one, before and after).
# Usage: test_data_safety.sh PATH/TO/rulelab
set -u
bin=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=tests/sh_helpers.sh
. "$here/sh_helpers.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

# the bytes of a file and of its write-ahead log, as one line
sums() { sha256sum "$@" 2>/dev/null | cut -c1-64 | tr '\n' ' '
         for f in "$@"; do [ -s "$f-wal" ] && sha256sum "$f-wal" | cut -c1-64; done; }
# unchanged NAME FILE BEFORE: passes when FILE's sums equal BEFORE
unchanged() {
    if [ "$(sums "$2")" = "$3" ]; then ok "$1: $2 unchanged"
    else bad "$1: $2 changed"; fi
}
games() { sqlite3 "$1" "SELECT COUNT(*) FROM games"; }

cat >s.ini <<'EOF'
[sweep]
name = safety
seed = 5
games = 30
[game tafl]
[agents]
r = random
[matchups]
pairs = r vs r
EOF
"$bin" run s.ini --db ex.db --quiet --threads 2 || bad "setup run"
"$bin" run s.ini --db ex.db --quiet >/dev/null 2>&1 # folds nothing new in
sqlite3 ex.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
[ "$(games ex.db)" -eq 30 ] && ok "setup: 30 games" || bad "setup: $(games ex.db) games"

# 1. export --out onto its own database, another name of it, another db
before=$(sums ex.db)
check "export --out DB" 1 "is the same file as the input ex.db" \
    -- "$bin" export ex.db --csv --out ex.db
unchanged "export --out DB" ex.db "$before"
ln ex.db hard.db
check "export --out a hard link of DB" 1 "is the same file as the input" \
    -- "$bin" export ex.db --csv --out hard.db
ln -s ex.db soft.db
check "export --out a symbolic link of DB" 1 "is the same file as the input" \
    -- "$bin" export ex.db --csv --out soft.db
unchanged "export --out links" ex.db "$before"
cp ex.db other.db
other=$(sums other.db)
check "export --out another database" 1 "is a database" \
    -- "$bin" export ex.db --csv --out other.db
unchanged "export --out another database" other.db "$other"
check "export --out a new file" 0 "" -- "$bin" export ex.db --csv --out e.csv
[ "$(wc -l <e.csv)" -eq 31 ] && ok "export wrote a header and 30 rows" \
    || bad "export wrote $(wc -l <e.csv) lines"
check "export --out over its own CSV" 0 "" -- "$bin" export ex.db --csv --out e.csv
ls ./*.tmp-* >/dev/null 2>&1 && bad "export left a temporary" \
    || ok "export leaves no temporary"

# 2. run --snapshot onto another run's database, or a finished one
"$bin" run s.ini --shard 1/2 --db L1.db --quiet || bad "setup shard 1"
l1=$(sums L1.db)
check "snapshot onto another shard's database" 1 "is not a snapshot of this sweep" \
    -- "$bin" run s.ini --shard 0/2 --db L0.db --snapshot L1.db --quiet
unchanged "snapshot onto another shard's database" L1.db "$l1"
[ -e L0.db ] && bad "the refused run made L0.db" || ok "the refused run played nothing"
check "snapshot onto a finished database" 1 "so a copy would lose some" \
    -- "$bin" run s.ini --db ex2.db --snapshot other.db --quiet
unchanged "snapshot onto a finished database" other.db "$other"
echo "my notes" >notes.txt
check "snapshot onto a text file" 1 "is not a snapshot" \
    -- "$bin" run s.ini --db ex2.db --snapshot notes.txt --quiet
[ "$(cat notes.txt)" = "my notes" ] && ok "notes.txt kept" || bad "notes.txt lost"
check "snapshot of shard 0" 0 "" \
    -- "$bin" run s.ini --shard 0/2 --db L0.db --snapshot S0.db --quiet
check "the same snapshot refreshed (a requeued task)" 0 "" \
    -- "$bin" run s.ini --shard 0/2 --db L0.db --snapshot S0.db --quiet
check "--snapshot-replace says so" 0 "" \
    -- "$bin" run s.ini --shard 0/2 --db L0.db --snapshot notes.txt \
       --snapshot-replace --quiet
[ "$(games notes.txt)" -eq 15 ] && ok "--snapshot-replace wrote the copy" \
    || bad "--snapshot-replace: no copy"

# 3. merge --snapshot onto one of its inputs
cp L1.db s1x.db
s1x=$(sums s1x.db)
check "merge --snapshot onto an input" 1 "is the same file as the input s1x.db" \
    -- "$bin" merge o.db L0.db s1x.db --snapshot s1x.db
unchanged "merge --snapshot onto an input" s1x.db "$s1x"
[ -e o.db ] && bad "the refused merge made o.db" || ok "the refused merge made no OUT"

# 4. a foreign SQLite file is refused without being switched to WAL
sqlite3 foreign.db "CREATE TABLE t (x); INSERT INTO t VALUES (1)"
f=$(sums foreign.db)
check "run --db a foreign database" 1 "not a rulelab database" \
    -- "$bin" run s.ini --db foreign.db --quiet
check "merge into a foreign database" 1 "not a rulelab database" \
    -- "$bin" merge foreign.db ex.db
check "metrics on a foreign database" 1 "not a rulelab database" \
    -- "$bin" metrics foreign.db
check "claim on a foreign database" 1 "not a rulelab database" \
    -- "$bin" claim foreign.db --plies 3
unchanged "the foreign database, four commands later" foreign.db "$f"
[ "$(sqlite3 foreign.db 'PRAGMA journal_mode')" = delete ] \
    && ok "foreign.db still in rollback mode" || bad "foreign.db switched to WAL"

# 5. an agent spec with no budget at all
check "play ab(nodes=0,ms=0)" 1 "nodes=0 and ms=0 leave the search no budget" \
    -- timeout 20 "$bin" play tafl --agents "ab(nodes=0,ms=0),random"
sed 's/^r = random/r = ab(nodes=0,ms=0)/' s.ini >nob.ini
check "run with ab(nodes=0,ms=0)" 1 "nodes=0 and ms=0 leave the search no budget" \
    -- timeout 20 "$bin" run nob.ini --db nob.db --quiet

# 6. a human's line over the limit is refused whole, never split
long=$(printf 'x%.0s' $(seq 1 300))
out=$(printf '%se1e2\nquit\n' "$long" | "$bin" play tafl --agents human,random 2>&1)
if grep -q "longer than 255 characters" <<<"$out" && ! grep -q "1\. seat 0" <<<"$out"; then
    ok "an overlong human line is refused and nothing is played"
else bad "overlong human line: $(tail -3 <<<"$out")"; fi

# 7. corruption is noticed before writing
cp ex.db c.db
for p in 3 5; do
    printf '\x0d\xff\xff\xff\xff\xff\xff\xff' \
        | dd of=c.db bs=1 seek=$((16384 * (p - 1))) conv=notrunc 2>/dev/null
done
c=$(sums c.db)
check "merge into a damaged OUT" 1 "is damaged (SQLite's quick_check" \
    -- "$bin" merge c.db L0.db
check "migrate a damaged database" 1 "is damaged (SQLite's quick_check" \
    -- "$bin" migrate c.db
unchanged "the damaged database" c.db "$c"

# 8. merge reads an input in a read-only folder (as report does), and a
# run into one says what to do; as an unprivileged user, since root may
# write anywhere (skipped, saying so, where that user cannot run rulelab)
mkdir ro && cp ex.db ro/in.db && chmod 555 ro
as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null \
    && "${as[@]}" "$bin" list >/dev/null 2>&1; then
    chmod 777 .
    out=$("${as[@]}" "$bin" merge m.db ro/in.db 2>&1)
    if [ $? -eq 0 ] && [ "$(games m.db)" -eq 30 ]; then
        ok "merge reads an input in a read-only folder"
    else bad "merge from a read-only folder: $out"; fi
    ro=$(sums ro/in.db)
    out=$("${as[@]}" "$bin" run s.ini --db ro/in.db --quiet 2>&1)
    if [ $? -eq 1 ] && grep -q "cannot be written here" <<<"$out"; then
        ok "a run into a read-only folder says what to do"
    else bad "run into a read-only folder: $out"; fi
    unchanged "run into a read-only folder" ro/in.db "$ro"
else
    echo "skipped: the read-only folder checks (need root, setpriv and a"
    echo "rulelab that user 65534 can run)"
fi
chmod 755 ro

# 9. solve: an allocation it cannot have, a proof path it cannot write
# (under AddressSanitizer an allocation it cannot make must return NULL,
# as malloc does, rather than abort)
check "solve --mb too large" 1 "give a smaller --mb" \
    -- env ASAN_OPTIONS="${ASAN_OPTIONS:-}:allocator_may_return_null=1" \
       "$bin" solve serbest --plies 3 --mb 1000000
check "solve --proof in a missing folder" 1 "--proof /nonexistent/x cannot be written" \
    -- "$bin" solve serbest --plies 3 --proof /nonexistent/x
check "solve --proof over a database" 1 "is a database" \
    -- "$bin" solve serbest --plies 3 --proof other.db
unchanged "solve --proof over a database" other.db "$other"

# 10. an option given twice
check "run --db twice" 2 "option --db is given twice" \
    -- "$bin" run s.ini --db a.db --db b.db
[ -e a.db ] || [ -e b.db ] && bad "run --db twice made a database" \
    || ok "run --db twice made nothing"

# 11. side effects of failures
check "merge with a missing input" 1 "input none.db cannot be read" \
    -- "$bin" merge new.db ex.db none.db
[ -e new.db ] && bad "a failed merge left new.db" || ok "a failed merge leaves no OUT"
check "slurm --dir with a backslash" 1 "sbatch's --output cannot take" \
    -- "$bin" slurm s.ini --tasks 2 --dir 'a\b'
[ -e 'a\b' ] && bad "refused --dir was made" || ok "refused --dir not made"
sed 's/^games = 30/games = 30\nstop = sprt/' s.ini >sprt.ini
echo junk >bad.plan
check "slurm --plan that is no plan" 1 "not a shard plan" \
    -- "$bin" slurm sprt.ini --tasks 2 --dir pdir --plan bad.plan
[ -e pdir ] && bad "a bad --plan left its folder" || ok "a bad --plan makes no folder"
check "an unwritable --snapshot before any game" 1 "cannot be written" \
    -- "$bin" run s.ini --db u.db --snapshot /nonexistent/u.db --quiet
[ -e u.db ] && bad "the run played before refusing" || ok "nothing played"

# 12. messages that say what is wrong and what to do
sqlite3 ex.db "UPDATE meta SET value = '99' WHERE key = 'schema_version'" \
    && cp ex.db v99.db \
    && sqlite3 ex.db "UPDATE meta SET value = '7' WHERE key = 'schema_version'"
check "merge a newer database" 1 "newer than this rulelab" -- "$bin" merge m2.db v99.db
check "merge an empty file" 1 "not a rulelab results database" \
    -- sh -c ": >empty.db; '$bin' merge m3.db empty.db"
check "merge a damaged input: no SQL in the message" 1 "malformed" \
    -- "$bin" merge m4.db c.db
out=$("$bin" merge m4.db c.db 2>&1)
[ "${#out}" -lt 400 ] && ok "the damaged input's message is one short line" \
    || bad "damaged input message ${#out} characters"
check "an overlong --agents" 2 "a spec is longer than" \
    -- "$bin" play tafl --agents "random,$(printf 'a%.0s' $(seq 1 3000))"
check "claim --certificates unwritable" 1 "give --certificates a folder you can write" \
    -- "$bin" claim ex.db --plies 3 --certificates /nonexistent/c
check "tactics from another folder finds the set" 0 "win5" \
    -- "$bin" tactics --agents random --games tafl --limit 1 --quiet

# 13. hand-edited values in exports and tables
sqlite3 ex.db "UPDATE cells SET agent0_name = '=HYPERLINK(\"x\")' WHERE id = 1;
               UPDATE cells SET agent1_name = 'r|x' || char(10) || 'y' WHERE id = 1"
"$bin" export ex.db --csv --out f.csv
row=$(sed -n 2p f.csv)
grep -qF ",\"'=HYPERLINK(\"\"x\"\")\"," <<<"$row" \
    && ok "a formula-like name is quoted and neutralised" || bad "formula: $row"
grep -qE '^1,"safety",5,"tafl",' f.csv \
    && ok "numbers stay numbers, text is quoted" || bad "csv row: $row"
"$bin" report ex.db --format markdown >r.md
grep -qF 'r\|x y' r.md && ok "a | and a newline in a name keep the Markdown row" \
    || bad "markdown: $(grep -n 'r|' r.md | head -2)"
sqlite3 ex.db "UPDATE games SET moves = CAST('a' || char(0) || 'b' AS TEXT) WHERE id = 2"
check "a NUL byte in a text is refused" 1 "holds a NUL byte" \
    -- "$bin" export ex.db --csv --out g.csv
[ -e g.csv ] && bad "a refused export left g.csv" || ok "a refused export leaves no file"

# a damaged move list: a stored move that parses but is not legal there
# (the King onto its own man) is refused naming the game, never applied
cp L1.db dm.db
sqlite3 dm.db "UPDATE games SET moves = 'e5e4 ' || moves WHERE id = 2"
check "metrics on an illegal stored move" 1 "does not replay: move 1 'e5e4' is not legal there" \
    -- "$bin" metrics dm.db
[ "$(sqlite3 dm.db 'SELECT COUNT(*) FROM game_metrics')" -eq 0 ] \
    && ok "nothing cached from the damaged database" || bad "metrics cached rows"

finish
