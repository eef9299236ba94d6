/*
 * test_report.c -- the report against concurrent writers and early-stopped
 * cells:
 *  - a report reads one snapshot: games committed by another connection
 *    while the report runs (between its statements) change none of its
 *    numbers;
 *  - a cell stopped by SPRT is reported with the sequential test's own
 *    decision, log-likelihood ratio and bounds (computed by hand below),
 *    its fixed-sample interval and p-value are marked not valid and kept
 *    out of the Holm family; a cell stopped by the interval rule is
 *    flagged likewise;
 *  - variants compared: three cells differing in kings_landing alone get
 *    the differences of adjacent ranks with Newcombe's interval and the
 *    z test, and the trend test, numbers worked by hand below, in every
 *    format; a cell stopped early makes its comparisons n/a;
 *  - agent pairs over game pairs: the pentanomial counts and the interval
 *    over pairs worked by hand below;
 *  - game metrics per cell (decisive, draws by rule and by cap, length)
 *    against a hand computation, printed only when asked (JSON always);
 *  - the runner, which hands out work lazily: with SPRT early stopping 1
 *    and 2 threads store the same rows, and a resumed cell plays exactly
 *    the indices missing from it (stored runs of indices are skipped).
 * The databases are made with the store and filled with plain SQL, so each
 * number asserted is known from the rows written here.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "db_helpers.h"
#include "report.h"
#include "report_helpers.h"
#include "runner.h"
#include "stats.h"
#include "store.h"
#include "sweep.h"

struct fixture {
    char dir[64], path[128];
    struct store *writer;
    int64_t ids[4];
    int n_cells;
};

/* A new database in a new temporary folder, with the sweep `text`
 * registered (one cell per sweep cell) through the writer store. */
static void make_db(struct fixture *f, const char *text)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/rulelab_report_XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/r.db", f->dir);
    struct sweep s;
    char err[1024];
    if (sweep_parse("test.ini", text, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    if (store_open(f->path, 0, &f->writer, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(s.n_cells <= 4);
    if (store_begin_run(f->writer, &s, 1, f->ids, err, sizeof err) != 0)
        fail_msg("%s", err);
    f->n_cells = s.n_cells;
    sweep_free(&s);
}

static void drop_db(struct fixture *f)
{
    char side[160];
    store_close(f->writer);
    unlink(f->path);
    snprintf(side, sizeof side, "%s-wal", f->path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", f->path);
    unlink(side);
    rmdir(f->dir);
}

static void exec_sql(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : "?");
}

/* Adds game `index` of cell `cell` (committed at once: autocommit). */
static void add_game(sqlite3 *db, int64_t cell, int index, const char *result,
                     const char *reason, int plies)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "INSERT INTO games (cell_id, game_index, seed, side0, side1,"
             " result, winner_seat, reason, plies, duration_ms, finished,"
             " moves) VALUES (%lld, %d, %d, 'white', 'black', '%s', %s, '%s',"
             " %d, 1.0, '2026-01-01T00:00:00Z', 'e2e4')",
             (long long)cell, index, index, result,
             strcmp(result, "seat0") == 0   ? "0"
             : strcmp(result, "seat1") == 0 ? "1"
                                            : "NULL",
             reason, plies);
    exec_sql(db, sql);
}

/* ---- one snapshot per report -------------------------------------------- */

struct intruder {
    sqlite3 *writer;
    int64_t cell;
    int statements, fired;
};

/* Called as each statement of the report starts: the first time a
 * statement after the counting one starts (the median's), another
 * connection commits two more games into the cell. */
static int intrude(unsigned type, void *ctx, void *stmt, void *sql)
{
    (void)type;
    (void)stmt;
    struct intruder *in = ctx;
    if (strstr((const char *)sql, "ROW_NUMBER") && !in->fired) {
        in->fired = 1;
        add_game(in->writer, in->cell, 3, "seat1", "khan", 1);
        add_game(in->writer, in->cell, 4, "seat1", "khan", 2);
    }
    in->statements++;
    return 0;
}

static void test_report_reads_one_snapshot(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = snap\ngames = 10\n[game serbest]\n"
                "[agents]\na = random\nb = mcts(iterations=5)\n"
                "[matchups]\npairs = a vs b\norders = given\n");
    sqlite3 *w = store_db(f.writer);
    /* three games: plies 10, 20, 30 (median 20), all won by checkmate */
    add_game(w, f.ids[0], 0, "seat0", "checkmate", 10);
    add_game(w, f.ids[0], 1, "seat0", "checkmate", 20);
    add_game(w, f.ids[0], 2, "seat0", "checkmate", 30);
    struct store *reader;
    char err[512] = "";
    assert_int_equal(store_open(f.path, 1, &reader, err, sizeof err), 0);
    struct intruder in = {w, f.ids[0], 0, 0};
    sqlite3_trace_v2(store_db(reader), SQLITE_TRACE_STMT, intrude, &in);
    struct report r;
    assert_int_equal(report_build(store_db(reader), NULL, &r, err, sizeof err),
                     0);
    sqlite3_trace_v2(store_db(reader), 0, NULL, NULL);
    /* the intruder did commit its games during the report ... */
    assert_true(in.fired);
    /* ... and the report saw none of them: had the median's statement read
     * a newer snapshot, it would fold the 5 sorted plies 1, 2, 10, 20, 30
     * with the count 3 and give 2, and the reasons would add "khan 2". */
    assert_int_equal(r.n_cells, 1);
    assert_int_equal(r.cells[0].games, 3);
    assert_float_equal(r.cells[0].median_plies, 20, 1e-12);
    assert_string_equal(r.cells[0].reasons, "checkmate 3");
    assert_int_equal(r.variants[0].games, 3);
    assert_string_equal(r.variants[0].reasons, "checkmate 3");
    report_free(&r);
    /* the next report sees all five: median of 1, 2, 10, 20, 30 is 10 */
    assert_int_equal(report_build(store_db(reader), NULL, &r, err, sizeof err),
                     0);
    assert_int_equal(r.cells[0].games, 5);
    assert_float_equal(r.cells[0].median_plies, 10, 1e-12);
    assert_string_equal(r.cells[0].reasons, "checkmate 3, khan 2");
    report_free(&r);
    /* and the reader holds no transaction after a report */
    assert_int_equal(sqlite3_get_autocommit(store_db(reader)), 1);
    store_close(reader);
    drop_db(&f);
}

