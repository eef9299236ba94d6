/*
 * report_metrics.c -- the game metrics per cell (report.h has the
 * definitions, after Ludii's game-evaluation metrics): decisiveness, draws
 * by the rules and by the ply cap with Wilson intervals, and the length
 * in plies; the branching factor from the game_metrics cache
 * (metrics.h); and, from the per-move values of move_stats, lead changes
 * and when the winner took the lead for good; printed as a table
 * (`rulelab report --metrics`) and as JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"
#include "stats.h"

void report_metrics(const struct report_row *c, struct report_metrics *m)
{
    double n = (double)c->games;
    struct {
        double share, *lo, *hi;
        long count;
    } part[3] = {
        {0, &m->decisive_lo, &m->decisive_hi, c->wins[0] + c->wins[1]},
        {0, &m->rule_draws_lo, &m->rule_draws_hi, c->draws_rules},
        {0, &m->cap_draws_lo, &m->cap_draws_hi, c->draws_cap}};
    for (int k = 0; k < 3; k++) {
        if (c->fixed_sample)
            stats_wilson((double)part[k].count, n, 1.959963984540054,
                         part[k].lo, part[k].hi);
        else
            *part[k].lo = *part[k].hi = NAN;
    }
    m->decisive = n > 0 ? (double)part[0].count / n : NAN;
    m->rule_draws = n > 0 ? (double)c->draws_rules / n : NAN;
    m->cap_draws = n > 0 ? (double)c->draws_cap / n : NAN;
    m->mean_plies = c->mean_plies;
    m->median_plies = c->median_plies;
    double half = n > 0 ? 1.959963984540054 * c->sd_plies / sqrt(n) : NAN;
    m->mean_lo = c->fixed_sample ? c->mean_plies - half : NAN;
    m->mean_hi = c->fixed_sample ? c->mean_plies + half : NAN;
}

/* ---- from game_metrics and move_stats ------------------------------------ */

/* The leads of one game, as its move_stats rows come in ply order. The
 * value of row ply is the mover's, and seat 0 moves at the agents' even
 * plies, so seat 0's view is value or 1 - value; above 1/2 seat 0 leads,
 * below it seat 1, at 1/2 nobody (that row is passed over). */
struct lead_walk {
    int64_t game;
    int winner; /* 0, 1, or -1 for a draw */
    int plies; /* the game's agent plies */
    int leader; /* the last leader seen, -1 none yet */
    int changes;
    int settled_at; /* the ply from which the winner led to the end */
};

/* Folds one row (ply, the mover's value) into the walk. */
static void lead_step(struct lead_walk *w, int ply, double value)
{
    double v0 = ply % 2 == 0 ? value : 1 - value;
    int leader = v0 > 0.5 ? 0 : v0 < 0.5 ? 1 : -1;
    if (leader < 0)
        return;
    if (w->leader >= 0 && leader != w->leader)
        w->changes++;
    if (leader == w->winner && (w->leader != leader || w->settled_at < 0))
        w->settled_at = ply;
    if (leader != w->winner)
        w->settled_at = -1;
    w->leader = leader;
}

/* The cell row of cell id `id`, or NULL. */
static struct report_row *cell_of(struct report *r, int64_t id)
{
    for (int i = 0; i < r->n_cells; i++)
        if (r->cells[i].cell_id == id)
            return &r->cells[i];
    return NULL;
}

/* Adds a finished walk to its cell's sums (kept in the cell's fields,
 * turned into means by finish_leads). */
static void lead_done(struct report_row *c, const struct lead_walk *w)
{
    if (!c)
        return;
    c->lead_games++;
    c->lead_changes += w->changes;
    if (w->winner >= 0 && w->plies > 0) {
        /* never led to the end: settled only at the last ply */
        int at = w->settled_at >= 0 ? w->settled_at : w->plies;
        c->settled_games++;
        c->lead_settled += (double)at / w->plies;
    }
}

#define SWEEP_GAMES                                                        \
    " JOIN games g ON g.id = x.game_id JOIN cells c ON c.id = g.cell_id"   \
    " JOIN sweeps s ON s.id = c.sweep_id WHERE (?1 IS NULL OR s.name = ?1)"

