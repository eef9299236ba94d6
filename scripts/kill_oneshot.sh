#!/usr/bin/env bash
# kill_oneshot.sh -- the crash test of the one-shot outputs (export --out,
# a new merge OUT, merge --snapshot, run --snapshot): each is written
# beside its path and renamed into place, so whatever happens the path
# holds the old file or the whole new one, never part of one.
#   1. KILLS times: one of the four commands is SIGKILLed at a seeded
#      moment; the path must then hold nothing, the old file or a whole
#      new one (a CSV with every row, a database that passes
#      integrity_check with every game), and the same command run again
#      must finish and leave no temporary beside the path (the killed
#      one's is removed as stale).
#   2. A full disk: in a small tmpfs (a mount namespace of its own) that
#      holds the old output but not a second copy, export --out and run
#      --snapshot must fail saying so, leave the old file byte for byte,
#      and leave no temporary. Skipped, saying so, where tmpfs cannot be
#      mounted (not root, or no unshare).
# Exits 0 when every check holds; prints the figures.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: scripts/kill_oneshot.sh [-n KILLS] [-s SEED] [-b RULELAB]

KILLS (default 40) SIGKILLs of the one-shot outputs at moments drawn from
SEED (default 1), then the full-disk checks. RULELAB defaults to
build/rulelab. Needs sqlite3; the full-disk part needs root (unshare and
mount -t tmpfs).
EOF
}

kills=40
seed=1
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/rulelab
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        -n) kills=${2:?-n needs a number}; shift ;;
        -s) seed=${2:?-s needs a number}; shift ;;
        -b) bin=${2:?-b needs a path}; shift ;;
        *) usage >&2; exit 2 ;;
    esac
    shift
done
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

cat >k.ini <<'EOF'
[sweep]
name = oneshot
seed = 9
games = 1500
[game tafl]
[game jetan]
[agents]
r = random
[matchups]
pairs = r vs r
EOF
"$bin" run k.ini --db all.db --quiet --threads 2
"$bin" run k.ini --db s0.db --shard 0/2 --quiet --threads 2
"$bin" run k.ini --db s1.db --shard 1/2 --quiet --threads 2
total=$(sqlite3 all.db "SELECT COUNT(*) FROM games")
echo "setup: $total games (and two shards)"

# whole OUT: the output at path is absent or whole (what kind it is)
whole() {
    local kind=$1 path=$2
    [ -e "$path" ] || return 0
    case $kind in
        csv) [ "$(wc -l <"$path")" -eq $((total + 1)) ] ;;
        db) [ "$(sqlite3 "$path" 'PRAGMA integrity_check')" = ok ] \
                && [ "$(sqlite3 "$path" 'SELECT COUNT(*) FROM games')" -eq "$total" ] ;;
        shard) [ "$(sqlite3 "$path" 'PRAGMA integrity_check')" = ok ] ;;
    esac
}
# the command of one-shot output k (0-3) and its path and kind
command_of() {
    case $1 in
        0) echo "csv out.csv export all.db --csv --out out.csv" ;;
        1) echo "db merged.db merge merged.db s0.db s1.db --quiet" ;;
        2) echo "db msnap.db merge m.db s0.db s1.db --quiet --snapshot msnap.db" ;;
        3) echo "shard rsnap.db run k.ini --db all.db --quiet --snapshot rsnap.db" ;;
    esac
}
# the temporaries left beside path
temporaries() { find . -maxdepth 1 -name "$1.tmp-*" | wc -l; }

RANDOM=$seed
landed=0
for i in $(seq 1 "$kills"); do
    k=$((RANDOM % 4))
    read -r kind path args <<<"$(command_of $k)"
    [ $k -eq 1 ] && rm -f merged.db          # a new OUT each time
    delay=$(printf '0.%03d' $((RANDOM % 120)))
    # shellcheck disable=SC2086
    "$bin" $args >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    if kill -9 "$pid" 2>/dev/null; then landed=$((landed + 1)); fi
    wait "$pid" 2>/dev/null || true
    whole "$kind" "$path" || fail "kill $i: $path is part of a file after SIGKILL ($args)"
    # shellcheck disable=SC2086
    "$bin" $args >/dev/null 2>&1 || fail "kill $i: $args failed when run again"
    [ -e "$path" ] && whole "$kind" "$path" || fail "kill $i: $path not whole after the rerun"
    [ "$(temporaries "$path")" -eq 0 ] \
        || fail "kill $i: a temporary is left: $(ls ./"$path".tmp-*)"
done
echo "kills: $kills, $landed while the command ran; every output whole or absent,"
echo "no temporary of it left after each rerun"

# The full-disk part runs in a mount namespace with a tmpfs of `size`.
full_disk() {
    local name=$1 size=$2 setup=$3 cmd=$4 target=$5
    unshare -m bash -c "
        set -u
        mkdir -p disk && mount -t tmpfs -o size=$size tmpfs disk || exit 77
        $setup
        before=\$(sha256sum $target)
        $cmd >out.txt 2>&1 && { echo 'FAIL $name: succeeded on a full disk'; exit 1; }
        grep -Eq 'No space left on device|disk is full' out.txt \
            || { echo 'FAIL $name: no word of the full disk:'; cat out.txt; exit 1; }
        [ \"\$(sha256sum $target)\" = \"\$before\" ] \
            || { echo 'FAIL $name: the old file changed'; exit 1; }
        [ -z \"\$(find disk -name '*.tmp-*')\" ] \
            || { echo 'FAIL $name: a temporary is left'; exit 1; }
        echo 'ok   $name: refused on a full disk, the old file kept, no temporary'
    "
}
if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
    echo "full disk: skipped (needs root and unshare for a tmpfs)"
else
    csv_kb=$(( $(stat -c %s out.csv) / 1024 ))
    set +e
    full_disk "export --out" "$((csv_kb * 3 / 2))k" \
        "cp out.csv disk/out.csv" \
        "'$bin' export all.db --csv --out disk/out.csv" disk/out.csv
    rc=$?
    db_kb=$(( $(stat -c %s rsnap.db) / 1024 ))
    full_disk "run --snapshot" "$((db_kb * 3 / 2))k" \
        "cp rsnap.db disk/rsnap.db" \
        "'$bin' run k.ini --db all.db --quiet --snapshot disk/rsnap.db" disk/rsnap.db
    rc2=$?
    set -e
    if [ $rc -eq 77 ] || [ $rc2 -eq 77 ]; then
        echo "full disk: skipped (tmpfs cannot be mounted here)"
    else
        [ $rc -eq 0 ] || failures=$((failures + 1))
        [ $rc2 -eq 0 ] || failures=$((failures + 1))
    fi
fi
if [ $failures -eq 0 ]; then
    echo "one-shot outputs: every check held"
else
    echo "one-shot outputs: $failures checks failed"
    exit 1
fi
