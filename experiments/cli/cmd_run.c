/*
 * cmd_run.c -- `rulelab run`: play a sweep file into a results database.
 * The sweep is read by sweep.c and played by the runner (runner.h) on
 * OpenMP threads into the store; this file reads the options, prints the
 * cells for --dry-run and the summary, and after an interruption the
 * command that resumes.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cost.h"
#include "ext.h"
#include "live_html.h"
#include "outfile.h"
#include "runner.h"
#include "shard.h"
#include "snapshot.h"
#include "store.h"
#include "sweep.h"
#include "variant.h"

/* Writes a duration in CPU-seconds with a rough reading in larger units. */
static void print_seconds(double x)
{
    printf(x < 10 ? "%.2f CPU-s" : "%.1f CPU-s", x);
    if (x >= 7200)
        printf(" (%.1f h)", x / 3600);
    else if (x >= 120)
        printf(" (%.1f min)", x / 60);
}

/* Prints the sweep's seed, its cells (variant and the two agents) with the
 * number of games, and its early-stop rule, for --dry-run; with a shard
 * (sh->n not 0), the games of each cell that shard plays too; with costs
 * (not NULL), each cell's estimated CPU-seconds and the total. */
static void print_cells(const struct sweep *s, const struct shard *sh,
                        const struct cell_cost *cost, double calibrate)
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
        if (cost) {
            printf("  ~");
            print_seconds(cost[i].per_game * s->games_per_cell);
        }
        if (sh->n)
            printf("  shard %d/%d: %ld games", sh->k, sh->n,
                   shard_count(s, sh, i, 0, s->games_per_cell));
        printf("\n");
    }
    if (cost) {
        int timed = 0;
        for (int i = 0; i < s->n_cells; i++)
            timed += cost[i].games;
        struct shard all = {0, 0, NULL};
        printf("estimated cost: ");
        print_seconds(cost_of_shard(s, &all, cost));
        printf(" in all%s, from %d calibration games (each cell's first, "
               "up to %.2g CPU-s a cell, not stored); an estimate on this "
               "machine\n", s->stop != STOP_NONE ? " if no cell stops early"
                                                 : "",
               timed, calibrate);
    }
    if (sh->n) {
        long games = 0;
        for (int i = 0; i < s->n_cells; i++)
            games += shard_count(s, sh, i, 0, s->games_per_cell);
        printf("shard %d/%d plays %ld of the %lld games (%s)", sh->k, sh->n,
               games, (long long)s->n_cells * s->games_per_cell,
               s->stop == STOP_NONE ? "game i of cell c when (c * games + i) "
                                      "mod N = K"
               : sh->plan           ? "whole cells, as the plan deals them"
                                    : "whole cells, cell c when c mod N = K");
        if (cost) {
            printf(", ~");
            print_seconds(cost_of_shard(s, sh, cost));
        }
        printf("\n");
    }
    if (s->stop != STOP_NONE)
        printf("early stop: %s, at least %d games a cell\n",
               s->stop == STOP_SPRT ? "sprt" : "ci", s->min_games);
}

/* --write-plan: deals the cells to n shards by their costs, writes the
 * plan and prints each shard's estimate beside the round-robin deal's.
 * Returns 0, or -1 (said). */
