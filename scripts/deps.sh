# deps.sh -- sourced by run.sh and test.sh: installs the Debian packages the
# project needs, only those missing, and runs apt-get update only then.
# Every dependency of the project is listed here, and nowhere else.

RULELAB_PACKAGES="build-essential cmake pkg-config libcmocka-dev libsqlite3-dev sqlite3 xz-utils python3-pandas python3-matplotlib python3-nbformat python3-ipykernel jupyter-nbconvert"
# The tests' fuzz targets also need clang with libFuzzer (libclang-rt-dev,
# only recommended by clang) and clang's OpenMP (libomp-dev); the Slurm
# test (tests/test_slurm.sh) a one-node Slurm and its munge (slurm-wlm,
# munge; it brings up its own daemons, and never touches a host's).
# The HTML report tests validate its pages with tidy and open them in a
# headless chromium.
RULELAB_TEST_PACKAGES="clang libclang-rt-dev libomp-dev slurm-wlm munge tidy chromium"

# deps_install [PACKAGES...]: RULELAB_PACKAGES and the ones named.
deps_install() {
    local missing=""
    for pkg in $RULELAB_PACKAGES "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null \
                | grep -q "install ok installed"; then
            missing="$missing $pkg"
        fi
    done
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "rulelab: missing Debian packages:$missing" >&2
        echo "rulelab: run as root, or: sudo apt-get install$missing" >&2
        return 1
    fi
    echo "rulelab: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# deps_build DIR [cmake options...]: configures and builds into DIR.
deps_build() {
    local dir=$1
    shift
    cmake -S . -B "$dir" "$@" >/dev/null
    cmake --build "$dir" -j "$(nproc)"
}
