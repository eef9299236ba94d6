# sh_helpers.sh -- what the shell tests share; sourced (. "$here/sh_helpers.sh"):
#   pass, fail       the counts, from 0
#   ok NAME          counts a pass and prints "ok   NAME"
#   bad NAME         counts a failure and prints "FAIL NAME"
#   check NAME RC TEXT -- COMMAND...
#                    runs COMMAND; passes when it exits RC and its output
#                    (stdout and stderr) holds TEXT, else prints both
#   finish           prints "P passed, F failed"; fails when F > 0 (end a
#                    test with it)
pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
check() {
    local name=$1 want_rc=$2 want_text=$3
    shift 4
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want_rc" ] || ! grep -qF -- "$want_text" <<<"$out"; then
        bad "$name: rc=$rc (want $want_rc), output:"
        sed 's/^/    /' <<<"$out" | head -20
    else
        ok "$name"
    fi
}
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
