/*
 * slurm.c -- the text of the sbatch scripts `rulelab slurm` writes
 * (slurm.h). The scripts are plain bash with every path quoted; what each
 * part does is said in comments inside them, since the user reads them.
 */
#include "slurm.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void slurm_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

/* FNV-1a of s: names the node-local folder after DIR, so two sweeps of
 * one name in different folders never share a live database. */
static uint32_t dir_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The #SBATCH lines both scripts share. */
static void common_options(FILE *f, const struct slurm_job *j)
{
    if (j->partition)
        fprintf(f, "#SBATCH --partition=%s\n", j->partition);
    if (j->time)
        fprintf(f, "#SBATCH --time=%s\n", j->time);
    if (j->mem)
        fprintf(f, "#SBATCH --mem=%s\n", j->mem);
}

/* RULELAB=, DIR=, N=, NAME=, each quoted. */
static void common_variables(FILE *f, const struct slurm_job *j)
{
    fputs("RULELAB=", f);
    slurm_quote(f, j->rulelab);
    fputs("\nINPUT=", f);
    slurm_quote(f, j->input);
    fputs("\nDIR=", f);
    slurm_quote(f, j->dir);
    fprintf(f, "\nN=%d\n", j->tasks);
}

/* tasks.sbatch's opening comment and #SBATCH lines. */
static void tasks_header(FILE *f, const struct slurm_job *j)
{
    fprintf(f, "#!/bin/bash\n"
               "# tasks.sbatch -- written by `rulelab slurm`: a job array of %d "
               "tasks; task K\n"
               "# plays shard K of %d of ", j->tasks, j->tasks);
    fputs(j->input, f);
    fputs(".\n# Submit: sbatch ", f);
    fputs(j->dir, f);
    fputs("/tasks.sbatch\n"
          "# One shard again (then merge again): sbatch --array=K ", f);
    fputs(j->dir, f);
    fputs("/tasks.sbatch\n", f);
    fprintf(f, "#SBATCH --job-name=rulelab-%s\n", j->name);
    fprintf(f, "#SBATCH --array=0-%d\n", j->tasks - 1);
    fprintf(f, "#SBATCH --cpus-per-task=%d\n", j->cpus);
    fputs("#SBATCH --ntasks=1\n", f);
    common_options(f, j);
    fputs("#SBATCH --requeue\n", f);
    fprintf(f, "#SBATCH --signal=B:USR1@%d\n", j->signal_seconds);
    fputs("#SBATCH --open-mode=append\n", f);
    fprintf(f, "#SBATCH --output=\"%s/logs/task-%%a.out\"\n", j->dir);
}

/* tasks.sbatch's shell variables: the job's, this task's shard and the
 * paths of its snapshot and done marker. */
static void tasks_variables(FILE *f, const struct slurm_job *j)
{
    fputs("set -u\n", f);
    common_variables(f, j);
    fputs("K=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is a "
          "job array task}\n"
          "THREADS=${SLURM_CPUS_PER_TASK:-1}\n"
          "SNAP=\"$DIR/shards/shard-$K-of-$N.db\"\n"
          "DONE=\"$DIR/shards/shard-$K-of-$N.done\"\n"
          "# The live database and its write-ahead log stay on node-local "
          "storage (never\n"
          "# WAL on a network filesystem); SNAP, in the shared folder, is a "
          "consistent\n"
          "# copy of it, renewed every --snapshot-every seconds and at the "
          "end.\n", f);
}

/* tasks.sbatch's live database on node-local storage, restored from the
 * snapshot where that is newer, and the signal traps. */
