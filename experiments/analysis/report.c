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

#include "report_internal.h"
#include "stats.h"
#include "sweep.h"

static int fail(sqlite3 *db, char *err, size_t errsz)
{
    snprintf(err, errsz, "reading the database: %s", sqlite3_errmsg(db));
    return -1;
}

/* report_internal.h */
int report_prepare_for_sweep(sqlite3 *db, const char *sql, const char *sweep,
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

/* The width of the length histogram's bins for games of at most
 * max_plies plies: 1, 2 or 5 times a power of ten, the least that puts
 * every game in REPORT_LENGTH_BINS bins. */
static long length_bin(long max_plies)
{
    for (long scale = 1;; scale *= 10)
        for (int k = 0; k < 3; k++) {
            long width = scale * (k == 0 ? 1 : k == 1 ? 2 : 5);
            if (width * REPORT_LENGTH_BINS > max_plies)
                return width;
        }
}

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
             " s.name, AVG(g.plies * g.plies), COUNT(DISTINCT"
             " g.opening_position || char(10) || g.opening || char(10) ||"
             " g.moves), MAX(c.openings),"
             " SUM(g.reason LIKE 'forfeit\\_%%' ESCAPE '\\'"
             " AND g.result = 'seat1'),"
             " SUM(g.reason LIKE 'forfeit\\_%%' ESCAPE '\\'"
             " AND g.result = 'seat0'), MAX(g.plies)%s GROUP BY %s"
             " ORDER BY MIN(c.id)",
             key, from_where, key);
    sqlite3_stmt *q;
    if (report_prepare_for_sweep(db, sql, sweep, &q, err, errsz))
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
        r->distinct_games = sqlite3_column_int64(q, 14);
        r->forfeits[0] = sqlite3_column_int64(q, 16);
        r->forfeits[1] = sqlite3_column_int64(q, 17);
        r->length_bin = length_bin(sqlite3_column_int64(q, 18));
        if (sqlite3_column_type(q, 0) == SQLITE_INTEGER) { /* cells only */
            snprintf(r->sweep, sizeof r->sweep, "%s",
                     sqlite3_column_text(q, 12));
            snprintf(r->openings, sizeof r->openings, "%s",
                     sqlite3_column_text(q, 15));
        }
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
    if (report_prepare_for_sweep(db, sql, sweep, &q, err, errsz))
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
    long bin = (long)plies / r->length_bin;
    if (bin >= 0 && bin < REPORT_LENGTH_BINS)
        r->length_bins[bin]++;
    if (n % 2 && pos == n / 2)
        r->median_plies = plies;
    else if (!(n % 2) && (pos == n / 2 - 1 || pos == n / 2))
        r->median_plies += plies / 2;
}

static void fold_reason(struct report_row *r, sqlite3_stmt *q, long pos)
{
    size_t len = strlen(r->reasons);
    const char *reason = (const char *)sqlite3_column_text(q, 1);
    long games = (long)sqlite3_column_int64(q, 2);
    snprintf(r->reasons + len, sizeof r->reasons - len, "%s%s %ld",
             pos ? ", " : "", reason ? reason : "", games);
    if (r->n_endings < REASON_COUNT) {
        struct report_ending *e = &r->endings[r->n_endings++];
        snprintf(e->reason, sizeof e->reason, "%s", reason ? reason : "");
        e->games = games;
    }
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
    if (report_prepare_for_sweep(db, "SELECT c.id, c.stopped_at, c.games_planned,"
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
            have = text && sweep_parse_stored(text, &sw, why, sizeof why) == 0;
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
    if (report_prepare_for_sweep(db, "SELECT k.variant, k.question, k.plies,"
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
        || report_build_pairs(db, r, err, errsz)
        || report_build_compared(r)
        || build_claims(db, sweep, r, err, errsz)
        || report_read_play_metrics(db, sweep, r, err, errsz)
        || report_read_tunings(db, r, err, errsz)) {
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
    free(r->tunings);
    report_free_skill(r);
    memset(r, 0, sizeof *r);
}

/* ---- printing ------------------------------------------------------------ */

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
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%ld", r->distinct_games);
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
        "variant", "seat0", "seat1", "games", "distinct", "s0_wins", "s1_wins",
        "draws_rules", "draws_cap", "mean_plies", "median_plies", "s0_score",
        "s0_ci95", "p", "p_holm", "stop", "reasons"};
    struct table t = {0};
    for (int c = 0; c < 17; c++)
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
    table_print(&t, f, out);
    free(t.cells);
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
        json_string(out, r->variant);
        json_key_string(out, "short_variant", r->short_variant);
        if (with_agents)
            for (int k = 0; k < 2; k++) {
                fprintf(out, ", \"seat%d\": ", k);
                json_string(out, r->agent[k]);
                fprintf(out, ", \"seat%d_spec\": ", k);
                json_string(out, r->spec[k]);
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
        json_string(out, r->reasons);
        fprintf(out, ", \"distinct_games\": %ld, \"forfeits\": [%ld, %ld]",
                r->distinct_games, r->forfeits[0], r->forfeits[1]);
        if (with_agents) {
            json_key_string(out, "openings", r->openings);
        }
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
    struct table t = {10, r->n_claims, {0}, NULL};
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
    table_print(&t, f, out);
    free(t.cells);
}

void report_print(const struct report *r, enum report_format f, FILE *out)
{
    if (f == REPORT_JSON) {
        fprintf(out, "{\n");
        json_rows("cells", r->cells, r->n_cells, 1, out);
        fprintf(out, ",\n");
        json_rows("variants", r->variants, r->n_variants, 0, out);
        report_json_pairs(r, out);
        report_json_compared(r, out);
        report_json_metrics(r, out);
        report_json_tunings(r, out);
        if (r->skill_trace)
            report_json_skill(r, out);
        fprintf(out, ",\n  \"claims\": [");
        for (int i = 0; i < r->n_claims; i++) {
            const struct claim_row *c = &r->claims[i];
            fprintf(out, "%s\n    {\"variant\": ", i ? "," : "");
            json_string(out, c->variant);
            json_key_string(out, "question", c->question);
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
    report_print_forfeits(r, f, out);
    print_rows("variants (all agent pairs together)", r->variants,
               r->n_variants, 0, f, out);
    report_print_pairs(r, f, out);
    if (r->n_compares)
        report_print_compared(r, f, out);
    if (r->n_trends)
        report_print_trends(r, f, out);
    if (r->print_metrics)
        report_print_metrics(r, f, out);
    report_print_tunings(r, f, out);
    if (r->skill_trace)
        report_print_skill(r, f, out);
    if (r->n_claims)
        print_claims(r, f, out);
}
