/*
 * cmd_slurm.c -- `rulelab slurm SWEEP --tasks N`: writes the sbatch
 * scripts of a job array that plays the sweep's N shards and of the merge
 * job (experiments/cluster/slurm.c writes their text), then prints the sbatch
 * commands or, with --submit, submits them and prints the job ids.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cost.h"
#include "shard.h"
#include "slurm.h"
#include "sweep.h"
#include "variant.h"

/* Whether text may go into an #SBATCH line as it is: no white space,
 * quotes, backslashes or control characters. */
static int plain_value(const char *text)
{
    if (!*text)
        return 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p <= ' ' || *p == 0x7f || strchr("'\"\\`$;&|<>", *p))
            return 0;
    return 1;
}

/* Whether a path can be written into the scripts: no control characters
 * (a newline would end a comment or a line of the script). */
static int plain_path(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < ' ' || *p == 0x7f)
            return 0;
    return 1;
}

/* mkdir -p path. Returns 0 or -1 with errno set. */
static int make_dirs(const char *path)
{
    char buf[PATH_MAX];
    if (strlen(path) >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(buf, path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* Checks --dir before anything is made: the absolute form of dir (from
 * the current directory where it is relative) must not hold '"' or '%'
 * (which end or pattern sbatch's --output value) or a backslash (which
 * sbatch drops from it). Returns 0, or -1 after a message on stderr. */
static int check_dir_text(const char *dir)
{
    char cwd[PATH_MAX] = "";
    if (dir[0] != '/' && !getcwd(cwd, sizeof cwd)) {
        fprintf(stderr, "rulelab slurm: cannot read the current directory: "
                "%s\n", strerror(errno));
        return -1;
    }
    if (!strpbrk(dir, "\"%\\") && !strpbrk(cwd, "\"%\\"))
        return 0;
    fprintf(stderr, "rulelab slurm: the folder %s%s%s holds a '\"', '%%' or "
            "'\\', which sbatch's --output cannot take; choose another --dir; "
            "nothing was written\n", cwd, cwd[0] ? "/" : "", dir);
    return -1;
}

/* Copies the file `from` to `to` through to.tmp, renamed into place.
 * Returns 0, or -1 after saying why. */
static int copy_file(const char *from, const char *to)
{
    char tmp[PATH_MAX + 32], buf[65536];
    snprintf(tmp, sizeof tmp, "%s.tmp", to);
    FILE *in = fopen(from, "rb"), *out = in ? fopen(tmp, "wb") : NULL;
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    ok = ok && !ferror(in);
    if (out && fclose(out) != 0)
        ok = 0;
    if (in)
        fclose(in);
    if (ok && rename(tmp, to) == 0)
        return 0;
    fprintf(stderr, "rulelab slurm: cannot copy %s to %s: %s\n", from, to,
            strerror(errno));
    unlink(tmp);
    return -1;
}

/* Reads the plan FILE given to --plan and checks it against the sweep and
 * the tasks, before anything is made. Returns 0, or -1 after a message. */
static int check_plan(const struct sweep *s, const char *given, int tasks)
{
    char err[2048];
    int *plan = malloc((size_t)s->n_cells * sizeof *plan);
    int rc = plan ? shard_plan_read(given, s, tasks, plan, err, sizeof err)
                  : -1;
    if (rc != 0)
        fprintf(stderr, "rulelab slurm: --plan %s; nothing was written\n",
                plan ? err : "out of memory");
    free(plan);
    return rc;
}

/* Removes the folder dir that this run made, and the plan it may have
 * written there, after a failure (its parents, if made too, stay). */
static void remove_made_folder(const char *dir)
{
    char plan[PATH_MAX + 16];
    snprintf(plan, sizeof plan, "%s/plan.txt", dir);
    unlink(plan);
    rmdir(dir);
}

/* For a sweep with an early-stop rule, whose shards play whole cells:
 * writes DIR/plan.txt, the plan every task reads, from --plan FILE
 * (checked against the sweep and N, then copied) or from a calibration
 * here (`calibrate` CPU-seconds a cell on `threads` threads), and says
 * how the shards' estimates spread. path gets DIR/plan.txt, or "" for no
 * plan (no stop rule, or --calibrate 0: cell c to shard c mod N).
 * Returns 0, or -1 (said). */
static int prepare_plan(const struct sweep *s, const char *given,
                        double calibrate, int threads, int tasks,
                        const char *dir, char *path, size_t n)
{
    char err[4400];
    path[0] = '\0';
    if (s->stop == STOP_NONE || (!given && calibrate == 0))
        return 0;
    int *plan = malloc((size_t)s->n_cells * sizeof *plan);
    struct cell_cost *cost = calloc((size_t)s->n_cells, sizeof *cost);
    int rc = -1;
    snprintf(path, n, "%s/plan.txt", dir);
    if (!plan || !cost) {
        fprintf(stderr, "rulelab slurm: out of memory\n");
        goto done;
    }
    if (given) {
        if (shard_plan_read(given, s, tasks, plan, err, sizeof err) != 0) {
            fprintf(stderr, "rulelab slurm: --plan %s\n", err);
            goto done;
        }
        if (copy_file(given, path) != 0)
            goto done;
        printf("plan: %s, copied to %s\n", given, path);
        rc = 0;
        goto done;
    }
    fprintf(stderr, "rulelab slurm: the sweep stops cells early, so shards "
            "play whole cells; calibrating each cell (up to %.2g CPU-s a "
            "cell, %d thread%s) to deal them by cost (--calibrate 0: cell "
            "c to shard c mod N)\n", calibrate, threads,
            threads == 1 ? "" : "s");
    int calibrated = cost_calibrate(s, calibrate, threads, cost,
                                    cli_progress_cells, err, sizeof err) == 0;
    cli_progress_cells(-1, s->n_cells);
    if (!calibrated
        || cost_write_plan(s, cost, tasks, path, plan, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab slurm: %s\n", err);
        goto done;
    }
    double lo, hi, rr_lo, rr_hi;
    cost_shard_range(s, cost, tasks, plan, &lo, &hi);
    cost_shard_range(s, cost, tasks, NULL, &rr_lo, &rr_hi);
    struct shard all = {0, 0, NULL};
    printf("plan: %s, whole cells dealt by estimated cost, %.1f CPU-s in all "
           "(every game counted): each task ~%.1f to %.1f CPU-s (cell c to "
           "shard c mod N: %.1f to %.1f), measured on this machine\n", path,
           cost_of_shard(s, &all, cost), lo, hi, rr_lo, rr_hi);
    rc = 0;
done:
    if (rc != 0)
        path[0] = '\0';
    free(plan);
    free(cost);
    return rc;
}

/* The options of `rulelab slurm`, read and checked by read_args. */
struct slurm_args {
    const char *sweep, *dir_text, *partition, *time_text, *mem, *local,
        *plan_given, *calibrate_text;
    long tasks, cpus, every;
    double calibrate;
    int submit;
};

/* Reads and checks the options into *a. Returns 1 to go on, or 0 with the
 * command's status in *rc (a usage error, or --help). */
static int read_args(int argc, char **argv, struct slurm_args *a, int *rc)
{
    const char *pos[1];
    *a = (struct slurm_args){.cpus = 1, .every = 300, .calibrate = 0.5};
    const struct cli_option opts[] = {
        {.name = "--tasks", .number = &a->tasks, .min = 1, .max = SHARD_MAX},
        {.name = "--dir", .value = &a->dir_text},
        {.name = "--partition", .value = &a->partition},
        {.name = "--time", .value = &a->time_text},
        {.name = "--cpus", .number = &a->cpus, .min = 1, .max = 4096},
        {.name = "--mem", .value = &a->mem},
        {.name = "--local", .value = &a->local},
        {.name = "--snapshot-every", .number = &a->every, .min = 1,
         .max = 86400 * 365},
        {.name = "--plan", .value = &a->plan_given},
        {.name = "--calibrate", .value = &a->calibrate_text},
        {.name = "--submit", .flag = &a->submit},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_slurm, rc))
        return 0;
    a->sweep = pos[0];
    *rc = CLI_USAGE;
    if (!a->tasks) { /* 0: not given (its range starts at 1) */
        cli_usage_error(&cmd_slurm, "needs --tasks N, the number of array "
                        "tasks (shards)");
        return 0;
    }
    const char *c = a->calibrate_text;
    if (c && (spec_parse_number(c, 0, &a->calibrate) != 0
              || a->calibrate < 0 || a->calibrate > 3600)) {
        cli_usage_error(&cmd_slurm, "--calibrate '%s': the CPU-seconds to "
                        "time each cell for, from 0 (no plan) to 3600", c);
        return 0;
    }
    if (a->plan_given && c) {
        cli_usage_error(&cmd_slurm, "--plan FILE and --calibrate: give one "
                        "(a ready plan, or how long to calibrate for a new "
                        "one)");
        return 0;
    }
    const char *const sb[][2] = {{"--partition", a->partition},
                                 {"--time", a->time_text},
                                 {"--mem", a->mem}};
    for (int i = 0; i < 3; i++)
        if (sb[i][1] && !plain_value(sb[i][1])) {
            cli_usage_error(&cmd_slurm, "%s '%s': an sbatch value without "
                            "spaces, quotes or shell characters", sb[i][0],
                            sb[i][1]);
            return 0;
        }
    if (a->local && (a->local[0] != '/' || !plain_path(a->local))) {
        cli_usage_error(&cmd_slurm, "--local needs an absolute path (a "
                        "folder on each node's own storage)");
        return 0;
    }
    if (a->dir_text && (!*a->dir_text || !plain_path(a->dir_text))) {
        cli_usage_error(&cmd_slurm, "--dir needs a path without control "
                        "characters");
        return 0;
    }
    return 1;
}

/* The absolute paths the scripts name: this program (self), the sweep
 * file (input) and the shared folder (dir, made here from dir_text).
 * *made is set when this call made the folder. Returns 0, or -1 after a
 * message on stderr. */
static int job_paths(const char *sweep, const char *dir_text, char *self,
                     char *input, char *dir, int *made)
{
    ssize_t n = readlink("/proc/self/exe", self, PATH_MAX - 1);
    if (n <= 0) {
        fprintf(stderr, "rulelab slurm: cannot find this program's own path "
                "(/proc/self/exe): %s\n", strerror(errno));
        return -1;
    }
    self[n] = '\0';
    if (!realpath(sweep, input)) {
        fprintf(stderr, "rulelab slurm: %s: %s\n", sweep, strerror(errno));
        return -1;
    }
    struct stat sb;
    *made = stat(dir_text, &sb) != 0;
    if (make_dirs(dir_text) != 0 || !realpath(dir_text, dir)) {
        fprintf(stderr, "rulelab slurm: cannot make the folder %s: %s\n",
                dir_text, strerror(errno));
        return -1;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "rulelab slurm: cannot write in %s: %s\n", dir,
                strerror(errno));
        return -1;
    }
    if (!plain_path(input) || !plain_path(dir) || !plain_path(self)) {
        fprintf(stderr, "rulelab slurm: a path holds a control character\n");
        return -1;
    }
    /* DIR goes into #SBATCH --output="...", where sbatch reads %
     * patterns and a double quote would end the value */
    if (strpbrk(dir, "\"%")) {
        fprintf(stderr, "rulelab slurm: the folder %s holds a '\"' or '%%', "
                "which sbatch's --output cannot take; choose another --dir\n",
                dir);
        return -1;
    }
    return 0;
}

/* Submits the array, then the merge after it, and says their job ids.
 * Returns CLI_OK, or CLI_FAIL after a message. */
static int submit_jobs(const char *tasks_script, const char *merge_script,
                       long tasks, const char *dir, const char *name)
{
    char array_id[256], merge_id[256], dep[300], err[PATH_MAX * 2 + 400];
    if (slurm_submit("", tasks_script, array_id, sizeof array_id, err,
                     sizeof err) != 0) {
        fprintf(stderr, "rulelab slurm: %s\n", err);
        return CLI_FAIL;
    }
    snprintf(dep, sizeof dep, "--dependency=afterany:%s", array_id);
    if (slurm_submit(dep, merge_script, merge_id, sizeof merge_id, err,
                     sizeof err) != 0) {
        fprintf(stderr, "rulelab slurm: %s\n", err);
        fprintf(stderr, "rulelab slurm: the array is job %s; submit the merge "
                "by hand: sbatch %s %s\n", array_id, dep, merge_script);
        return CLI_FAIL;
    }
    printf("array job %s (%ld tasks), merge job %s (after the array)\n",
           array_id, tasks, merge_id);
    printf("shards: %s/shards/, logs: %s/logs/, merged: %s/%s.db\n", dir, dir,
           dir, name);
    return CLI_OK;
}

/* `rulelab slurm` (the run contract of struct cli_command). */
static int run_slurm(int argc, char **argv)
{
    struct slurm_args a;
    int rc;
    if (!read_args(argc, argv, &a, &rc))
        return rc;
    struct sweep s;
    char err[4096];
    if (sweep_load(a.sweep, &s, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab slurm: %s\n", err);
        return CLI_FAIL;
    }
    char input[PATH_MAX], dir[PATH_MAX], self[PATH_MAX], deflt[600];
    const char *dir_text = a.dir_text;
    int made = 0; /* this run made the folder: removed again on a failure */
    rc = CLI_FAIL;
    if (!dir_text) {
        snprintf(deflt, sizeof deflt, "results/%s-slurm", s.name);
        dir_text = deflt;
    }
    /* every check that can refuse comes before the folder is made */
    if (check_dir_text(dir_text) != 0)
        goto done;
    if ((a.plan_given || a.calibrate_text) && s.stop == STOP_NONE) {
        rc = cli_usage_error(&cmd_slurm, "%s has no early-stop rule, so its "
                             "shards play about 1/N of every cell's games "
                             "and balance without a plan; drop --plan and "
                             "--calibrate", a.sweep);
        goto done;
    }
    if (a.plan_given && check_plan(&s, a.plan_given, (int)a.tasks) != 0)
        goto done;
    if (job_paths(a.sweep, dir_text, self, input, dir, &made) != 0)
        goto done;
    char plan[PATH_MAX + 16];
    if (prepare_plan(&s, a.plan_given, a.calibrate, (int)a.cpus,
                     (int)a.tasks, dir, plan, sizeof plan) != 0)
        goto done;
    struct slurm_job j = {self, "run", input, s.name, dir, (int)a.tasks,
                          (int)a.cpus, a.partition, a.time_text, a.mem,
                          a.local, (int)a.every, 120, plan[0] ? plan : NULL};
    if (slurm_write_scripts(&j, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab slurm: %s\n", err);
        goto done;
    }
    made = 0; /* the scripts are written: the folder stays */
    char tasks_script[PATH_MAX + 20], merge_script[PATH_MAX + 20];
    snprintf(tasks_script, sizeof tasks_script, "%s/tasks.sbatch", dir);
    snprintf(merge_script, sizeof merge_script, "%s/merge.sbatch", dir);
    printf("wrote %s (an array of %ld tasks, shard K of %ld each) and %s\n",
           tasks_script, a.tasks, a.tasks, merge_script);
    if (a.submit) {
        rc = submit_jobs(tasks_script, merge_script, a.tasks, dir, s.name);
        goto done;
    }
    printf("submit them with:\n  jid=$(sbatch --parsable ");
    slurm_print_word(stdout, tasks_script);
    printf(") && sbatch --dependency=afterany:${jid%%%%;*} ");
    slurm_print_word(stdout, merge_script);
    printf("\n");
    rc = CLI_OK;
done:
    if (rc != CLI_OK && made)
        remove_made_folder(dir_text);
    sweep_free(&s);
    return rc;
}

const struct cli_command cmd_slurm = {
    "slurm", "write (and submit) a Slurm job array that plays a sweep in shards",
    "usage: rulelab slurm SWEEP.ini --tasks N [--dir DIR] [--partition P]\n"
    "                     [--time T] [--cpus C] [--mem M] [--local DIR]\n"
    "                     [--snapshot-every SECONDS]\n"
    "                     [--calibrate SECONDS | --plan FILE] [--submit]\n\n"
    "Writes DIR/tasks.sbatch, a job array of N tasks, and DIR/merge.sbatch,\n"
    "a job that merges them, and prints the sbatch commands (or, with\n"
    "--submit, submits both, the merge with --dependency=afterany on the\n"
    "array, and prints the job ids). Task K runs\n"
    "  rulelab run SWEEP.ini --shard K/N --threads $SLURM_CPUS_PER_TASK\n"
    "with its live database on node-local storage ($TMPDIR, or --local DIR;\n"
    "never SQLite's write-ahead log on a network filesystem) and a\n"
    "consistent copy of it in DIR/shards/shard-K-of-N.db, renewed every\n"
    "--snapshot-every seconds and at the end. 120 s before the time limit\n"
    "Slurm sends the task USR1 (--signal=B:USR1@120): it stops taking games,\n"
    "finishes those in flight, saves, and requeues itself to resume its\n"
    "shard (--requeue; from the live database if the node still has it, else\n"
    "from the copy). The merge job merges the copies into DIR/NAME.db and\n"
    "names the shards that are not complete; resubmit those (sbatch\n"
    "--array=K DIR/tasks.sbatch) and merge again to finish: merging adds\n"
    "only what is new. The scripts call this rulelab by its absolute path,\n"
    "so DIR and the binary must be on a filesystem every node sees.\n\n"
    "A sweep with an early-stop rule (stop = sprt or ci) is sharded by whole\n"
    "cells. They differ in cost, so `rulelab slurm` first times each cell's\n"
    "first games here (as `rulelab run --dry-run` does) and deals the cells\n"
    "to the tasks by their estimated CPU-seconds, costliest first, each to\n"
    "the least loaded task; the deal goes to DIR/plan.txt, which every task\n"
    "reads (--plan). It prints each task's estimate beside what cell c to\n"
    "task c mod N would give.\n\n"
    "  --tasks N          array tasks, one shard each (1 to 100000)\n"
    "  --dir DIR          the shared folder (default results/NAME-slurm)\n"
    "  --partition P      sbatch --partition\n"
    "  --time T           sbatch --time (a task's limit; the task requeues\n"
    "                     itself before it, so any limit finishes the sweep)\n"
    "  --cpus C           sbatch --cpus-per-task, the task's threads (default 1)\n"
    "  --mem M            sbatch --mem\n"
    "  --local DIR        node-local folder for the live databases (default\n"
    "                     $TMPDIR, else /tmp)\n"
    "  --snapshot-every S seconds between copies to DIR (default 300)\n"
    "  --calibrate S      with a stop rule: CPU-seconds to time each cell\n"
    "                     for, on --cpus threads (default 0.5, at least one\n"
    "                     game a cell; 0: no plan, cell c to task c mod N)\n"
    "  --plan FILE        with a stop rule: use this plan (from `rulelab run\n"
    "                     SWEEP --dry-run --write-plan FILE --shards N`)\n"
    "                     instead of calibrating; copied to DIR/plan.txt\n"
    "  --submit           submit the array and the merge job\n\n"
    "Example, a sweep in 16 tasks of 8 cores, 4 hours each:\n"
    "  rulelab slurm experiments/sweeps/first_mover.ini --tasks 16 \\\n"
    "      --dir /shared/me/fm --partition short --time 4:00:00 --cpus 8 \\\n"
    "      --mem 4G --submit\n"
    "  squeue --me                                  # the array and the merge\n"
    "  rulelab merge /tmp/fm.db /shared/me/fm/shards/*.db && rulelab report "
    "/tmp/fm.db\n"
    "                                               # progress, at any time\n"
    "  cat /shared/me/fm/logs/merge-*.out           # incomplete shards, if any\n"
    "  sbatch --array=3 /shared/me/fm/tasks.sbatch  # one again, then:\n"
    "  sbatch /shared/me/fm/merge.sbatch            # -> /shared/me/fm/first_mover.db\n",
    run_slurm, 1, "needs a sweep file"};