static void tasks_local_database(FILE *f, const struct slurm_job *j)
{
    if (j->local) {
        fputs("LOCAL_BASE=", f);
        slurm_quote(f, j->local);
        fputc('\n', f);
    } else {
        fputs("LOCAL_BASE=${TMPDIR:-/tmp}\n", f);
    }
    fprintf(f, "LOCAL=\"$LOCAL_BASE/rulelab-%s-%08x/shard-$K-of-$N\"\n",
            j->name, dir_hash(j->dir));
    fputs("LIVE=\"$LOCAL/shard.db\"\n"
          "mkdir -p \"$LOCAL\" \"$DIR/shards\" || exit 1\n"
          "echo \"rulelab slurm: shard $K of $N, job ${SLURM_JOB_ID:-?} "
          "(${SLURM_ARRAY_JOB_ID:-?}_$K), start $(( ${SLURM_RESTART_COUNT:-0} "
          "+ 1 )), on $(hostname -s) at $(date -u +%FT%TZ); live database "
          "$LIVE\"\n"
          "# Resume from the newer of the two: the live database if this "
          "node still has\n"
          "# it (a requeue onto the same node, or a task killed before its "
          "last copy),\n"
          "# else the snapshot (another node, or a node-local folder "
          "emptied since).\n"
          "# Either is correct (a shard resumes from any of its states); "
          "the newer\n"
          "# replays fewer games.\n"
          "newest=$LIVE\n"
          "[ -e \"$LIVE-wal\" ] && [ \"$LIVE-wal\" -nt \"$LIVE\" ] && "
          "newest=$LIVE-wal\n"
          "if [ -e \"$SNAP\" ] && { [ ! -e \"$LIVE\" ] || [ \"$SNAP\" -nt "
          "\"$newest\" ]; }; then\n"
          "    echo \"rulelab slurm: restoring the live database from $SNAP\"\n"
          "    rm -f \"$LIVE\" \"$LIVE-wal\" \"$LIVE-shm\"\n"
          "    cp \"$SNAP\" \"$LIVE.part\" && mv \"$LIVE.part\" \"$LIVE\" || "
          "exit 1\n"
          "fi\n"
          "rm -f \"$DONE\"\n"
          "# USR1 (--signal, before the time limit): stop, snapshot, "
          "requeue. TERM\n"
          "# (scancel, or the time limit itself): stop and snapshot. Either "
          "way the\n"
          "# runner stops taking games, finishes those in flight and saves. "
          "It is told\n"
          "# with INT: Slurm sends TERM to every process of the job itself, "
          "and a second\n"
          "# TERM would end the runner at once.\n"
          "requeue=0\n"
          "pid=\n"
          "trap 'requeue=1; [ -n \"$pid\" ] && kill -INT \"$pid\" "
          "2>/dev/null' USR1\n"
          "trap '[ -n \"$pid\" ] && kill -INT \"$pid\" 2>/dev/null' TERM\n",
          f);
}

/* tasks.sbatch's run of the shard and what it does when the run ends. */
static void tasks_run(FILE *f, const struct slurm_job *j)
{
    if (j->plan) {
        fputs("# The sweep stops cells early, so each shard plays whole cells, "
              "as this plan\n# deals them by their estimated cost; every "
              "task reads the same file.\nPLAN=", f);
        slurm_quote(f, j->plan);
        fputc('\n', f);
    }
    fprintf(f, "\"$RULELAB\" %s \"$INPUT\" --shard \"$K/$N\"%s --threads "
               "\"$THREADS\" --db \"$LIVE\" \\\n"
               "    --snapshot \"$SNAP\" --snapshot-every %d --quiet &\n",
            j->command, j->plan ? " --plan \"$PLAN\"" : "",
            j->snapshot_every);
    fputs("pid=$!\n"
          "# wait returns early for each trapped signal; wait again until "
          "the runner is gone\n"
          "while :; do\n"
          "    wait \"$pid\"\n"
          "    status=$?\n"
          "    kill -0 \"$pid\" 2>/dev/null || break\n"
          "done\n"
          "if [ \"$status\" -eq 0 ]; then\n"
          "    : >\"$DONE\"\n"
          "    echo \"rulelab slurm: shard $K of $N complete at $(date -u "
          "+%FT%TZ)\"\n"
          "    rm -rf \"$LOCAL\"\n"
          "    exit 0\n"
          "fi\n"
          "if [ \"$requeue\" -eq 1 ] && [ -n \"${SLURM_JOB_ID:-}\" ]; then\n"
          "    echo \"rulelab slurm: near the time limit; shard $K saved to "
          "$SNAP, requeued to resume\"\n"
          "    scontrol requeue \"$SLURM_JOB_ID\" && exit 0\n"
          "    echo \"rulelab slurm: the requeue failed (does the cluster "
          "allow it?)\"\n"
          "fi\n"
          "echo \"rulelab slurm: shard $K stopped (status $status) and saved "
          "to $SNAP; to finish it:\"\n"
          "echo \"  sbatch --array=$K $DIR/tasks.sbatch, then merge again "
          "(sbatch $DIR/merge.sbatch)\"\n"
          "exit \"$status\"\n", f);
}

int slurm_write_tasks(FILE *f, const struct slurm_job *j)
{
    tasks_header(f, j);
    tasks_variables(f, j);
    tasks_local_database(f, j);
    tasks_run(f, j);
    return ferror(f) ? -1 : 0;
}

