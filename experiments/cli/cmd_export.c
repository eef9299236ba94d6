/*
 * cmd_export.c -- `rulelab export`: every stored game as one CSV row (the
 * columns of the game_view view, results/README.md). It opens the database
 * read-only and reads it in one transaction, so every row comes from one
 * snapshot even while a sweep is writing it.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "store.h"

/* Writes text (NULL: an empty field) to out as one CSV field, after a
 * comma unless it is the first; quoted, with quotes doubled, when it holds
 * a comma, a quote or a newline. */
static void csv_field(FILE *out, const char *text, int first)
{
    if (!first)
        fputc(',', out);
    if (!text)
        return;
    if (!strpbrk(text, ",\"\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (; *text; text++) {
        if (*text == '"')
            fputc('"', out);
        fputc(*text, out);
    }
    fputc('"', out);
}

/* `rulelab export` (the run contract of struct cli_command): one CSV row
 * per stored game, from one read snapshot, to stdout or --out FILE;
 * CLI_FAIL when the database cannot be read or a write fails. */
static int run_export(int argc, char **argv)
{
    const char *out_path = NULL, *pos[1];
    int csv = 0;
    const struct cli_option opts[] = {{"--csv", NULL, &csv},
                                      {"--out", &out_path, NULL},
                                      {NULL, NULL, NULL}};
    int rc;
    if (!cli_parse_exact(argc, argv, opts, pos, 1, &cmd_export,
                         "needs DB and --csv", &rc))
        return rc;
    if (!csv)
        return cli_usage_error(&cmd_export, "needs DB and --csv");
    struct store *st;
    if (cli_open_readonly(pos[0], &st) != 0)
        return CLI_FAIL;
    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        perror(out_path);
        store_close(st);
        return CLI_FAIL;
    }
    static const char *const columns[] = {
        "id", "sweep", "sweep_seed", "game", "variant", "agent0_name",
        "agent1_name", "agent0", "agent1", "game_index", "seed", "side0",
        "side1", "result", "winner_seat", "reason", "plies", "duration_ms",
        "finished", "moves", "opening_position", "opening", "pair_id",
        "openings"};
    enum { N_COLUMNS = sizeof columns / sizeof columns[0] };
    char sql[640] = "SELECT ";
    for (int i = 0; i < N_COLUMNS; i++) {
        csv_field(out, columns[i], i == 0);
        strcat(sql, columns[i]);
        strcat(sql, i < N_COLUMNS - 1 ? ", " : " FROM game_view ORDER BY id");
    }
    fputc('\n', out);
    /* One read transaction for the whole export, as for report: every row
     * comes from one snapshot even if more statements are added. */
    sqlite3_stmt *q;
    rc = CLI_FAIL;
    if (sqlite3_exec(store_db(st), "BEGIN", NULL, NULL, NULL) == SQLITE_OK
        && sqlite3_prepare_v2(store_db(st), sql, -1, &q, NULL) == SQLITE_OK) {
        int step;
        while ((step = sqlite3_step(q)) == SQLITE_ROW) {
            for (int i = 0; i < N_COLUMNS; i++)
                csv_field(out, (const char *)sqlite3_column_text(q, i), i == 0);
            fputc('\n', out);
        }
        if (step == SQLITE_DONE)
            rc = CLI_OK;
        sqlite3_finalize(q);
    }
    if (rc != CLI_OK)
        fprintf(stderr, "rulelab export: %s\n", sqlite3_errmsg(store_db(st)));
    if (!sqlite3_get_autocommit(store_db(st)))
        sqlite3_exec(store_db(st), "COMMIT", NULL, NULL, NULL);
    if (cli_finish_output(out, "export", out_path ? out_path : "the CSV"))
        rc = CLI_FAIL;
    store_close(st);
    return rc;
}

const struct cli_command cmd_export = {
    "export", "write every stored game as CSV",
    "usage: rulelab export DB --csv [--out FILE]\n\n"
    "Writes one row per game (the columns of the game_view view, see\n"
    "results/README.md), to stdout or FILE.\n",
    run_export};
