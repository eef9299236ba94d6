/*
 * cmd_run.c -- `rulelab run`: play a sweep file into a results database.
 * The sweep is read by sweep.c and played by the runner (runner.h) on
 * OpenMP threads into the store; this file reads the options, prints the
 * cells for --dry-run and the summary, and after an interruption the
 * command that resumes.
 */
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "runner.h"
#include "shard.h"
#include "snapshot.h"
#include "store.h"
#include "sweep.h"

/* Prints the sweep's seed, its cells (variant and the two agents) with the
 * number of games, and its early-stop rule, for --dry-run; with a shard
 * (sh->n not 0), the games of each cell that shard plays too. */
static void print_cells(const struct sweep *s, const struct shard *sh)
{
    printf("sweep %s (seed %llu): %d cells x %d games = %lld games\n", s->name,
           (unsigned long long)s->seed, s->n_cells, s->games_per_cell,
           (long long)s->n_cells * s->games_per_cell);
    for (int i = 0; i < s->n_cells; i++) {
        const struct sweep_cell *c = &s->cells[i];
        const struct openings *o = sweep_cell_openings(s, c);
        printf("  %4d  %s  %s (%s) vs %s (%s)%s%s", i + 1, c->variant_text,
               s->agents[c->agent[0]].name, s->agents[c->agent[0]].spec,
               s->agents[c->agent[1]].name, s->agents[c->agent[1]].spec,
               o ? "  openings: " : "", o ? o->setting : "");
        if (sh->n)
            printf("  shard %d/%d: %ld games", sh->k, sh->n,
                   shard_count(s, sh, i, 0, s->games_per_cell));
        printf("\n");
    }
    if (sh->n) {
        long games = 0;
        for (int i = 0; i < s->n_cells; i++)
            games += shard_count(s, sh, i, 0, s->games_per_cell);
        printf("shard %d/%d plays %ld of the %lld games (%s)\n", sh->k, sh->n,
               games, (long long)s->n_cells * s->games_per_cell,
               s->stop != STOP_NONE ? "whole cells: the sweep stops cells "
                                      "early"
                                    : "game i of cell c when (c * games + i) "
                                      "mod N = K");
    }
    if (s->stop != STOP_NONE)
        printf("early stop: %s, at least %d games a cell\n",
               s->stop == STOP_SPRT ? "sprt" : "ci", s->min_games);
}

/* The default database: results/NAME.db, creating results/ if needed. */
static void default_db(const struct sweep *s, char *path, size_t n)
{
    mkdir("results", 0777);
    snprintf(path, n, "results/%s.db", s->name);
}

/* --snapshot: a thread that copies the live database to `path` every
 * `seconds` while the runner writes (snapshot.h), until told to stop. */
struct snapshotter {
    const char *db, *path;
    double seconds;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop, failed;
    char err[1024];
};