int report_read_play_metrics(sqlite3 *db, const char *sweep,
                             struct report *r, char *err, size_t errsz)
{
    for (int i = 0; i < r->n_cells; i++) {
        struct report_row *c = &r->cells[i];
        c->branching = c->lead_changes = c->lead_settled = 0;
        c->branching_games = c->lead_games = c->settled_games = 0;
    }
    sqlite3_stmt *q;
    if (report_prepare_for_sweep(db, "SELECT g.cell_id, COUNT(*), SUM(x.legal_moves),"
                      " SUM(x.positions) FROM game_metrics x" SWEEP_GAMES
                      " GROUP BY g.cell_id", sweep, &q, err, errsz))
        return -1;
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        struct report_row *c = cell_of(r, sqlite3_column_int64(q, 0));
        double positions = sqlite3_column_double(q, 3);
        if (c && positions > 0) {
            c->branching_games = sqlite3_column_int64(q, 1);
            c->branching = sqlite3_column_double(q, 2) / positions;
        }
    }
    sqlite3_finalize(q);
    if (step != SQLITE_DONE
        || report_prepare_for_sweep(db, "SELECT g.cell_id, g.id, IFNULL(g.winner_seat,"
                         " -1), g.plies, x.ply, x.value FROM move_stats x"
                         SWEEP_GAMES " ORDER BY g.cell_id, g.id, x.ply",
                         sweep, &q, err, errsz)) {
        if (step != SQLITE_DONE)
            snprintf(err, errsz, "reading the database: %s",
                     sqlite3_errmsg(db));
        return -1;
    }
    struct lead_walk w = {0, -1, 0, -1, 0, -1};
    struct report_row *cell = NULL;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t game = sqlite3_column_int64(q, 1);
        if (game != w.game) {
            if (w.game)
                lead_done(cell, &w);
            int64_t id = sqlite3_column_int64(q, 0);
            if (!cell || cell->cell_id != id) /* rows come cell by cell */
                cell = cell_of(r, id);
            w = (struct lead_walk){game, sqlite3_column_int(q, 2),
                                   sqlite3_column_int(q, 3), -1, 0, -1};
        }
        lead_step(&w, sqlite3_column_int(q, 4), sqlite3_column_double(q, 5));
    }
    if (w.game)
        lead_done(cell, &w);
    sqlite3_finalize(q);
    if (step != SQLITE_DONE) {
        snprintf(err, errsz, "reading the database: %s", sqlite3_errmsg(db));
        return -1;
    }
    for (int i = 0; i < r->n_cells; i++) {
        struct report_row *c = &r->cells[i];
        if (!c->branching_games)
            c->branching = NAN;
        c->lead_changes = c->lead_games ? c->lead_changes / c->lead_games : NAN;
        c->lead_settled = c->settled_games ? c->lead_settled / c->settled_games
                                           : NAN;
    }
    return 0;
}

/* ---- printing ------------------------------------------------------------ */

static void share_text(char (*row)[VARIANT_TEXT_MAX], double share,
                       double lo, double hi, int valid)
{
    snprintf(row[0], VARIANT_TEXT_MAX, "%.3f", share);
    if (valid)
        snprintf(row[1], VARIANT_TEXT_MAX, "%.3f-%.3f", lo, hi);
    else
        snprintf(row[1], VARIANT_TEXT_MAX, "n/a");
}

