/*
 * cmd_migrate.c -- `rulelab migrate`: bring a results database made by an
 * earlier rulelab up to this one's schema, keeping every row. The
 * migrations themselves are the store's (store.c, run when a database is
 * opened for writing); this command only opens and says what changed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "store.h"

/* `rulelab migrate` (the run contract of struct cli_command): opens DB for
 * writing, which upgrades its schema, and prints the versions before and
 * after; CLI_FAIL when DB does not exist or cannot be opened. */
static int run_migrate(int argc, char **argv)
{
    int rc;
    const char *pos[1];
    int before;
    const struct cli_option opts[] = {
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_migrate, &rc))
        return rc;
    char err[1024];
    struct store *st;
    struct stat sb;
    if (stat(pos[0], &sb) != 0) {
        fprintf(stderr, "rulelab migrate: %s: %s\n", pos[0], strerror(errno));
        return CLI_FAIL;
    }
    if (store_check_intact(pos[0], err, sizeof err) != 0
        || store_schema_version(pos[0], &before, err, sizeof err) != 0
        || store_open(pos[0], 0, &st, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab migrate: %s\n", err);
        return CLI_FAIL;
    }
    store_close(st);
    if (before == STORE_SCHEMA_VERSION)
        printf("%s is at schema version %d already\n", pos[0], before);
    else
        printf("%s: schema version %d -> %d\n", pos[0], before,
               STORE_SCHEMA_VERSION);
    return CLI_OK;
}

const struct cli_command cmd_migrate = {
    "migrate", "upgrade a results database to this rulelab's schema",
    "usage: rulelab migrate DB\n\n"
    "Brings the database made by an earlier rulelab up to this one's schema\n"
    "version, keeping every row (`run` does the same when it opens one).\n"
    "`report`, `export` and `replay` read only this version and say so.\n"
    "A database that fails SQLite's quick_check is refused, unchanged.\n",
    run_migrate, 1, "needs a database"};
