/*
 * test_skill.c -- the skill trace (experiments/analysis/report_skill.c):
 *  - the two tests behind the verdict (report_skill_test) against hand
 *    computations: Newcombe's (1 - 2 alpha) interval of the difference
 *    for TOST, and the pooled two-proportion z test, on tables that are
 *    converged, still moving, not enough games, and both equivalent and
 *    different (converged wins);
 *  - the verdict logic on constructed rung tables (report_skill_judge):
 *    which family and which two rungs are compared, and each verdict,
 *    with no ratings, no two rated rungs of a family, and a rung stopped
 *    early;
 *  - `--skill-trace` on a database made through the store with known
 *    rows: three variants (converged, still moving, not enough games),
 *    the rungs' counts and intervals, their ratings equal to
 *    ratings_build's, the verdicts, every format.
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

#include "ratings.h"
#include "report.h"
#include "report_helpers.h"
#include "stats.h"
#include "store.h"
#include "sweep.h"

/* cmocka's assert_float_equal compares floats; these are doubles */
#define assert_close(a, b, eps) close_at((a), (b), (eps), __FILE__, __LINE__)

static void close_at(double a, double b, double eps, const char *file,
                     int line)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("%s:%d: %.17g != %.17g (eps %g)", file, line, a, b, eps);
}

#define Z90 1.6448536269514715 /* Phi^-1(0.95): the 90% interval of TOST */

/* ---- the tests ------------------------------------------------------------ */

/* 500/1000 against 500/1000, delta = alpha = 0.05. Wilson at z = Z90,
 * z^2 = 2.705543: centre (1000 + z^2) / (2 (1000 + z^2)) = 0.5, half-width
 * z sqrt(z^2 + 4 500 500 / 1000) / (2 (1000 + z^2))
 *   = 1.644854 * sqrt(1002.705543) / 2005.411087 = 0.025972,
 * so each is [0.474028, 0.525972]. Newcombe: d = 0,
 *   lo = 0 - sqrt(0.025972^2 + 0.025972^2) = -0.036730, hi = +0.036730,
 * inside [-0.05, 0.05]: converged. z = 0, p = 1. */
static void test_converged(void **state)
{
    (void)state;
    struct skill_test t;
    assert_int_equal(report_skill_test(500, 1000, 500, 1000, 0.05, 0.05, &t),
                     SKILL_CONVERGED);
    assert_int_equal(t.verdict, SKILL_CONVERGED);
    assert_close(t.diff, 0, 1e-15);
    assert_close(t.tost_lo, -0.03673039095735651, 1e-12);
    assert_close(t.tost_hi, 0.03673039095735651, 1e-12);
    assert_close(t.z, 0, 1e-15);
    assert_close(t.p, 1, 1e-15);
    /* a margin below 0.036730 is not shown, and nothing differs: not
     * enough games */
    assert_int_equal(report_skill_test(500, 1000, 500, 1000, 0.03, 0.05, &t),
                     SKILL_NOT_ENOUGH);
}

/* 600/1000 against 500/1000: d = 0.1. Pooled pbar = 1100 / 2000 = 0.55,
 * se = sqrt(0.55 0.45 (1/1000 + 1/1000)) = sqrt(0.000495) = 0.022249,
 * z = 0.1 / 0.022249 = 4.494666, p = erfc(4.494666 / sqrt 2) = 6.968e-6
 * < 0.05: still moving. TOST: Wilson 600/1000 at Z90 =
 * [0.574281, 0.625179], 500/1000 as above, so
 *   lo = 0.1 - sqrt((0.6 - 0.574281)^2 + (0.525972 - 0.5)^2)
 *      = 0.1 - 0.036552 = 0.063448,
 *   hi = 0.1 + sqrt((0.625179 - 0.6)^2 + (0.5 - 0.474028)^2)
 *      = 0.1 + 0.036174 = 0.136174: not inside +/-0.05. */
