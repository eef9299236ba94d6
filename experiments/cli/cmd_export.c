/*
 * cmd_export.c -- `rulelab export`: every stored game as one CSV row (the
 * columns of the game_view view, results/README.md), or as game records
 * (both written by records.h). It opens the database
 * read-only and reads it in one transaction, so every row comes from one
 * snapshot even while a sweep is writing it. --out is a one-shot output
 * (outfile.h): refused before any work if it is the database or another
 * one, written beside its path and renamed.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "records.h"
#include "store.h"

/* `rulelab export` (the run contract of struct cli_command): one CSV row
 * per stored game, or the game records of --games, from one read
 * snapshot, to stdout or the output file (a one-shot output: written
 * beside it and renamed, never over the database or another database);
 * CLI_FAIL when the database cannot be read or a write fails. */
static int run_export(int argc, char **argv)
{
    int rc;
    const char *out_path = NULL, *games_path = NULL, *pos[1];
    int csv = 0;
    const struct cli_option opts[] = {
        {.name = "--csv", .flag = &csv},
        {.name = "--out", .value = &out_path},
        {.name = "--games", .value = &games_path},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_export, &rc))
        return rc;
    if (csv == !!games_path)
        return cli_usage_error(&cmd_export, "needs DB and one of --csv and "
                               "--games FILE");
    if (games_path && out_path)
        return cli_usage_error(&cmd_export, "--out is for --csv; --games "
                               "names its own file");
    const char *path = games_path ? games_path : out_path;
    const char *option = games_path ? "--games" : "--out";
    char err[4400];
    if (path && outfile_check(path, option, pos, 1, OUTFILE_ANY, err,
                              sizeof err) != 0) {
        fprintf(stderr, "rulelab export: %s\n", err);
        return CLI_FAIL;
    }
    struct store *st;
    if (cli_open_readonly(pos[0], &st) != 0)
        return CLI_FAIL;
    struct outfile o;
    if (path && outfile_open(&o, path, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab export: %s\n", err);
        store_close(st);
        return CLI_FAIL;
    }
    rc = CLI_OK;
    FILE *out = path ? o.f : stdout;
    if ((games_path ? records_write(store_db(st), out, err, sizeof err)
                    : records_write_csv(store_db(st), out, err, sizeof err)) != 0) {
        fprintf(stderr, "rulelab export: %s\n", err);
        rc = CLI_FAIL;
    }
    store_close(st);
    if (!path)
        return cli_finish_output(stdout, "export", "the CSV") ? CLI_FAIL : rc;
    if (rc != CLI_OK) {
        outfile_abort(&o);
        return rc;
    }
    if (outfile_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab export: %s\n", err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

const struct cli_command cmd_export = {
    "export", "write every stored game as CSV or as game records",
    "usage: rulelab export DB --csv [--out FILE]\n"
    "       rulelab export DB --games FILE\n\n"
    "--csv writes one row per game (the columns of the game_view view, see\n"
    "results/README.md), to stdout or FILE. CSV as RFC 4180 quotes it, with\n"
    "LF line ends: numbers as they are (the seed a signed 64-bit integer),\n"
    "every text value in double quotes (quotes doubled), and a text value\n"
    "that a spreadsheet would run as a formula (starting with = + - @, a\n"
    "tab or a carriage return) prefixed with ' inside its quotes. A text\n"
    "holding a NUL byte is refused, naming its game.\n"
    "--games writes every game as a PGN-style record (tags for the variant,\n"
    "the agents, sweep, seed, index, opening, result and reason, then the\n"
    "moves), each sweep's file before its first game: what `rulelab import`\n"
    "reads back (docs/play.md, Games as text).\n"
    "FILE is written whole or not at all (beside it, then renamed); it may\n"
    "not be DB itself or any other database.\n",
    run_export, 1, "needs DB and --csv or --games FILE"};
