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
 *    games, with a 95% Wilson interval; where games were played in pairs
 *    from one opening (games.pair_id), the pentanomial counts of the
 *    pairs (agent's points 0, 1/2, 1, 3/2, 2) and a 95% interval over
 *    pairs: mean pair score per game +/- 1.96 sd / sqrt(pairs), sd the
 *    sample standard deviation of the pair scores (report_pairs.c says
 *    why);
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
 *    sample standard deviation) and median;
 *  - the skill trace (report_skill.c has the tests): per variant, each
 *    agent spec's self-play seat-0 score and draw rate with 95% Wilson
 *    intervals, next to its Elo from the ratings fit (ratings.h), and a
 *    verdict from the top two rungs by Elo of one agent family:
 *    converged (TOST on the seat-0 score difference within delta),
 *    still moving (two-proportion z test rejects at alpha), or not
 *    enough games.
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
#include "table.h"

/* How a cell's number of games was decided. */
struct report_stop {
    int rule; /* enum sweep_stop of the cell's sweep; -1 if unreadable */
    int stopped_at; /* games after which the rule ended the cell, or -1 */
    int decision; /* SPRT: enum stats_sprt_decision on the stored games */
    double llr, lower, upper; /* SPRT: log-likelihood ratio, Wald's bounds */
    double p0, p1, alpha, beta; /* SPRT: the hypotheses and error rates */
    double ci_width; /* interval rule: the width it stops at */
};

#define REPORT_LENGTH_BINS 10

struct report_row {
    int64_t cell_id; /* cells only (0 for variants) */
    char variant[VARIANT_TEXT_MAX]; /* canonical */
    char short_variant[VARIANT_TEXT_MAX]; /* only keys off their default */
    char agent[2][VARIANT_TEXT_MAX]; /* "name" per seat; cells only */
    char spec[2][VARIANT_TEXT_MAX];
    long games, wins[2], draws_rules, draws_cap;
    /* games the seat's program gave up (forfeit_* reasons: an outside
     * program's illegal move, late reply or exit), among its losses */
    long forfeits[2];
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
    /* the same counted: how the games ended, most first */
    struct report_ending {
        char reason[32];
        long games;
    } endings[REASON_COUNT];
    int n_endings;
    /* the game lengths: length_bins[i] games of i * length_bin to
     * (i + 1) * length_bin - 1 plies; length_bin is 1, 2 or 5 times a
     * power of ten, so that the longest game falls in the last bins */
    long length_bins[REPORT_LENGTH_BINS];
    long length_bin;
    char sweep[VARIANT_TEXT_MAX]; /* the sweep's name; cells only */
    struct report_stop stop; /* cells only; rule STOP_NONE otherwise */
    int fixed_sample; /* 0: a stop rule ended this cell (or one of this
                       * variant's cells) early, so lo, hi, p are not valid */
    /* Cells only (report_metrics.c defines them); each NAN when none of
     * the cell's games has what it needs: the branching factor (from the
     * game_metrics cache), the lead changes a game and the share of a
     * decisive game played before its winner took the lead for good (from
     * move_stats), with the games each is over. */
    double branching, lead_changes, lead_settled;
    long branching_games, lead_games, settled_games;
};