/* A sweep name that cannot be bound (longer than the connection allows:
 * SQLITE_LIMIT_LENGTH, here far above every row the queries make) is an
 * error, never a report of every sweep (an unbound ?1 is NULL, which the
 * queries read as "all sweeps"). */
static void test_unbindable_sweep_name_is_an_error(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = one\ngames = 10\n[game serbest]\n"
                "[agents]\na = random\n"
                "[matchups]\npairs = a vs a\norders = given\n");
    sqlite3 *w = store_db(f.writer);
    add_game(w, f.ids[0], 0, "seat0", "checkmate", 10);
    static char name[5001];
    memset(name, 'x', sizeof name - 1);
    struct report r;
    char err[512] = "";
    int old = sqlite3_limit(w, SQLITE_LIMIT_LENGTH, 4000);
    assert_int_equal(report_build(w, "one", &r, err, sizeof err), 0);
    assert_int_equal(r.n_cells, 1);
    report_free(&r);
    assert_int_equal(report_build(w, name, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "reading the database: string or blob too "
                                "big"));
    /* the savepoint was released: no transaction is left open */
    assert_int_equal(sqlite3_get_autocommit(w), 1);
    sqlite3_limit(w, SQLITE_LIMIT_LENGTH, old);
    drop_db(&f);
}

/* ---- cells stopped early -------------------------------------------------- */