static void test_still_moving(void **state)
{
    (void)state;
    struct skill_test t;
    assert_int_equal(report_skill_test(600, 1000, 500, 1000, 0.05, 0.05, &t),
                     SKILL_MOVING);
    assert_close(t.diff, 0.1, 1e-14);
    assert_close(t.tost_lo, 0.06344841574129724, 1e-12);
    assert_close(t.tost_hi, 0.13617390335321167, 1e-12);
    assert_close(t.z, 4.4946657497549465, 1e-10);
    assert_close(t.p, 6.967931072849875e-06, 1e-15);
    /* the same counts the other way round: d and z change sign */
    assert_int_equal(report_skill_test(500, 1000, 600, 1000, 0.05, 0.05, &t),
                     SKILL_MOVING);
    assert_close(t.tost_hi, -0.06344841574129724, 1e-12);
    assert_close(t.z, -4.4946657497549465, 1e-10);
}

/* 30/50 against 25/50: d = 0.1, pbar = 0.55, se = sqrt(0.2475 0.04) =
 * 0.099499, z = 1.005038, p = erfc(1.005038 / sqrt 2) = 0.314879 >= 0.05;
 * Wilson 30/50 at Z90 = [0.483753, 0.705981], 25/50 = [0.386716,
 * 0.613284]: lo = 0.1 - sqrt(0.116247^2 + 0.113284^2) = -0.062317, hi =
 * 0.1 + sqrt(0.105981^2 + 0.113284^2) = 0.255130: not inside either. */
static void test_not_enough_games(void **state)
{
    (void)state;
    struct skill_test t;
    assert_int_equal(report_skill_test(30, 50, 25, 50, 0.05, 0.05, &t),
                     SKILL_NOT_ENOUGH);
    assert_close(t.tost_lo, -0.06231675768061626, 1e-12);
    assert_close(t.tost_hi, 0.25512961060066985, 1e-12);
    assert_close(t.z, 1.0050378152592119, 1e-12);
    assert_close(t.p, 0.3148786413364201, 1e-12);
    /* at alpha = 0.4 the z test rejects (p < 0.4): still moving */
    assert_int_equal(report_skill_test(30, 50, 25, 50, 0.05, 0.4, &t),
                     SKILL_MOVING);
    /* no games on one side: nothing can be said */
    assert_int_equal(report_skill_test(0, 0, 25, 50, 0.05, 0.05, &t),
                     SKILL_NOT_ENOUGH);
    assert_close(t.tost_lo, -1, 1e-15);
    assert_close(t.p, 1, 1e-15);
}

/* 51000/100000 against 50000/100000: d = 0.01, shown non-zero (pbar =
 * 0.505, se = sqrt(0.505 0.495 2e-5) = 0.002236, z = 4.472360, p =
 * 7.74e-6) and shown within 0.05 (Wilson at Z90: [0.507400, 0.512600] and
 * [0.497399, 0.502601], lo = 0.01 - sqrt(0.002600^2 + 0.002601^2) =
 * 0.006322, hi = 0.013677): converged, the margin is what matters. */
static void test_equivalent_and_different_is_converged(void **state)
{
    (void)state;
    struct skill_test t;
    assert_int_equal(report_skill_test(51000, 100000, 50000, 100000, 0.05,
                                       0.05, &t), SKILL_CONVERGED);
    assert_close(t.tost_lo, 0.0063222217435338355, 1e-12);
    assert_close(t.tost_hi, 0.013677395683463395, 1e-12);
    assert_close(t.z, 4.4723595785692405, 1e-9);
    assert_true(t.p < 1e-5);
}

/* TOST is two one-sided tests: the interval's bounds at Z90 are where
 * each one-sided test at 0.05 turns. Checked with the 90% and the 95%
 * interval: the 95% one (alpha 0.025) is wider and contains the 90%. */
