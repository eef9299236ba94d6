/*
 * cmd_ratings.c -- `rulelab ratings`: Elo ratings of every agent spec per
 * variant, fitted by ratings.c (model, intervals and anchoring are
 * documented there and in the help below), printed as a table, CSV, JSON
 * or Markdown. Like `report` it opens the database read-only, so it is
 * safe while a sweep is writing it.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ratings.h"
#include "store.h"

/* Splits "SPEC=ELO" at its last '=' (a spec has '=' of its own) into
 * spec (of size n) and *elo. Returns 0, or -1 after a usage error. */
static int parse_anchor(const char *text, char *spec, size_t n, double *elo)
{
    const char *eq = strrchr(text, '=');
    if (!eq || eq == text || (size_t)(eq - text) >= n
        || spec_parse_number(eq + 1, 0, elo) != 0) {
        cli_usage_error(&cmd_ratings, "--anchor takes SPEC=ELO (an agent's "
                        "spec or short name, then a number), not '%s'", text);
        return -1;
    }
    memcpy(spec, text, (size_t)(eq - text));
    spec[eq - text] = '\0';
    return 0;
}

/* `rulelab ratings` (the run contract of struct cli_command): the ratings
 * of DB (or of one sweep) in the chosen format on stdout; CLI_FAIL when
 * the database cannot be read, the sweep or the anchor is not in it or
 * the output is lost. */
static int run_ratings(int argc, char **argv)
{
    int rc;
    const char *format = "table", *sweep = NULL, *anchor_text = NULL, *pos[1];
    const struct cli_option opts[] = {
        {.name = "--format", .value = &format},
        {.name = "--sweep", .value = &sweep},
        {.name = "--anchor", .value = &anchor_text},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_ratings, &rc))
        return rc;
    int f = cli_parse_format(&cmd_ratings, format);
    if (f < 0)
        return CLI_USAGE;
    char anchor[VARIANT_TEXT_MAX];
    double anchor_elo = 0;
    if (anchor_text
        && parse_anchor(anchor_text, anchor, sizeof anchor, &anchor_elo))
        return CLI_USAGE;
    struct store *st;
    if (cli_open_sweep(pos[0], sweep, "ratings", &st) != 0)
        return CLI_FAIL;
    struct ratings r;
    char err[4096] = "";
    if (ratings_build(store_db(st), sweep, anchor_text ? anchor : NULL,
                      anchor_elo, &r, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab ratings: %s\n", err);
        store_close(st);
        return CLI_FAIL;
    }
    if (r.n_variants == 0)
        fprintf(stderr, "rulelab ratings: %s holds no games%s%s\n", pos[0],
                sweep ? " of sweep " : "", sweep ? sweep : "");
    ratings_print(&r, (enum report_format)f, stdout);
    ratings_free(&r);
    store_close(st);
    return cli_finish_output(stdout, "ratings", "the ratings") ? CLI_FAIL
                                                               : CLI_OK;
}

const struct cli_command cmd_ratings = {
    "ratings", "Elo ratings of the agents per variant, with a first-move term",
    "usage: rulelab ratings DB [--format table|csv|json|markdown]\n"
    "                          [--sweep NAME] [--anchor SPEC=ELO]\n\n"
    "Per variant (each fitted on its own), the Elo rating of every agent spec\n"
    "that played it, by maximum likelihood over all its stored games:\n"
    "Davidson's Bradley-Terry model with draws (a draw is half a point; among\n"
    "decisive games it is plain Bradley-Terry, so Elo differences do not\n"
    "stretch with the draw rate), with a first-move (seat 0) advantage in\n"
    "Elo and the draw parameter nu fitted at the same time, so the seat's\n"
    "advantage does not leak into the ratings. Self-play games inform the\n"
    "seat term and nu only.\n\n"
    "95% intervals are +/- 1.96 standard errors from the inverse Hessian of\n"
    "the log-likelihood at its maximum (no resampling), relative to the\n"
    "anchor, whose rating is fixed. los_next is the likelihood of\n"
    "superiority of each agent over the next one down (normal\n"
    "approximation of their difference, with its covariance).\n\n"
    "Agents that never met the anchor's group (directly or through others)\n"
    "are listed as not rated. A variant where some agents won (or lost)\n"
    "every game against the rest, where one seat never won, or where every\n"
    "game was drawn has no finite estimate: it says so and prints no\n"
    "numbers. Safe while a sweep is writing.\n\n"
    "  --format F        table (default), csv, json or markdown\n"
    "  --sweep NAME      only the games of sweeps of this name; without it\n"
    "                    each variant pools the games of every sweep (said)\n"
    "  --anchor SPEC=ELO hold this agent (a spec, in any spelling, or a\n"
    "                    short name from a sweep file) at ELO; default:\n"
    "                    random at 0 where it played, else the first agent\n"
    "                    of the sweep file, at 0\n",
    run_ratings, 1, "needs a database"};
