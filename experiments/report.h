/*
 * report.h -- what a results database says: per cell, per variant and per
 * agent pair, with intervals and tests, computed from the game rows.
 *
 * Definitions (the README repeats them):
 *  - seat-0 score = (seat-0 wins + draws / 2) / games, with a 95% Wilson
 *    interval;
 *  - p = exact two-sided binomial test of "seat 0 wins half of the decisive
 *    games" (a sign test; draws carry no information on who is favoured),
 *    Holm-corrected across the rows of the same table;
 *  - distinct games = how many of the row's games differ from each other
 *    in what was played: the opening (position and moves) and the agents'
 *    moves (two games with the same sequence count once);
 *  - an agent's score in a pair = its points over both seat orders /
 *    games, with a 95% Wilson interval;
 *  - variants compared: two cells of one sweep with the same agents in the
 *    same seats whose variants differ in one parameter only, at adjacent
 *    values of it (in its declared order: numbers ascending, an enum's
 *    choices as listed): the difference (later value minus earlier) in
 *    seat-0 score and in draw rate (draws / games), each with Newcombe's
 *    95% hybrid score interval and the two-proportion z test's p (not
 *    Holm-corrected: each comparison answers its own question); across 3
 *    or more values of a whole-number parameter, the Cochran-Armitage
 *    trend test of each on the parameter's values, with the slope per
 *    unit (stats.h has the formulas);
 *  - game metrics per cell (after Ludii's game-evaluation metrics):
 *    decisiveness = games won by either seat / games, draws by the rules /
 *    games and draws by the ply cap / games, each with a 95% Wilson
 *    interval (the three add up to 1), and the duration in plies: mean
 *    with a 95% normal interval (mean +/- 1.96 sd / sqrt(games), sd the
 *    sample standard deviation) and median.
 *
 * Early stopping. The interval and p above assume the number of games was
 * fixed in advance. A cell that a stop rule ended early (sweep key `stop`)
 * had its number of games chosen by its results, and for it they are not
 * valid (optional stopping: an SPRT cell stops when the evidence looks
 * strong, an interval-rule cell when the interval looks narrow). Such a
 * cell is reported with its stop rule and, for SPRT, the sequential
 * test's own decision with the log-likelihood ratio and Wald's bounds
 * (stats_sprt on the stored games, which are exactly those the rule
 * judged); its interval and p are marked not valid (NAN here, "n/a" in
 * tables, null in JSON) and left out of the Holm correction. A variant or
 * pair row that includes such a cell is marked the same way.
 */
#ifndef RULELAB_REPORT_H
#define RULELAB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "game.h"
#include "openings.h"

/* How a cell's number of games was decided. */
struct report_stop {
    int rule; /* enum sweep_stop of the cell's sweep; -1 if unreadable */
    int stopped_at; /* games after which the rule ended the cell, or -1 */
    int decision; /* SPRT: enum stats_sprt_decision on the stored games */
    double llr, lower, upper; /* SPRT: log-likelihood ratio, Wald's bounds */
    double p0, p1, alpha, beta; /* SPRT: the hypotheses and error rates */
    double ci_width; /* interval rule: the width it stops at */
};

struct report_row {
    int64_t cell_id; /* cells only (0 for variants) */
    char variant[VARIANT_TEXT_MAX]; /* canonical */
    char short_variant[VARIANT_TEXT_MAX]; /* only keys off their default */
    char agent[2][VARIANT_TEXT_MAX]; /* "name" per seat; cells only */
    char spec[2][VARIANT_TEXT_MAX];
    long games, wins[2], draws_rules, draws_cap;
    /* games that differ from each other: distinct (opening position,
     * opening, moves) sequences; below games when two games of the row
     * were played the same, move for move */
    long distinct_games;
    char openings[OPENINGS_SETTING_MAX]; /* cells.openings; "" none */
    double mean_plies, median_plies;
    double sd_plies; /* sample standard deviation of the plies (0 if one) */
    double score0, lo, hi; /* seat-0 score and its 95% interval */
    double p, p_holm; /* lo, hi, p, p_holm: NAN when not fixed_sample */
    char reasons[512]; /* "king_escaped 12, no_capture 3" */
    char sweep[VARIANT_TEXT_MAX]; /* the sweep's name; cells only */
    struct report_stop stop; /* cells only; rule STOP_NONE otherwise */
    int fixed_sample; /* 0: a stop rule ended this cell (or one of this
                       * variant's cells) early, so lo, hi, p are not valid */
};

struct pair_row {
    char variant[VARIANT_TEXT_MAX], short_variant[VARIANT_TEXT_MAX];
    char agent[2][VARIANT_TEXT_MAX]; /* names; spec as in the cells */
    long games; /* over both seat orders */
    double score, lo, hi; /* agent[0]'s score and interval (NAN if not
                           * fixed_sample) */
    int fixed_sample; /* 0: includes a cell a stop rule ended early */
};

/* Solver answers on sampled positions (rulelab claim), per variant,
 * question, ply bound and node budget. */
struct claim_row {
    char variant[VARIANT_TEXT_MAX], short_variant[VARIANT_TEXT_MAX];
    char question[64];
    int plies;
    long node_budget, positions, wins, no_wins, unknown;
    double win_share, lo, hi; /* proven wins / positions, 95% Wilson */
};