static void test_tost_level_follows_alpha(void **state)
{
    (void)state;
    struct skill_test a, b;
    report_skill_test(250, 400, 220, 400, 0.05, 0.05, &a);
    report_skill_test(250, 400, 220, 400, 0.05, 0.025, &b);
    double lo, hi;
    stats_newcombe_diff(250, 400, 220, 400, Z90, &lo, &hi);
    assert_close(a.tost_lo, lo, 1e-15);
    assert_close(a.tost_hi, hi, 1e-15);
    stats_newcombe_diff(250, 400, 220, 400, 1.959963984540054, &lo, &hi);
    assert_close(b.tost_lo, lo, 1e-12);
    assert_close(b.tost_hi, hi, 1e-12);
    assert_true(b.tost_lo < a.tost_lo && a.tost_hi < b.tost_hi);
    /* 250/400 - 220/400 = 0.075: pbar = 0.5875, se = sqrt(0.5875 0.4125
     * / 200) = 0.034810, z = 2.154569, p = 0.031196: < 0.05, > 0.025 */
    assert_int_equal(a.verdict, SKILL_MOVING);
    assert_int_equal(b.verdict, SKILL_NOT_ENOUGH);
    assert_close(a.p, 0.031195599456122474, 1e-12);
}

/* ---- the verdict logic on constructed tables ------------------------------ */

static struct skill_rung rung(const char *agent, const char *family,
                              int rated, double elo, long w0, long d, long w1)
{
    struct skill_rung g;
    memset(&g, 0, sizeof g);
    snprintf(g.agent, sizeof g.agent, "%s", agent);
    snprintf(g.spec, sizeof g.spec, "%s(x)", agent);
    snprintf(g.family, sizeof g.family, "%s", family);
    g.rated = rated;
    g.elo = rated ? elo : NAN;
    g.wins[0] = w0;
    g.draws = d;
    g.wins[1] = w1;
    g.games = w0 + d + w1;
    g.fixed_sample = 1;
    return g;
}

static void judged(struct skill_variant *sv, struct skill_rung *rungs, int n)
{
    memset(sv, 0, sizeof *sv);
    snprintf(sv->ratings_status, sizeof sv->ratings_status, "ok");
    sv->rungs = rungs;
    sv->n_rungs = n;
    report_skill_judge(sv, 0.05, 0.05);
}

static void test_judge_picks_the_best_family_and_its_top_two(void **state)
{
    (void)state;
    /* ab's best rung (ab_hi, 900) is the best rung with a second in its
     * family (ab_lo, 600); mcts's two (700, 400) are not compared; random
     * has one rung. The rungs are listed in no particular order. ab_hi:
     * 500 seat-0 wins, 200 draws, 300 losses = 600 points of 1000; ab_lo:
     * 400, 200, 400 = 500 of 1000: the still-moving table above (d = 0.1,
     * z = 4.494666). */
    struct skill_rung rungs[] = {
        rung("mcts_hi", "mcts", 1, 700, 10, 0, 10),
        rung("ab_lo", "ab", 1, 600, 400, 200, 400),
        rung("random", "random", 1, 0, 5, 0, 5),
        rung("ab_hi", "ab", 1, 900, 500, 200, 300),
        rung("mcts_lo", "mcts", 1, 400, 10, 0, 10)};
    struct skill_variant sv;
    judged(&sv, rungs, 5);
    assert_int_equal(sv.top, 3);
    assert_int_equal(sv.second, 1);
    assert_string_equal(sv.family, "ab");
    assert_int_equal(sv.test.verdict, SKILL_MOVING);
    assert_close(sv.test.z, 4.4946657497549465, 1e-10);
    assert_string_equal(sv.why, "ab_hi - ab_lo = +0.100, 90% interval +0.063 "
                                "to +0.136, p = 6.97e-06 < 0.05");
    /* the best rung alone in its family: the next family down is judged.
     * mcts_hi 700 on 500 wins, 0 draws, 500 losses and mcts_lo on 250,
     * 500, 250 (both 500 of 1000): the converged table above. */
    struct skill_rung more[] = {
        rung("ab", "ab", 1, 900, 10, 0, 10),
        rung("mcts_hi", "mcts", 1, 700, 500, 0, 500),
        rung("mcts_mid", "mcts", 0, NAN, 10, 0, 10), /* not rated */
        rung("mcts_lo", "mcts", 1, 400, 250, 500, 250)};
    judged(&sv, more, 4);
    assert_string_equal(sv.family, "mcts");
    assert_int_equal(sv.top, 1);
    assert_int_equal(sv.second, 3);
    assert_int_equal(sv.test.verdict, SKILL_CONVERGED);
    assert_close(sv.test.tost_hi, 0.03673039095735651, 1e-12);
    assert_string_equal(sv.why, "mcts_hi - mcts_lo = +0.000, 90% interval "
                                "-0.037 to +0.037 inside +/-0.05");
    /* 30 of 50 against 25 of 50: not enough games */
    struct skill_rung few[] = {rung("b", "ab", 1, 200, 25, 10, 15),
                               rung("a", "ab", 1, 100, 20, 10, 20)};
    judged(&sv, few, 2);
    assert_int_equal(sv.test.verdict, SKILL_NOT_ENOUGH);
    assert_close(sv.test.p, 0.3148786413364201, 1e-12);
    assert_string_equal(sv.why, "b - a = +0.100, 90% interval -0.062 to "
                                "+0.255 not inside +/-0.05, p = 0.315 >= "
                                "0.05");
}

