/*
 * report.c -- building the report from the game rows, and printing it as a
 * table, CSV, JSON or Markdown. See report.h for the definitions.
 *
 * All counting is done by SQL over the games; medians and the reasons are
 * read in order and folded here. The same aggregation serves cells (keyed
 * by cell) and variants (keyed by canonical variant).
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "sweep.h"

static int fail(sqlite3 *db, char *err, size_t errsz)
{
    snprintf(err, errsz, "reading the database: %s", sqlite3_errmsg(db));
    return -1;
}

/* Prepares sql, whose ?1 is the sweep reported on (NULL: every sweep).
 * Returns 0 with *q ready to step, or -1 with a message and *q NULL. */
static int prepare_for_sweep(sqlite3 *db, const char *sql, const char *sweep,
                             sqlite3_stmt **q, char *err, size_t errsz)
{
    if (sqlite3_prepare_v2(db, sql, -1, q, NULL) == SQLITE_OK
        && (!sweep
            || sqlite3_bind_text(*q, 1, sweep, -1, SQLITE_STATIC) == SQLITE_OK))
        return 0;
    fail(db, err, errsz);
    sqlite3_finalize(*q);
    *q = NULL;
    return -1;
}

void report_short_variant(const char *canonical, char *out, size_t n)
{
    struct variant v, defaults;
    char err[256];
    if (variant_parse(canonical, &v, err, sizeof err) != 0) {
        snprintf(out, n, "%s", canonical);
        return;
    }
    variant_default(v.game, &defaults);
    size_t len = (size_t)snprintf(out, n, "%s", v.game->name);
    int any = 0;
    for (int i = 0; i < v.game->n_params && len < n; i++) {
        if (v.values[i] == defaults.values[i])
            continue;
        char value[64];
        param_value_text(&v.game->params[i], v.values[i], value, sizeof value);
        len += (size_t)snprintf(out + len, n - len, "%s%s=%s", any ? "," : "(",
                                v.game->params[i].name, value);
        any = 1;
    }
    if (any && len < n)
        snprintf(out + len, n - len, ")");
}

static const char *const from_where =
    " FROM games g JOIN cells c ON c.id = g.cell_id"
    " JOIN sweeps s ON s.id = c.sweep_id JOIN variants v ON v.id = c.variant_id"
    " JOIN agents a0 ON a0.id = c.agent0_id JOIN agents a1 ON a1.id = c.agent1_id"
    " WHERE (?1 IS NULL OR s.name = ?1)";

/* Fills rows grouped by key (an SQL expression): counts, mean plies. */
static int count_rows(sqlite3 *db, const char *key, const char *sweep,
                      struct report_row **rows, int *n, char *err,
                      size_t errsz)
{
    char sql[2048];
    snprintf(sql, sizeof sql,
             "SELECT %s, v.canonical, c.agent0_name, c.agent1_name, a0.spec,"
             " a1.spec, COUNT(*), SUM(g.result = 'seat0'),"
             " SUM(g.result = 'seat1'),"
             " SUM(g.result = 'draw' AND g.reason <> 'ply_cap'),"
             " SUM(g.result = 'draw' AND g.reason = 'ply_cap'), AVG(g.plies),"
             " s.name, AVG(g.plies * g.plies)%s GROUP BY %s ORDER BY MIN(c.id)",
             key, from_where, key);
    sqlite3_stmt *q;
    if (prepare_for_sweep(db, sql, sweep, &q, err, errsz))
        return -1;
    int cap = 0, rc;
    *n = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            struct report_row *grown = realloc(*rows, sizeof *grown * (size_t)cap);
            if (!grown) {
                sqlite3_finalize(q);
                snprintf(err, errsz, "out of memory");
                return -1;
            }
            *rows = grown;
        }
        struct report_row *r = &(*rows)[(*n)++];
        memset(r, 0, sizeof *r);
        if (sqlite3_column_type(q, 0) == SQLITE_INTEGER)
            r->cell_id = sqlite3_column_int64(q, 0);
        r->stop.rule = STOP_NONE;
        r->stop.stopped_at = -1;
        r->fixed_sample = 1;
        snprintf(r->variant, sizeof r->variant, "%s", sqlite3_column_text(q, 1));
        report_short_variant(r->variant, r->short_variant,
                             sizeof r->short_variant);
        for (int k = 0; k < 2; k++) {
            snprintf(r->agent[k], sizeof r->agent[k], "%s",
                     sqlite3_column_text(q, 2 + k));
            snprintf(r->spec[k], sizeof r->spec[k], "%s",
                     sqlite3_column_text(q, 4 + k));
        }
        r->games = sqlite3_column_int64(q, 6);
        r->wins[0] = sqlite3_column_int64(q, 7);
        r->wins[1] = sqlite3_column_int64(q, 8);
        r->draws_rules = sqlite3_column_int64(q, 9);
        r->draws_cap = sqlite3_column_int64(q, 10);
        r->mean_plies = sqlite3_column_double(q, 11);
        /* The sample variance from the mean square (plies are small
         * whole numbers, so the difference keeps its digits). */
        double games = (double)r->games;
        double var = (sqlite3_column_double(q, 13)
                      - r->mean_plies * r->mean_plies) * games / (games - 1.0);
        r->sd_plies = games > 1.0 && var > 0.0 ? sqrt(var) : 0.0;
        if (sqlite3_column_type(q, 0) == SQLITE_INTEGER) /* cells only */
            snprintf(r->sweep, sizeof r->sweep, "%s",
                     sqlite3_column_text(q, 12));
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : fail(db, err, errsz);
}

/* Runs `SELECT group, <select> ... [GROUP BY group, <group_by>] ORDER BY
 * group, <order>` and hands each result row to fold() with its position
 * within its group. Groups are numbered in the order of count_rows. */
static int fold_groups(sqlite3 *db, const char *key, const char *sweep,
                       const char *select, const char *group_by,
                       const char *order, struct report_row *rows, int n,
                       void (*fold)(struct report_row *, sqlite3_stmt *, long),
                       char *err, size_t errsz)
{
    char sql[2048], grouping[256] = "";
    if (group_by)
        snprintf(grouping, sizeof grouping, " GROUP BY r.idx, %s", group_by);
    snprintf(sql, sizeof sql,
             "WITH k AS (SELECT %s AS key, MIN(c.id) AS first%s GROUP BY %s),"
             " r AS (SELECT key, ROW_NUMBER() OVER (ORDER BY first) - 1 AS idx"
             " FROM k)"
             " SELECT r.idx, %s FROM games g JOIN cells c ON c.id = g.cell_id"
             " JOIN sweeps s ON s.id = c.sweep_id"
             " JOIN variants v ON v.id = c.variant_id"
             " JOIN r ON r.key = %s WHERE (?1 IS NULL OR s.name = ?1)%s"
             " ORDER BY r.idx, %s",
             key, from_where, key, select, key, grouping, order);
    sqlite3_stmt *q;
    if (prepare_for_sweep(db, sql, sweep, &q, err, errsz))
        return -1;
    int rc, last = -1;
    long pos = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        int idx = sqlite3_column_int(q, 0);
        if (idx < 0 || idx >= n)
            continue;
        pos = idx == last ? pos + 1 : 0;
        last = idx;
        fold(&rows[idx], q, pos);
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : fail(db, err, errsz);
}

