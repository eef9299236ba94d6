#!/usr/bin/env bash
# test_claim.sh -- end-to-end tests of `rulelab claim` against the database:
#  - every answer is stored as it is found: a claim interrupted after its
#    first answers (by the test hook RULELAB_CLAIM_STOP_AFTER, and by a real
#    SIGINT) keeps them, says how to resume and exits 1; running the same
#    command again skips them, says so, and ends with exactly the rows of an
#    uninterrupted claim (all but the timing columns), none twice;
#  - an answer the database refuses stops the claim without losing the
#    answers stored before it, and a resume completes it;
#  - --positions K takes the first K games' positions, so it is idempotent;
#  - a small kill campaign (scripts/kill_claim.sh, 3 SIGKILLs at moments
#    drawn with a fixed seed): 0 answers lost, duplicated or changed.
# Usage: test_claim.sh PATH/TO/rulelab
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=tests/sh_helpers.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sh_helpers.sh"

# 12 random Serbest games: every game has a claim position (its first
# position, the empty board with both kings in hand, is one), so a full
# claim answers exactly 12 positions, one per game.
cat >"$dir/s.ini" <<'INI'
[sweep]
name = claim_test
seed = 5
games = 12
[game serbest]
kings_landing = 9
max_plies = 200
[agents]
rnd = random
[matchups]
pairs = rnd vs rnd
INI
games=12
"$bin" run "$dir/s.ini" --db "$dir/base.db" --threads 1 --quiet \
    || { echo "FAIL the sweep for the claims did not run"; exit 1; }
claim() { # claim DB [more options]: the claim every run here makes
    local db=$1
    shift
    "$bin" claim "$db" --plies 3 --nodes 2000 --mb 1 --sweep claim_test "$@"
}
rows() { # every column but id and the timing ones, in a fixed order
    sqlite3 "$1" "SELECT game_id, ply, variant, position, question, plies,
        node_budget, answer, nodes, pv, certificate_sha256, certificate, proof
        FROM claims ORDER BY game_id, ply"
}
count() { sqlite3 "$1" "SELECT COUNT(*) FROM claims" 2>/dev/null || echo 0; }
fresh() { cp "$dir/base.db" "$dir/$1.db"; }

