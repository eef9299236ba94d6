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
 *  - an agent's score in a pair = its points over both seat orders /
 *    games, with a 95% Wilson interval.
 */
#ifndef RULELAB_REPORT_H
#define RULELAB_REPORT_H

#include <stdio.h>

#include <sqlite3.h>

#include "game.h"

struct report_row {
    char variant[VARIANT_TEXT_MAX]; /* canonical */
    char short_variant[VARIANT_TEXT_MAX]; /* only keys off their default */
    char agent[2][VARIANT_TEXT_MAX]; /* "name" per seat; cells only */
    char spec[2][VARIANT_TEXT_MAX];
    long games, wins[2], draws_rules, draws_cap;
    double mean_plies, median_plies;
    double score0, lo, hi; /* seat-0 score and its 95% interval */
    double p, p_holm;
    char reasons[512]; /* "king_escaped 12, no_capture 3" */
};

struct pair_row {
    char variant[VARIANT_TEXT_MAX], short_variant[VARIANT_TEXT_MAX];
    char agent[2][VARIANT_TEXT_MAX]; /* names; spec as in the cells */
    long games; /* over both seat orders */
    double score, lo, hi; /* agent[0]'s score and interval */
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

struct report {
    struct report_row *cells, *variants;
    int n_cells, n_variants;
    struct pair_row *pairs;
    int n_pairs;
    struct claim_row *claims;
    int n_claims;
};

enum report_format { REPORT_TABLE, REPORT_CSV, REPORT_JSON, REPORT_MARKDOWN };

/* Builds the report of every game in db (or of one sweep's, if sweep is
 * not NULL). Returns 0, or -1 with a message. */
int report_build(sqlite3 *db, const char *sweep, struct report *r, char *err,
                 size_t errsz);

void report_free(struct report *r);

void report_print(const struct report *r, enum report_format f, FILE *out);

/* The variant with only the keys that differ from the defaults:
 * "tafl(first=defenders)", or "tafl" for all defaults. */
void report_short_variant(const char *canonical, char *out, size_t n);

#endif