static void test_judge_without_a_pair(void **state)
{
    (void)state;
    struct skill_variant sv;
    /* one rung per family */
    struct skill_rung lone[] = {rung("random", "random", 1, 0, 5, 0, 5),
                                rung("m", "mcts", 1, 300, 500, 0, 500),
                                rung("a", "ab", 1, 900, 500, 0, 500)};
    judged(&sv, lone, 3);
    assert_int_equal(sv.test.verdict, SKILL_NOT_ENOUGH);
    assert_int_equal(sv.top, -1);
    assert_int_equal(sv.second, -1);
    assert_true(isnan(sv.test.diff) && isnan(sv.test.p));
    assert_string_equal(sv.why, "no agent family has two rated rungs "
                                "(self-play games and a rating)");
    /* two of a family, one not rated (never met the anchor's group) */
    lone[1] = rung("m2", "ab", 0, NAN, 500, 0, 500);
    judged(&sv, lone, 3);
    assert_int_equal(sv.top, -1);
    /* no self-play at all */
    judged(&sv, lone, 0);
    assert_string_equal(sv.why, "no self-play games");
    /* the ratings have no finite estimate: no verdict from them */
    struct skill_rung pair[] = {rung("a", "ab", 1, 900, 600, 0, 400),
                                rung("b", "ab", 1, 100, 500, 0, 500)};
    memset(&sv, 0, sizeof sv);
    snprintf(sv.ratings_status, sizeof sv.ratings_status, "infinite");
    snprintf(sv.ratings_message, sizeof sv.ratings_message,
             "no finite ratings: a won every game against the others");
    sv.rungs = pair;
    sv.n_rungs = 2;
    report_skill_judge(&sv, 0.05, 0.05);
    assert_int_equal(sv.test.verdict, SKILL_NOT_ENOUGH);
    assert_string_equal(sv.why, "no ratings: no finite ratings: a won every "
                                "game against the others");
    /* the pair found, but a rung stopped early: no fixed-sample test */
    pair[1].fixed_sample = 0;
    judged(&sv, pair, 2);
    assert_int_equal(sv.top, 0);
    assert_int_equal(sv.second, 1);
    assert_int_equal(sv.test.verdict, SKILL_NOT_ENOUGH);
    assert_true(isnan(sv.test.p));
    assert_string_equal(sv.why, "b's games include a cell a stop rule ended "
                                "early: no fixed-sample test");
    /* with both fixed the same pair differs: 600/1000 vs 500/1000 */
    pair[1].fixed_sample = 1;
    judged(&sv, pair, 2);
    assert_int_equal(sv.test.verdict, SKILL_MOVING);
}

/* ---- the whole output on a hand-made database --------------------------- */

struct fixture {
    char dir[64], path[128];
    struct store *st;
};

static void exec_sql(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : "?");
}