struct pair_row {
    char variant[VARIANT_TEXT_MAX], short_variant[VARIANT_TEXT_MAX];
    char agent[2][VARIANT_TEXT_MAX]; /* names; spec as in the cells */
    int64_t cell_id[2]; /* agent[0] in seat 0, in seat 1 (0: none) */
    long games; /* over both seat orders */
    double score, lo, hi; /* agent[0]'s score and interval (NAN if not
                           * fixed_sample) */
    int fixed_sample; /* 0: includes a cell a stop rule ended early */
    /* Game pairs (games.pair_id) with both games stored: how many, how
     * many gave agent[0] 0, 1/2, 1, 3/2 and 2 points, and the interval
     * of its score over pairs (NAN: not fixed_sample, fewer than 2
     * pairs, or all of them with the same score). */
    long n_pairs, penta[5];
    double pair_lo, pair_hi;
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

/* The skill trace (rulelab report --skill-trace; report_skill.c has the
 * tests and their reasons). One strength rung: an agent spec's self-play
 * games in a variant, every cell of them pooled, next to its rating from
 * the variant's ratings fit (ratings.h: all games of the variant, or of
 * the sweep reported on, cross-play included). */
struct skill_rung {
    char agent[VARIANT_TEXT_MAX]; /* short name, from its first cell */
    char spec[VARIANT_TEXT_MAX]; /* canonical */
    char family[64]; /* the agent kind: the spec's name, "mcts" */
    long games, wins[2], draws;
    double score, score_lo, score_hi; /* seat-0 score, 95% Wilson */
    double draw, draw_lo, draw_hi; /* draws / games, 95% Wilson */
    int fixed_sample; /* 0: a cell stopped early; the four bounds NAN */
    int rated; /* the fit gave it a rating */
    double elo, elo_lo, elo_hi; /* NAN when not rated */
};

enum skill_verdict {
    SKILL_NOT_ENOUGH, /* neither test decides: "not enough games" */
    SKILL_CONVERGED, /* TOST: the seat-0 scores are within +/- delta */
    SKILL_MOVING /* the two-sided test rejects "equal seat-0 scores" */
};

/* The two tests on the top rung (x1 seat-0 points of n1 games) and the
 * one below it (x2 of n2), d = x1/n1 - x2/n2. */
struct skill_test {
    double diff; /* d */
    double tost_lo, tost_hi; /* Newcombe's (1 - 2 alpha) interval of d */
    double z, p; /* the pooled two-proportion z test of d = 0 */
    enum skill_verdict verdict;
};

/* The verdict of report_skill.c's opening comment from the counts:
 * SKILL_CONVERGED when -delta <= tost_lo and tost_hi <= delta (both
 * one-sided tests reject at level alpha), else SKILL_MOVING when
 * p < alpha, else SKILL_NOT_ENOUGH. 0 <= x1 <= n1, 0 <= x2 <= n2 (x may
 * be fractional: draws count 1/2), 0 < delta < 1, 0 < alpha < 0.5. A
 * sample of no games gives SKILL_NOT_ENOUGH. */
enum skill_verdict report_skill_test(double x1, double n1, double x2,
                                     double n2, double delta, double alpha,
                                     struct skill_test *t);

/* The verdict of sv from its rungs (n_rungs, and each one's family,
 * rated, elo, games, wins, draws, fixed_sample) and ratings_status and
 * ratings_message: sets family, top, second, test and why (not los).
 * top is the highest-rated rung whose family has another rated rung,
 * second the highest-rated other rung of that family; the tests run when
 * both are fixed samples. Without such a pair, or with ratings_status not
 * "ok", the verdict is SKILL_NOT_ENOUGH, top and second -1 and the test's
 * numbers NAN, and why says what is missing. */
struct skill_variant;
void report_skill_judge(struct skill_variant *sv, double delta,
                        double alpha);

/* "converged", "still moving", "not enough games". */
const char *report_skill_verdict_name(enum skill_verdict v);

struct skill_variant {
    char variant[VARIANT_TEXT_MAX], short_variant[VARIANT_TEXT_MAX];
    int n_rungs;
    struct skill_rung *rungs; /* rated by rating ascending, then unrated */
    char ratings_status[16]; /* "ok", "no_games", "infinite", ... */
    char ratings_message[512]; /* why not ok; "" when ok */
    char anchor[VARIANT_TEXT_MAX]; /* the ratings' anchor, and its Elo */
    double anchor_elo;
    /* the verdict: the family and its top two rungs by rating (indices
     * into rungs, -1 when there are not two), their tests and the
     * likelihood of superiority of top over second (NAN if none) */
    char family[64];
    int top, second;
    struct skill_test test;
    double los;
    char why[256]; /* how the verdict was reached, in words */
};

/* The latest `rulelab tune --save` of a variant (the tunings table). */
#define TUNING_MAX_WEIGHTS 32
struct tuning_row {
    char variant[VARIANT_TEXT_MAX], short_variant[VARIANT_TEXT_MAX];
    char created[32], sweep[VARIANT_TEXT_MAX]; /* sweep "": every game */
    long positions, held_out, games;
    double loss_hand, loss_fitted; /* held-out log-loss; NAN: none held out */
    char spec[VARIANT_TEXT_MAX]; /* the fitted agent spec */
    int n_weights;
    char name[TUNING_MAX_WEIGHTS][64];
    double hand[TUNING_MAX_WEIGHTS], fitted[TUNING_MAX_WEIGHTS];
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
    struct tuning_row *tunings; /* one per variant of the report tuned */
    int n_tunings;
    int print_metrics; /* report_print adds the game metrics table (JSON
                        * always has it); 0 after report_build */
    /* the skill trace, after report_build_skill (every format prints it
     * then); none after report_build */
    int skill_trace;
    double skill_delta, skill_alpha;
    struct skill_variant *skill;
    int n_skill;
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

/* Builds the report of every game in db (or of one sweep's, if sweep is
 * not NULL). Returns 0, or -1 with a message. */
int report_build(sqlite3 *db, const char *sweep, struct report *r, char *err,
                 size_t errsz);

void report_free(struct report *r);

/* Adds the skill trace to r, built by report_build from db (and sweep,
 * the same): the self-play rungs from r->cells, the ratings by
 * ratings_build on db and sweep (default anchor). delta and alpha as for
 * report_skill_test. For one snapshot of a database being written, call
 * both inside one savepoint. Returns 0, or -1 with a message. */
int report_build_skill(sqlite3 *db, const char *sweep, double delta,
                       double alpha, struct report *r, char *err,
                       size_t errsz);

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

/* What an HTML page says beside the report: the database's name for its
 * title, the line on its last run (store_last_run_text; "" for none), and,
 * for a page written while a sweep runs (run --html), how often it reloads
 * itself and when it was written (reload_seconds 0: a page that does not
 * reload, as `report --format html` writes). */
struct ratings;

struct html_page {
    const char *source, *last_run;
    int reload_seconds;
    const char *written; /* "2026-12-06T01:50:00Z" when reload_seconds */
    const struct ratings *ratings; /* ratings.h; NULL: no ratings section */
};

/* The report as one self-contained HTML page (report_html.c): a summary
 * in words, a figure of each variant's seat-0 score and interval, the
 * variants and cells tables (sortable by inline script, readable without
 * it), forfeits, variants compared, the skill trace, each variant's game
 * lengths and endings, and the ratings of page->ratings. */
void report_print_html(const struct report *r, const struct html_page *page,
                       FILE *out);

/* The variant with only the keys that differ from the defaults:
 * "tafl(first=defenders)", or "tafl" for all defaults. */
void report_short_variant(const char *canonical, char *out, size_t n);

#endif