static void test_sprt_cell_reports_the_sequential_decision(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = seq\ngames = 100\nstop = sprt\n"
                "sprt_p0 = 0.5\nsprt_p1 = 0.6\nalpha = 0.05\nbeta = 0.05\n"
                "min_games = 5\n[game serbest]\n"
                "[agents]\na = random\nb = mcts(iterations=5)\n"
                "[matchups]\npairs = a vs b\n");
    assert_int_equal(f.n_cells, 2);
    sqlite3 *w = store_db(f.writer);
    /* cell a-b: 2 seat-0 wins and 15 losses, stopped there by SPRT */
    for (int i = 0; i < 17; i++)
        add_game(w, f.ids[0], i, i < 2 ? "seat0" : "seat1", "checkmate", 10);
    char sql[128];
    snprintf(sql, sizeof sql, "UPDATE cells SET stopped_at = 17 WHERE id = "
             "%lld", (long long)f.ids[0]);
    exec_sql(w, sql);
    /* cell b-a: 10 seat-0 wins, still running (not stopped) */
    for (int i = 0; i < 10; i++)
        add_game(w, f.ids[1], i, "seat0", "khan", 20);
    struct report r;
    char err[512] = "";
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.n_cells, 2);
    const struct report_row *a = &r.cells[0], *b = &r.cells[1];
    assert_int_equal(a->cell_id, f.ids[0]);
    /* Wald's SPRT by hand: llr = W log(p1/p0) + L log((1-p1)/(1-p0))
     *   = 2 log 1.2 + 15 log 0.8 = 0.3646431136 - 3.3471532695
     *   = -2.9825101559 <= log(beta / (1 - alpha)) = log(1/19)
     *   = -2.9444389792: accept H0; upper bound log 19 = 2.9444389792. */
    assert_int_equal(a->stop.rule, STOP_SPRT);
    assert_int_equal(a->stop.stopped_at, 17);
    assert_int_equal(a->stop.decision, STATS_SPRT_ACCEPT_H0);
    assert_float_equal(a->stop.llr, -2.9825101559, 1e-9);
    assert_float_equal(a->stop.lower, -2.9444389792, 1e-9);
    assert_float_equal(a->stop.upper, 2.9444389792, 1e-9);
    /* its fixed-sample statistics are marked not valid */
    assert_int_equal(a->fixed_sample, 0);
    assert_true(isnan(a->lo) && isnan(a->hi) && isnan(a->p)
                && isnan(a->p_holm));
    assert_float_equal(a->score0, 2.0 / 17, 1e-12);
    char text[256];
    report_stop_text(a, text, sizeof text);
    assert_non_null(strstr(text, "sprt stopped after 17: accept H0"));
    assert_non_null(strstr(text, "-2.983 <= -2.944"));
    /* the running cell keeps them, and Holm runs over it alone: p = 2 *
     * 2^-10 = 0.001953125 and so is its p_holm. Had the stopped cell's
     * p = 2 * (1 + 17 + 136) / 2^17 = 0.00235 stayed in the family, the
     * smaller p would be doubled to 0.00390625. */
    assert_int_equal(b->fixed_sample, 1);
    assert_int_equal(b->stop.rule, STOP_SPRT);
    assert_int_equal(b->stop.stopped_at, -1);
    assert_float_equal(b->p, 0.001953125, 1e-15);
    assert_float_equal(b->p_holm, 0.001953125, 1e-15);
    double lo, hi;
    stats_wilson(10, 10, 1.959963984540054, &lo, &hi);
    assert_float_equal(b->lo, lo, 1e-15);
    assert_float_equal(b->hi, hi, 1e-15);
    /* the variant and the pair include the stopped cell */
    assert_int_equal(r.n_variants, 1);
    assert_int_equal(r.variants[0].fixed_sample, 0);
    assert_true(isnan(r.variants[0].p) && isnan(r.variants[0].lo));
    report_stop_text(&r.variants[0], text, sizeof text);
    assert_string_equal(text, "includes cells stopped early");
    assert_int_equal(r.n_pairs, 1);
    assert_int_equal(r.pairs[0].fixed_sample, 0);
    assert_true(isnan(r.pairs[0].lo));
    assert_int_equal(r.pairs[0].n_pairs, 0); /* no openings, no pairs */
    /* every format says so: n/a in the table, null in JSON */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    report_print(&r, REPORT_CSV, out);
    fclose(out);
    assert_non_null(strstr(buf, ",n/a,n/a,n/a,\"sprt stopped after 17: "
                                "accept H0"));
    free(buf);
    out = open_memstream(&buf, &len);
    report_print(&r, REPORT_JSON, out);
    fclose(out);
    assert_non_null(strstr(buf, "\"s0_ci95\": null, \"p\": null, "
                                "\"p_holm\": null, \"fixed_sample\": false, "
                                "\"stop\": {\"rule\": \"sprt\", "
                                "\"stopped_after\": 17, \"decision\": "
                                "\"accept_h0\", \"llr\": -2.982510"));
    free(buf);
    report_free(&r);
    drop_db(&f);
}

static void test_ci_stopped_cell_is_flagged(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = ci\ngames = 50\nstop = ci\n"
                "ci_width = 0.6\nmin_games = 5\n[game serbest]\n"
                "[agents]\na = random\nb = mcts(iterations=5)\n"
                "[matchups]\npairs = a vs b\norders = given\n");
    sqlite3 *w = store_db(f.writer);
    for (int i = 0; i < 12; i++)
        add_game(w, f.ids[0], i, i % 2 ? "seat0" : "seat1", "checkmate", 10);
    char sql[128];
    snprintf(sql, sizeof sql, "UPDATE cells SET stopped_at = 12 WHERE id = "
             "%lld", (long long)f.ids[0]);
    exec_sql(w, sql);
    struct report r;
    char err[512] = "", text[256];
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.cells[0].stop.rule, STOP_CI);
    assert_int_equal(r.cells[0].fixed_sample, 0);
    assert_true(isnan(r.cells[0].lo));
    report_stop_text(&r.cells[0], text, sizeof text);
    assert_string_equal(text, "ci stopped after 12: 95% interval <= 0.6 wide");
    report_free(&r);
    /* a cell the rule "stopped" at its planned games was not ended early:
     * its number of games is the planned one either way */
    snprintf(sql, sizeof sql, "UPDATE cells SET stopped_at = 50, "
             "games_planned = 50 WHERE id = %lld", (long long)f.ids[0]);
    exec_sql(w, sql);
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.cells[0].fixed_sample, 1);
    assert_false(isnan(r.cells[0].lo));
    report_free(&r);
    drop_db(&f);
}