static void make_db(struct fixture *f, const char *text)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/rulelab_skill_XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/s.db", f->dir);
    struct sweep s;
    char err[1024];
    if (sweep_parse("skill.ini", text, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    if (store_open(f->path, 0, &f->st, err, sizeof err) != 0)
        fail_msg("%s", err);
    int64_t *ids = calloc((size_t)s.n_cells, sizeof *ids);
    if (store_begin_run(f->st, &s, 1, ids, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(ids);
    sweep_free(&s);
}

static void drop_db(struct fixture *f)
{
    char side[160];
    store_close(f->st);
    unlink(f->path);
    snprintf(side, sizeof side, "%s-wal", f->path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", f->path);
    unlink(side);
    rmdir(f->dir);
}

/* The id of the cell of serbest(kings_landing=kl) with agents a0, a1. */
static int64_t cell(sqlite3 *db, int kl, const char *a0, const char *a1)
{
    sqlite3_stmt *q;
    char variant[32];
    snprintf(variant, sizeof variant, "%%kings_landing=%d%%", kl);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT c.id FROM cells c JOIN "
                     "variants v ON v.id = c.variant_id WHERE v.canonical LIKE"
                     " ?1 AND c.agent0_name = ?2 AND c.agent1_name = ?3", -1,
                     &q, NULL), SQLITE_OK);
    sqlite3_bind_text(q, 1, variant, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, a0, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, a1, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    int64_t id = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return id;
}

/* w seat-0 wins, d draws (by the rules), l seat-1 wins into the cell. */
static void add_games(sqlite3 *db, int64_t id, int w, int d, int l)
{
    exec_sql(db, "BEGIN");
    const char *result[3] = {"seat0", "draw", "seat1"};
    const char *winner[3] = {"0", "NULL", "1"};
    const char *reason[3] = {"checkmate", "no_capture", "khan"};
    int count[3] = {w, d, l}, index = 0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < count[k]; i++, index++) {
            char sql[512];
            snprintf(sql, sizeof sql,
                     "INSERT INTO games (cell_id, game_index, seed, side0,"
                     " side1, result, winner_seat, reason, plies, duration_ms,"
                     " finished, moves) VALUES (%lld, %d, %d, 'white', 'black',"
                     " '%s', %s, '%s', 10, 1.0, '2026-01-01T00:00:00Z',"
                     " 'm%d')", (long long)id, index, index, result[k],
                     winner[k], reason[k], index);
            exec_sql(db, sql);
        }
    exec_sql(db, "COMMIT");
}

static void assert_has(const char *buf, const char *want)
{
    if (!strstr(buf, want))
        fail_msg("lacks '%s' in:\n%s", want, buf);
}

/* Three variants (kings_landing 7, 8, 9), each with random, m1 and m2
 * playing themselves and random-m1, m1-m2 in both seat orders. The
 * cross-play is the same in each: the stronger agent wins 3 of 4 in each
 * order, so m2 > m1 > random. The self-play of m2 and m1 (top and second
 * of the family mcts):
 *   kl 7: m2 500 wins, 0 draws, 500 losses (500 of 1000), m1 250, 500,
 *         250 (500 of 1000): converged (d = 0, TOST -0.036730..0.036730);
 *   kl 8: m2 200, 100, 100 (250 of 400), m1 170, 100, 130 (220 of 400):
 *         d = 0.075, z = 2.154569, p = 0.031196: still moving;
 *   kl 9: m2 25, 10, 15 (30 of 50), m1 20, 10, 20 (25 of 50): d = 0.1,
 *         p = 0.314879: not enough games.
 * random's self-play: 10 wins, 4 draws, 6 losses, in each. */
static void test_skill_trace_on_a_database(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = skill\ngames = 1000\n[game serbest]\n"
                "kings_landing = 7, 8, 9\n"
                "[agents]\nrandom = random\nm1 = mcts(iterations=5)\n"
                "m2 = mcts(iterations=10)\n"
                "[matchups]\npairs = random vs random, m1 vs m1, m2 vs m2, "
                "random vs m1, m1 vs m2\norders = both\n");
    sqlite3 *db = store_db(f.st);
    static const int self[3][2][3] = {
        {{500, 0, 500}, {250, 500, 250}},
        {{200, 100, 100}, {170, 100, 130}},
        {{25, 10, 15}, {20, 10, 20}}};
    for (int v = 0; v < 3; v++) {
        int kl = 7 + v;
        add_games(db, cell(db, kl, "random", "random"), 10, 4, 6);
        add_games(db, cell(db, kl, "m2", "m2"), self[v][0][0], self[v][0][1],
                  self[v][0][2]);
        add_games(db, cell(db, kl, "m1", "m1"), self[v][1][0], self[v][1][1],
                  self[v][1][2]);
        add_games(db, cell(db, kl, "random", "m1"), 1, 0, 3);
        add_games(db, cell(db, kl, "m1", "random"), 3, 0, 1);
        add_games(db, cell(db, kl, "m1", "m2"), 1, 0, 3);
        add_games(db, cell(db, kl, "m2", "m1"), 3, 0, 1);
    }
    struct report r;
    char err[1024] = "";
    assert_int_equal(report_build(db, NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.skill_trace, 0);
    char *buf = report_printed(&r, REPORT_JSON);
    assert_null(strstr(buf, "skill_trace"));
    free(buf);
    assert_int_equal(report_build_skill(db, NULL, 0.05, 0.05, &r, err,
                                        sizeof err), 0);
    struct ratings rt;
    assert_int_equal(ratings_build(db, NULL, NULL, 0, &rt, err, sizeof err),
                     0);
    assert_int_equal(r.n_skill, 3);
    assert_int_equal(rt.n_variants, 3);
    static const enum skill_verdict want[3] = {SKILL_CONVERGED, SKILL_MOVING,
                                               SKILL_NOT_ENOUGH};
    for (int v = 0; v < 3; v++) {
        const struct skill_variant *sv = &r.skill[v];
        assert_string_equal(sv->ratings_status, "ok");
        assert_string_equal(sv->anchor, "random");
        assert_int_equal(sv->n_rungs, 3);
        /* by rating ascending: random (the anchor, 0), m1, m2 */
        assert_string_equal(sv->rungs[0].agent, "random");
        assert_string_equal(sv->rungs[1].agent, "m1");
        assert_string_equal(sv->rungs[2].agent, "m2");
        assert_string_equal(sv->rungs[1].family, "mcts");
        assert_string_equal(sv->rungs[0].family, "random");
        assert_close(sv->rungs[0].elo, 0, 1e-12);
        assert_true(sv->rungs[1].elo > 0 && sv->rungs[2].elo > sv->rungs[1].elo);
        /* each rating is the ratings' own, for the same variant */
        const struct ratings_variant *rv = NULL;
        for (int i = 0; i < rt.n_variants; i++)
            if (strcmp(rt.variants[i].variant, sv->variant) == 0)
                rv = &rt.variants[i];
        assert_non_null(rv);
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < rv->n_agents; a++)
                if (strcmp(rv->agents[a].spec, sv->rungs[k].spec) == 0) {
                    assert_close(sv->rungs[k].elo, rv->fit.elo[a], 1e-9);
                    assert_close(sv->rungs[k].elo_hi - sv->rungs[k].elo,
                                       1.959963984540054 * rv->fit.se[a],
                                       1e-9);
                }
        /* random's self-play: 10 + 4/2 = 12 of 20 = 0.6, draws 4/20 */
        const struct skill_rung *g = &sv->rungs[0];
        assert_int_equal(g->games, 20);
        assert_close(g->score, 0.6, 1e-15);
        assert_close(g->draw, 0.2, 1e-15);
        double lo, hi;
        stats_wilson(12, 20, 1.959963984540054, &lo, &hi);
        assert_close(g->score_lo, lo, 1e-15);
        assert_close(g->score_hi, hi, 1e-15);
        stats_wilson(4, 20, 1.959963984540054, &lo, &hi);
        assert_close(g->draw_lo, lo, 1e-15);
        assert_close(g->draw_hi, hi, 1e-15);
        /* the verdict: m2 over m1 */
        assert_string_equal(sv->family, "mcts");
        assert_int_equal(sv->top, 2);
        assert_int_equal(sv->second, 1);
        assert_int_equal(sv->test.verdict, want[v]);
        int a2 = -1, a1 = -1;
        for (int a = 0; a < rv->n_agents; a++) {
            a2 = strcmp(rv->agents[a].name, "m2") ? a2 : a;
            a1 = strcmp(rv->agents[a].name, "m1") ? a1 : a;
        }
        assert_close(sv->los, ratings_los(&rv->fit, a2, a1), 1e-12);
    }
    assert_close(r.skill[0].test.tost_lo, -0.03673039095735651, 1e-12);
    assert_close(r.skill[1].test.diff, 0.075, 1e-14);
    assert_close(r.skill[1].test.p, 0.031195599456122474, 1e-12);
    assert_close(r.skill[2].test.p, 0.3148786413364201, 1e-12);
    /* kl 8's m2: 200 wins, 100 draws, 100 losses: 250 of 400, draws 0.25 */
    const struct skill_rung *m2 = &r.skill[1].rungs[2];
    assert_int_equal(m2->games, 400);
    assert_int_equal(m2->wins[0], 200);
    assert_int_equal(m2->draws, 100);
    assert_close(m2->score, 0.625, 1e-15);
    assert_close(m2->draw, 0.25, 1e-15);
    /* every format */
    char elo[32];
    snprintf(elo, sizeof elo, "%.1f", r.skill[0].rungs[2].elo);
    buf = report_printed(&r, REPORT_TABLE);
    assert_has(buf, "\nskill trace: self-play at each strength rung");
    assert_has(buf, "\nskill trace verdicts: the top two rungs by Elo");
    assert_has(buf, "90% Newcombe interval");
    assert_has(buf, "converged");
    assert_has(buf, "still moving");
    assert_has(buf, "not enough games");
    assert_has(buf, "m2 - m1 = +0.075, 90% interval");
    assert_has(buf, elo);
    assert_has(buf, "anchor");
    free(buf);
    buf = report_printed(&r, REPORT_MARKDOWN);
    assert_has(buf, "### skill trace: self-play");
    assert_has(buf, "| serbest(kings_landing=8) | mcts | m2 | m1 | 400/400 | "
                    "0.625 | 0.550 | +0.075 |");
    assert_has(buf, "| still moving |");
    free(buf);
    buf = report_printed(&r, REPORT_CSV);
    assert_has(buf, "\n# skill_trace\nvariant,agent,family,spec,games,"
                    "s0_score,s0_ci95,draw_rate,draw_ci95,elo,elo_ci95\n");
    assert_has(buf, "\n# skill_verdicts\nvariant,family,top,second,games,");
    assert_has(buf, ",random,random,random,20,0.600,");
    free(buf);
    buf = report_printed(&r, REPORT_JSON);
    assert_has(buf, "\"skill_trace\": {\"delta\": 0.05, \"alpha\": 0.05, "
                    "\"variants\": [");
    assert_has(buf, "\"games\": 400, \"s0_wins\": 200, \"s1_wins\": 100, "
                    "\"draws\": 100, \"s0_score\": 0.625000, \"s0_ci95\": [");
    assert_has(buf, "\"verdict\": \"converged\"");
    assert_has(buf, "\"tost_ci\": [-0.036730, 0.036730], \"z\": 0.000000, "
                    "\"p\": 1,");
    assert_has(buf, "\"s0_diff\": 0.075000, \"tost_ci\": [0.017743, "
                    "0.131567], \"z\": 2.154569, \"p\": 0.0311956,");
    free(buf);
    ratings_free(&rt);
    report_free(&r);
    /* --delta 0.2 makes kl 9 converged? Its 90% interval -0.062..0.255
     * is not inside +/-0.2: still not enough; kl 8's 0.018..0.132 is. */
    assert_int_equal(report_build(db, NULL, &r, err, sizeof err), 0);
    assert_int_equal(report_build_skill(db, NULL, 0.2, 0.05, &r, err,
                                        sizeof err), 0);
    assert_int_equal(r.skill[1].test.verdict, SKILL_CONVERGED);
    assert_int_equal(r.skill[2].test.verdict, SKILL_NOT_ENOUGH);
    report_free(&r);
    /* m1's cell of kl 8 stopped early: its rung loses its intervals and
     * the variant its test */
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE cells SET stopped_at = 400 WHERE id ="
             " %lld", (long long)cell(db, 8, "m1", "m1"));
    exec_sql(db, sql);
    assert_int_equal(report_build(db, NULL, &r, err, sizeof err), 0);
    assert_int_equal(report_build_skill(db, NULL, 0.05, 0.05, &r, err,
                                        sizeof err), 0);
    assert_int_equal(r.skill[1].rungs[1].fixed_sample, 0);
    assert_true(isnan(r.skill[1].rungs[1].score_lo));
    assert_int_equal(r.skill[1].test.verdict, SKILL_NOT_ENOUGH);
    assert_string_equal(r.skill[1].why, "m1's games include a cell a stop "
                                        "rule ended early: no fixed-sample "
                                        "test");
    buf = report_printed(&r, REPORT_JSON);
    assert_has(buf, "\"s0_ci95\": null, \"draw_rate\": 0.250000, "
                    "\"draw_ci95\": null, \"fixed_sample\": false");
    free(buf);
    report_free(&r);
    drop_db(&f);
}

