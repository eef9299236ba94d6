# bench_build.sh -- sourced by the scripts that compare two revisions
# (bench-compare.sh, solver-compare.sh): bench_build REV prints the path
# of REV's Release rulelab, building it first in a git worktree under
# ${BENCH_DIR:-/tmp/rulelab-bench} (kept for the next run). Needs $root,
# the repository.
bench_base=${BENCH_DIR:-/tmp/rulelab-bench}

bench_build() {
    local sha dir
    mkdir -p "$bench_base"
    sha=$(git -C "$root" rev-parse --short=12 "$1^{commit}")
    dir="$bench_base/$sha"
    if [ ! -x "$dir/build/rulelab" ]; then
        [ -d "$dir" ] || git -C "$root" worktree add --detach "$dir" "$sha" >&2 \
            || { echo "cannot check out $1" >&2; return 1; }
        if ! { cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release \
                && cmake --build "$dir/build" -j "$(nproc)" --target rulelab; } >&2; then
            echo "building $1 failed (above); an older revision may need" \
                "packages this one does not (cbdcb07: libinih-dev)" >&2
            return 1
        fi
    fi
    echo "$dir/build/rulelab"
}
