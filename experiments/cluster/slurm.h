/*
 * slurm.h -- the sbatch scripts of `rulelab slurm`: a job array whose task
 * K runs `rulelab COMMAND INPUT --shard K/N` with its live database on
 * node-local storage and a snapshot of it in a shared folder, and a merge
 * job that joins the snapshots. Any command that takes --shard, --db,
 * --threads, --snapshot and --snapshot-every can be driven this way (today
 * `run`).
 *
 * In DIR it writes tasks.sbatch and merge.sbatch (and, for a sweep with
 * an early-stop rule, cmd_slurm.c writes plan.txt, the shard plan every
 * task reads); the tasks write
 * DIR/shards/shard-K-of-N.db (the snapshots) and shard-K-of-N.done (once
 * a shard is complete), the logs go to DIR/logs/, and the merge job
 * writes DIR/NAME.db.
 */
#ifndef RULELAB_SLURM_H
#define RULELAB_SLURM_H

#include <stddef.h>
#include <stdio.h>

struct slurm_job {
    const char *rulelab; /* absolute path of the rulelab binary */
    const char *command; /* "run" */
    const char *input; /* absolute path of the sweep file */
    const char *name; /* the sweep's name: job names, NAME.db */
    const char *dir; /* absolute path of the shared folder */
    int tasks; /* N >= 1 */
    int cpus; /* --cpus-per-task, >= 1 */
    const char *partition, *time, *mem; /* sbatch's; NULL: not given */
    const char *local; /* node-local folder; NULL: $TMPDIR, else /tmp */
    int snapshot_every; /* seconds between snapshots */
    int signal_seconds; /* USR1 to the batch shell this long before the
                         * time limit: stop, snapshot, requeue */
    const char *plan; /* absolute path of a shard plan (shard.h) every
                       * task reads with --plan; NULL: none */
};

/* The scripts' texts: the job array and the merge job. Each returns 0, or
 * -1 when a write to f failed. */
int slurm_write_tasks(FILE *f, const struct slurm_job *j);
int slurm_write_merge(FILE *f, const struct slurm_job *j);

/* Writes DIR/tasks.sbatch and DIR/merge.sbatch (mode 0755, each through a
 * temporary name renamed into place) and makes DIR/shards and DIR/logs.
 * Returns 0, or -1 with a message. */
int slurm_write_scripts(const struct slurm_job *j, char *err, size_t errsz);

/* Writes s to f as one shell word in single quotes. */
void slurm_quote(FILE *f, const char *s);

/* Writes s to f as one shell word: as it is when it is not empty and a
 * shell takes every character of it literally, else as slurm_quote. */
void slurm_print_word(FILE *f, const char *s);

/* Runs `sbatch --parsable ARGS SCRIPT` (SCRIPT quoted for the shell) and
 * reads the job id into id (n bytes). Returns 0, or -1 with a message:
 * sbatch could not run, failed, or printed no job id. */
int slurm_submit(const char *args, const char *script, char *id, size_t n,
                 char *err, size_t errsz);

#endif
