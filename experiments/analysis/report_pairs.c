/*
 * report_pairs.c -- the report's agent pairs: each cell joined with the
 * cell of the same variant and the two agents in the other seats, an
 * agent's score over both seat orders, and, where the games were played in
 * pairs from one opening (openings.h, games.pair_id), the pentanomial
 * count of the pairs and the score's interval over pairs.
 *
 * Why pairs: with varied openings, game i of `a vs b` and of `b vs a` start
 * from one position. An opening that decides the game (one side wins
 * whoever plays it) gives each agent one win of the pair, so it moves the
 * score toward 1/2 but carries no information; the Wilson interval over
 * games counts such games as independent evidence and is too wide or too
 * narrow depending on how much the openings decide. Treating each pair as
 * one observation of the agent's points (0, 1/2, 1, 3/2 or 2: the five
 * classes of the pentanomial model that fishtest uses) keeps the games'
 * dependence: the interval is the mean pair score (per game) +/- 1.96
 * times the sample standard deviation of the pair scores / sqrt(pairs).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"
#include "stats.h"

#define Z95 1.959963984540054

/* Reads the complete game pairs of cells a (agent[0] in seat 0) and b (the
 * seats swapped) into p: the pentanomial counts and the interval over
 * pairs; NAN when not fixed_sample, with fewer than 2 pairs, or when every
 * pair scored the same (the normal approximation has no spread to go on:
 * read the interval over games then). */
static int read_pentanomial(sqlite3 *db, struct pair_row *p, char *err,
                            size_t errsz)
{
    static const char *const sql =
        "SELECT a.result, b.result FROM games a JOIN games b"
        " ON b.pair_id = a.pair_id AND b.cell_id = ?2"
        " WHERE a.cell_id = ?1 AND a.pair_id IS NOT NULL";
    p->pair_lo = p->pair_hi = NAN;
    if (!p->cell_id[1])
        return 0;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK
        || sqlite3_bind_int64(q, 1, p->cell_id[0]) != SQLITE_OK
        || sqlite3_bind_int64(q, 2, p->cell_id[1]) != SQLITE_OK) {
        snprintf(err, errsz, "reading the game pairs: %s", sqlite3_errmsg(db));
        sqlite3_finalize(q);
        return -1;
    }
    double sum = 0, sum_sq = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *ra = (const char *)sqlite3_column_text(q, 0);
        const char *rb = (const char *)sqlite3_column_text(q, 1);
        /* agent[0]'s half points: seat 0 in a, seat 1 in b */
        int halves = (strcmp(ra, "seat0") == 0 ? 2 : strcmp(ra, "draw") == 0)
                     + (strcmp(rb, "seat1") == 0 ? 2 : strcmp(rb, "draw") == 0);
        p->penta[halves]++;
        p->n_pairs++;
        double x = halves / 4.0; /* the pair's score per game */
        sum += x;
        sum_sq += x * x;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) {
        snprintf(err, errsz, "reading the game pairs: %s", sqlite3_errmsg(db));
        return -1;
    }
    double n = (double)p->n_pairs;
    double mean = n > 0 ? sum / n : 0.0;
    double var = n > 1 ? (sum_sq - n * mean * mean) / (n - 1.0) : 0.0;
    if (p->fixed_sample && var > 1e-12) {
        double half = Z95 * sqrt(var / n);
        p->pair_lo = fmax(0.0, mean - half);
        p->pair_hi = fmin(1.0, mean + half);
    }
    return 0;
}

/* One pair row from cell a and its swapped cell b (NULL: none stored). */
static void fill_pair(struct pair_row *p, const struct report_row *a,
                      const struct report_row *b)
{
    snprintf(p->variant, sizeof p->variant, "%s", a->variant);
    snprintf(p->short_variant, sizeof p->short_variant, "%s",
             a->short_variant);
    snprintf(p->agent[0], sizeof p->agent[0], "%s", a->agent[0]);
    snprintf(p->agent[1], sizeof p->agent[1], "%s", a->agent[1]);
    double points = (double)a->wins[0]
                    + (double)(a->draws_rules + a->draws_cap) / 2;
    p->games = a->games;
    p->fixed_sample = a->fixed_sample;
    p->cell_id[0] = a->cell_id;
    if (b) {
        points += (double)b->wins[1]
                  + (double)(b->draws_rules + b->draws_cap) / 2;
        p->games += b->games;
        p->fixed_sample &= b->fixed_sample;
        p->cell_id[1] = b->cell_id;
    }
    p->score = p->games ? points / (double)p->games : 0.5;
    if (p->fixed_sample)
        stats_wilson(points, (double)p->games, Z95, &p->lo, &p->hi);
    else
        p->lo = p->hi = NAN;
}