/* ---- variants compared ---------------------------------------------------- */

static void test_variants_compared(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = ranks\ngames = 20\n[game serbest]\n"
                "kings_landing = 7, 8, 9\n"
                "[agents]\na = random\nb = mcts(iterations=5)\n"
                "[matchups]\npairs = a vs b\norders = given\n");
    assert_int_equal(f.n_cells, 3);
    sqlite3 *w = store_db(f.writer);
    /* rank 7: 5 seat-0 wins, 3 losses, 2 draws: score 6/10, draws 2/10;
     * rank 8: 8, 8, 2 draws by rule and 2 by the cap: 10/20 and 4/20;
     * rank 9: 2, 6, 2 draws: 3/10 and 2/10. */
    static const struct {
        int wins, losses, rule_draws, cap_draws;
    } counts[3] = {{5, 3, 2, 0}, {8, 8, 2, 2}, {2, 6, 2, 0}};
    for (int c = 0; c < 3; c++) {
        int i = 0;
        for (int k = 0; k < counts[c].wins; k++)
            add_game(w, f.ids[c], i++, "seat0", "checkmate", 10);
        for (int k = 0; k < counts[c].losses; k++)
            add_game(w, f.ids[c], i++, "seat1", "checkmate", 10);
        for (int k = 0; k < counts[c].rule_draws; k++)
            add_game(w, f.ids[c], i++, "draw", "no_capture", 10);
        for (int k = 0; k < counts[c].cap_draws; k++)
            add_game(w, f.ids[c], i++, "draw", "ply_cap", 10);
    }
    struct report r;
    char err[512] = "";
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.n_compares, 2);
    assert_int_equal(r.n_trends, 1);
    const struct compare_row *c = &r.compares[0];
    assert_string_equal(c->sweep, "ranks");
    assert_string_equal(c->param, "kings_landing");
    assert_string_equal(c->value[0], "7");
    assert_string_equal(c->value[1], "8");
    assert_string_equal(c->agent[0], "a");
    assert_string_equal(c->agent[1], "b");
    assert_int_equal(c->games[0], 10);
    assert_int_equal(c->games[1], 20);
    assert_int_equal(c->fixed_sample, 1);
    /* Rank 8 minus rank 7, seat-0 score 0.5 - 0.6 = -0.1. Wilson 10/20 =
     * [0.299298, 0.700702], 6/10 = [0.312674, 0.831820], so Newcombe's
     *   lo = -0.1 - sqrt((0.5 - 0.299298)^2 + (0.831820 - 0.6)^2)
     *      = -0.1 - 0.306629 = -0.406629,
     *   hi = -0.1 + sqrt((0.700702 - 0.5)^2 + (0.6 - 0.312674)^2)
     *      = -0.1 + 0.350482 = 0.250482;
     * z = -0.1 / sqrt(16/30 14/30 (1/20 + 1/10)) = -0.1 / 0.193218
     *   = -0.517549, p = erfc(0.517549 / sqrt 2) = 0.604773. */
    assert_float_equal(c->score[0], 0.6, 1e-15);
    assert_float_equal(c->score[1], 0.5, 1e-15);
    assert_float_equal(c->score_diff, -0.1, 1e-15);
    assert_float_equal(c->score_lo, -0.40662949800747183, 1e-12);
    assert_float_equal(c->score_hi, 0.2504820282300814, 1e-12);
    assert_float_equal(c->score_p, 0.6047728544859003, 1e-12);
    /* Draw rates 4/20 - 2/10 = 0 (the cap's draws count): Wilson 4/20 =
     * [0.080658, 0.416017], 2/10 = [0.056682, 0.509838];
     *   lo = -sqrt(0.119342^2 + 0.309838^2) = -0.332027,
     *   hi = sqrt(0.216017^2 + 0.143318^2) = 0.259236; z = 0, p = 1. */
    assert_float_equal(c->draw_diff, 0.0, 1e-15);
    assert_float_equal(c->draw_lo, -0.3320269379812422, 1e-12);
    assert_float_equal(c->draw_hi, 0.25923644949822944, 1e-12);
    assert_float_equal(c->draw_p, 1.0, 1e-15);
    assert_string_equal(r.compares[1].value[0], "8");
    assert_string_equal(r.compares[1].value[1], "9");
    assert_float_equal(r.compares[1].score_diff, 0.3 - 0.5, 1e-15);
    /* The trend over 7, 8, 9: x = 6, 10, 3 of n = 10, 20, 10; pbar =
     * 19/40, tbar = 8; T = -1 (6 - 4.75) + 1 (3 - 4.75) = -3, S = 20,
     * z = -3 / sqrt(0.475 0.525 20) = -1.343321, p = 0.179168, slope
     * -3 / 20 = -0.15 per rank. Draws: 2, 4, 2: T = 0, p = 1, slope 0. */
    const struct trend_row *t = &r.trends[0];
    assert_string_equal(t->param, "kings_landing");
    assert_int_equal(t->k, 3);
    assert_int_equal(t->value[0], 7);
    assert_int_equal(t->value[2], 9);
    assert_int_equal(t->games[1], 20);
    assert_float_equal(t->score_slope, -0.15, 1e-15);
    assert_float_equal(t->score_p, 0.1791680587737985, 1e-12);
    assert_float_equal(t->draw_slope, 0.0, 1e-15);
    assert_float_equal(t->draw_p, 1.0, 1e-15);
    /* every format has the section */
    static const struct {
        enum report_format f;
        const char *want[3];
    } formats[] = {
        {REPORT_TABLE, {"kings_landing 7->8", "0.600->0.500",
                        "-0.407..+0.250"}},
        {REPORT_MARKDOWN, {"### variants compared: one parameter",
                           "| kings_landing 7->8 |", "| 0.605 |"}},
        {REPORT_CSV, {"\n# compared\n", "kings_landing 8->9",
                      "\n# trends\n"}},
        {REPORT_JSON, {"\"s0_diff_ci95\": [-0.406629, 0.250482], \"p\": "
                       "0.604773",
                       "\"values\": [7, 8, 9], \"games\": [10, 20, 10]",
                       "\"s0_slope\": -0.15, \"s0_trend_p\": 0.179168"}},
    };
    for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
        char *buf = report_printed(&r, formats[k].f);
        for (int i = 0; i < 3; i++)
            if (!strstr(buf, formats[k].want[i]))
                fail_msg("format %zu lacks '%s' in:\n%s", k,
                         formats[k].want[i], buf);
        free(buf);
    }
    /* --compare: another parameter keeps nothing, this one everything */
    assert_int_equal(report_keep_compared(&r, "kings_landing"), 3);
    assert_int_equal(report_keep_compared(&r, "stalemate"), 0);
    assert_int_equal(r.n_compares + r.n_trends, 0);
    report_free(&r);
    /* rank 9 stopped early: its comparison and the trend lose their
     * interval and p; rank 7 against 8 keeps them */
    char sql[128];
    snprintf(sql, sizeof sql, "UPDATE cells SET stopped_at = 10 WHERE id = "
             "%lld", (long long)f.ids[2]);
    exec_sql(w, sql);
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.n_compares, 2);
    assert_int_equal(r.compares[0].fixed_sample, 1);
    assert_float_equal(r.compares[0].score_p, 0.6047728544859003, 1e-12);
    assert_int_equal(r.compares[1].fixed_sample, 0);
    assert_true(isnan(r.compares[1].score_lo) && isnan(r.compares[1].draw_p));
    assert_int_equal(r.trends[0].fixed_sample, 0);
    assert_true(isnan(r.trends[0].score_p));
    char *buf = report_printed(&r, REPORT_JSON);
    assert_non_null(strstr(buf, "\"s0_diff_ci95\": null, \"p\": null"));
    assert_non_null(strstr(buf, "\"s0_trend_p\": null"));
    free(buf);
    report_free(&r);
    drop_db(&f);
}