int slurm_write_merge(FILE *f, const struct slurm_job *j)
{
    fputs("#!/bin/bash\n"
          "# merge.sbatch -- written by `rulelab slurm`: merges the shards' "
          "snapshots in\n# ", f);
    fputs(j->dir, f);
    fprintf(f, "/shards into %s/%s.db and says which shards are\n"
               "# incomplete (status 3 then). Run it after the array "
               "(--dependency=afterany),\n"
               "# or again at any time, by sbatch or plain bash: each merge "
               "adds only what is new.\n", j->dir, j->name);
    fprintf(f, "#SBATCH --job-name=rulelab-%s-merge\n", j->name);
    fputs("#SBATCH --cpus-per-task=1\n#SBATCH --ntasks=1\n", f);
    common_options(f, j);
    fprintf(f, "#SBATCH --output=\"%s/logs/merge-%%j.out\"\n", j->dir);
    fputs("set -u\n", f);
    common_variables(f, j);
    fputs("OUT=\"$DIR/", f);
    fputs(j->name, f);
    fputs(".db\"\n", f);
    fputs("shards=()\n"
          "missing=()\n"
          "for ((K = 0; K < N; K++)); do\n"
          "    [ -e \"$DIR/shards/shard-$K-of-$N.db\" ] && shards+=(\"$DIR/"
          "shards/shard-$K-of-$N.db\")\n"
          "    [ -e \"$DIR/shards/shard-$K-of-$N.done\" ] || missing+=(\"$K\")\n"
          "done\n"
          "if [ ${#shards[@]} -gt 0 ]; then\n"
          "    # OUT is merged on local storage (its write-ahead log too) and "
          "published in\n"
          "    # DIR as one file, renamed into place: readers there never see "
          "half of it.\n"
          "    work=$(mktemp -d \"${TMPDIR:-/tmp}/rulelab-merge.XXXXXX\") || "
          "exit 1\n"
          "    trap 'rm -rf \"$work\"' EXIT\n"
          "    if [ -e \"$OUT\" ]; then cp \"$OUT\" \"$work/merged.db\" || "
          "exit 1; fi\n"
          "    \"$RULELAB\" merge \"$work/merged.db\" \"${shards[@]}\" "
          "--snapshot \"$OUT\" || exit 1\n"
          "fi\n"
          "if [ ${#missing[@]} -gt 0 ]; then\n"
          "    list=$(IFS=,; echo \"${missing[*]}\")\n"
          "    echo \"rulelab slurm: incomplete shards of $N: $list "
          "($OUT holds the rest)\"\n"
          "    echo \"to finish: sbatch --array=$list $DIR/tasks.sbatch, then, "
          "when they are done,\"\n"
          "    echo \"           sbatch $DIR/merge.sbatch (or: bash "
          "$DIR/merge.sbatch)\"\n"
          "    exit 3\n"
          "fi\n"
          "echo \"rulelab slurm: all $N shards complete, merged into $OUT\"\n",
          f);
    return ferror(f) ? -1 : 0;
}

/* Writes one script to DIR/NAME through DIR/NAME.tmp. */
static int write_one(const struct slurm_job *j, const char *name,
                     int (*text)(FILE *, const struct slurm_job *), char *err,
                     size_t errsz)
{
    char path[4200], tmp[4210];
    snprintf(path, sizeof path, "%s/%s", j->dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errsz, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    int rc = text(f, j);
    if (fclose(f) != 0)
        rc = -1;
    if (rc == 0 && chmod(tmp, 0755) == 0 && rename(tmp, path) == 0)
        return 0;
    snprintf(err, errsz, "writing %s failed: %s", path, strerror(errno));
    unlink(tmp);
    return -1;
}

int slurm_write_scripts(const struct slurm_job *j, char *err, size_t errsz)
{
    const char *sub[] = {"shards", "logs"};
    for (int i = 0; i < 2; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", j->dir, sub[i]);
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errsz, "cannot make %s: %s", path, strerror(errno));
            return -1;
        }
    }
    if (write_one(j, "tasks.sbatch", slurm_write_tasks, err, errsz) != 0
        || write_one(j, "merge.sbatch", slurm_write_merge, err, errsz) != 0)
        return -1;
    return 0;
}

int slurm_submit(const char *args, const char *script, char *id, size_t n,
                 char *err, size_t errsz)
{
    char cmd[PATH_MAX * 2 + 200];
    int len = snprintf(cmd, sizeof cmd, "sbatch --parsable %s ", args);
    FILE *f = fmemopen(cmd + len, sizeof cmd - (size_t)len, "w");
    if (!f) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    slurm_quote(f, script);
    fclose(f);
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(err, errsz, "cannot run sbatch: %s", strerror(errno));
        return -1;
    }
    char line[256] = "";
    if (!fgets(line, sizeof line, p))
        line[0] = '\0';
    int status = pclose(p);
    line[strcspn(line, ";\r\n")] = '\0'; /* "ID" or "ID;CLUSTER" */
    if (status != 0 || !line[0] || strspn(line, "0123456789") != strlen(line)) {
        snprintf(err, errsz, "`%s` failed%s (is Slurm's sbatch on PATH, and "
                 "SLURM_CONF right?)", cmd,
                 status == 127 * 256 ? ": sbatch not found" : "");
        return -1;
    }
    snprintf(id, n, "%s", line);
    return 0;
}