/* Median plies: a group's rows come sorted by plies. */
static void fold_median(struct report_row *r, sqlite3_stmt *q, long pos)
{
    long n = r->games;
    double plies = (double)sqlite3_column_int64(q, 1);
    if (n % 2 && pos == n / 2)
        r->median_plies = plies;
    else if (!(n % 2) && (pos == n / 2 - 1 || pos == n / 2))
        r->median_plies += plies / 2;
}

static void fold_reason(struct report_row *r, sqlite3_stmt *q, long pos)
{
    size_t len = strlen(r->reasons);
    snprintf(r->reasons + len, sizeof r->reasons - len, "%s%s %lld",
             pos ? ", " : "", sqlite3_column_text(q, 1),
             (long long)sqlite3_column_int64(q, 2));
}

/* Score, interval and tests of every row, Holm across the rows whose p
 * is valid (fixed_sample); the others get NAN. */
static int score_rows(struct report_row *rows, int n)
{
    double *p = malloc(sizeof *p * (size_t)(n ? n : 1));
    double *adjusted = malloc(sizeof *adjusted * (size_t)(n ? n : 1));
    int *row_of = malloc(sizeof *row_of * (size_t)(n ? n : 1));
    int m = 0, rc = -1;
    if (!p || !adjusted || !row_of)
        goto done;
    for (int i = 0; i < n; i++) {
        struct report_row *r = &rows[i];
        double draws = (double)(r->draws_rules + r->draws_cap);
        double points = (double)r->wins[0] + draws / 2;
        r->score0 = r->games ? points / (double)r->games : 0.5;
        if (!r->fixed_sample) {
            r->lo = r->hi = r->p = r->p_holm = NAN;
            continue;
        }
        stats_wilson(points, (double)r->games, 1.959963984540054, &r->lo,
                     &r->hi);
        r->p = stats_binomial_two_sided_p(r->wins[0], r->wins[0] + r->wins[1],
                                          0.5);
        row_of[m] = i;
        p[m++] = r->p;
    }
    rc = stats_holm(p, m, adjusted);
    for (int k = 0; k < m && rc == 0; k++)
        rows[row_of[k]].p_holm = adjusted[k];
done:
    free(p);
    free(adjusted);
    free(row_of);
    return rc;
}

static int build_level(sqlite3 *db, const char *key, const char *sweep,
                       struct report_row **rows, int *n, char *err,
                       size_t errsz)
{
    if (count_rows(db, key, sweep, rows, n, err, errsz)
        || fold_groups(db, key, sweep, "g.plies", NULL, "g.plies", *rows, *n,
                       fold_median, err, errsz)
        || fold_groups(db, key, sweep, "g.reason, COUNT(*)", "g.reason",
                       "COUNT(*) DESC, g.reason", *rows, *n, fold_reason, err,
                       errsz))
        return -1;
    return 0;
}

/* The stop rule of a cell's sweep and what it decided, from the sweep
 * file stored with the results (parsed once per sweep). */
static void judge_stop(struct report_row *row, const struct sweep *sw,
                       int stopped_at, long planned)
{
    struct report_stop *st = &row->stop;
    st->rule = sw ? (int)sw->stop : -1;
    st->stopped_at = stopped_at >= 0 && stopped_at < planned ? stopped_at : -1;
    st->decision = STATS_SPRT_CONTINUE;
    row->fixed_sample = st->stopped_at < 0;
    if (!sw)
        return;
    if (sw->stop == STOP_SPRT) {
        st->p0 = sw->sprt_p0;
        st->p1 = sw->sprt_p1;
        st->alpha = sw->alpha;
        st->beta = sw->beta;
        stats_sprt_bounds(sw->alpha, sw->beta, &st->lower, &st->upper);
        long draws = row->draws_rules + row->draws_cap;
        int decision = stats_sprt(row->wins[0], draws, row->wins[1], st->p0,
                                  st->p1, st->alpha, st->beta, &st->llr);
        if (st->stopped_at >= 0)
            st->decision = decision;
    } else if (sw->stop == STOP_CI) {
        st->ci_width = sw->ci_width;
    }
}

/* Fills each cell's stop: its sweep's rule, where it stopped, the SPRT
 * decision; a cell ended early loses its fixed-sample statistics. */
static int read_stops(sqlite3 *db, const char *sweep, struct report *r,
                      char *err, size_t errsz)
{
    sqlite3_stmt *q;
    if (prepare_for_sweep(db, "SELECT c.id, c.stopped_at, c.games_planned,"
                          " s.id, s.file_text FROM cells c JOIN sweeps s"
                          " ON s.id = c.sweep_id WHERE (?1 IS NULL OR"
                          " s.name = ?1) ORDER BY s.id, c.id", sweep, &q, err,
                          errsz))
        return -1;
    struct sweep sw;
    int64_t parsed = -1;
    int have = 0, rc, next = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(q, 0);
        struct report_row *row = NULL;
        /* cells come in id order here and mostly in the report too */
        for (int k = 0; k < r->n_cells && !row; k++) {
            int i = (next + k) % r->n_cells;
            if (r->cells[i].cell_id == id) {
                row = &r->cells[i];
                next = i + 1;
            }
        }
        if (!row)
            continue; /* a cell with no games yet */
        if (sqlite3_column_int64(q, 3) != parsed) {
            if (have)
                sweep_free(&sw);
            char why[512];
            const char *text = (const char *)sqlite3_column_text(q, 4);
            have = text && sweep_parse("the stored sweep file", text, &sw, why,
                                       sizeof why) == 0;
            parsed = sqlite3_column_int64(q, 3);
        }
        int stopped_at = sqlite3_column_type(q, 1) == SQLITE_NULL
                             ? -1 : sqlite3_column_int(q, 1);
        judge_stop(row, have ? &sw : NULL, stopped_at,
                   (long)sqlite3_column_int64(q, 2));
    }
    if (have)
        sweep_free(&sw);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : fail(db, err, errsz);
}

/* A variant row is a fixed sample only if each of its cells is. */
static void flag_variants(struct report *r)
{
    for (int v = 0; v < r->n_variants; v++)
        for (int i = 0; i < r->n_cells; i++)
            if (!r->cells[i].fixed_sample
                && strcmp(r->cells[i].variant, r->variants[v].variant) == 0)
                r->variants[v].fixed_sample = 0;
}

void report_stop_text(const struct report_row *r, char *out, size_t n)
{
    const struct report_stop *st = &r->stop;
    static const char *const decisions[] = {"no decision", "accept H0",
                                            "accept H1"};
    if (r->cell_id == 0) {
        snprintf(out, n, "%s", r->fixed_sample ? ""
                               : "includes cells stopped early");
    } else if (st->rule == STOP_SPRT && st->stopped_at >= 0) {
        int h1 = st->decision == STATS_SPRT_ACCEPT_H1;
        snprintf(out, n, "sprt stopped after %d: %s (score %g, not %g), "
                 "llr %.3f %s %.3f", st->stopped_at, decisions[st->decision],
                 h1 ? st->p1 : st->p0, h1 ? st->p0 : st->p1, st->llr,
                 h1 ? ">=" : "<=", h1 ? st->upper : st->lower);
        if (st->decision == STATS_SPRT_CONTINUE) /* the file was changed */
            snprintf(out, n, "sprt stopped after %d: llr %.3f now inside "
                     "(%.3f, %.3f)", st->stopped_at, st->llr, st->lower,
                     st->upper);
    } else if (st->rule == STOP_SPRT) {
        snprintf(out, n, "sprt: no decision in %ld games, llr %.3f in "
                 "(%.3f, %.3f)", r->games, st->llr, st->lower, st->upper);
    } else if (st->rule == STOP_CI && st->stopped_at >= 0) {
        snprintf(out, n, "ci stopped after %d: 95%% interval <= %g wide",
                 st->stopped_at, st->ci_width);
    } else if (st->stopped_at >= 0) {
        snprintf(out, n, "stopped after %d (stop rule unreadable)",
                 st->stopped_at);
    } else {
        snprintf(out, n, "%s", "");
    }
}

