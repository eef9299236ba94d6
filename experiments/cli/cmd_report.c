/*
 * cmd_report.c -- `rulelab report`: what the games of a results database
 * say (win rates per seat with intervals and tests, per cell, variant and
 * agent pair, and variants compared along one parameter), built by
 * report.c and printed as a table, CSV, JSON or Markdown. It opens the database read-only, so it is safe while a sweep
 * is writing it.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "ratings.h"
#include "report.h"
#include "store.h"
#include "variant.h"

/* Prints r in format f (-1: the HTML page, with page's lines) to stdout,
 * or to out_path whole or not at all (written beside it, then renamed).
 * Returns CLI_OK, or CLI_FAIL after a message. */
static int write_report(const struct report *r, int f,
                        const struct html_page *page, const char *out_path)
{
    struct outfile o;
    char err[4400];
    if (out_path && outfile_open(&o, out_path, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab report: %s\n", err);
        return CLI_FAIL;
    }
    FILE *out = out_path ? o.f : stdout;
    if (f < 0)
        report_print_html(r, page, out);
    else
        report_print(r, (enum report_format)f, out);
    if (!out_path)
        return cli_finish_output(stdout, "report", "the report") ? CLI_FAIL
                                                                  : CLI_OK;
    if (outfile_commit(&o, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab report: %s\n", err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* `rulelab report` (the run contract of struct cli_command): the report
 * of DB (or of one sweep) in the chosen format on stdout; CLI_FAIL when
 * the database cannot be read, the sweep is not in it or the output is
 * lost. */
static int run_report(int argc, char **argv)
{
    int rc;
    const char *format = "table", *sweep = NULL, *compare = NULL, *pos[1];
    const char *delta_text = NULL, *alpha_text = NULL, *out_path = NULL;
    int metrics = 0, skill = 0;
    const struct cli_option opts[] = {
        {.name = "--format", .value = &format},
        {.name = "--sweep", .value = &sweep},
        {.name = "--compare", .value = &compare},
        {.name = "--metrics", .flag = &metrics},
        {.name = "--skill-trace", .flag = &skill},
        {.name = "--delta", .value = &delta_text},
        {.name = "--alpha", .value = &alpha_text},
        {.name = "--out", .value = &out_path},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_report, &rc))
        return rc;
    int html = strcmp(format, "html") == 0;
    int f = html ? REPORT_TABLE : cli_parse_format(&cmd_report, format);
    if (f < 0)
        return CLI_USAGE;
    double delta = 0.05, alpha = 0.05;
    if ((delta_text || alpha_text) && !skill)
        return cli_usage_error(&cmd_report, "--delta and --alpha go with "
                               "--skill-trace");
    if (delta_text && (spec_parse_number(delta_text, 0, &delta) != 0
                       || !(delta > 0 && delta < 0.5)))
        return cli_usage_error(&cmd_report, "--delta takes a number above 0 "
                               "and below 0.5, not '%s'", delta_text);
    if (alpha_text && (spec_parse_number(alpha_text, 0, &alpha) != 0
                       || !(alpha > 0 && alpha < 0.5)))
        return cli_usage_error(&cmd_report, "--alpha takes a number above 0 "
                               "and below 0.5, not '%s'", alpha_text);
    char err[4400] = "";
    if (out_path && outfile_check(out_path, "--out", pos, 1, OUTFILE_ANY, err,
                                  sizeof err) != 0) {
        fprintf(stderr, "rulelab report: %s\n", err);
        return CLI_FAIL;
    }
    struct store *st;
    if (cli_open_sweep(pos[0], sweep, "report", &st) != 0)
        return CLI_FAIL;
    struct report r;
    sqlite3 *db = store_db(st);
    /* the report, the ratings of the skill trace and those of the page
     * read one snapshot */
    int snapshot = skill || html;
    struct ratings rt = {0};
    if (snapshot && store_read_begin(db, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab report: %s\n", err);
        store_close(st);
        return CLI_FAIL;
    }
    int built = report_build(db, sweep, &r, err, sizeof err) == 0;
    if (built && skill
        && report_build_skill(db, sweep, delta, alpha, &r, err, sizeof err)) {
        report_free(&r);
        built = 0;
    }
    if (built && html
        && ratings_build(db, sweep, NULL, 0.0, &rt, err, sizeof err) != 0) {
        report_free(&r);
        built = 0;
    }
    if (snapshot && store_read_end(db, err, sizeof err) != 0 && built) {
        report_free(&r);
        built = 0;
    }
    if (!built) {
        fprintf(stderr, "rulelab report: %s\n", err);
        ratings_free(&rt);
        store_close(st);
        return CLI_FAIL;
    }
    if (r.n_cells && compare && !report_has_param(&r, compare)) {
        char params[1024];
        report_compared_params(&r, params, sizeof params);
        fprintf(stderr, "rulelab report: --compare %s: no game of %s%s%s%s "
                "has a parameter '%s'; parameters that can be compared: "
                "%s\n", compare, pos[0], sweep ? " (sweep " : "",
                sweep ? sweep : "", sweep ? ")" : "", compare,
                params[0] ? params : "none (no two cells differ in one "
                "parameter alone, same sweep and agents)");
        report_free(&r);
        ratings_free(&rt);
        store_close(st);
        return CLI_FAIL;
    }
    if (r.n_cells == 0)
        fprintf(stderr, "rulelab report: %s holds no games%s%s\n", pos[0],
                sweep ? " of sweep " : "", sweep ? sweep : "");
    else if (report_keep_compared(&r, compare) == 0 && compare)
        fprintf(stderr, "rulelab report: no two cells differ in '%s' alone "
                "(same sweep and agents): nothing to compare\n", compare);
    r.print_metrics = metrics;
    char last_run[512] = "";
    if (html)
        store_last_run_text(db, sweep, last_run, sizeof last_run);
    struct html_page page = {pos[0], last_run, 0, NULL, &rt};
    rc = write_report(&r, html ? -1 : f, &page, out_path);
    report_free(&r);
    ratings_free(&rt);
    store_close(st);
    return rc;
}

const struct cli_command cmd_report = {
    "report", "win rates, intervals and tests from a results database",
    "usage: rulelab report DB [--format table|csv|json|markdown|html]\n"
    "                         [--sweep NAME] [--compare PARAM] [--metrics]\n"
    "                         [--out FILE]\n"
    "                         [--skill-trace [--delta D] [--alpha A]]\n\n"
    "Per cell (variant x seat-0 agent x seat-1 agent), per variant and per\n"
    "agent pair: games, wins of each seat, draws by the rules and by the ply\n"
    "cap, wins by reason, mean and median plies; the seat-0 score (wins +\n"
    "draws/2, over games) with its 95% Wilson interval; the exact two-sided\n"
    "binomial p-value of \"seat 0 wins half the decisive games\", and the\n"
    "same Holm-corrected across the rows of the table; for agent pairs, each\n"
    "agent's score over both seat orders. Safe while a sweep is writing.\n"
    "A cell that the sweep's stop rule (sprt, ci) ended early had its number\n"
    "of games chosen by its results: its stop column gives the sequential\n"
    "test's own decision (SPRT: accept H0 or H1, the log-likelihood ratio\n"
    "and the bound it crossed), and its interval and p are n/a (null in\n"
    "JSON) and left out of Holm, as are variant and pair rows that include\n"
    "it.\n"
    "Variants compared: for two cells of one sweep with the same agents in\n"
    "the same seats whose variants differ in one parameter alone, at\n"
    "adjacent values, the change in seat-0 score and in draw rate (later\n"
    "value minus earlier) with Newcombe's 95% interval and the\n"
    "two-proportion z test's p; across 3 or more values of a whole-number\n"
    "parameter, the Cochran-Armitage trend test and the slope per unit.\n"
    "Game metrics per cell (--metrics; always in JSON): decisive, drawn by\n"
    "the rules and drawn by the ply cap as shares of games with 95% Wilson\n"
    "intervals, and the length in plies (mean with a 95% interval, median).\n"
    "Skill trace (--skill-trace; in JSON too, as skill_trace): per variant,\n"
    "each agent spec that played itself is a strength rung: its self-play\n"
    "seat-0 score and draw rate (all its self-play cells pooled) with 95%\n"
    "Wilson intervals, next to its Elo with a 95% interval from the ratings\n"
    "fit (`rulelab ratings`: all games of the variant, cross-play included,\n"
    "default anchor). A verdict per variant from the two highest-rated rungs\n"
    "of one agent family (agent kind: mcts, ab; the family of the best rung\n"
    "that has a second), d = their difference in seat-0 score (top minus\n"
    "second): \"converged\" when TOST shows |d| < delta at level alpha (both\n"
    "one-sided tests: Newcombe's hybrid score interval for a difference of\n"
    "two proportions at 1 - 2 alpha, from Wilson's score variance, lies\n"
    "inside +/-delta); else \"still moving\" when the two-sided\n"
    "two-proportion z test (pooled variance) rejects d = 0 at alpha; else\n"
    "\"not enough games\" (also without two rated rungs of one family, or\n"
    "with a rung stopped early). Both treat a game's score as a Bernoulli\n"
    "trial, a draw half a success, as the report's intervals do; with\n"
    "draws that variance is an upper bound, so both are conservative.\n\n"
    "  --format F     table (default), csv, json, markdown, or html: one\n"
    "                 self-contained page (no network) with a summary in\n"
    "                 words, a figure of each variant's seat-0 score and\n"
    "                 interval, the variants and cells tables, game\n"
    "                 lengths, how games ended, and the ratings\n"
    "  --sweep NAME   only the games of this sweep\n"
    "  --out FILE     write the report to FILE, whole or not at all (beside\n"
    "                 it, then renamed), instead of stdout; never onto DB\n"
    "                 or another results database\n"
    "  --compare PARAM  compare variants only along this parameter (an\n"
    "                 error, listing those that can be, if no game of DB\n"
    "                 has it)\n"
    "  --metrics      add the game metrics table (every format)\n"
    "  --skill-trace  add the skill trace and its verdicts (every format)\n"
    "  --delta D      the skill trace's equivalence margin on the seat-0\n"
    "                 score difference (default 0.05; 0 < D < 0.5)\n"
    "  --alpha A      its tests' level (default 0.05; 0 < A < 0.5)\n",
    run_report, 1, "needs a database"};
