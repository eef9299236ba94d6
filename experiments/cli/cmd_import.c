/*
 * cmd_import.c -- `rulelab import FILE --db DB`: game records
 * (records.h, as `rulelab export --games` writes them, or another tool)
 * into a results database. Every record is checked before anything is
 * written; one bad record is an error naming it, and the database is left
 * as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli.h"
#include "records.h"
#include "store.h"

/* Reads the whole file at path into *text (*len bytes, NUL-terminated).
 * 0, or -1 with a message on stderr. */
static int read_whole(const char *path, char **text, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!f || !buf) {
        fprintf(stderr, "rulelab import: cannot read %s\n", path);
        free(buf);
        if (f)
            fclose(f);
        return -1;
    }
    for (;;) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            fprintf(stderr, "rulelab import: %s: out of memory\n", path);
            free(buf);
            fclose(f);
            return -1;
        }
        buf = grown;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "rulelab import: cannot read %s\n", path);
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* Removes the database at path that this import made, with its side
 * files. */
static void remove_made(const char *path)
{
    static const char *const sides[] = {"", "-wal", "-shm", "-journal",
                                        ".lock"};
    for (size_t i = 0; i < sizeof sides / sizeof *sides; i++) {
        char side[4200];
        snprintf(side, sizeof side, "%s%s", path, sides[i]);
        remove(side);
    }
}

/* `rulelab import` (the run contract of struct cli_command). */
static int run_import(int argc, char **argv)
{
    int rc;
    const char *db = NULL, *pos[1];
    const struct cli_option opts[] = {{.name = "--db", .value = &db},
                                      {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_import, &rc))
        return rc;
    if (!db)
        return cli_usage_error(&cmd_import, "needs FILE and --db DB");
    char *text, err[8192];
    size_t len;
    struct stat sb;
    if (read_whole(pos[0], &text, &len) != 0)
        return CLI_FAIL;
    int existed = stat(db, &sb) == 0;
    if (existed && sb.st_size > 0
        && store_check_intact(db, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab import: %s\n", err);
        free(text);
        return CLI_FAIL;
    }
    struct store *st;
    if (store_open(db, 0, &st, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab import: %s\n", err);
        free(text);
        return CLI_FAIL;
    }
    struct records_summary sum;
    rc = records_import(st, text, len, pos[0], &sum, err, sizeof err);
    store_close(st);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "rulelab import: %s\n", err);
        if (!existed) /* the empty database this made goes again */
            remove_made(db);
        return CLI_FAIL;
    }
    printf("%ld games imported into %s in %d sweep%s", sum.games, db,
           sum.sweeps, sum.sweeps == 1 ? "" : "s");
    if (sum.already)
        printf("; %ld were there already (the stored ones kept)",
               sum.already);
    printf("\n");
    return CLI_OK;
}

const struct cli_command cmd_import = {
    "import", "read game records into a results database",
    "usage: rulelab import FILE --db DB\n\n"
    "Reads the game records in FILE (as `rulelab export DB --games FILE`\n"
    "writes them, or another tool: docs/play.md, Games as text) into DB\n"
    "(made if missing). Every record is checked first: its variant, the\n"
    "cell of its sweep that holds its agents (the file's SweepFile record\n"
    "of that sweep, or, for games without one, a sweep made for their\n"
    "variant and agents), every move legal from its opening, and its\n"
    "result, reason and plies those of the game replayed. One bad record is\n"
    "an error naming its line, sweep, cell, game index and, for a move, its\n"
    "number, and nothing is written (a DB this made is removed again). A\n"
    "game DB holds already is kept as it is and counted.\n\n"
    "  --db DB  the database to write\n",
    run_import, 1, "needs FILE and --db DB"};