/* Cells with other agents in the seats, or of another sweep, are not
 * compared: a vs b against b vs a differ in agents, not in a rule. */
static void test_compared_needs_same_agents(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = seats\ngames = 10\n[game serbest]\n"
                "kings_landing = 7, 8\n"
                "[agents]\na = random\nb = mcts(iterations=5)\n"
                "[matchups]\npairs = a vs b\n");
    assert_int_equal(f.n_cells, 4);
    sqlite3 *w = store_db(f.writer);
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 4; i++)
            add_game(w, f.ids[c], i, i < c ? "seat0" : "seat1", "checkmate",
                     10);
    struct report r;
    char err[512] = "";
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.n_cells, 4);
    assert_int_equal(r.n_compares, 2); /* a-b 7->8 and b-a 7->8 */
    assert_int_equal(r.n_trends, 0); /* two values: no trend */
    for (int i = 0; i < 2; i++) {
        const struct compare_row *c = &r.compares[i];
        assert_string_equal(c->param, "kings_landing");
        assert_string_not_equal(c->agent[0], c->agent[1]);
        assert_int_equal(c->games[0], 4);
    }
    assert_string_not_equal(r.compares[0].agent[0], r.compares[1].agent[0]);
    report_free(&r);
    drop_db(&f);
}

/* ---- agent pairs over game pairs ------------------------------------------ */

