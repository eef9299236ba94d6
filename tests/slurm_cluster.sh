# slurm_cluster.sh -- a one-node Slurm cluster for the tests, on this
# machine, that cannot disturb a Slurm or munge already here nor be
# disturbed by one: sourced (by tests/test_slurm.sh), it defines
#
#   slurm_start   brings up munged, slurmctld and slurmd, as root, in the
#                 background, all from a new folder SLURM_TEST_DIR
#                 (/tmp/rulelab-slurm.XXXXXX): its own munge key and socket
#                 (munged --key-file --socket, AuthInfo=socket=), free
#                 non-default ports for slurmctld and slurmd chosen now, a
#                 slurm.conf for this host (`hostname -s`) with pid files,
#                 logs, state and spool in the folder; exports SLURM_CONF
#                 for sbatch, squeue, scancel and scontrol; waits until the
#                 node is idle. If anything cannot start it prints why and
#                 the daemons' logs and returns 1 (the caller fails; no skip).
#   slurm_stop    stops the three by the PIDs in their own pid files and
#                 removes the folder (the caller puts it in a trap).
#   slurm_clean_stale
#                 does the same for the folders of earlier runs that were
#                 killed before their trap ran: only /tmp/rulelab-slurm.*
#                 folders whose test is gone (DIR/owner names the test
#                 shell's PID and start time; a test still running, from
#                 another clone say, keeps its cluster), and only a PID
#                 whose command line names that folder (so never a host's
#                 own slurmctld, slurmd or munged). slurm_start calls it
#                 first.
#
# The settings are those of ../shared/slurm-single-node.md: no cgroups
# (proctrack/linuxproc, task/none), no accounting, select/cons_tres with
# CR_CPU, SlurmUser=root.

SLURM_TEST_BASE=${SLURM_TEST_BASE:-/tmp}