static void *snapshot_main(void *arg)
{
    struct snapshotter *sn = arg;
    pthread_mutex_lock(&sn->lock);
    while (!sn->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += (time_t)sn->seconds;
        until.tv_nsec += (long)((sn->seconds - (double)(time_t)sn->seconds) * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        int rc = 0;
        while (!sn->stop && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&sn->wake, &sn->lock, &until);
        if (sn->stop)
            break;
        pthread_mutex_unlock(&sn->lock);
        char err[1024];
        /* A failed copy in passing is said and retried at the next
         * interval; only the last one, after the run, decides the status. */
        if (snapshot_write(sn->db, sn->path, err, sizeof err) != 0)
            fprintf(stderr, "rulelab run: snapshot: %s\n", err);
        pthread_mutex_lock(&sn->lock);
    }
    pthread_mutex_unlock(&sn->lock);
    return NULL;
}

/* Starts the snapshot thread; 0, or -1 (said). */
static int snapshotter_start(struct snapshotter *sn)
{
    pthread_mutex_init(&sn->lock, NULL);
    pthread_cond_init(&sn->wake, NULL);
    sn->stop = 0;
    if (pthread_create(&sn->thread, NULL, snapshot_main, sn) != 0) {
        fprintf(stderr, "rulelab run: cannot start the snapshot thread\n");
        return -1;
    }
    return 0;
}

/* Stops the snapshot thread (a copy under way finishes first). */
static void snapshotter_stop(struct snapshotter *sn)
{
    pthread_mutex_lock(&sn->lock);
    sn->stop = 1;
    pthread_cond_signal(&sn->wake);
    pthread_mutex_unlock(&sn->lock);
    pthread_join(sn->thread, NULL);
    pthread_cond_destroy(&sn->wake);
    pthread_mutex_destroy(&sn->lock);
}

/* `rulelab run` (the run contract of struct cli_command): plays the games
 * the database lacks; CLI_FAIL when the sweep or the database cannot be
 * read or written, or the run was interrupted (the games played are
 * saved). */
static int run_run(int argc, char **argv)
{
    const char *db = NULL, *threads_text = NULL, *shard_text = NULL, *pos[1];
    const char *snapshot = NULL, *every_text = NULL;
    int quiet = 0, dry_run = 0;
    const struct cli_option opts[] = {{"--db", &db, NULL},
                                      {"--threads", &threads_text, NULL},
                                      {"--shard", &shard_text, NULL},
                                      {"--snapshot", &snapshot, NULL},
                                      {"--snapshot-every", &every_text, NULL},
                                      {"--quiet", NULL, &quiet},
                                      {"--dry-run", NULL, &dry_run},
                                      {NULL, NULL, NULL}};
    int rc;
    if (!cli_parse_exact(argc, argv, opts, pos, 1, &cmd_run,
                         "needs a sweep file", &rc))
        return rc;
    if (db && !*db)
        return cli_usage_error(&cmd_run, "--db needs a path, not an empty "
                               "string (SQLite would play into a temporary "
                               "database and throw it away)");
    long threads = omp_get_num_procs();
    if (threads_text
        && cli_parse_int(threads_text, "--threads", 1, 4096, &threads) != 0)
        return CLI_USAGE;
    if (snapshot && !*snapshot)
        return cli_usage_error(&cmd_run, "--snapshot needs a path");
    if (every_text && !snapshot)
        return cli_usage_error(&cmd_run, "--snapshot-every needs --snapshot");
    long every = 300;
    if (every_text
        && cli_parse_int(every_text, "--snapshot-every", 1, 86400 * 365,
                         &every) != 0)
        return CLI_USAGE;
    struct sweep s;
    struct shard shard = {0, 0};
    char err[4096], path[600];
    if (shard_text && shard_parse(shard_text, &shard, err, sizeof err) != 0)
        return cli_usage_error(&cmd_run, "%s", err);
    if (sweep_load(pos[0], &s, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab run: %s\n", err);
        return CLI_FAIL;
    }
    if (dry_run) {
        print_cells(&s, &shard);
        sweep_free(&s);
        return CLI_OK;
    }
    if (!db) {
        default_db(&s, path, sizeof path);
        db = path;
    }
    struct store *st;
    if (store_open(db, 0, &st, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab run: %s\n", err);
        sweep_free(&s);
        return CLI_FAIL;
    }
    if (snapshot && strcmp(snapshot, db) == 0) {
        store_close(st);
        sweep_free(&s);
        return cli_usage_error(&cmd_run, "--snapshot must be another file "
                               "than the database");
    }
    struct snapshotter sn = {.db = db, .path = snapshot, .seconds = (double)every};
    if (snapshot && snapshotter_start(&sn) != 0) {
        store_close(st);
        sweep_free(&s);
        return CLI_FAIL;
    }
    struct run_options o = {(int)threads, quiet, 2.0, 500, shard};
    struct run_result r;
    rc = runner_run(&s, st, &o, &r, err, sizeof err);
    if (snapshot)
        snapshotter_stop(&sn);
    store_close(st);
    if (rc != 0)
        fprintf(stderr, "rulelab run: %s\n", err);
    /* The last copy, of everything committed, whatever the run's end. */
    char serr[1024];
    if (snapshot && snapshot_write(db, snapshot, serr, sizeof serr) != 0) {
        fprintf(stderr, "rulelab run: snapshot: %s\n", serr);
        rc = -1;
    }
    if (rc != 0) {
        sweep_free(&s);
        return CLI_FAIL;
    }
    if (!quiet || r.interrupted) {
        fprintf(stderr, "%ld games played in %.1f s (%.1f games/s) on %ld "
                "threads into %s", r.played, r.seconds,
                r.seconds > 0 ? (double)r.played / r.seconds : 0.0, threads,
                db);
        if (r.dropped)
            fprintf(stderr, "; %ld finished past an early stop, not kept",
                    r.dropped);
        fprintf(stderr, "\n");
    }
    if (r.interrupted)
        fprintf(stderr, "interrupted: the games played are saved. To resume, "
                "run the same command again:\n  rulelab run %s --db %s%s%s\n",
                pos[0], db, shard_text ? " --shard " : "",
                shard_text ? shard_text : "");
    else if (!quiet && r.total == 0)
        fprintf(stderr, "nothing to do: every game of %s is in %s\n", pos[0],
                db);
    sweep_free(&s);
    return r.interrupted ? CLI_FAIL : CLI_OK;
}

const struct cli_command cmd_run = {
    "run", "play a sweep file into a results database",
    "usage: rulelab run SWEEP.ini [--db PATH] [--threads N] [--shard K/N]"
    " [--quiet] [--dry-run]\n"
    "                   [--snapshot COPY [--snapshot-every SECONDS]]\n\n"
    "Plays every game of the sweep that the database does not hold yet, on\n"
    "N threads (default: all cores), and records each one. Running the same\n"
    "sweep again on the same database resumes it: games already stored are\n"
    "skipped, never repeated. Ctrl-C stops taking new games, lets those in\n"
    "flight finish, saves, and tells how to resume. One run at a time per\n"
    "database (a lock on PATH.lock); readers are never blocked.\n\n"
    "  --db PATH    the database (default results/NAME.db, NAME from the file)\n"
    "  --threads N  worker threads (default: every core)\n"
    "  --shard K/N  play only shard K (0 to N-1) of N: the N shards together\n"
    "               play every game once, each with the seed and moves a\n"
    "               one-machine run gives it. Without an early-stop rule,\n"
    "               game i of cell c (both from 0, in file order) is shard\n"
    "               (c * games + i) mod N's, so shards differ by at most a\n"
    "               game; with one (stop = sprt or ci), cell c is shard\n"
    "               c mod N's, whole. Give each shard its own --db, resume\n"
    "               one by running the same command again, and join them\n"
    "               with `rulelab merge OUT.db SHARD.db...`\n"
    "  --quiet      no progress line\n"
    "  --dry-run    print the cells and the number of games, play nothing\n"
    "  --snapshot COPY\n"
    "               while it plays, copy the database to COPY every\n"
    "               --snapshot-every SECONDS (default 300) and once more at\n"
    "               the end: a consistent copy of what is committed (SQLite's\n"
    "               backup API), written to a temporary name and renamed, so\n"
    "               a reader of COPY never sees half a file; one file, no\n"
    "               -wal beside it (for a shared folder, see `rulelab slurm`)\n\n"
    "The sweep file format is in the README and experiments/sweep.h;\n"
    "ready sweeps are in experiments/sweeps/.\n",
    run_run};