fresh full
out=$(claim "$dir/full.db" --threads 2 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$(count "$dir/full.db")" -eq $games ] \
        && grep -q "^$games positions solved" <<<"$out"; then
    ok "uninterrupted claim: $games answers"
else bad "uninterrupted claim: rc=$rc, $(count "$dir/full.db") rows: $out"; fi
full=$(rows "$dir/full.db")
wins=$(sqlite3 "$dir/full.db" "SELECT COUNT(*) FROM claims WHERE answer = 'win'
    AND certificate IS NOT NULL")
[ "$wins" -ge 1 ] && ok "the answers include a win with its proof ($wins)" \
    || bad "no win among the answers: the row comparison checks no proof"
# Both answers keep a certificate: certificate_sha256 the hex, certificate
# the file beside the database (certificates/<hex>.proof or .disproof), its
# bytes hashing to the hex, `rulelab verify` accepting it, and `proof`
# (the first claims' proof text) empty.
nowins=$(sqlite3 "$dir/full.db" "SELECT COUNT(*) FROM claims WHERE answer = 'no_win'")
certs_ok=0
certs_bad=""
while IFS='|' read -r answer hex loc proof; do
    ext=$([ "$answer" = win ] && echo proof || echo disproof)
    if [ "$loc" = "certificates/$hex.$ext" ] && [ -f "$dir/$loc" ] \
            && [ "$(sha256sum "$dir/$loc" | cut -d' ' -f1)" = "$hex" ] \
            && [ "$proof" = none ] \
            && "$bin" verify "$dir/$loc" >/dev/null 2>&1; then
        certs_ok=$((certs_ok + 1))
    else certs_bad="$certs_bad [$answer $hex $loc $proof]"; fi
done < <(sqlite3 "$dir/full.db" "SELECT answer, certificate_sha256, certificate,
    IFNULL(proof, 'none') FROM claims WHERE answer != 'unknown'")
if [ "$nowins" -ge 1 ] && [ -z "$certs_bad" ] && [ "$certs_ok" -ge $((wins + nowins)) ]; then
    ok "every win and no win ($wins + $nowins) names a certificate that hashes right and verifies"
else bad "certificates: $nowins no-wins, $certs_ok good, bad:$certs_bad"; fi

# Resumed after an interruption: same rows, none twice, the skip said.
resumed_equal() { # resumed_equal NAME DB
    local out rc
    out=$(claim "$2" --threads 2 2>&1)
    rc=$?
    local before=$3
    if [ $rc -eq 0 ] && grep -q "; $before already stored" <<<"$out" \
            && [ "$(rows "$2")" = "$full" ] && [ "$(count "$2")" -eq $games ]; then
        ok "$1: the resume skips the $before stored answers and ends with the same rows"
    else
        bad "$1: resume rc=$rc, $(count "$2") rows (want $games): $out"
    fi
}

# The hook: stop as if Ctrl-C came right after the 3rd stored answer (one
# thread, so exactly 3 are stored). The file name has a space, which the
# resume command quotes.
mkdir "$dir/a b"
cp "$dir/base.db" "$dir/a b/hook.db"
out=$(RULELAB_CLAIM_STOP_AFTER=3 claim "$dir/a b/hook.db" --threads 1 2>&1)
rc=$?
n=$(count "$dir/a b/hook.db")
if [ $rc -eq 1 ] && [ "$n" -eq 3 ] && grep -q "^interrupted: the 3 answers" <<<"$out" \
        && grep -qF "rulelab claim '$dir/a b/hook.db' --plies 3 --nodes 2000 --mb 1 --sweep claim_test --threads 1" <<<"$out"; then
    ok "interrupted after 3 answers: 3 kept, exit 1, the resume command given"
else bad "interrupted claim: rc=$rc, $n rows: $out"; fi
[ "$(sqlite3 "$dir/a b/hook.db" "PRAGMA integrity_check")" = ok ] \
    && ok "integrity_check after the interruption" || bad "integrity_check"
resumed_equal "hook" "$dir/a b/hook.db" 3

# Two threads: the answer in flight when the stop comes is still stored.
fresh hook2
RULELAB_CLAIM_STOP_AFTER=2 claim "$dir/hook2.db" --threads 2 >/dev/null 2>&1
n=$(count "$dir/hook2.db")
if [ "$n" -ge 2 ] && [ "$n" -lt $games ]; then
    ok "two threads stopped after 2 answers keep $n"
else bad "two threads stopped after 2 answers keep $n"; fi
resumed_equal "two threads" "$dir/hook2.db" "$n"

# A real SIGINT once the first answer is committed. If the claim has
# already ended by then (a very slow poll), the rows are still checked.
fresh sig
"$bin" claim "$dir/sig.db" --plies 3 --nodes 2000 --mb 1 --sweep claim_test \
    --threads 1 >"$dir/sig.out" 2>&1 & # not through claim(): $! is rulelab
pid=$!
for _ in $(seq 1 600); do
    [ "$(count "$dir/sig.db")" -ge 1 ] && break
    sleep 0.05
done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
n=$(count "$dir/sig.db")
if [ $rc -eq 1 ] && grep -q "^interrupted: the $n answers found are saved" "$dir/sig.out"; then
    ok "SIGINT: stopped after the position in flight, $n answers kept, exit 1"
elif [ $rc -eq 0 ] && [ "$n" -eq $games ]; then
    ok "SIGINT came after the end (rc 0, all answers): nothing to check there"
else bad "SIGINT: rc=$rc, $n rows: $(cat "$dir/sig.out")"; fi
resumed_equal "SIGINT" "$dir/sig.db" "$n"

# The database refuses the 5th answer (as a full disk would): the first 4
# stay, the claim says what failed and exits 1; the resume completes it.
fresh refuse
sqlite3 "$dir/refuse.db" "CREATE TRIGGER refuse BEFORE INSERT ON claims
    WHEN (SELECT COUNT(*) FROM claims) >= 4
    BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
out=$(claim "$dir/refuse.db" --threads 1 2>&1)
rc=$?
n=$(count "$dir/refuse.db")
if [ $rc -eq 1 ] && [ "$n" -eq 4 ] && grep -q "refused by the test" <<<"$out" \
        && grep -q "To resume" <<<"$out"; then
    ok "a refused answer stops the claim, the 4 before it are kept"
else bad "refused answer: rc=$rc, $n rows: $out"; fi
sqlite3 "$dir/refuse.db" "DROP TRIGGER refuse"
resumed_equal "refused" "$dir/refuse.db" 4

# --positions 5: the first 5 games' positions; again: nothing new.
fresh five
claim "$dir/five.db" --threads 2 --positions 5 >/dev/null 2>&1
out=$(claim "$dir/five.db" --threads 2 --positions 5 2>&1)
first5=$(head -n 5 <<<"$full")
if [ "$(rows "$dir/five.db")" = "$first5" ] \
        && grep -q "^0 positions solved.*; 5 already stored" <<<"$out"; then
    ok "--positions 5 twice: the first 5 games' answers, once"
else bad "--positions 5 twice: $(count "$dir/five.db") rows: $out"; fi

out=$("$(dirname "$0")/../scripts/kill_claim.sh" 3 7 "$bin" 6 2>&1)
if [ $? -eq 0 ]; then
    ok "kill campaign:$(head -n 1 <<<"$out" | cut -d: -f2 | cut -d, -f1);$(tail -n 1 <<<"$out" | cut -d: -f2-)"
else bad "kill campaign: $out"; fi

finish