void report_print_metrics(const struct report *r, enum report_format f,
                          FILE *out)
{
    static const char *const headers[] = {
        "variant", "seat0", "seat1", "games", "decisive", "decisive_ci95",
        "draws_rules", "draws_rules_ci95", "draws_cap", "draws_cap_ci95",
        "mean_plies", "mean_plies_ci95", "median_plies", "branching",
        "lead_changes", "lead_settled"};
    struct table t;
    if (table_new(&t, headers, 16, r->n_cells))
        return;
    for (int i = 0; i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        char (*row)[VARIANT_TEXT_MAX] = t.cells[i];
        struct report_metrics m;
        report_metrics(c, &m);
        snprintf(row[0], VARIANT_TEXT_MAX, "%s",
                 f == REPORT_CSV ? c->variant : c->short_variant);
        snprintf(row[1], VARIANT_TEXT_MAX, "%s", c->agent[0]);
        snprintf(row[2], VARIANT_TEXT_MAX, "%s", c->agent[1]);
        snprintf(row[3], VARIANT_TEXT_MAX, "%ld", c->games);
        share_text(row + 4, m.decisive, m.decisive_lo, m.decisive_hi,
                   c->fixed_sample);
        share_text(row + 6, m.rule_draws, m.rule_draws_lo, m.rule_draws_hi,
                   c->fixed_sample);
        share_text(row + 8, m.cap_draws, m.cap_draws_lo, m.cap_draws_hi,
                   c->fixed_sample);
        snprintf(row[10], VARIANT_TEXT_MAX, "%.1f", m.mean_plies);
        if (c->fixed_sample)
            snprintf(row[11], VARIANT_TEXT_MAX, "%.1f-%.1f", m.mean_lo,
                     m.mean_hi);
        else
            snprintf(row[11], VARIANT_TEXT_MAX, "n/a");
        snprintf(row[12], VARIANT_TEXT_MAX, "%.1f", m.median_plies);
        table_number_text(row[13], "%.2f", c->branching);
        table_number_text(row[14], "%.2f", c->lead_changes);
        table_number_text(row[15], "%.2f", c->lead_settled);
    }
    table_print_section(&t, "game metrics per cell: decisive (won by either "
                        "seat), drawn by the rules, drawn by the ply cap "
                        "(shares of games, 95% Wilson), length in plies (mean "
                        "with 95% interval, median); branching: legal moves "
                        "per position (games cached by `rulelab metrics`); "
                        "lead_changes a game and lead_settled (share of a "
                        "decisive game before its winner led for good), from "
                        "the agents' move values (sweeps with record = "
                        "search); n/a: no such games", "metrics", f, out);
}

void report_json_metrics(const struct report *r, FILE *out)
{
    fprintf(out, ",\n  \"metrics\": [");
    for (int i = 0; i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        struct report_metrics m;
        report_metrics(c, &m);
        int ok = c->fixed_sample;
        fprintf(out, "%s\n    {\"variant\": ", i ? "," : "");
        json_string(out, c->variant);
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"seat%d\": ", k);
            json_string(out, c->agent[k]);
        }
        fprintf(out, ", \"games\": %ld, \"decisive\": %.6f, "
                "\"decisive_ci95\": ", c->games, m.decisive);
        json_interval(out, "%.6f", ok, m.decisive_lo, m.decisive_hi);
        fprintf(out, ", \"draws_rules\": %.6f, \"draws_rules_ci95\": ",
                m.rule_draws);
        json_interval(out, "%.6f", ok, m.rule_draws_lo, m.rule_draws_hi);
        fprintf(out, ", \"draws_cap\": %.6f, \"draws_cap_ci95\": ",
                m.cap_draws);
        json_interval(out, "%.6f", ok, m.cap_draws_lo, m.cap_draws_hi);
        fprintf(out, ", \"mean_plies\": %.6f, \"mean_plies_ci95\": ",
                m.mean_plies);
        json_interval(out, "%.6f", ok, m.mean_lo, m.mean_hi);
        fprintf(out, ", \"median_plies\": %.1f", m.median_plies);
        const struct {
            const char *name;
            double x;
            long games;
        } play[] = {{"branching", c->branching, c->branching_games},
                    {"lead_changes", c->lead_changes, c->lead_games},
                    {"lead_settled", c->lead_settled, c->settled_games}};
        for (int k = 0; k < 3; k++) {
            fprintf(out, ", \"%s\": ", play[k].name);
            json_number(out, "%.6f", play[k].x);
            fprintf(out, ", \"%s_games\": %ld", play[k].name, play[k].games);
        }
        fprintf(out, ", \"fixed_sample\": %s}", ok ? "true" : "false");
    }
    fprintf(out, "\n  ]");
}
