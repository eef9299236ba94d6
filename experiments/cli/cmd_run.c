/*
 * cmd_run.c -- `rulelab run`: play a sweep file into a results database.
 * The sweep is read by sweep.c and played by the runner (runner.h) on
 * OpenMP threads into the store; this file reads the options, prints the
 * cells for --dry-run and the summary, and after an interruption the
 * command that resumes.
 */
#include <omp.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cli.h"
#include "runner.h"
#include "shard.h"
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

/* `rulelab run` (the run contract of struct cli_command): plays the games
 * the database lacks; CLI_FAIL when the sweep or the database cannot be
 * read or written, or the run was interrupted (the games played are
 * saved). */
static int run_run(int argc, char **argv)
{
    const char *db = NULL, *threads_text = NULL, *shard_text = NULL, *pos[1];
    int quiet = 0, dry_run = 0;
    const struct cli_option opts[] = {{"--db", &db, NULL},
                                      {"--threads", &threads_text, NULL},
                                      {"--shard", &shard_text, NULL},
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
    struct run_options o = {(int)threads, quiet, 2.0, 500, shard};
    struct run_result r;
    rc = runner_run(&s, st, &o, &r, err, sizeof err);
    store_close(st);
    if (rc != 0) {
        fprintf(stderr, "rulelab run: %s\n", err);
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
    " [--quiet] [--dry-run]\n\n"
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
    "  --dry-run    print the cells and the number of games, play nothing\n\n"
    "The sweep file format is in the README and experiments/sweep.h;\n"
    "ready sweeps are in experiments/sweeps/.\n",
    run_run};