/* report_internal.h */
int report_build_pairs(sqlite3 *db, struct report *r, char *err, size_t errsz)
{
    int n = r->n_cells ? r->n_cells : 1;
    r->pairs = calloc((size_t)n, sizeof *r->pairs);
    char *used = calloc((size_t)n, 1);
    if (!r->pairs || !used) {
        free(used);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < r->n_cells && rc == 0; i++) {
        const struct report_row *a = &r->cells[i], *b = NULL;
        if (used[i] || strcmp(a->spec[0], a->spec[1]) == 0)
            continue;
        used[i] = 1;
        for (int j = i + 1; j < r->n_cells && !b; j++)
            if (!used[j] && strcmp(a->variant, r->cells[j].variant) == 0
                && strcmp(a->spec[0], r->cells[j].spec[1]) == 0
                && strcmp(a->spec[1], r->cells[j].spec[0]) == 0) {
                used[j] = 1;
                b = &r->cells[j];
            }
        struct pair_row *p = &r->pairs[r->n_pairs++];
        fill_pair(p, a, b);
        rc = read_pentanomial(db, p, err, errsz);
    }
    free(used);
    return rc;
}

/* "a-b" for an interval, "n/a" when it is not a number. */
static void interval_text(char *out, double lo, double hi)
{
    if (isnan(lo) || isnan(hi))
        snprintf(out, VARIANT_TEXT_MAX, "n/a");
    else
        snprintf(out, VARIANT_TEXT_MAX, "%.3f-%.3f", lo, hi);
}

/* report_internal.h */
void report_print_pairs(const struct report *r, enum report_format f,
                        FILE *out)
{
    static const char *const headers[] = {
        "variant", "agent", "opponent", "games", "score", "ci95", "pairs",
        "pentanomial", "ci95_pairs", "stop"};
    struct table t;
    if (table_new(&t, headers, 10, r->n_pairs))
        return;
    for (int i = 0; i < r->n_pairs; i++) {
        const struct pair_row *p = &r->pairs[i];
        snprintf(t.cells[i][0], VARIANT_TEXT_MAX, "%s",
                 f == REPORT_CSV ? p->variant : p->short_variant);
        snprintf(t.cells[i][1], VARIANT_TEXT_MAX, "%s", p->agent[0]);
        snprintf(t.cells[i][2], VARIANT_TEXT_MAX, "%s", p->agent[1]);
        snprintf(t.cells[i][3], VARIANT_TEXT_MAX, "%ld", p->games);
        snprintf(t.cells[i][4], VARIANT_TEXT_MAX, "%.3f", p->score);
        interval_text(t.cells[i][5], p->lo, p->hi);
        snprintf(t.cells[i][6], VARIANT_TEXT_MAX, "%ld", p->n_pairs);
        if (p->n_pairs)
            snprintf(t.cells[i][7], VARIANT_TEXT_MAX, "%ld/%ld/%ld/%ld/%ld",
                     p->penta[0], p->penta[1], p->penta[2], p->penta[3],
                     p->penta[4]);
        interval_text(t.cells[i][8], p->pair_lo, p->pair_hi);
        snprintf(t.cells[i][9], VARIANT_TEXT_MAX, "%s",
                 p->fixed_sample ? "" : "includes cells stopped early");
    }
    table_print_section(&t, "agent pairs: each agent's score over both seat "
                        "orders; pentanomial = its game pairs (one opening, "
                        "seats swapped) scoring 0/0.5/1/1.5/2 points",
                        "pairs", f, out);
}

/* report_internal.h */
void report_json_pairs(const struct report *r, FILE *out)
{
    fprintf(out, ",\n  \"pairs\": [");
    for (int i = 0; i < r->n_pairs; i++) {
        const struct pair_row *p = &r->pairs[i];
        fprintf(out, "%s\n    {\"variant\": ", i ? "," : "");
        json_string(out, p->variant);
        json_key_string(out, "agent", p->agent[0]);
        json_key_string(out, "opponent", p->agent[1]);
        fprintf(out, ", \"games\": %ld, \"score\": %.6f, \"ci95\": ",
                p->games, p->score);
        json_interval(out, "%.6f", !isnan(p->lo), p->lo, p->hi);
        fprintf(out, ", \"fixed_sample\": %s, \"pairs\": %ld, "
                "\"pentanomial\": [%ld, %ld, %ld, %ld, %ld], "
                "\"ci95_pairs\": ", p->fixed_sample ? "true" : "false",
                p->n_pairs, p->penta[0], p->penta[1], p->penta[2],
                p->penta[3], p->penta[4]);
        json_interval(out, "%.6f", !isnan(p->pair_lo), p->pair_lo,
                      p->pair_hi);
        fprintf(out, "}");
    }
    fprintf(out, "\n  ]");
}