/* Pairs: each cell joined with the cell of the same variant and the two
 * agents in the other seats. */
static int build_pairs(struct report *r)
{
    r->pairs = calloc((size_t)(r->n_cells ? r->n_cells : 1), sizeof *r->pairs);
    if (!r->pairs)
        return -1;
    char *used = calloc((size_t)(r->n_cells ? r->n_cells : 1), 1);
    if (!used)
        return -1;
    for (int i = 0; i < r->n_cells; i++) {
        const struct report_row *a = &r->cells[i];
        if (used[i] || strcmp(a->spec[0], a->spec[1]) == 0)
            continue;
        used[i] = 1;
        struct pair_row *p = &r->pairs[r->n_pairs++];
        snprintf(p->variant, sizeof p->variant, "%s", a->variant);
        snprintf(p->short_variant, sizeof p->short_variant, "%s",
                 a->short_variant);
        snprintf(p->agent[0], sizeof p->agent[0], "%s", a->agent[0]);
        snprintf(p->agent[1], sizeof p->agent[1], "%s", a->agent[1]);
        double draws = (double)(a->draws_rules + a->draws_cap);
        double points = (double)a->wins[0] + draws / 2;
        p->games = a->games;
        p->fixed_sample = a->fixed_sample;
        for (int j = i + 1; j < r->n_cells; j++) {
            const struct report_row *b = &r->cells[j];
            if (used[j] || strcmp(a->variant, b->variant)
                || strcmp(a->spec[0], b->spec[1]) || strcmp(a->spec[1], b->spec[0]))
                continue;
            used[j] = 1;
            points += (double)b->wins[1]
                      + (double)(b->draws_rules + b->draws_cap) / 2;
            p->games += b->games;
            p->fixed_sample &= b->fixed_sample;
            break;
        }
        p->score = p->games ? points / (double)p->games : 0.5;
        if (p->fixed_sample)
            stats_wilson(points, (double)p->games, 1.959963984540054, &p->lo,
                         &p->hi);
        else
            p->lo = p->hi = NAN;
    }
    free(used);
    return 0;
}

/* The claims table, if the database has one (rulelab claim made it). */
static int build_claims(sqlite3 *db, const char *sweep, struct report *r,
                        char *err, size_t errsz)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = "
                           "'claims'", -1, &q, NULL) != SQLITE_OK)
        return fail(db, err, errsz);
    int step = sqlite3_step(q);
    sqlite3_finalize(q);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return fail(db, err, errsz);
    if (step == SQLITE_DONE)
        return 0;
    if (prepare_for_sweep(db, "SELECT k.variant, k.question, k.plies,"
                          " k.node_budget, COUNT(*), SUM(k.answer = 'win'),"
                          " SUM(k.answer = 'no_win'), SUM(k.answer = 'unknown')"
                          " FROM claims k LEFT JOIN game_view g ON g.id = k.game_id"
                          " WHERE (?1 IS NULL OR g.sweep = ?1)"
                          " GROUP BY k.variant, k.question, k.plies, k.node_budget"
                          " ORDER BY k.variant, k.question, k.plies, k.node_budget",
                          sweep, &q, err, errsz))
        return -1;
    int cap = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (r->n_claims == cap) {
            cap = cap ? 2 * cap : 8;
            struct claim_row *grown = realloc(r->claims, sizeof *grown * (size_t)cap);
            if (!grown) {
                sqlite3_finalize(q);
                snprintf(err, errsz, "out of memory");
                return -1;
            }
            r->claims = grown;
        }
        struct claim_row *c = &r->claims[r->n_claims++];
        memset(c, 0, sizeof *c);
        snprintf(c->variant, sizeof c->variant, "%s", sqlite3_column_text(q, 0));
        report_short_variant(c->variant, c->short_variant,
                             sizeof c->short_variant);
        snprintf(c->question, sizeof c->question, "%s",
                 sqlite3_column_text(q, 1));
        c->plies = sqlite3_column_int(q, 2);
        c->node_budget = sqlite3_column_int64(q, 3);
        c->positions = sqlite3_column_int64(q, 4);
        c->wins = sqlite3_column_int64(q, 5);
        c->no_wins = sqlite3_column_int64(q, 6);
        c->unknown = sqlite3_column_int64(q, 7);
        c->win_share = c->positions ? (double)c->wins / (double)c->positions : 0;
        stats_wilson((double)c->wins, (double)c->positions, 1.959963984540054,
                     &c->lo, &c->hi);
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : fail(db, err, errsz);
}

/* ---- variants compared --------------------------------------------------- */

/* Cell i's variant, parsed once. */
struct parsed_cell {
    int ok;
    struct variant v;
};

/* Whether cells a and b belong to the same family for parameter k: the
 * same sweep, agents in the same seats, game, and every other value. */
static int same_family(const struct report_row *a, const struct parsed_cell *pa,
                       const struct report_row *b, const struct parsed_cell *pb,
                       int k)
{
    if (!pa->ok || !pb->ok || pa->v.game != pb->v.game
        || strcmp(a->sweep, b->sweep) || strcmp(a->spec[0], b->spec[0])
        || strcmp(a->spec[1], b->spec[1]))
        return 0;
    for (int i = 0; i < pa->v.game->n_params; i++)
        if (i != k && pa->v.values[i] != pb->v.values[i])
            return 0;
    return 1;
}

static void row_rates(const struct report_row *c, double *points,
                      double *draws)
{
    *draws = (double)(c->draws_rules + c->draws_cap);
    *points = (double)c->wins[0] + *draws / 2;
}

static void fill_compare(struct compare_row *o, const struct report_row *a,
                         const struct report_row *b,
                         const struct param_spec *ps, int va, int vb)
{
    memset(o, 0, sizeof *o);
    snprintf(o->sweep, sizeof o->sweep, "%s", a->sweep);
    snprintf(o->param, sizeof o->param, "%s", ps->name);
    param_value_text(ps, va, o->value[0], sizeof o->value[0]);
    param_value_text(ps, vb, o->value[1], sizeof o->value[1]);
    const struct report_row *c[2] = {a, b};
    double pts[2], dr[2];
    for (int k = 0; k < 2; k++) {
        snprintf(o->agent[k], sizeof o->agent[k], "%s", a->agent[k]);
        snprintf(o->variant[k], sizeof o->variant[k], "%s", c[k]->variant);
        snprintf(o->short_variant[k], sizeof o->short_variant[k], "%s",
                 c[k]->short_variant);
        o->games[k] = c[k]->games;
        row_rates(c[k], &pts[k], &dr[k]);
        o->score[k] = pts[k] / (double)c[k]->games;
        o->draw[k] = dr[k] / (double)c[k]->games;
    }
    double n0 = (double)o->games[0], n1 = (double)o->games[1];
    o->score_diff = o->score[1] - o->score[0];
    o->draw_diff = o->draw[1] - o->draw[0];
    o->fixed_sample = a->fixed_sample && b->fixed_sample;
    if (!o->fixed_sample) {
        o->score_lo = o->score_hi = o->score_p = NAN;
        o->draw_lo = o->draw_hi = o->draw_p = NAN;
        return;
    }
    stats_newcombe_diff(pts[1], n1, pts[0], n0, 1.959963984540054,
                        &o->score_lo, &o->score_hi);
    o->score_p = stats_two_proportion_p(pts[1], n1, pts[0], n0, NULL);
    stats_newcombe_diff(dr[1], n1, dr[0], n0, 1.959963984540054, &o->draw_lo,
                        &o->draw_hi);
    o->draw_p = stats_two_proportion_p(dr[1], n1, dr[0], n0, NULL);
}