/* Four game pairs (pair_id 1-4: game i of a vs b and of b vs a) and one
 * game without its partner: a's points per pair 2, 1/2, 0, 1; the lone
 * game counts in the score over games, not in the pairs. */
static void test_pentanomial_over_game_pairs(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = penta\ngames = 5\n[game serbest]\n"
                "[agents]\na = random\nb = mcts(iterations=5)\n"
                "[matchups]\npairs = a vs b\n");
    assert_int_equal(f.n_cells, 2); /* a vs b, b vs a */
    sqlite3 *w = store_db(f.writer);
    static const char *const in_ab[5] = {"seat0", "draw", "seat1", "seat0",
                                         "seat0"};
    static const char *const in_ba[4] = {"seat1", "seat0", "seat0", "seat0"};
    for (int i = 0; i < 5; i++)
        add_game(w, f.ids[0], i, in_ab[i], "checkmate", 10);
    for (int i = 0; i < 4; i++)
        add_game(w, f.ids[1], i, in_ba[i], "checkmate", 10);
    exec_sql(w, "UPDATE games SET pair_id = game_index + 1");
    struct report r;
    char err[512] = "";
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.n_pairs, 1);
    const struct pair_row *p = &r.pairs[0];
    assert_string_equal(p->agent[0], "a");
    /* over games: a has 1 + 0.5 + 0 + 1 + 1 in seat 0 and 1 + 0 + 0 + 0
     * in seat 1, 4.5 of 9 */
    assert_int_equal(p->games, 9);
    assert_float_equal(p->score, 0.5, 1e-15);
    assert_int_equal(p->n_pairs, 4);
    static const long penta[5] = {1, 1, 1, 0, 1};
    for (int k = 0; k < 5; k++)
        assert_int_equal(p->penta[k], penta[k]);
    /* pair scores per game 1, 1/4, 0, 1/2: mean 7/16 = 0.4375; squared
     * deviations 0.31640625 + 0.03515625 + 0.19140625 + 0.00390625 =
     * 0.546875, variance 0.546875 / 3; half-width 1.959964 sqrt(0.546875
     * / 12) = 0.4184094 */
    double half = 1.959963984540054 * sqrt(0.546875 / 12);
    assert_float_equal(half, 0.4184094, 1e-6);
    assert_float_equal(p->pair_lo, 0.4375 - half, 1e-12);
    assert_float_equal(p->pair_hi, 0.4375 + half, 1e-12);
    char *buf = report_printed(&r, REPORT_CSV);
    assert_non_null(strstr(buf, "\n# pairs\nvariant,agent,opponent,games,"
                                "score,ci95,pairs,pentanomial,ci95_pairs,"
                                "stop\n"));
    assert_non_null(strstr(buf, ",a,b,9,0.500,"));
    assert_non_null(strstr(buf, ",4,1/1/1/0/1,0.019-0.856,\n"));
    free(buf);
    buf = report_printed(&r, REPORT_JSON);
    assert_non_null(strstr(buf, "\"pairs\": 4, \"pentanomial\": [1, 1, 1, 0, "
                                "1], \"ci95_pairs\": [0.019091, 0.855909]}"));
    free(buf);
    report_free(&r);

    /* every pair the same: no spread, no interval over pairs */
    exec_sql(w, "UPDATE games SET result = 'seat0', winner_seat = 0");
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.pairs[0].penta[2], 4);
    assert_true(isnan(r.pairs[0].pair_lo) && isnan(r.pairs[0].pair_hi));
    buf = report_printed(&r, REPORT_JSON);
    assert_non_null(strstr(buf, "\"ci95_pairs\": null}"));
    free(buf);
    report_free(&r);
    drop_db(&f);
}