static int write_plan(const struct sweep *s, const char *path, int n,
                      const struct cell_cost *cost)
{
    int *plan = malloc((size_t)s->n_cells * sizeof *plan);
    char err[4400];
    if (!plan || cost_write_plan(s, cost, n, path, plan, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab run: %s\n", plan ? err : "out of memory");
        free(plan);
        return -1;
    }
    double lo, hi, rr_lo, rr_hi;
    cost_shard_range(s, cost, n, plan, &lo, &hi);
    cost_shard_range(s, cost, n, NULL, &rr_lo, &rr_hi);
    printf("plan for %d shards written to %s: each shard ~%.2f to %.2f "
           "CPU-s (cell c to shard c mod N: %.2f to %.2f)\n", n, path, lo, hi,
           rr_lo, rr_hi);
    printf("play shard K with: rulelab run %s --shard K/%d --plan %s\n",
           s->path, n, path);
    free(plan);
    return 0;
}

/* --dry-run: calibrates (unless calibrate is 0), prints the cells and
 * estimates, and writes the plan when asked. Returns a CLI_ status. */
static int dry_run(const struct sweep *s, const struct shard *sh,
                   double calibrate, int threads, const char *plan_out,
                   int plan_shards)
{
    struct cell_cost *cost = NULL;
    if (calibrate > 0) {
        cost = calloc((size_t)s->n_cells, sizeof *cost);
        char err[1200];
        if (!cost) {
            fprintf(stderr, "rulelab run: out of memory\n");
            return CLI_FAIL;
        }
        fprintf(stderr, "calibrating: each cell's first games, up to %.2g "
                "CPU-s a cell on %d thread%s (--calibrate 0: none)\n",
                calibrate, threads, threads == 1 ? "" : "s");
        int ok = cost_calibrate(s, calibrate, threads, cost,
                                cli_progress_cells, err, sizeof err) == 0;
        cli_progress_cells(-1, s->n_cells);
        if (!ok) {
            fprintf(stderr, "rulelab run: %s\n", err);
            free(cost);
            return CLI_FAIL;
        }
    }
    print_cells(s, sh, cost, calibrate);
    int rc = plan_out && write_plan(s, plan_out, plan_shards, cost) != 0
                 ? CLI_FAIL
                 : CLI_OK;
    free(cost);
    return rc;
}

/* The default database: results/NAME.db, creating results/ if needed. */
static void default_db(const struct sweep *s, char *path, size_t n)
{
    mkdir("results", 0777);
    snprintf(path, n, "results/%s.db", s->name);
}

/* The options of `rulelab run`, read and checked by read_args. */
struct run_args {
    const char *sweep, *db, *shard_text, *snapshot, *plan_path, *plan_out;
    const char *html; /* --html FILE */
    long threads, every, plan_shards, html_every;
    double calibrate;
    int quiet, dry, snapshot_replace;
};

/* Reads and checks the options into *a. Returns 1 to go on, or 0 with the
 * command's status in *rc (a usage error, or --help). */
static int read_args(int argc, char **argv, struct run_args *a, int *rc)
{
    const char *pos[1], *calibrate_text = NULL;
    *a = (struct run_args){.threads = omp_get_num_procs(), .every = 300,
                           .calibrate = 0.5, .html_every = 30};
    /* 0: not given (their ranges start at 1) */
    long every = 0, shards = 0, html_every = 0;
    const struct cli_option opts[] = {
        {.name = "--db", .value = &a->db},
        {.name = "--threads", .number = &a->threads, .min = 1, .max = 4096},
        {.name = "--shard", .value = &a->shard_text},
        {.name = "--plan", .value = &a->plan_path},
        {.name = "--calibrate", .value = &calibrate_text},
        {.name = "--write-plan", .value = &a->plan_out},
        {.name = "--shards", .number = &shards, .min = 1, .max = SHARD_MAX},
        {.name = "--snapshot", .value = &a->snapshot},
        {.name = "--snapshot-every", .number = &every, .min = 1,
         .max = 86400 * 365},
        {.name = "--snapshot-replace", .flag = &a->snapshot_replace},
        {.name = "--html", .value = &a->html},
        {.name = "--html-every", .number = &html_every, .min = 1,
         .max = 86400},
        {.name = "--quiet", .flag = &a->quiet},
        {.name = "--dry-run", .flag = &a->dry},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_run, rc))
        return 0;
    a->sweep = pos[0];
    /* The first problem found is said, and the status is CLI_USAGE. */
    *rc = CLI_USAGE;
    if (a->db && !*a->db)
        cli_usage_error(&cmd_run, "--db needs a path, not an empty string "
                        "(SQLite would play into a temporary database and "
                        "throw it away)");
    else if (a->snapshot && !*a->snapshot)
        cli_usage_error(&cmd_run, "--snapshot needs a path");
    else if ((every || a->snapshot_replace) && !a->snapshot)
        cli_usage_error(&cmd_run, "--snapshot-every and --snapshot-replace "
                        "go with --snapshot");
    else if (calibrate_text
             && (!a->dry
                 || spec_parse_number(calibrate_text, 0, &a->calibrate) != 0
                 || a->calibrate < 0 || a->calibrate > 3600))
        cli_usage_error(&cmd_run, "--calibrate '%s': with --dry-run, the "
                        "CPU-seconds to time each cell for, from 0 (no "
                        "estimate) to 3600", calibrate_text);
    else if (a->html && (!*a->html || a->dry))
        cli_usage_error(&cmd_run, "--html needs a path, and plays with the "
                        "sweep (not with --dry-run)");
    else if (!a->html && html_every)
        cli_usage_error(&cmd_run, "--html-every goes with --html FILE");
    else if (a->plan_path && !a->shard_text)
        cli_usage_error(&cmd_run, "--plan FILE goes with --shard K/N");
    else if (a->plan_out && (!a->dry || !shards || a->plan_path
                             || a->calibrate == 0))
        cli_usage_error(&cmd_run, "--write-plan FILE goes with --dry-run and "
                        "--shards N (and not with --plan or --calibrate 0)");
    else if (shards && !a->plan_out)
        cli_usage_error(&cmd_run, "--shards N goes with --write-plan FILE");
    else {
        a->every = every ? every : a->every;
        a->html_every = html_every ? html_every : a->html_every;
        a->plan_shards = shards;
        return 1;
    }
    return 0;
}