static void fill_trend(struct trend_row *o, const struct report_row *const *c,
                       const int *values, int k, const struct param_spec *ps)
{
    memset(o, 0, sizeof *o);
    snprintf(o->sweep, sizeof o->sweep, "%s", c[0]->sweep);
    snprintf(o->param, sizeof o->param, "%s", ps->name);
    snprintf(o->short_variant, sizeof o->short_variant, "%s",
             c[0]->short_variant);
    for (int s = 0; s < 2; s++)
        snprintf(o->agent[s], sizeof o->agent[s], "%s", c[0]->agent[s]);
    double pts[REPORT_TREND_MAX], dr[REPORT_TREND_MAX], n[REPORT_TREND_MAX],
        t[REPORT_TREND_MAX];
    o->k = k;
    o->fixed_sample = 1;
    for (int i = 0; i < k; i++) {
        o->value[i] = values[i];
        o->games[i] = c[i]->games;
        row_rates(c[i], &pts[i], &dr[i]);
        n[i] = (double)c[i]->games;
        t[i] = values[i];
        o->score[i] = pts[i] / n[i];
        o->draw[i] = dr[i] / n[i];
        o->fixed_sample &= c[i]->fixed_sample;
    }
    o->score_p = stats_trend_p(pts, n, t, k, &o->score_slope, NULL);
    o->draw_p = stats_trend_p(dr, n, t, k, &o->draw_slope, NULL);
    if (!o->fixed_sample)
        o->score_p = o->draw_p = NAN;
}

/* Makes room in *items (n used of *cap, each size bytes) for one more.
 * Returns 0, or -1 (nothing changed) if memory could not be had. */
static int grow(void **items, int n, int *cap, size_t size)
{
    if (n < *cap)
        return 0;
    int bigger = *cap ? 2 * *cap : 8;
    void *grown = realloc(*items, size * (size_t)bigger);
    if (!grown)
        return -1;
    *items = grown;
    *cap = bigger;
    return 0;
}

struct member {
    int cell, value;
};

static int member_cmp(const void *va, const void *vb)
{
    const struct member *a = va, *b = vb;
    return (a->value > b->value) - (a->value < b->value);
}

/* Every family (a cell and the cells differing from it in parameter k
 * alone), found from its first cell: its adjacent pairs and its trend. */
static int build_compared(struct report *r)
{
    int n = r->n_cells;
    struct parsed_cell *pc = calloc((size_t)(n ? n : 1), sizeof *pc);
    struct member *m = malloc(sizeof *m * (size_t)(n ? n : 1));
    int cap_c = 0, cap_t = 0, rc = -1;
    if (!pc || !m)
        goto done;
    for (int i = 0; i < n; i++) {
        char err[256];
        pc[i].ok = variant_parse(r->cells[i].variant, &pc[i].v, err,
                                 sizeof err) == 0;
    }
    for (int i = 0; i < n; i++) {
        if (!pc[i].ok)
            continue;
        const struct game *g = pc[i].v.game;
        for (int k = 0; k < g->n_params; k++) {
            int count = 0, first = 1;
            for (int j = 0; j < n && first; j++) {
                if (!same_family(&r->cells[i], &pc[i], &r->cells[j], &pc[j],
                                 k))
                    continue;
                if (j < i)
                    first = 0; /* the family was done from cell j */
                else
                    m[count++] = (struct member){j, pc[j].v.values[k]};
            }
            if (!first || count < 2)
                continue;
            qsort(m, (size_t)count, sizeof *m, member_cmp);
            const struct param_spec *ps = &g->params[k];
            for (int a = 0; a + 1 < count; a++) {
                if (grow((void **)&r->compares, r->n_compares, &cap_c,
                         sizeof *r->compares))
                    goto done;
                fill_compare(&r->compares[r->n_compares++],
                             &r->cells[m[a].cell], &r->cells[m[a + 1].cell],
                             ps, m[a].value, m[a + 1].value);
            }
            if (ps->type != PARAM_INT || count < 3
                || count > REPORT_TREND_MAX)
                continue;
            if (grow((void **)&r->trends, r->n_trends, &cap_t,
                     sizeof *r->trends))
                goto done;
            const struct report_row *cells[REPORT_TREND_MAX];
            int values[REPORT_TREND_MAX];
            for (int a = 0; a < count; a++) {
                cells[a] = &r->cells[m[a].cell];
                values[a] = m[a].value;
            }
            fill_trend(&r->trends[r->n_trends++], cells, values, count, ps);
        }
    }
    rc = 0;
done:
    free(pc);
    free(m);
    return rc;
}

int report_keep_compared(struct report *r, const char *param)
{
    if (param) {
        int kept = 0;
        for (int i = 0; i < r->n_compares; i++)
            if (strcmp(r->compares[i].param, param) == 0)
                r->compares[kept++] = r->compares[i];
        r->n_compares = kept;
        kept = 0;
        for (int i = 0; i < r->n_trends; i++)
            if (strcmp(r->trends[i].param, param) == 0)
                r->trends[kept++] = r->trends[i];
        r->n_trends = kept;
    }
    return r->n_compares + r->n_trends;
}

/* Every statement of a report reads one snapshot: a savepoint opens a read
 * transaction when the connection has none (in WAL mode its snapshot is
 * taken at the first read and held until the release) and nests inside the
 * caller's transaction otherwise. Without it each statement would read its
 * own snapshot, and games committed by a running sweep between two of them
 * would put one row's median or end reasons on counts they do not match. */
int report_build(sqlite3 *db, const char *sweep, struct report *r, char *err,
                 size_t errsz)
{
    memset(r, 0, sizeof *r);
    if (errsz)
        *err = '\0';
    if (sqlite3_exec(db, "SAVEPOINT rulelab_report", NULL, NULL, NULL)
        != SQLITE_OK)
        return fail(db, err, errsz);
    int rc = 0;
    if (build_level(db, "c.id", sweep, &r->cells, &r->n_cells, err, errsz)
        || read_stops(db, sweep, r, err, errsz)
        || score_rows(r->cells, r->n_cells)
        || build_level(db, "v.canonical", sweep, &r->variants, &r->n_variants,
                       err, errsz)
        || (flag_variants(r), score_rows(r->variants, r->n_variants))
        || build_pairs(r) || build_compared(r)
        || build_claims(db, sweep, r, err, errsz)) {
        if (!*err)
            snprintf(err, errsz, "out of memory");
        rc = -1;
    }
    if (sqlite3_exec(db, "RELEASE rulelab_report", NULL, NULL, NULL)
        != SQLITE_OK && rc == 0)
        rc = fail(db, err, errsz);
    if (rc)
        report_free(r);
    return rc;
}