# _slurm_kill_ours DIR: stops each daemon whose pid file is in DIR and whose
# command line names DIR; SIGTERM, then SIGKILL after 10 s.
_slurm_kill_ours() {
    local dir=$1 pidfile pid pids=""
    for pidfile in "$dir"/run/*.pid; do
        [ -f "$pidfile" ] || continue
        pid=$(cat "$pidfile" 2>/dev/null)
        case "$pid" in '' | *[!0-9]*) continue ;; esac
        [ -r "/proc/$pid/cmdline" ] || continue
        if tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$dir/"; then
            kill -TERM "$pid" 2>/dev/null && pids="$pids $pid"
        fi
    done
    for _ in $(seq 1 100); do
        local alive=""
        for pid in $pids; do
            kill -0 "$pid" 2>/dev/null && alive="$alive $pid"
        done
        pids=$alive
        [ -z "$pids" ] && return 0
        sleep 0.1
    done
    for pid in $pids; do kill -KILL "$pid" 2>/dev/null; done
    return 0
}

# _slurm_start_time PID: the process's start time (field 22 of its stat,
# in clock ticks since boot), or nothing when it is not running.
_slurm_start_time() {
    awk '{ print $22 }' "/proc/$1/stat" 2>/dev/null
}

# _slurm_owner_alive DIR: whether the test that made DIR still runs: DIR/owner
# holds its shell's PID and start time (a PID reused since is another
# process). A folder without the file is another run's that is just being
# made, unless it is more than 5 minutes old.
_slurm_owner_alive() {
    local dir=$1 pid started
    if [ ! -f "$dir/owner" ]; then
        [ -n "$(find "$dir" -maxdepth 0 -mmin -5 2>/dev/null)" ]
        return
    fi
    read -r pid started <"$dir/owner" 2>/dev/null || return 1
    case "$pid" in '' | *[!0-9]*) return 1 ;; esac
    [ -n "$started" ] && [ "$(_slurm_start_time "$pid")" = "$started" ]
}

slurm_clean_stale() {
    local d
    for d in "$SLURM_TEST_BASE"/rulelab-slurm.*; do
        [ -d "$d" ] || continue
        [ -n "${SLURM_TEST_DIR:-}" ] && [ "$d" = "$SLURM_TEST_DIR" ] && continue
        # another test run's cluster, still in use: leave it alone
        _slurm_owner_alive "$d" && continue
        echo "slurm_cluster: cleaning up $d, left by an earlier run" >&2
        _slurm_kill_ours "$d"
        rm -rf "$d"
    done
}

# _slurm_free_port [NOT]: a TCP port nothing listens on, from 20000-59999,
# other than NOT (asks the kernel for one, then checks it is outside
# Slurm's defaults 6817-6819).
_slurm_free_port() {
    python3 - "${1:-0}" <<'PY'
import socket, sys
avoid = {6817, 6818, 6819, int(sys.argv[1])}
for _ in range(200):
    s = socket.socket()
    s.bind(("", 0))
    port = s.getsockname()[1]
    s.close()
    if 20000 <= port < 60000 and port not in avoid:
        print(port)
        sys.exit(0)
import random
print(random.randint(20000, 59999))
PY
}

# Prints the daemons' logs on stderr.
slurm_logs() {
    local f
    for f in "$SLURM_TEST_DIR"/log/*; do
        [ -f "$f" ] || continue
        echo "---- $f (last 40 lines)" >&2
        tail -n 40 "$f" >&2
    done
}

_slurm_fail() {
    echo "slurm_cluster: $*" >&2
    slurm_logs
    return 1
}

slurm_start() {
    local tool
    for tool in munged slurmctld slurmd sbatch squeue scontrol sinfo python3; do
        command -v "$tool" >/dev/null \
            || { echo "slurm_cluster: $tool not found (Debian packages slurm-wlm, munge)" >&2; return 1; }
    done
    [ "$(id -u)" -eq 0 ] || { echo "slurm_cluster: the daemons run as root; run as root" >&2; return 1; }
    slurm_clean_stale
    SLURM_TEST_DIR=$(mktemp -d "$SLURM_TEST_BASE/rulelab-slurm.XXXXXX") || return 1
    export SLURM_TEST_DIR
    local d=$SLURM_TEST_DIR
    echo "$$ $(_slurm_start_time $$)" >"$d/owner"
    mkdir -p "$d/munge" "$d/run" "$d/log" "$d/state" "$d/spool" || return 1
    chmod 700 "$d/munge"
    # munge: a key of our own, a socket of our own
    dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$d/munge/munge.key"
    munged --force --key-file="$d/munge/munge.key" \
        --socket="$d/munge/munge.socket" --pid-file="$d/run/munged.pid" \
        --log-file="$d/log/munged.log" --seed-file="$d/munge/munged.seed" \
        2>>"$d/log/munged.log" || { _slurm_fail "munged did not start"; return 1; }
    munge -n -S "$d/munge/munge.socket" | unmunge -S "$d/munge/munge.socket" \
        2>&1 | grep -q "STATUS: *Success" \
        || { _slurm_fail "munge -n | unmunge fails on our socket"; return 1; }

    local host cpus mem ctld_port d_port
    host=$(hostname -s)
    cpus=$(nproc)
    mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
    ctld_port=$(_slurm_free_port)
    d_port=$(_slurm_free_port "$ctld_port")
    SLURM_TEST_HOST=$host
    SLURM_TEST_CPUS=$cpus
    export SLURM_TEST_HOST SLURM_TEST_CPUS
    cat >"$d/slurm.conf" <<CONF
# written by tests/slurm_cluster.sh for one test run; removed with $d
ClusterName=rulelabtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
KillWait=10
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$d/slurm.conf
    slurmctld -f "$SLURM_CONF" -L "$d/log/slurmctld.log" \
        2>>"$d/log/slurmctld.log" || { _slurm_fail "slurmctld did not start"; return 1; }
    slurmd -f "$SLURM_CONF" -L "$d/log/slurmd.log" \
        2>>"$d/log/slurmd.log" || { _slurm_fail "slurmd did not start"; return 1; }
    local state=""
    for _ in $(seq 1 60); do
        state=$(sinfo -h -N -n "$host" -o %T 2>/dev/null)
        [ "$state" = idle ] && return 0
        sleep 0.5
    done
    _slurm_fail "the node is not idle after 30 s (sinfo: '${state:-no answer}')"
    return 1
}

slurm_stop() {
    [ -n "${SLURM_TEST_DIR:-}" ] && [ -d "$SLURM_TEST_DIR" ] || return 0
    # slurmd first (it may still be running a job's processes), then the
    # controller, then munge
    local d=$SLURM_TEST_DIR
    if [ -n "${SLURM_CONF:-}" ] && [ "$SLURM_CONF" = "$d/slurm.conf" ]; then
        scancel --quiet --user="$(id -un)" 2>/dev/null
    fi
    _slurm_kill_ours "$d"
    rm -rf "$d"
    unset SLURM_TEST_DIR
}