/* Plays the sweep (shard) into the database and says how it went; the
 * part of `rulelab run` after the checks. Returns a CLI_ status. */
static int play_sweep(const struct run_args *a, const struct sweep *s,
                      const struct shard *shard)
{
    char err[4096], path[600];
    const char *db = a->db;
    if (!db) {
        default_db(s, path, sizeof path);
        db = path;
    }
    if (a->snapshot && strcmp(a->snapshot, db) == 0)
        return cli_usage_error(&cmd_run, "--snapshot must be another file "
                               "than the database");
    /* before any game: a copy that would destroy something is refused */
    if (a->snapshot
        && snapshot_check_run(a->snapshot, db, s->name, (long long)s->seed,
                              shard->k, shard->n, a->snapshot_replace, err,
                              sizeof err) != 0) {
        fprintf(stderr, "rulelab run: %s\n", err);
        return CLI_FAIL;
    }
    const char *inputs[] = {db, a->snapshot};
    if (a->html && outfile_check(a->html, "--html", inputs,
                                 a->snapshot ? 2 : 1, OUTFILE_ANY, err,
                                 sizeof err) != 0) {
        fprintf(stderr, "rulelab run: %s\n", err);
        return CLI_FAIL;
    }
    struct store *st;
    if (store_open(db, 0, &st, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab run: %s\n", err);
        return CLI_FAIL;
    }
    struct live_html lh;
    if (a->html && live_html_start(&lh, db, a->html, (int)a->html_every, err,
                                   sizeof err) != 0) {
        fprintf(stderr, "rulelab run: --html: %s\n", err);
        store_close(st);
        return CLI_FAIL;
    }
    struct snapshot_every sn;
    if (a->snapshot
        && snapshot_every_start(&sn, db, a->snapshot, (double)a->every,
                                "rulelab run", err, sizeof err) != 0) {
        fprintf(stderr, "rulelab run: %s\n", err);
        if (a->html)
            live_html_stop(&lh);
        store_close(st);
        return CLI_FAIL;
    }
    struct run_options o = {(int)a->threads, a->quiet, 2.0, 500, *shard};
    struct run_result r;
    char engine_logs[4200];
    snprintf(engine_logs, sizeof engine_logs, "%s.engines", db);
    ext_set_log_dir(engine_logs); /* made only when an ext agent plays */
    int rc = runner_run(s, st, &o, &r, err, sizeof err);
    if (a->snapshot)
        snapshot_every_stop(&sn);
    if (a->html) {
        live_html_stop(&lh);
        if (!a->quiet)
            fprintf(stderr, "--html: %ld pages rewritten while playing, in "
                    "%.2f s of one thread\n", lh.writes, lh.write_seconds);
    }
    store_close(st);
    if (rc != 0)
        fprintf(stderr, "rulelab run: %s\n", err);
    /* The last page, as `rulelab report DB --format html` prints it. */
    if (a->html && live_html_write(db, a->html, 0, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab run: --html: %s\n", err);
        rc = -1;
    }
    /* The last copy, of everything committed, whatever the run's end. */
    if (a->snapshot && snapshot_write(db, a->snapshot, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab run: snapshot: %s\n", err);
        rc = -1;
    }
    if (rc != 0)
        return CLI_FAIL;
    if (!a->quiet || r.interrupted) {
        fprintf(stderr, "%ld games played in %.1f s (%.1f games/s) on %ld "
                "threads into %s", r.played, r.seconds,
                r.seconds > 0 ? (double)r.played / r.seconds : 0.0,
                a->threads, db);
        if (r.dropped)
            fprintf(stderr, "; %ld finished past an early stop, not kept",
                    r.dropped);
        fprintf(stderr, "\n");
    }
    if (r.interrupted)
        fprintf(stderr, "interrupted: the games played are saved. To resume, "
                "run the same command again:\n  rulelab run %s --db %s%s%s"
                "%s%s\n", a->sweep, db, a->shard_text ? " --shard " : "",
                a->shard_text ? a->shard_text : "",
                a->plan_path ? " --plan " : "",
                a->plan_path ? a->plan_path : "");
    else if (!a->quiet && r.total == 0)
        fprintf(stderr, "nothing to do: every game of %s is in %s\n",
                a->sweep, db);
    return r.interrupted ? CLI_FAIL : CLI_OK;
}

/* `rulelab run` (the run contract of struct cli_command): plays the games
 * the database lacks; CLI_FAIL when the sweep or the database cannot be
 * read or written, or the run was interrupted (the games played are
 * saved). */
static int run_run(int argc, char **argv)
{
    struct run_args a;
    int rc;
    if (!read_args(argc, argv, &a, &rc))
        return rc;
    struct sweep s;
    struct shard shard = {0, 0, NULL};
    char err[4096];
    int *plan = NULL;
    if (a.shard_text && shard_parse(a.shard_text, &shard, err, sizeof err) != 0)
        return cli_usage_error(&cmd_run, "%s", err);
    if (sweep_load(a.sweep, &s, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab run: %s\n", err);
        return CLI_FAIL;
    }
    rc = CLI_FAIL;
    if ((a.plan_path || a.plan_out) && s.stop == STOP_NONE) {
        rc = cli_usage_error(&cmd_run, "%s has no early-stop rule, so its "
                             "shards play about 1/N of every cell's games "
                             "and balance without a plan; drop --plan and "
                             "--write-plan", a.sweep);
        goto done;
    }
    if (a.plan_path) {
        plan = malloc((size_t)s.n_cells * sizeof *plan);
        if (!plan || shard_plan_read(a.plan_path, &s, shard.n, plan, err,
                                     sizeof err) != 0) {
            fprintf(stderr, "rulelab run: %s\n", plan ? err : "out of memory");
            goto done;
        }
        shard.plan = plan;
    }
    rc = a.dry ? dry_run(&s, &shard, a.calibrate, (int)a.threads, a.plan_out,
                         (int)a.plan_shards)
               : play_sweep(&a, &s, &shard);
done:
    free(plan);
    sweep_free(&s);
    return rc;
}

const struct cli_command cmd_run = {
    "run", "play a sweep file into a results database",
    "usage: rulelab run SWEEP.ini [--db PATH] [--threads N] [--quiet]\n"
    "                   [--shard K/N [--plan FILE]]\n"
    "                   [--snapshot COPY [--snapshot-every SECONDS]\n"
    "                    [--snapshot-replace]]\n"
    "                   [--html FILE [--html-every SECONDS]]\n"
    "       rulelab run SWEEP.ini --dry-run [--calibrate SECONDS] [--threads N]"
    "\n                   [--shard K/N [--plan FILE]]"
    " [--write-plan FILE --shards N]\n\n"
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
    "               game; with one (stop = sprt or ci), whole cells: cell\n"
    "               c is shard c mod N's, or as --plan deals them. Give each\n"
    "               shard its own --db, resume one by running the same\n"
    "               command again, and join them with\n"
    "               `rulelab merge OUT.db SHARD.db...`\n"
    "  --plan FILE  with --shard and a stop rule: take the cells from FILE, a\n"
    "               plan written by --write-plan (every shard must read the\n"
    "               same file; it is checked against the sweep and N)\n"
    "  --quiet      no progress line\n"
    "  --dry-run    play nothing: print the cells, the games of each, and the\n"
    "               estimated CPU-seconds of each cell and of the sweep (of\n"
    "               the shard, with --shard), from a calibration: each cell's\n"
    "               first games played (not stored) on --threads threads for\n"
    "               --calibrate SECONDS of CPU a cell (default 0.5; at least\n"
    "               one game; 0: no calibration, no estimate)\n"
    "  --write-plan FILE --shards N\n"
    "               with --dry-run and a stop rule: deal the whole cells to\n"
    "               N shards by their estimates (costliest first, each to the\n"
    "               least loaded shard) and write the plan to FILE, for\n"
    "               `--shard K/N --plan FILE`; `rulelab slurm` does this\n"
    "               itself\n"
    "  --snapshot COPY\n"
    "               while it plays, copy the database to COPY every\n"
    "               --snapshot-every SECONDS (default 300) and once more at\n"
    "               the end: a consistent copy of what is committed (SQLite's\n"
    "               backup API), written to a temporary name and renamed, so\n"
    "               a reader of COPY never sees half a file; one file, no\n"
    "               -wal beside it (for a shared folder, see `rulelab slurm`).\n"
    "               Checked before any game: COPY may not be the database,\n"
    "               its folder must be writable, and an existing COPY is\n"
    "               replaced only if it is a snapshot of this sweep and\n"
    "               shard (a rerun refreshing it)\n"
    "  --snapshot-replace\n"
    "               replace an existing COPY whatever it holds\n"
    "  --html FILE  keep the report as a page in FILE while it plays\n"
    "               (`rulelab report DB --format html`): written at the\n"
    "               start, every --html-every seconds (default 30), each\n"
    "               time whole beside FILE and renamed, reloading itself\n"
    "               and saying when it was written; the last page, when the\n"
    "               run ends, is what `report DB --format html` prints\n\n"
    "The sweep file format is in docs/sweeps.md and\n"
    "experiments/sweep/sweep.h; ready sweeps are in experiments/sweeps/.\n",
    run_run, 1, "needs a sweep file"};