/* ---- game metrics ---------------------------------------------------------- */

static void test_game_metrics(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = metrics\ngames = 6\n[game serbest]\n"
                "[agents]\na = random\nb = mcts(iterations=5)\n"
                "[matchups]\npairs = a vs b\norders = given\n");
    sqlite3 *w = store_db(f.writer);
    /* 3 seat-0 wins (10, 20, 30 plies), 1 seat-1 win (40), a draw by the
     * rules (50) and one by the cap (60) */
    add_game(w, f.ids[0], 0, "seat0", "checkmate", 10);
    add_game(w, f.ids[0], 1, "seat0", "checkmate", 20);
    add_game(w, f.ids[0], 2, "seat0", "khan", 30);
    add_game(w, f.ids[0], 3, "seat1", "checkmate", 40);
    add_game(w, f.ids[0], 4, "draw", "no_capture", 50);
    add_game(w, f.ids[0], 5, "draw", "ply_cap", 60);
    struct report r;
    char err[512] = "";
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.print_metrics, 0);
    struct report_metrics m;
    report_metrics(&r.cells[0], &m);
    double lo, hi;
    assert_float_equal(m.decisive, 4.0 / 6, 1e-15);
    stats_wilson(4, 6, 1.959963984540054, &lo, &hi);
    assert_float_equal(m.decisive_lo, lo, 1e-15);
    assert_float_equal(m.decisive_hi, hi, 1e-15);
    assert_float_equal(m.rule_draws, 1.0 / 6, 1e-15);
    assert_float_equal(m.cap_draws, 1.0 / 6, 1e-15);
    stats_wilson(1, 6, 1.959963984540054, &lo, &hi);
    assert_float_equal(m.cap_draws_lo, lo, 1e-15);
    assert_float_equal(m.rule_draws_hi, hi, 1e-15);
    /* mean 35; squared deviations 625, 225, 25, 25, 225, 625 = 1750, so
     * sd = sqrt(1750 / 5) = sqrt 350 = 18.708287 and the half-width
     * 1.959964 sqrt(350 / 6) = 14.969472; median (30 + 40) / 2 = 35 */
    assert_float_equal(r.cells[0].sd_plies, sqrt(350.0), 1e-12);
    assert_float_equal(m.mean_plies, 35.0, 1e-12);
    assert_float_equal(m.mean_lo, 35.0 - 1.959963984540054 * sqrt(350.0 / 6),
                       1e-12);
    assert_float_equal(m.mean_hi - m.mean_plies, 14.969472, 1e-6);
    assert_float_equal(m.median_plies, 35.0, 1e-12);
    char *buf = report_printed(&r, REPORT_TABLE);
    assert_null(strstr(buf, "game metrics"));
    free(buf);
    buf = report_printed(&r, REPORT_JSON);
    assert_non_null(strstr(buf, "\"games\": 6, \"decisive\": 0.666667, "
                                "\"decisive_ci95\": [0.299993, 0.903229]"));
    assert_non_null(strstr(buf, "\"mean_plies\": 35.000000, "
                                "\"mean_plies_ci95\": [20.030528, "
                                "49.969472], \"median_plies\": 35.0"));
    free(buf);
    r.print_metrics = 1;
    buf = report_printed(&r, REPORT_CSV);
    assert_non_null(strstr(buf, "\n# metrics\nvariant,seat0,seat1,games,"
                                "decisive,decisive_ci95,"));
    assert_non_null(strstr(buf, ",a,b,6,0.667,0.300-0.903,0.167,"));
    free(buf);
    report_free(&r);
    /* a cell stopped early keeps its shares, loses its intervals */
    exec_sql(w, "UPDATE cells SET stopped_at = 5, games_planned = 10");
    assert_int_equal(report_build(w, NULL, &r, err, sizeof err), 0);
    report_metrics(&r.cells[0], &m);
    assert_float_equal(m.decisive, 4.0 / 6, 1e-15);
    assert_true(isnan(m.decisive_lo) && isnan(m.cap_draws_hi)
                && isnan(m.mean_lo));
    report_free(&r);
    drop_db(&f);
}

/* ---- the runner ----------------------------------------------------------- */