void report_free(struct report *r)
{
    free(r->cells);
    free(r->variants);
    free(r->pairs);
    free(r->claims);
    free(r->compares);
    free(r->trends);
    memset(r, 0, sizeof *r);
}

/* ---- printing ------------------------------------------------------------ */

void report_table_print(const struct report_table *t, enum report_format f,
                        FILE *out)
{
    int width[REPORT_MAX_COLUMNS];
    for (int c = 0; c < t->n_columns; c++) {
        width[c] = (int)strlen(t->header[c]);
        for (int i = 0; i < t->n_rows; i++) {
            int w = (int)strlen(t->cells[i][c]);
            width[c] = w > width[c] ? w : width[c];
        }
    }
    for (int i = -1; i < t->n_rows; i++) {
        for (int c = 0; c < t->n_columns; c++) {
            const char *text = i < 0 ? t->header[c] : t->cells[i][c];
            if (f == REPORT_CSV) {
                fputs(c ? "," : "", out);
                if (strpbrk(text, ",\"\n")) {
                    fputc('"', out);
                    for (const char *p = text; *p; p++)
                        fputs(*p == '"' ? "\"\"" : (char[2]){*p, 0}, out);
                    fputc('"', out);
                } else {
                    fputs(text, out);
                }
            } else if (f == REPORT_MARKDOWN) {
                fprintf(out, "| %s ", text);
            } else {
                fprintf(out, "%s%-*s", c ? "  " : "", width[c], text);
            }
        }
        fputs(f == REPORT_MARKDOWN ? "|\n" : "\n", out);
        if (i < 0 && f == REPORT_MARKDOWN) {
            for (int c = 0; c < t->n_columns; c++)
                fputs("|---", out);
            fputs("|\n", out);
        }
    }
}

static void fill_row_cells(const struct report_row *r, int with_agents,
                           char (*cell)[VARIANT_TEXT_MAX], int full_variant)
{
    int c = 0;
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%s",
             full_variant ? r->variant : r->short_variant);
    if (with_agents) {
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", r->agent[0]);
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", r->agent[1]);
    }
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%ld", r->games);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%ld", r->wins[0]);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%ld", r->wins[1]);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%ld", r->draws_rules);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%ld", r->draws_cap);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%.1f", r->mean_plies);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%.1f", r->median_plies);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%.3f", r->score0);
    if (r->fixed_sample) {
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%.3f-%.3f", r->lo, r->hi);
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%.3g", r->p);
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%.3g", r->p_holm);
    } else {
        for (int k = 0; k < 3; k++)
            snprintf(cell[c++], VARIANT_TEXT_MAX, "n/a");
    }
    report_stop_text(r, cell[c++], VARIANT_TEXT_MAX);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", r->reasons);
}

static void print_rows(const char *title, const struct report_row *rows, int n,
                       int with_agents, enum report_format f, FILE *out)
{
    static const char *const headers[] = {
        "variant", "seat0", "seat1", "games", "s0_wins", "s1_wins",
        "draws_rules", "draws_cap", "mean_plies", "median_plies", "s0_score",
        "s0_ci95", "p", "p_holm", "stop", "reasons"};
    struct report_table t = {0};
    for (int c = 0; c < 16; c++)
        if (with_agents || (c != 1 && c != 2))
            t.header[t.n_columns++] = headers[c];
    t.n_rows = n;
    t.cells = calloc((size_t)(n ? n : 1), sizeof *t.cells);
    if (!t.cells)
        return;
    for (int i = 0; i < n; i++)
        fill_row_cells(&rows[i], with_agents, t.cells[i], f == REPORT_CSV);
    if (f == REPORT_MARKDOWN)
        fprintf(out, "\n### %s\n\n", title);
    else if (f == REPORT_TABLE)
        fprintf(out, "\n%s\n", title);
    else
        fprintf(out, "%s# %s\n", title[0] == 'c' ? "" : "\n", title);
    report_table_print(&t, f, out);
    free(t.cells);
}

static void print_pairs(const struct report *r, enum report_format f,
                        FILE *out)
{
    static const char *const headers[] = {"variant", "agent", "opponent",
                                          "games", "score", "ci95", "stop"};
    struct report_table t = {7, r->n_pairs, {0}, NULL};
    memcpy(t.header, headers, sizeof headers);
    t.cells = calloc((size_t)(r->n_pairs ? r->n_pairs : 1), sizeof *t.cells);
    if (!t.cells)
        return;
    for (int i = 0; i < r->n_pairs; i++) {
        const struct pair_row *p = &r->pairs[i];
        snprintf(t.cells[i][0], VARIANT_TEXT_MAX, "%s",
                 f == REPORT_CSV ? p->variant : p->short_variant);
        snprintf(t.cells[i][1], VARIANT_TEXT_MAX, "%s", p->agent[0]);
        snprintf(t.cells[i][2], VARIANT_TEXT_MAX, "%s", p->agent[1]);
        snprintf(t.cells[i][3], VARIANT_TEXT_MAX, "%ld", p->games);
        snprintf(t.cells[i][4], VARIANT_TEXT_MAX, "%.3f", p->score);
        if (p->fixed_sample)
            snprintf(t.cells[i][5], VARIANT_TEXT_MAX, "%.3f-%.3f", p->lo,
                     p->hi);
        else
            snprintf(t.cells[i][5], VARIANT_TEXT_MAX, "n/a");
        snprintf(t.cells[i][6], VARIANT_TEXT_MAX, "%s",
                 p->fixed_sample ? "" : "includes cells stopped early");
    }
    const char *title = "agent pairs: each agent's score over both seat orders";
    if (f == REPORT_MARKDOWN)
        fprintf(out, "\n### %s\n\n", title);
    else if (f == REPORT_TABLE)
        fprintf(out, "\n%s\n", title);
    else
        fprintf(out, "\n# pairs\n");
    report_table_print(&t, f, out);
    free(t.cells);
}

/* How many bytes of s to take as one character: the length of the
 * well-formed UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), with *bad = 0; or, if s does not
 * start one, the length of the longest start of a well-formed sequence
 * there (at least 1), with *bad = 1 -- the "maximal subpart" that Unicode
 * (chapter 3, U+FFFD substitution) and Python's "replace" turn into one
 * U+FFFD. */
static int utf8_length(const unsigned char *s, int *bad)
{
    *bad = 0;
    if (s[0] < 0x80)
        return 1;
    int len;
    unsigned lo = 0x80, hi = 0xbf; /* the allowed range of the second byte */
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        len = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        len = 3;
        lo = s[0] == 0xe0 ? 0xa0 : 0x80;
        hi = s[0] == 0xed ? 0x9f : 0xbf;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        len = 4;
        lo = s[0] == 0xf0 ? 0x90 : 0x80;
        hi = s[0] == 0xf4 ? 0x8f : 0xbf;
    } else {
        *bad = 1;
        return 1;
    }
    for (int i = 1; i < len; i++) {
        unsigned first = i == 1 ? lo : 0x80, last = i == 1 ? hi : 0xbf;
        if (s[i] < first || s[i] > last) { /* a NUL ends it here too */
            *bad = 1;
            return i;
        }
    }
    return len;
}

/* A JSON string (RFC 8259) holding text: quotes, backslashes and control
 * characters escaped, well-formed UTF-8 copied, and each ill-formed
 * subsequence (agent names and sweep texts are whatever bytes the sweep
 * file held) written as U+FFFD, so the output is always valid JSON in
 * UTF-8. */