/* Self-play only: nobody but the anchor is rated, so no verdict; a sweep
 * filter reaches the ratings too. */
static void test_skill_trace_self_play_only(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = alone\ngames = 10\n[game serbest]\n"
                "[agents]\na = mcts(iterations=5)\nb = mcts(iterations=10)\n"
                "[matchups]\npairs = a vs a, b vs b\n");
    sqlite3 *db = store_db(f.st);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT id FROM cells ORDER BY "
                                        "id", -1, &q, NULL), SQLITE_OK);
    while (sqlite3_step(q) == SQLITE_ROW)
        add_games(db, sqlite3_column_int64(q, 0), 3, 1, 2);
    sqlite3_finalize(q);
    struct report r;
    char err[512] = "";
    assert_int_equal(report_build(db, "alone", &r, err, sizeof err), 0);
    assert_int_equal(report_build_skill(db, "alone", 0.05, 0.05, &r, err,
                                        sizeof err), 0);
    assert_int_equal(r.n_skill, 1);
    assert_int_equal(r.skill[0].n_rungs, 2);
    /* the anchor (the first agent of the sweep file, a) is rated */
    assert_string_equal(r.skill[0].anchor, "a");
    assert_int_equal(r.skill[0].rungs[0].rated, 1);
    assert_int_equal(r.skill[0].rungs[1].rated, 0);
    assert_int_equal(r.skill[0].test.verdict, SKILL_NOT_ENOUGH);
    assert_int_equal(r.skill[0].top, -1);
    char *buf = report_printed(&r, REPORT_TABLE);
    assert_has(buf, "not rated");
    assert_has(buf, "no agent family has two rated rungs");
    free(buf);
    buf = report_printed(&r, REPORT_JSON);
    assert_has(buf, "\"family\": null, \"top\": null, \"second\": null, "
                    "\"s0_diff\": null, \"tost_ci\": null, \"z\": null, "
                    "\"p\": null, \"los\": null}");
    free(buf);
    report_free(&r);
    /* another sweep's name: no games, no variants, an empty trace */
    assert_int_equal(report_build(db, "other", &r, err, sizeof err), 0);
    assert_int_equal(report_build_skill(db, "other", 0.05, 0.05, &r, err,
                                        sizeof err), 0);
    assert_int_equal(r.n_skill, 0);
    buf = report_printed(&r, REPORT_JSON);
    assert_has(buf, "\"variants\": [\n  ]}");
    free(buf);
    report_free(&r);
    drop_db(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_converged),
        cmocka_unit_test(test_still_moving),
        cmocka_unit_test(test_not_enough_games),
        cmocka_unit_test(test_equivalent_and_different_is_converged),
        cmocka_unit_test(test_tost_level_follows_alpha),
        cmocka_unit_test(test_judge_picks_the_best_family_and_its_top_two),
        cmocka_unit_test(test_judge_without_a_pair),
        cmocka_unit_test(test_skill_trace_on_a_database),
        cmocka_unit_test(test_skill_trace_self_play_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