static void run_into(const char *text, const char *path, int threads,
                     struct run_result *r)
{
    struct sweep s;
    struct store *st;
    char err[1024];
    if (sweep_parse("test.ini", text, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    if (store_open(path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct run_options o = {threads, 1, 2.0, 3, {0, 0, NULL}};
    if (runner_run(&s, st, &o, r, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
    sweep_free(&s);
}

/* Every stored row but the timing columns, one line per game, in order,
 * then each cell's early stop. */
static char *rows_of(const char *path)
{
    return db_rows(path, DB_GAME_COLUMNS " UNION ALL "
        "SELECT v.canonical, a0.spec, a1.spec, -1, c.stopped_at, '', '', '',"
        " '', '', '', '' FROM cells c JOIN variants v ON v.id = c.variant_id"
        " JOIN agents a0 ON a0.id = c.agent0_id JOIN agents a1"
        " ON a1.id = c.agent1_id ORDER BY 1, 2, 3, 4");
}

static void test_sprt_rows_same_on_one_and_two_threads(void **state)
{
    (void)state;
    /* random attackers against a small MCTS rarely win: seat 0's score in
     * "a vs b" is well below 0.5 (losses and draws at the ply cap), so SPRT
     * accepts H0 (0.5 against 0.6) before 60 games: a loss adds
     * log(0.4/0.5) = -0.223 to the LLR, a draw -0.020, the bound is
     * log(0.05/0.95) = -2.944 */
    const char *text =
        "[sweep]\nname = sprt\nseed = 11\ngames = 60\nstop = sprt\n"
        "sprt_p0 = 0.5\nsprt_p1 = 0.6\nmin_games = 5\n"
        "[game tafl]\nmax_plies = 80\n"
        "[agents]\na = random\nb = mcts(iterations=4)\n"
        "[matchups]\npairs = a vs b\n";
    char dir[64], one[96], two[96];
    snprintf(dir, sizeof dir, "/tmp/rulelab_report_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(one, sizeof one, "%s/one.db", dir);
    snprintf(two, sizeof two, "%s/two.db", dir);
    struct run_result r1, r2;
    run_into(text, one, 1, &r1);
    run_into(text, two, 2, &r2);
    char *a = rows_of(one), *b = rows_of(two);
    assert_string_equal(a, b);
    assert_int_equal(r1.played, r2.played);
    assert_true(r1.played < 120);
    /* a cell stopped early, after exactly the games it holds */
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(one, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM cells WHERE"
                     " stopped_at < 60 AND stopped_at = (SELECT COUNT(*) FROM"
                     " games WHERE cell_id = cells.id)", -1, &q, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_true(sqlite3_column_int(q, 0) >= 1);
    sqlite3_finalize(q);
    sqlite3_close(db);
    free(a);
    free(b);
    db_remove(one);
    db_remove(two);
    rmdir(dir);
}

static void test_resume_plays_exactly_the_missing_games(void **state)
{
    (void)state;
    const char *text =
        "[sweep]\nname = gaps\nseed = 2\ngames = 10\n"
        "[game serbest]\nmax_plies = 20\n"
        "[agents]\na = random\nb = mcts(iterations=2)\n"
        "[matchups]\npairs = a vs b\norders = given\n";
    struct fixture f;
    make_db(&f, text);
    /* stored before the run: indices 0-2, 5 and 7-8 (fake moves mark
     * them); the run must play 3, 4, 6 and 9 and nothing else */
    static const int stored[] = {0, 1, 2, 5, 7, 8};
    for (int i = 0; i < 6; i++)
        add_game(store_db(f.writer), f.ids[0], stored[i], "draw", "ply_cap",
                 99);
    store_close(f.writer);
    f.writer = NULL;
    struct run_result r;
    run_into(text, f.path, 2, &r);
    assert_int_equal(r.total, 4);
    assert_int_equal(r.played, 4);
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(f.path, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT group_concat(game_index)"
                     " FROM (SELECT game_index FROM games WHERE plies <> 99"
                     " ORDER BY game_index)", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal(sqlite3_column_text(q, 0), "3,4,6,9");
    sqlite3_finalize(q);
    sqlite3_close(db);
    /* and again: nothing is left */
    run_into(text, f.path, 2, &r);
    assert_int_equal(r.total, 0);
    drop_db(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_reads_one_snapshot),
        cmocka_unit_test(test_unbindable_sweep_name_is_an_error),
        cmocka_unit_test(test_sprt_cell_reports_the_sequential_decision),
        cmocka_unit_test(test_ci_stopped_cell_is_flagged),
        cmocka_unit_test(test_variants_compared),
        cmocka_unit_test(test_compared_needs_same_agents),
        cmocka_unit_test(test_pentanomial_over_game_pairs),
        cmocka_unit_test(test_game_metrics),
        cmocka_unit_test(test_sprt_rows_same_on_one_and_two_threads),
        cmocka_unit_test(test_resume_plays_exactly_the_missing_games),
    };
    return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