void report_json_string(FILE *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    fputc('"', out);
    while (*s) {
        int bad, len = utf8_length(s, &bad);
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if (*s < 0x20 || *s == 0x7f)
            fprintf(out, "\\u%04x", *s);
        else if (bad)
            fputs("\\ufffd", out);
        else
            fwrite(s, 1, (size_t)len, out);
        s += len;
    }
    fputc('"', out);
}

/* "stop": how a cell's number of games was decided (null: fixed). */
static void json_stop(FILE *out, const struct report_row *r)
{
    const struct report_stop *st = &r->stop;
    static const char *const rules[] = {"none", "sprt", "ci"};
    static const char *const decisions[] = {"none", "accept_h0", "accept_h1"};
    if (st->rule == STOP_NONE && st->stopped_at < 0) {
        fprintf(out, "\"stop\": null, ");
        return;
    }
    fprintf(out, "\"stop\": {\"rule\": ");
    if (st->rule >= 0 && st->rule <= STOP_CI)
        fprintf(out, "\"%s\"", rules[st->rule]);
    else
        fprintf(out, "null");
    if (st->stopped_at >= 0)
        fprintf(out, ", \"stopped_after\": %d", st->stopped_at);
    else
        fprintf(out, ", \"stopped_after\": null");
    if (st->rule == STOP_SPRT)
        fprintf(out, ", \"decision\": \"%s\", \"llr\": %.6f, \"llr_lower\": "
                "%.6f, \"llr_upper\": %.6f, \"p0\": %g, \"p1\": %g, "
                "\"alpha\": %g, \"beta\": %g", decisions[st->decision],
                st->llr, st->lower, st->upper, st->p0, st->p1, st->alpha,
                st->beta);
    else if (st->rule == STOP_CI)
        fprintf(out, ", \"ci_width\": %g", st->ci_width);
    fprintf(out, "}, ");
}

static void json_rows(const char *name, const struct report_row *rows, int n,
                      int with_agents, FILE *out)
{
    fprintf(out, "  \"%s\": [", name);
    for (int i = 0; i < n; i++) {
        const struct report_row *r = &rows[i];
        fprintf(out, "%s\n    {\"variant\": ", i ? "," : "");
        report_json_string(out, r->variant);
        fprintf(out, ", \"short_variant\": ");
        report_json_string(out, r->short_variant);
        if (with_agents)
            for (int k = 0; k < 2; k++) {
                fprintf(out, ", \"seat%d\": ", k);
                report_json_string(out, r->agent[k]);
                fprintf(out, ", \"seat%d_spec\": ", k);
                report_json_string(out, r->spec[k]);
            }
        fprintf(out, ", \"games\": %ld, \"s0_wins\": %ld, \"s1_wins\": %ld, "
                "\"draws_rules\": %ld, \"draws_cap\": %ld, \"mean_plies\": %.3f,"
                " \"median_plies\": %.1f, \"s0_score\": %.6f, ", r->games,
                r->wins[0], r->wins[1], r->draws_rules, r->draws_cap,
                r->mean_plies, r->median_plies, r->score0);
        if (r->fixed_sample)
            fprintf(out, "\"s0_ci95\": [%.6f, %.6f], \"p\": %.6g, "
                    "\"p_holm\": %.6g, ", r->lo, r->hi, r->p, r->p_holm);
        else
            fprintf(out, "\"s0_ci95\": null, \"p\": null, \"p_holm\": null, ");
        fprintf(out, "\"fixed_sample\": %s, ", r->fixed_sample ? "true" : "false");
        if (with_agents)
            json_stop(out, r);
        fprintf(out, "\"reasons\": ");
        report_json_string(out, r->reasons);
        fputc('}', out);
    }
    fprintf(out, "\n  ]");
}

static void print_claims(const struct report *r, enum report_format f,
                         FILE *out)
{
    static const char *const headers[] = {
        "variant", "question", "plies", "node_budget", "positions",
        "proven_win", "proven_not", "unknown", "win_share", "win_ci95"};
    struct report_table t = {10, r->n_claims, {0}, NULL};
    memcpy(t.header, headers, sizeof headers);
    t.cells = calloc((size_t)(r->n_claims ? r->n_claims : 1), sizeof *t.cells);
    if (!t.cells)
        return;
    for (int i = 0; i < r->n_claims; i++) {
        const struct claim_row *c = &r->claims[i];
        char (*row)[VARIANT_TEXT_MAX] = t.cells[i];
        snprintf(row[0], VARIANT_TEXT_MAX, "%s",
                 f == REPORT_CSV ? c->variant : c->short_variant);
        snprintf(row[1], VARIANT_TEXT_MAX, "%s", c->question);
        snprintf(row[2], VARIANT_TEXT_MAX, "%d", c->plies);
        snprintf(row[3], VARIANT_TEXT_MAX, "%ld", c->node_budget);
        snprintf(row[4], VARIANT_TEXT_MAX, "%ld", c->positions);
        snprintf(row[5], VARIANT_TEXT_MAX, "%ld", c->wins);
        snprintf(row[6], VARIANT_TEXT_MAX, "%ld", c->no_wins);
        snprintf(row[7], VARIANT_TEXT_MAX, "%ld", c->unknown);
        snprintf(row[8], VARIANT_TEXT_MAX, "%.3f", c->win_share);
        snprintf(row[9], VARIANT_TEXT_MAX, "%.3f-%.3f", c->lo, c->hi);
    }
    const char *title = "claims: sampled positions where the side to move "
                        "forces a win within the bound (rulelab claim)";
    if (f == REPORT_MARKDOWN)
        fprintf(out, "\n### %s\n\n", title);
    else if (f == REPORT_TABLE)
        fprintf(out, "\n%s\n", title);
    else
        fprintf(out, "\n# claims\n");
    report_table_print(&t, f, out);
    free(t.cells);
}

static void section_title(const char *title, const char *csv_name,
                          enum report_format f, FILE *out)
{
    if (f == REPORT_MARKDOWN)
        fprintf(out, "\n### %s\n\n", title);
    else if (f == REPORT_TABLE)
        fprintf(out, "\n%s\n", title);
    else
        fprintf(out, "\n# %s\n", csv_name);
}

/* "a->b" of two numbers to 3 places. */
static void two_values(char *out, double a, double b)
{
    snprintf(out, VARIANT_TEXT_MAX, "%.3f->%.3f", a, b);
}

static void interval_text(char *out, int valid, double lo, double hi)
{
    if (valid)
        snprintf(out, VARIANT_TEXT_MAX, "%+.3f..%+.3f", lo, hi);
    else
        snprintf(out, VARIANT_TEXT_MAX, "n/a");
}

static void p_text(char *out, int valid, double p)
{
    if (valid)
        snprintf(out, VARIANT_TEXT_MAX, "%.3g", p);
    else
        snprintf(out, VARIANT_TEXT_MAX, "n/a");
}

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

/* A table of n_rows rows under headers (n_columns of them), its cells
 * zeroed. Returns 0, or -1 if memory could not be had. */
static int table_new(struct report_table *t, const char *const *headers,
                     int n_columns, int n_rows)
{
    memset(t, 0, sizeof *t);
    t->n_columns = n_columns;
    t->n_rows = n_rows;
    memcpy(t->header, headers, sizeof *headers * (size_t)n_columns);
    t->cells = calloc((size_t)(n_rows ? n_rows : 1), sizeof *t->cells);
    return t->cells ? 0 : -1;
}

