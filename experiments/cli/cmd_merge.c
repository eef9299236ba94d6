/*
 * cmd_merge.c -- `rulelab merge OUT.db IN.db...`: join shard databases
 * (or any results databases of this schema) into one. The merging is
 * merge.c's; this file reads the arguments and prints what each input
 * added.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "merge.h"
#include "snapshot.h"

#define MAX_INPUTS 4096

/* `rulelab merge` (the run contract of struct cli_command): CLI_USAGE
 * without an output and an input, CLI_FAIL when an input cannot be read
 * or conflicts with what OUT holds (OUT keeps the inputs merged before). */
static int run_merge(int argc, char **argv)
{
    static const char *pos[MAX_INPUTS + 1];
    int n = 0, quiet = 0, replace = 0;
    const char *snapshot = NULL;
    const struct cli_option opts[] = {
        {.name = "--quiet", .flag = &quiet},
        {.name = "--snapshot", .value = &snapshot},
        {.name = "--snapshot-replace", .flag = &replace},
        {.name = NULL}};
    int rc = cli_parse(argc, argv, opts, pos, MAX_INPUTS + 1, &n, &cmd_merge);
    if (rc == -1)
        return CLI_OK;
    if (rc != 0)
        return rc;
    if (n < 2)
        return cli_usage_error(&cmd_merge, "needs the output database and at "
                               "least one input database");
    if (snapshot && (!*snapshot || strcmp(snapshot, pos[0]) == 0))
        return cli_usage_error(&cmd_merge, "--snapshot needs a path other "
                               "than OUT");
    if (replace && !snapshot)
        return cli_usage_error(&cmd_merge, "--snapshot-replace goes with "
                               "--snapshot");
    char err[4096];
    /* before anything is merged: a copy that would destroy a file is
     * refused */
    if (snapshot && snapshot_check_merge(snapshot, pos, n, replace, err,
                                         sizeof err) != 0) {
        fprintf(stderr, "rulelab merge: %s\n", err);
        return CLI_FAIL;
    }
    struct merge_input_result *res = calloc((size_t)n, sizeof *res);
    if (!res) {
        fprintf(stderr, "rulelab merge: out of memory\n");
        return CLI_FAIL;
    }
    rc = merge_databases(pos[0], pos + 1, n - 1, res, err, sizeof err);
    long added = 0;
    for (int i = 0; i < n - 1; i++)
        added += res[i].games_added;
    if (!quiet)
        for (int i = 0; i < n - 1 && (rc == 0 || res[i].games_in
                                      || res[i].skipped); i++) {
            if (res[i].skipped)
                printf("%s: unchanged since its last merge, skipped\n",
                       pos[i + 1]);
            else
                printf("%s: %ld games, %ld new\n", pos[i + 1],
                       res[i].games_in, res[i].games_added);
        }
    free(res);
    /* OUT holds every input merged before a refusal too: publish it all */
    char serr[1024];
    struct stat sb;
    if (snapshot && stat(pos[0], &sb) == 0
        && snapshot_write(pos[0], snapshot, serr, sizeof serr) != 0) {
        fprintf(stderr, "rulelab merge: snapshot: %s\n", serr);
        if (rc == 0)
            return CLI_FAIL;
    }
    if (rc != 0) {
        fprintf(stderr, "rulelab merge: %s\n", err);
        return CLI_FAIL;
    }
    if (!quiet)
        printf("%s: %ld games added\n", pos[0], added);
    return CLI_OK;
}

const struct cli_command cmd_merge = {
    "merge", "merge shard databases (or any results databases) into one",
    "usage: rulelab merge OUT.db IN.db... [--quiet]\n"
    "                     [--snapshot COPY [--snapshot-replace]]\n\n"
    "Copies every row of every input (sweeps, runs, variants, agents, cells,\n"
    "games, claims) into OUT, created if missing, matching rows by what they\n"
    "are (a sweep by name and seed, a cell by its variant and agents, a game\n"
    "by its cell and index, a run by its uid), never by id. Merging again\n"
    "adds only what is new: an input unchanged since its last merge into\n"
    "OUT is skipped at once. An input may still be written by `rulelab run\n"
    "--shard`: merge reads a consistent snapshot of it, without waiting for\n"
    "the run or holding it up, so merging while shards run, and again after,\n"
    "is the way to follow them. OUT may hold several sweeps.\n\n"
    "Refused, naming both databases, and nothing of that input merged:\n"
    "  - a sweep whose name and seed match one in OUT but whose file text\n"
    "    differs;\n"
    "  - a game (cell and index) both hold with different content (seed,\n"
    "    sides, result, reason, plies, moves or opening);\n"
    "  - a cell whose early stops or behaviour versions disagree.\n"
    "Inputs must be at this rulelab's schema (`rulelab migrate IN.db`).\n"
    "Before anything is written: every input must exist, be readable and not\n"
    "be OUT (another name of the same file included), and an existing OUT\n"
    "must pass SQLite's quick_check. A new OUT is built beside its path and\n"
    "renamed into place once an input is merged. An input in a folder merge\n"
    "cannot write is read as it is (its -wal, if any, must be empty).\n"
    "Which run (shard, host) played each game is kept: games.run_id, and\n"
    "runs.shard_index, shard_count, host and source (the input it came\n"
    "from).\n\n"
    "  --quiet  print nothing but errors\n"
    "  --snapshot COPY\n"
    "           then write a consistent copy of OUT to COPY (one file, renamed\n"
    "           into place, as `run --snapshot`): a merge job merges on local\n"
    "           storage and publishes to a shared folder this way. Checked\n"
    "           first: COPY may not be OUT or an input, and an existing COPY\n"
    "           is replaced only if every sweep it holds is in OUT or an\n"
    "           input (an earlier copy of this merge)\n"
    "  --snapshot-replace\n"
    "           replace an existing COPY whatever it holds\n\n"
    "Example, a sweep in 4 shards:\n"
    "  rulelab run sweep.ini --shard 0/4 --db s0.db   # ... to --shard 3/4\n"
    "  rulelab merge all.db s0.db s1.db s2.db s3.db\n",
    run_merge, 0, NULL};
