#!/usr/bin/env bash
# figures.sh -- the figures without a Jupyter server: executes the notebooks
# in notebooks/ headlessly (jupyter nbconvert --execute) against a results
# database, read-only, and writes each notebook's PNG figures and an HTML
# copy of the executed notebook into results/figures/ or OUTDIR.
#
# The notebooks run on Debian's /usr/bin/python3 (python3-pandas,
# python3-matplotlib, python3-ipykernel, jupyter-nbconvert), through a
# kernelspec written for this run, whatever `python3` or `jupyter` come
# first on PATH. Missing packages are installed first (scripts/deps.sh).
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: scripts/figures.sh [--all] [--list] [-j N] DB [OUTDIR]

Executes the analysis notebooks against the results database DB (opened
read-only, so a sweep may be writing it) and writes their figures (PNG)
and an HTML copy of each executed notebook into OUTDIR (default
results/figures/).

Notebooks: overview, first_mover and skill_trace always; kings_landing if
DB holds Serbest games, tafl_repetition if it holds tafl games,
jetan_escape if it holds Jetan games. --all runs all six (a notebook
whose games are missing says so and draws empty figures).

Options:
  --all        run every notebook, whatever DB holds
  --list       print the notebooks that would run, and exit
  -j N         run N notebooks at a time (default: the number of cores)
  -h, --help   this text

Environment: RULELAB_DELTA, RULELAB_ALPHA: the equivalence margin and level
of "balanced within +/- delta" and of the skill trace's verdict (default
0.05 each; `rulelab report --skill-trace --delta D --alpha A`).
Installs the missing Debian packages first (as root; see scripts/deps.sh).
EOF
}

all=0
list=0
jobs=$(nproc)
args=()
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --all) all=1 ;;
        --list) list=1 ;;
        -j) jobs=${2:-}; shift ;;
        -j*) jobs=${1#-j} ;;
        -*) echo "figures.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) args+=("$1") ;;
    esac
    shift
done
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
    echo "figures.sh: -j needs a positive number (see --help)" >&2
    exit 2
fi
if [ ${#args[@]} -lt 1 ] || [ ${#args[@]} -gt 2 ]; then
    usage >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
db=$(realpath -m -- "${args[0]}")
out=$(realpath -m -- "${args[1]:-$root/results/figures}")
if [ ! -f "$db" ]; then
    echo "figures.sh: no results database at '${args[0]}' (run a sweep first:" \
         "build/rulelab run SWEEP.ini --db ${args[0]})" >&2
    exit 1
fi

cd "$root"
. scripts/deps.sh
deps_install
py=/usr/bin/python3
if ! "$py" -c 'import pandas, matplotlib, nbformat, nbconvert, ipykernel' 2>/dev/null; then
    echo "figures.sh: $py cannot import pandas, matplotlib, nbformat," \
         "nbconvert and ipykernel: install the Python packages of" \
         "RULELAB_PACKAGES in scripts/deps.sh (run this as root to do it)" >&2
    exit 1
fi

# The games in the database (read-only), and a check that it is ours.
games=$("$py" - "$db" <<'PY'
import sqlite3, sys, urllib.parse
try:
    con = sqlite3.connect("file:" + urllib.parse.quote(sys.argv[1]) + "?mode=ro", uri=True)
    print(" ".join(r[0] for r in con.execute("SELECT DISTINCT game FROM game_view")))
except sqlite3.Error as e:
    sys.exit(f"figures.sh: {sys.argv[1]} is not a rulelab results database ({e})")
PY
)

notebooks="overview first_mover skill_trace"
for pair in serbest:kings_landing tafl:tafl_repetition jetan:jetan_escape; do
    if [ $all -eq 1 ] || [[ " $games " == *" ${pair%%:*} "* ]]; then
        notebooks="$notebooks ${pair#*:}"
    else
        echo "figures.sh: skipping ${pair#*:} (no ${pair%%:*} games in the database; --all runs it)"
    fi
done
if [ $list -eq 1 ]; then
    echo "figures.sh: would run: $notebooks"
    exit 0
fi

# A private Jupyter environment: a kernelspec that runs Debian's python, no
# user configuration, connection files in a temporary directory. Kernels
# talk over Unix sockets in that directory (transport=ipc), not TCP ports:
# kernels started at the same moment (here, or by another job on the
# machine) can be handed the same free TCP port and die before replying
# to kernel_info. Each notebook's sockets get their own absolute path
# prefix (the default, "kernel-ipc", is relative to the working
# directory, which the kernel and nbconvert do not share).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/share/kernels/rulelab-python3" "$out"
cat >"$tmp/share/kernels/rulelab-python3/kernel.json" <<EOF
{"argv": ["$py", "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
 "display_name": "Python 3 (Debian, rulelab)", "language": "python"}
EOF
export JUPYTER_PATH="$tmp/share" JUPYTER_CONFIG_DIR="$tmp/config" \
    JUPYTER_RUNTIME_DIR="$tmp/runtime" IPYTHONDIR="$tmp/ipython" \
    PYTHONDONTWRITEBYTECODE=1 PYDEVD_DISABLE_FILE_VALIDATION=1 \
    RULELAB_DB="$db" RULELAB_FIGURES="$out"

run_one() { # run_one NB: executes one notebook; its status in $tmp/NB.status
    local start=$SECONDS
    if "$py" -m nbconvert --to html --execute \
            --ExecutePreprocessor.kernel_name=rulelab-python3 \
            --KernelManager.transport=ipc --KernelManager.ip="$tmp/ipc-$1" \
            --ExecutePreprocessor.timeout=3600 \
            --output-dir "$out" --output "$1" "notebooks/$1.ipynb" \
            >"$tmp/$1.log" 2>&1; then
        echo "ok ($((SECONDS - start)) s) -> $out/$1.html" >"$tmp/$1.status"
    else
        echo "FAILED" >"$tmp/$1.status"
    fi
}

touch "$tmp/start"
running=0
for nb in $notebooks; do
    run_one "$nb" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
failed=""
for nb in $notebooks; do
    status=$(cat "$tmp/$nb.status")
    if [ "$status" = FAILED ]; then
        echo "figures.sh: $nb: FAILED; the end of its log:" >&2
        grep -v "Debugger warning\|frozen modules\|PYDEVD_DISABLE" "$tmp/$nb.log" \
            | tail -25 >&2
        failed="$failed $nb"
    else
        echo "figures.sh: $nb: $status"
    fi
done
find "$out" -maxdepth 1 -name '*.png' -newer "$tmp/start" | sort | sed 's/^/  /'
if [ -n "$failed" ]; then
    echo "figures.sh: failed:$failed" >&2
    exit 1
fi
echo "figures.sh: figures and HTML in $out"