/* The first three cells of a comparison or trend row: sweep and agents. */
static void fill_who(char (*row)[VARIANT_TEXT_MAX], const char *sweep,
                     const char (*agent)[VARIANT_TEXT_MAX])
{
    snprintf(row[0], VARIANT_TEXT_MAX, "%s", sweep);
    snprintf(row[1], VARIANT_TEXT_MAX, "%s", agent[0]);
    snprintf(row[2], VARIANT_TEXT_MAX, "%s", agent[1]);
}

static void print_compared(const struct report *r, enum report_format f,
                           FILE *out)
{
    static const char *const headers[] = {
        "sweep", "seat0", "seat1", "variant", "change", "games", "s0_score",
        "s0_diff", "s0_diff_ci95", "p", "draw_rate", "draw_diff",
        "draw_diff_ci95", "draw_p"};
    struct report_table t;
    if (table_new(&t, headers, 14, r->n_compares))
        return;
    for (int i = 0; i < r->n_compares; i++) {
        const struct compare_row *c = &r->compares[i];
        char (*row)[VARIANT_TEXT_MAX] = t.cells[i];
        fill_who(row, c->sweep, c->agent);
        snprintf(row[3], VARIANT_TEXT_MAX, "%s",
                 f == REPORT_CSV ? c->variant[0] : c->short_variant[0]);
        snprintf(row[4], VARIANT_TEXT_MAX, "%s %s->%s", c->param,
                 c->value[0], c->value[1]);
        snprintf(row[5], VARIANT_TEXT_MAX, "%ld->%ld", c->games[0],
                 c->games[1]);
        two_values(row[6], c->score[0], c->score[1]);
        snprintf(row[7], VARIANT_TEXT_MAX, "%+.3f", c->score_diff);
        interval_text(row[8], c->fixed_sample, c->score_lo, c->score_hi);
        p_text(row[9], c->fixed_sample, c->score_p);
        two_values(row[10], c->draw[0], c->draw[1]);
        snprintf(row[11], VARIANT_TEXT_MAX, "%+.3f", c->draw_diff);
        interval_text(row[12], c->fixed_sample, c->draw_lo, c->draw_hi);
        p_text(row[13], c->fixed_sample, c->draw_p);
    }
    section_title("variants compared: one parameter changed, same sweep and "
                  "agents (later value minus earlier; 95% Newcombe interval; "
                  "p = two-proportion z test)", "compared", f, out);
    report_table_print(&t, f, out);
    free(t.cells);
}

/* "a,b,c": k whole numbers (iv or lv), or k numbers to 3 places (dv). */
static void list_text(char *out, const int *iv, const double *dv,
                      const long *lv, int k)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < k && len < VARIANT_TEXT_MAX; i++) {
        const char *sep = i ? "," : "";
        if (iv)
            len += (size_t)snprintf(out + len, VARIANT_TEXT_MAX - len, "%s%d",
                                    sep, iv[i]);
        else if (lv)
            len += (size_t)snprintf(out + len, VARIANT_TEXT_MAX - len,
                                    "%s%ld", sep, lv[i]);
        else
            len += (size_t)snprintf(out + len, VARIANT_TEXT_MAX - len,
                                    "%s%.3f", sep, dv[i]);
    }
}

static void print_trends(const struct report *r, enum report_format f,
                         FILE *out)
{
    static const char *const headers[] = {
        "sweep", "seat0", "seat1", "variant", "param", "values", "games",
        "s0_scores", "s0_slope", "s0_trend_p", "draw_rates", "draw_slope",
        "draw_trend_p"};
    struct report_table t;
    if (table_new(&t, headers, 13, r->n_trends))
        return;
    for (int i = 0; i < r->n_trends; i++) {
        const struct trend_row *c = &r->trends[i];
        char (*row)[VARIANT_TEXT_MAX] = t.cells[i];
        fill_who(row, c->sweep, c->agent);
        snprintf(row[3], VARIANT_TEXT_MAX, "%s", c->short_variant);
        snprintf(row[4], VARIANT_TEXT_MAX, "%s", c->param);
        list_text(row[5], c->value, NULL, NULL, c->k);
        list_text(row[6], NULL, NULL, c->games, c->k);
        list_text(row[7], NULL, c->score, NULL, c->k);
        snprintf(row[8], VARIANT_TEXT_MAX, "%+.4f", c->score_slope);
        p_text(row[9], c->fixed_sample, c->score_p);
        list_text(row[10], NULL, c->draw, NULL, c->k);
        snprintf(row[11], VARIANT_TEXT_MAX, "%+.4f", c->draw_slope);
        p_text(row[12], c->fixed_sample, c->draw_p);
    }
    section_title("variants compared: trend across 3 or more values of a "
                  "parameter (slope per unit; p = Cochran-Armitage trend "
                  "test)", "trends", f, out);
    report_table_print(&t, f, out);
    free(t.cells);
}

static void share_text(char (*row)[VARIANT_TEXT_MAX], double share,
                       double lo, double hi, int valid)
{
    snprintf(row[0], VARIANT_TEXT_MAX, "%.3f", share);
    if (valid)
        snprintf(row[1], VARIANT_TEXT_MAX, "%.3f-%.3f", lo, hi);
    else
        snprintf(row[1], VARIANT_TEXT_MAX, "n/a");
}

static void print_metrics(const struct report *r, enum report_format f,
                          FILE *out)
{
    static const char *const headers[] = {
        "variant", "seat0", "seat1", "games", "decisive", "decisive_ci95",
        "draws_rules", "draws_rules_ci95", "draws_cap", "draws_cap_ci95",
        "mean_plies", "mean_plies_ci95", "median_plies"};
    struct report_table t;
    if (table_new(&t, headers, 13, r->n_cells))
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
    }
    section_title("game metrics per cell: decisive (won by either seat), "
                  "drawn by the rules, drawn by the ply cap (shares of games, "
                  "95% Wilson), length in plies (mean with 95% interval, "
                  "median)", "metrics", f, out);
    report_table_print(&t, f, out);
    free(t.cells);
}

/* A JSON pair [lo, hi], or null. */
static void json_interval(FILE *out, int valid, double lo, double hi)
{
    if (valid)
        fprintf(out, "[%.6f, %.6f]", lo, hi);
    else
        fprintf(out, "null");
}

static void json_metrics(const struct report *r, FILE *out)
{
    fprintf(out, ",\n  \"metrics\": [");
    for (int i = 0; i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        struct report_metrics m;
        report_metrics(c, &m);
        int ok = c->fixed_sample;
        fprintf(out, "%s\n    {\"variant\": ", i ? "," : "");
        report_json_string(out, c->variant);
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"seat%d\": ", k);
            report_json_string(out, c->agent[k]);
        }
        fprintf(out, ", \"games\": %ld, \"decisive\": %.6f, "
                "\"decisive_ci95\": ", c->games, m.decisive);
        json_interval(out, ok, m.decisive_lo, m.decisive_hi);
        fprintf(out, ", \"draws_rules\": %.6f, \"draws_rules_ci95\": ",
                m.rule_draws);
        json_interval(out, ok, m.rule_draws_lo, m.rule_draws_hi);
        fprintf(out, ", \"draws_cap\": %.6f, \"draws_cap_ci95\": ",
                m.cap_draws);
        json_interval(out, ok, m.cap_draws_lo, m.cap_draws_hi);
        fprintf(out, ", \"mean_plies\": %.6f, \"mean_plies_ci95\": ",
                m.mean_plies);
        json_interval(out, ok, m.mean_lo, m.mean_hi);
        fprintf(out, ", \"median_plies\": %.1f, \"fixed_sample\": %s}",
                m.median_plies, ok ? "true" : "false");
    }
    fprintf(out, "\n  ]");
}