/* Two cells compared (see the definitions above): index 0 is the earlier
 * value of the parameter, 1 the later. */
struct compare_row {
    char sweep[VARIANT_TEXT_MAX];
    char agent[2][VARIANT_TEXT_MAX]; /* names, seat 0 and seat 1 */
    char variant[2][VARIANT_TEXT_MAX], short_variant[2][VARIANT_TEXT_MAX];
    char param[64], value[2][64]; /* the parameter and its two values */
    long games[2];
    double score[2], score_diff, score_lo, score_hi, score_p;
    double draw[2], draw_diff, draw_lo, draw_hi, draw_p;
    int fixed_sample; /* 0: a cell was stopped early; lo, hi, p are NAN */
};

/* Up to this many values of one parameter get a trend row. */
#define REPORT_TREND_MAX 32

/* A trend across k >= 3 values of a whole-number parameter, the other
 * parameters, the agents and the sweep held fixed. */
struct trend_row {
    char sweep[VARIANT_TEXT_MAX];
    char agent[2][VARIANT_TEXT_MAX];
    char short_variant[VARIANT_TEXT_MAX]; /* the cell at the first value */
    char param[64];
    int k;
    int value[REPORT_TREND_MAX]; /* ascending */
    long games[REPORT_TREND_MAX];
    double score[REPORT_TREND_MAX], draw[REPORT_TREND_MAX];
    double score_slope, score_p, draw_slope, draw_p; /* per unit; NAN p
                                                      * if not fixed */
    int fixed_sample;
};

struct report {
    struct report_row *cells, *variants;
    int n_cells, n_variants;
    struct pair_row *pairs;
    int n_pairs;
    struct claim_row *claims;
    int n_claims;
    struct compare_row *compares;
    int n_compares;
    struct trend_row *trends;
    int n_trends;
    int print_metrics; /* report_print adds the game metrics table (JSON
                        * always has it); 0 after report_build */
};

/* A cell's game metrics (the definitions above). The intervals are NAN
 * when the cell is not a fixed sample. */
struct report_metrics {
    double decisive, decisive_lo, decisive_hi;
    double rule_draws, rule_draws_lo, rule_draws_hi;
    double cap_draws, cap_draws_lo, cap_draws_hi;
    double mean_plies, mean_lo, mean_hi, median_plies;
};

void report_metrics(const struct report_row *cell, struct report_metrics *m);

enum report_format { REPORT_TABLE, REPORT_CSV, REPORT_JSON, REPORT_MARKDOWN };

/* Builds the report of every game in db (or of one sweep's, if sweep is
 * not NULL). Returns 0, or -1 with a message. */
int report_build(sqlite3 *db, const char *sweep, struct report *r, char *err,
                 size_t errsz);

void report_free(struct report *r);

/* Keeps only the comparisons and trends of parameter param (all if param
 * is NULL). Returns how many rows (comparisons and trends) are left. */
int report_keep_compared(struct report *r, const char *param);

/* Whether param is a parameter of the game of some cell of r. */
int report_has_param(const struct report *r, const char *param);

/* The parameters r compares (before report_keep_compared), each once, in
 * the order first met: "kings_landing, max_plies"; "" when none. */
void report_compared_params(const struct report *r, char *out, size_t n);

/* Words for how row r's number of games was decided: "" for a fixed
 * sample, else e.g. "sprt stopped after 30: accept H1 (score 0.6, not 0.5),
 * llr 3.442 >= 2.944"
 * or "includes cells stopped early" (variants and pairs). */
void report_stop_text(const struct report_row *r, char *out, size_t n);

void report_print(const struct report *r, enum report_format f, FILE *out);

/* A table of text cells, printed aligned (table), as CSV (quoted where
 * needed) or as Markdown; what the report and the ratings print through. */
#define REPORT_MAX_COLUMNS 17

struct report_table {
    int n_columns, n_rows;
    const char *header[REPORT_MAX_COLUMNS];
    char (*cells)[REPORT_MAX_COLUMNS][VARIANT_TEXT_MAX]; /* n_rows rows */
};

/* Prints t's header and rows in format f (not REPORT_JSON). */
void report_table_print(const struct report_table *t, enum report_format f,
                        FILE *out);

/* Writes text as a JSON string (RFC 8259): quotes, backslashes and control
 * characters escaped, each ill-formed UTF-8 subsequence as U+FFFD, so the
 * output is valid JSON in UTF-8 whatever bytes text holds. */
void report_json_string(FILE *out, const char *text);

/* Writes x as a JSON number in the printf format (a double conversion,
 * e.g. "%.6f"), or null when x is not finite (JSON has no NaN or
 * infinity). */
void report_json_number(FILE *out, const char *format, double x);

/* Writes [lo, hi] (each as report_json_number), or null when valid is 0. */
void report_json_interval(FILE *out, const char *format, int valid,
                          double lo, double hi);

/* The variant with only the keys that differ from the defaults:
 * "tafl(first=defenders)", or "tafl" for all defaults. */
void report_short_variant(const char *canonical, char *out, size_t n);

#endif
