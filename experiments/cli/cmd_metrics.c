/*
 * cmd_metrics.c -- `rulelab metrics DB`: replays the stored games whose
 * game_metrics row is missing or stale and caches their positions and
 * legal move counts (experiments/analysis/metrics.h), for the branching factor
 * `rulelab report --metrics` shows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "metrics.h"
#include "store.h"

static int quiet_progress, progress_shown;

/* The progress line on stderr, rewritten in place when stderr is a
 * terminal (metrics_cache's progress contract). */
static void say_progress(long done, long total)
{
    if (quiet_progress || !isatty(fileno(stderr)))
        return;
    fprintf(stderr, "\rrulelab metrics: %ld of %ld games", done, total);
    progress_shown = 1;
}

/* `rulelab metrics` (the run contract of struct cli_command): CLI_FAIL
 * when DB is missing, cannot be written, is being written by a run, or
 * holds a game that does not replay. */
static int run_metrics(int argc, char **argv)
{
    int rc;
    const char *sweep = NULL, *pos[1];
    int quiet = 0;
    const struct cli_option opts[] = {
        {.name = "--sweep", .value = &sweep},
        {.name = "--quiet", .flag = &quiet},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_metrics, &rc))
        return rc;
    struct stat sb;
    if (stat(pos[0], &sb) != 0) {
        fprintf(stderr, "rulelab metrics: %s: %s\n", pos[0], strerror(errno));
        return CLI_FAIL;
    }
    char err[1024];
    struct store *st;
    if (store_open(pos[0], 0, &st, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab metrics: %s\n", err);
        return CLI_FAIL;
    }
    quiet_progress = quiet;
    struct metrics_result r;
    rc = metrics_cache(st, sweep, &r, say_progress, err, sizeof err);
    store_close(st);
    if (progress_shown)
        fprintf(stderr, "\n");
    if (rc != 0) {
        fprintf(stderr, "rulelab metrics: %s: %s\n", pos[0], err);
        return CLI_FAIL;
    }
    if (sweep && r.games == 0) {
        fprintf(stderr, "rulelab metrics: %s holds no games of a sweep named "
                "'%s'\n", pos[0], sweep);
        return CLI_FAIL;
    }
    printf("%s: %ld games, %ld replayed and cached now, %ld cached before\n",
           pos[0], r.games, r.computed, r.cached);
    return CLI_OK;
}

const struct cli_command cmd_metrics = {
    "metrics", "cache the metrics that need a game replayed (branching factor)",
    "usage: rulelab metrics DB [--sweep NAME] [--quiet]\n\n"
    "Replays every stored game (of sweep NAME only, with --sweep) that has no\n"
    "row in the database's game_metrics table, or one computed under an older\n"
    "version of its game's engine, and caches the number of positions its\n"
    "agents moved from and the sum of their legal move counts. `rulelab\n"
    "report --metrics` then shows each cell's branching factor (legal moves\n"
    "per position, over every position of its cached games). Run it again\n"
    "after more games are played: only the new ones are replayed. It writes\n"
    "the database, so not while a `rulelab run` writes it (it says who holds\n"
    "it).\n\n"
    "  --sweep NAME  only the games of this sweep\n"
    "  --quiet       no progress line\n",
    run_metrics, 1, "needs a database"};