static void json_number(FILE *out, int valid, double v)
{
    if (valid)
        fprintf(out, "%.6g", v);
    else
        fprintf(out, "null");
}

static void json_compared(const struct report *r, FILE *out)
{
    fprintf(out, ",\n  \"compared\": [");
    for (int i = 0; i < r->n_compares; i++) {
        const struct compare_row *c = &r->compares[i];
        int ok = c->fixed_sample;
        fprintf(out, "%s\n    {\"sweep\": ", i ? "," : "");
        report_json_string(out, c->sweep);
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"seat%d\": ", k);
            report_json_string(out, c->agent[k]);
        }
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"variant%d\": ", k);
            report_json_string(out, c->variant[k]);
        }
        fprintf(out, ", \"param\": ");
        report_json_string(out, c->param);
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"value%d\": ", k);
            report_json_string(out, c->value[k]);
        }
        fprintf(out, ", \"games\": [%ld, %ld], \"s0_score\": [%.6f, %.6f], "
                "\"s0_diff\": %.6f, \"s0_diff_ci95\": ", c->games[0],
                c->games[1], c->score[0], c->score[1], c->score_diff);
        json_interval(out, ok, c->score_lo, c->score_hi);
        fprintf(out, ", \"p\": ");
        json_number(out, ok, c->score_p);
        fprintf(out, ", \"draw_rate\": [%.6f, %.6f], \"draw_diff\": %.6f, "
                "\"draw_diff_ci95\": ", c->draw[0], c->draw[1], c->draw_diff);
        json_interval(out, ok, c->draw_lo, c->draw_hi);
        fprintf(out, ", \"draw_p\": ");
        json_number(out, ok, c->draw_p);
        fprintf(out, ", \"fixed_sample\": %s}", ok ? "true" : "false");
    }
    fprintf(out, "\n  ],\n  \"trends\": [");
    for (int i = 0; i < r->n_trends; i++) {
        const struct trend_row *c = &r->trends[i];
        fprintf(out, "%s\n    {\"sweep\": ", i ? "," : "");
        report_json_string(out, c->sweep);
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"seat%d\": ", k);
            report_json_string(out, c->agent[k]);
        }
        fprintf(out, ", \"variant\": ");
        report_json_string(out, c->short_variant);
        fprintf(out, ", \"param\": ");
        report_json_string(out, c->param);
        fprintf(out, ", \"values\": [");
        for (int k = 0; k < c->k; k++)
            fprintf(out, "%s%d", k ? ", " : "", c->value[k]);
        fprintf(out, "], \"games\": [");
        for (int k = 0; k < c->k; k++)
            fprintf(out, "%s%ld", k ? ", " : "", c->games[k]);
        fprintf(out, "], \"s0_score\": [");
        for (int k = 0; k < c->k; k++)
            fprintf(out, "%s%.6f", k ? ", " : "", c->score[k]);
        fprintf(out, "], \"s0_slope\": %.6g, \"s0_trend_p\": ",
                c->score_slope);
        json_number(out, c->fixed_sample, c->score_p);
        fprintf(out, ", \"draw_rate\": [");
        for (int k = 0; k < c->k; k++)
            fprintf(out, "%s%.6f", k ? ", " : "", c->draw[k]);
        fprintf(out, "], \"draw_slope\": %.6g, \"draw_trend_p\": ",
                c->draw_slope);
        json_number(out, c->fixed_sample, c->draw_p);
        fprintf(out, ", \"fixed_sample\": %s}",
                c->fixed_sample ? "true" : "false");
    }
    fprintf(out, "\n  ]");
}

void report_print(const struct report *r, enum report_format f, FILE *out)
{
    if (f == REPORT_JSON) {
        fprintf(out, "{\n");
        json_rows("cells", r->cells, r->n_cells, 1, out);
        fprintf(out, ",\n");
        json_rows("variants", r->variants, r->n_variants, 0, out);
        fprintf(out, ",\n  \"pairs\": [");
        for (int i = 0; i < r->n_pairs; i++) {
            const struct pair_row *p = &r->pairs[i];
            fprintf(out, "%s\n    {\"variant\": ", i ? "," : "");
            report_json_string(out, p->variant);
            fprintf(out, ", \"agent\": ");
            report_json_string(out, p->agent[0]);
            fprintf(out, ", \"opponent\": ");
            report_json_string(out, p->agent[1]);
            fprintf(out, ", \"games\": %ld, \"score\": %.6f, ", p->games,
                    p->score);
            if (p->fixed_sample)
                fprintf(out, "\"ci95\": [%.6f, %.6f], \"fixed_sample\": true}",
                        p->lo, p->hi);
            else
                fprintf(out, "\"ci95\": null, \"fixed_sample\": false}");
        }
        fprintf(out, "\n  ]");
        json_compared(r, out);
        json_metrics(r, out);
        fprintf(out, ",\n  \"claims\": [");
        for (int i = 0; i < r->n_claims; i++) {
            const struct claim_row *c = &r->claims[i];
            fprintf(out, "%s\n    {\"variant\": ", i ? "," : "");
            report_json_string(out, c->variant);
            fprintf(out, ", \"question\": ");
            report_json_string(out, c->question);
            fprintf(out, ", \"plies\": %d, \"node_budget\": %ld, "
                    "\"positions\": %ld, \"proven_win\": %ld, "
                    "\"proven_not\": %ld, \"unknown\": %ld, \"win_share\": "
                    "%.6f, \"win_ci95\": [%.6f, %.6f]}", c->plies,
                    c->node_budget, c->positions, c->wins, c->no_wins,
                    c->unknown, c->win_share, c->lo, c->hi);
        }
        fprintf(out, "\n  ]\n}\n");
        return;
    }
    if (f == REPORT_TABLE || f == REPORT_MARKDOWN)
        fprintf(out, "%sseat-0 score = (wins + draws/2) / games, 95%% Wilson "
                "interval; p = exact binomial test of seat 0 winning half the "
                "decisive games, Holm-corrected within each table.\n",
                f == REPORT_MARKDOWN ? "" : "");
    int early = 0;
    for (int i = 0; i < r->n_cells; i++)
        early += !r->cells[i].fixed_sample;
    if (early && (f == REPORT_TABLE || f == REPORT_MARKDOWN))
        fprintf(out, "%d cell%s stopped early by the sweep's stop rule: the "
                "number of games depended on the results, so the fixed-sample "
                "interval and p are not valid there (n/a, left out of Holm, as "
                "are variant and pair rows that include them); the stop column "
                "gives the sequential test's own decision.\n", early,
                early == 1 ? " was" : "s were");
    print_rows("cells (variant x seat-0 agent x seat-1 agent)", r->cells,
               r->n_cells, 1, f, out);
    print_rows("variants (all agent pairs together)", r->variants,
               r->n_variants, 0, f, out);
    print_pairs(r, f, out);
    if (r->n_compares)
        print_compared(r, f, out);
    if (r->n_trends)
        print_trends(r, f, out);
    if (r->print_metrics)
        print_metrics(r, f, out);
    if (r->n_claims)
        print_claims(r, f, out);
}
