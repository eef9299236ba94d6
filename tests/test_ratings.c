/*
 * test_ratings.c -- the Elo ratings (experiments/analysis/ratings.c) against
 *  - closed forms: two agents whose counts the model fits exactly, where
 *    the maximum-likelihood estimates are the empirical odds (derived at
 *    each test), and the one case whose interval has a closed form too;
 *  - an independent naive maximiser: three agents, the same likelihood
 *    written here from the model's formula in Elo (powers of 10, no
 *    shared code), maximised by cyclic coordinate search, with its
 *    standard errors from a finite-difference Hessian inverted here;
 *  - a seeded simulation from the model with known ratings, first-move
 *    term and draw parameter: over 1,000 tables the 95% intervals cover
 *    the truth at the nominal rate (within 3 points);
 *  - the cases without a finite estimate, and agents that never met;
 *  - a database made through the store: ratings_build's numbers equal the
 *    fit on the counts written, the anchor (by short name, by a spec in
 *    another spelling, unknown), --sweep filtering and pooling.
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
#include "rng.h"
#include "store.h"
#include "sweep.h"

#define K (log(10) / 400) /* Elo to natural units */

static struct ratings_fit fit_rows(const struct ratings_count *rows, int n,
                                   int agents)
{
    struct ratings_fit fit;
    char err[256];
    if (ratings_fit(rows, n, agents, 0, 0, NULL, &fit, err, sizeof err) != 0)
        fail_msg("%s", err);
    return fit;
}

/* ---- closed forms -------------------------------------------------------- */

/* Two agents A (0, the anchor) and B, both seat orders. Per row the model
 * has three outcome probabilities with two free; two rows give four free
 * ones and the model three parameters (d = r_A - r_B, adv, ln nu). In
 * natural units (k = ln 10 / 400) the model says, for A in seat 0,
 *   P(win) / P(loss) = exp(k (d + adv)),
 *   P(draw) / sqrt(P(win) P(loss)) = nu,
 * and for B in seat 0, P(win) / P(loss) = exp(k (adv - d)), the draw ratio
 * nu again. When the two rows' draw ratios D / sqrt(W L) are equal the
 * model reproduces the observed frequencies exactly, which maximise any
 * multinomial likelihood, so the MLE solves
 *   k (d + adv) = ln(W1 / L1), k (adv - d) = ln(W2 / L2), nu = D / sqrt(W L):
 *   d = 200 log10(W1 L2 / (L1 W2)), adv = 200 log10(W1 W2 / (L1 L2)). */
static void test_two_agents_symmetric(void **state)
{
    (void)state;
    /* A in seat 0: 30 wins, 20 draws, 10 losses; the same from A's side in
     * seat 1. d = 200 log10(30 * 30 / (10 * 10)) = 400 log10 3, adv = 0,
     * nu = 20 / sqrt(300). */
    struct ratings_count rows[] = {{0, 1, 30, 20, 10}, {1, 0, 10, 20, 30}};
    struct ratings_fit fit = fit_rows(rows, 2, 2);
    assert_int_equal(fit.status, RATINGS_OK);
    assert_float_equal(fit.elo[0], 0, 1e-12);
    assert_float_equal(fit.elo[1], -400 * log10(3), 1e-6);
    assert_float_equal(fit.adv, 0, 1e-6);
    assert_float_equal(fit.nu, 20 / sqrt(300), 1e-8);
    assert_int_equal(fit.games, 120);
    ratings_fit_free(&fit);
}

static void test_two_agents_with_a_seat_term(void **state)
{
    (void)state;
    /* A in seat 0: 40-20-10 (draw ratio 20 / sqrt(400) = 1); B in seat 0:
     * 20-20-20 (ratio 1). d = 200 log10(40 * 20 / (10 * 20)) = 400 log10 2
     * and adv = 200 log10(40 * 20 / (10 * 20)) = 400 log10 2, nu = 1. */
    struct ratings_count rows[] = {{0, 1, 40, 20, 10}, {1, 0, 20, 20, 20}};
    struct ratings_fit fit = fit_rows(rows, 2, 2);
    assert_int_equal(fit.status, RATINGS_OK);
    assert_float_equal(fit.elo[1], -400 * log10(2), 1e-6);
    assert_float_equal(fit.adv, 400 * log10(2), 1e-6);
    assert_float_equal(fit.nu, 1, 1e-8);
    ratings_fit_free(&fit);
}

/* Without draws the two-agent model (d, adv) is saturated: two rows, one
 * free probability each. Its MLE is k d = (ln(W1/L1) - ln(W2/L2)) / 2,
 * and the inverse information of a saturated model's parameters is the
 * delta method's variance of that function of the frequencies: ln(W/L)
 * has variance 1/W + 1/L, so var(k d) = (1/W1 + 1/L1 + 1/W2 + 1/L2) / 4. */
static void test_two_agents_no_draws_interval(void **state)
{
    (void)state;
    struct ratings_count rows[] = {{0, 1, 30, 0, 10}, {1, 0, 20, 0, 20}};
    struct ratings_fit fit = fit_rows(rows, 2, 2);
    assert_int_equal(fit.status, RATINGS_OK);
    assert_int_equal(fit.has_draws, 0);
    assert_float_equal(fit.nu, 0, 0);
    double d = (log(3) - log(1)) / 2 / K;
    assert_float_equal(fit.elo[1], -d, 1e-6);
    assert_float_equal(fit.adv, (log(3) + log(1)) / 2 / K, 1e-6);
    double se = sqrt((1.0 / 30 + 1.0 / 10 + 1.0 / 20 + 1.0 / 20) / 4) / K;
    assert_float_equal(fit.se[1], se, 1e-6);
    assert_float_equal(fit.se[0], 0, 0); /* the anchor is fixed */
    /* LOS of A over B: Phi(d / se) */
    assert_float_equal(ratings_los(&fit, 0, 1), 0.5 * erfc(-d / se / sqrt(2)),
                       1e-9);
    ratings_fit_free(&fit);
    /* a million times the games (a log-likelihood near -10^8): the same
     * estimates, the standard error a thousandth */
    struct ratings_count big[] = {{0, 1, 30000000, 0, 10000000},
                                  {1, 0, 20000000, 0, 20000000}};
    fit = fit_rows(big, 2, 2);
    assert_int_equal(fit.status, RATINGS_OK);
    assert_float_equal(fit.elo[1], -d, 1e-6);
    assert_float_equal(fit.se[1], se / 1000, 1e-9);
    ratings_fit_free(&fit);
}

/* ---- an independent naive maximiser ------------------------------------ */

struct naive {
    const struct ratings_count *rows;
    int n_rows;
};

/* The log-likelihood with x = (r_1 .. r_{n-1}, adv, ln nu), r_0 = 0, from
 * the model written directly in Elo: weights 10^((r0 + adv) / 400),
 * 10^(r1 / 400), nu 10^((r0 + adv + r1) / 800). */
static double naive_ll(const struct naive *p, const double *x, int agents)
{
    double ll = 0, adv = x[agents - 1], nu = exp(x[agents]);
    for (int i = 0; i < p->n_rows; i++) {
        const struct ratings_count *c = &p->rows[i];
        double r0 = c->a0 ? x[c->a0 - 1] : 0, r1 = c->a1 ? x[c->a1 - 1] : 0;
        double w = pow(10, (r0 + adv) / 400), l = pow(10, r1 / 400),
               d = nu * pow(10, (r0 + adv + r1) / 800), s = w + l + d;
        ll += (double)c->wins0 * log(w / s) + (double)c->draws * log(d / s)
              + (double)c->wins1 * log(l / s);
    }
    return ll;
}

/* Cyclic coordinate ascent, each coordinate by golden-section search in a
 * bracket around its value, until a whole cycle moves nothing by 1e-4 (in
 * Elo; the golden section cannot place a flat maximum closer than about
 * 1e-5 Elo, the log-likelihood's rounding being 1e-16 of its value; on
 * the table below a cycle takes the distance to the maximum to about 0.7
 * of itself, so the search ends within about 3e-4 Elo of it). */
static void naive_maximise(const struct naive *p, double *x, int m, int agents)
{
    const double g = (sqrt(5) - 1) / 2;
    for (int cycle = 0; cycle < 2000; cycle++) {
        double moved = 0;
        for (int k = 0; k < m; k++) {
            double width = k < agents - 1 || k == agents - 1 ? 400 : 4;
            double a = x[k] - width, b = x[k] + width, keep = x[k];
            while (b - a > 1e-11 * (1 + fabs(a))) {
                double c = b - g * (b - a), d = a + g * (b - a);
                x[k] = c;
                double fc = naive_ll(p, x, agents);
                x[k] = d;
                double fd = naive_ll(p, x, agents);
                if (fc > fd)
                    b = d;
                else
                    a = c;
            }
            x[k] = (a + b) / 2;
            moved = fmax(moved, fabs(x[k] - keep));
        }
        if (moved < 1e-4)
            return;
    }
    fail_msg("the naive maximiser did not settle");
}

/* Inverts the m x m matrix a (Gauss-Jordan with partial pivoting). */
static void naive_invert(double *a, int m, double *inv)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            inv[i * m + j] = i == j;
    for (int c = 0; c < m; c++) {
        int best = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(a[r * m + c]) > fabs(a[best * m + c]))
                best = r;
        for (int j = 0; j < m; j++) {
            double t = a[c * m + j];
            a[c * m + j] = a[best * m + j];
            a[best * m + j] = t;
            t = inv[c * m + j];
            inv[c * m + j] = inv[best * m + j];
            inv[best * m + j] = t;
        }
        double pivot = a[c * m + c];
        for (int j = 0; j < m; j++) {
            a[c * m + j] /= pivot;
            inv[c * m + j] /= pivot;
        }
        for (int r = 0; r < m; r++) {
            if (r == c)
                continue;
            double f = a[r * m + c];
            for (int j = 0; j < m; j++) {
                a[r * m + j] -= f * a[c * m + j];
                inv[r * m + j] -= f * inv[c * m + j];
            }
        }
    }
}

static void test_three_agents_against_naive_maximiser(void **state)
{
    (void)state;
    /* A (anchor), B, C in every seat order, uneven counts, with draws and
     * a self-play row (which moves only adv and nu) */
    struct ratings_count rows[] = {
        {0, 1, 14, 9, 7}, {1, 0, 8, 11, 13}, {0, 2, 22, 6, 4},
        {2, 0, 5, 5, 17}, {1, 2, 12, 10, 6}, {2, 1, 9, 8, 12},
        {1, 1, 9, 6, 5}};
    struct naive p = {rows, 7};
    enum { M = 4 }; /* r_B, r_C, adv, ln nu */
    double x[M] = {0, 0, 0, 0};
    naive_maximise(&p, x, M, 3);
    struct ratings_fit fit = fit_rows(rows, 7, 3);
    assert_int_equal(fit.status, RATINGS_OK);
    assert_float_equal(fit.elo[1], x[0], 1e-3);
    assert_float_equal(fit.elo[2], x[1], 1e-3);
    assert_float_equal(fit.adv, x[2], 1e-3);
    assert_float_equal(log(fit.nu), x[3], 1e-5);
    /* and the fit's point is a stationary point of the naive likelihood,
     * at least as high as the search's */
    double at[M] = {fit.elo[1], fit.elo[2], fit.adv, log(fit.nu)};
    assert_true(naive_ll(&p, at, 3) >= naive_ll(&p, x, 3) - 1e-9);
    for (int k = 0; k < M; k++) {
        double up[M], down[M], step = k < 3 ? 1e-2 : 1e-5;
        memcpy(up, at, sizeof up);
        memcpy(down, at, sizeof down);
        up[k] += step;
        down[k] -= step;
        double slope = (naive_ll(&p, up, 3) - naive_ll(&p, down, 3)) / (2 * step);
        assert_true(fabs(slope) < (k < 3 ? 1e-7 : 1e-5));
    }
    /* minus the Hessian by central differences, inverted */
    double h[M] = {0.5, 0.5, 0.5, 1e-3}, info[M * M], cov[M * M];
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++) {
            double y[M], f[4];
            for (int s = 0; s < 4; s++) {
                memcpy(y, x, sizeof y);
                y[i] += (s & 1 ? -1 : 1) * h[i];
                y[j] += (s & 2 ? -1 : 1) * h[j];
                f[s] = naive_ll(&p, y, 3);
            }
            info[i * M + j] = -(f[0] - f[1] - f[2] + f[3]) / (4 * h[i] * h[j]);
        }
    naive_invert(info, M, cov);
    assert_float_equal(fit.se[1], sqrt(cov[0]), 1e-3 * sqrt(cov[0]));
    assert_float_equal(fit.se[2], sqrt(cov[M + 1]), 1e-3 * sqrt(cov[M + 1]));
    assert_float_equal(fit.adv_se, sqrt(cov[2 * M + 2]),
                       1e-3 * sqrt(cov[2 * M + 2]));
    double se_nu = sqrt(cov[3 * M + 3]);
    assert_float_equal(fit.nu_lo, exp(x[3] - 1.959963984540054 * se_nu),
                       1e-4 * fit.nu);
    assert_float_equal(fit.cov[1 * 3 + 2], cov[1], 1e-3 * fabs(cov[1]));
    /* LOS of B over C from the naive covariance */
    double diff = x[0] - x[1], var = cov[0] + cov[M + 1] - 2 * cov[1];
    assert_float_equal(ratings_los(&fit, 1, 2),
                       0.5 * erfc(-diff / sqrt(2 * var)), 1e-4);
    ratings_fit_free(&fit);
}

/* ---- simulation ---------------------------------------------------------- */

static void test_intervals_cover_at_the_nominal_rate(void **state)
{
    (void)state;
    enum { AGENTS = 4, TABLES = 1000, GAMES = 40 };
    const double truth[AGENTS] = {0, 80, -120, 200}, adv = 40, nu = 0.5;
    struct rng rng;
    rng_seed(&rng, 20261201);
    struct ratings_count rows[AGENTS * AGENTS];
    long covered = 0, intervals = 0, adv_covered = 0, nu_covered = 0;
    double mean_top = 0;
    for (int t = 0; t < TABLES; t++) {
        int n = 0;
        for (int i = 0; i < AGENTS; i++)
            for (int j = 0; j < AGENTS; j++) {
                struct ratings_count *c = &rows[n++];
                *c = (struct ratings_count){i, j, 0, 0, 0};
                double w = pow(10, (truth[i] + adv) / 400),
                       l = pow(10, truth[j] / 400),
                       d = nu * pow(10, (truth[i] + adv + truth[j]) / 800);
                double s = w + l + d;
                for (int g = 0; g < (i == j ? GAMES / 4 : GAMES); g++) {
                    double u = rng_double(&rng) * s;
                    if (u < w)
                        c->wins0++;
                    else if (u < w + d)
                        c->draws++;
                    else
                        c->wins1++;
                }
            }
        struct ratings_fit fit = fit_rows(rows, n, AGENTS);
        if (fit.status != RATINGS_OK)
            fail_msg("table %d: %s", t, fit.message);
        for (int i = 1; i < AGENTS; i++) {
            covered += fabs(fit.elo[i] - truth[i]) <= 1.959963984540054
                                                           * fit.se[i];
            intervals++;
        }
        adv_covered += fabs(fit.adv - adv) <= 1.959963984540054 * fit.adv_se;
        nu_covered += fit.nu_lo <= nu && nu <= fit.nu_hi;
        mean_top += fit.elo[3] / TABLES;
        ratings_fit_free(&fit);
    }
    double rate = (double)covered / (double)intervals;
    double adv_rate = (double)adv_covered / TABLES,
           nu_rate = (double)nu_covered / TABLES;
    print_message("coverage: ratings %.4f (%ld), first move %.4f, nu %.4f; "
                  "mean top rating %.1f (true 200)\n", rate, intervals,
                  adv_rate, nu_rate, mean_top);
    assert_true(fabs(rate - 0.95) <= 0.03);
    assert_true(fabs(adv_rate - 0.95) <= 0.03);
    assert_true(fabs(nu_rate - 0.95) <= 0.03);
    assert_true(fabs(mean_top - 200) < 5);
}

/* ---- no finite estimate, agents that never met -------------------------- */

static void test_undefeated_agent_has_no_finite_rating(void **state)
{
    (void)state;
    /* A beats B in both seats (so each seat won a game) and B, C share
     * wins: A's rating runs to +infinity */
    struct ratings_count rows[] = {{0, 1, 10, 0, 0}, {1, 0, 0, 0, 10},
                                   {1, 2, 5, 2, 5}, {2, 1, 5, 2, 5}};
    const char *names[] = {"alpha", "beta", "gamma"};
    struct ratings_fit fit;
    char err[128];
    assert_int_equal(ratings_fit(rows, 4, 3, 1, 0, names, &fit, err,
                                 sizeof err), 0);
    assert_int_equal(fit.status, RATINGS_INFINITE);
    assert_string_equal(fit.message, "no finite ratings: alpha won every "
                        "game against the others (rating +infinite); beta, "
                        "gamma lost every game against the agents not named "
                        "here (ratings -infinite)");
    ratings_fit_free(&fit);
    /* gamma loses to both others, who share wins and draws */
    struct ratings_count rows2[] = {{0, 1, 6, 3, 6}, {1, 0, 6, 3, 6},
                                    {0, 2, 9, 0, 0}, {2, 1, 0, 0, 9}};
    assert_int_equal(ratings_fit(rows2, 4, 3, 0, 0, names, &fit, err,
                                 sizeof err), 0);
    assert_int_equal(fit.status, RATINGS_INFINITE);
    assert_string_equal(fit.message, "no finite ratings: alpha, beta won "
                        "every game against the agents not named here "
                        "(ratings +infinite); gamma lost every game against "
                        "the others (rating -infinite)");
    ratings_fit_free(&fit);
}

static void test_seat_never_winning_or_all_draws(void **state)
{
    (void)state;
    struct ratings_count rows[] = {{0, 1, 5, 3, 0}, {1, 0, 4, 1, 0}};
    struct ratings_fit fit = fit_rows(rows, 2, 2);
    assert_int_equal(fit.status, RATINGS_INFINITE);
    assert_string_equal(fit.message, "seat 1 won no game: the first-move "
                                     "term is +infinite");
    ratings_fit_free(&fit);
    struct ratings_count draws[] = {{0, 1, 0, 7, 0}, {1, 0, 0, 3, 0}};
    fit = fit_rows(draws, 2, 2);
    assert_int_equal(fit.status, RATINGS_INFINITE);
    assert_non_null(strstr(fit.message, "every game was drawn"));
    ratings_fit_free(&fit);
    fit = fit_rows(draws, 0, 2);
    assert_int_equal(fit.status, RATINGS_NO_GAMES);
    ratings_fit_free(&fit);
}

static void test_agents_that_never_met_are_not_rated(void **state)
{
    (void)state;
    /* {0, 1} and {2, 3} never met; 3 also plays itself */
    struct ratings_count rows[] = {{0, 1, 6, 2, 4}, {1, 0, 5, 2, 5},
                                   {2, 3, 9, 0, 1}, {3, 2, 2, 0, 8},
                                   {3, 3, 3, 0, 3}};
    struct ratings_fit fit = fit_rows(rows, 5, 4);
    assert_int_equal(fit.status, RATINGS_OK);
    assert_int_equal(fit.rated[0], 1);
    assert_int_equal(fit.rated[1], 1);
    assert_int_equal(fit.rated[2], 0);
    assert_int_equal(fit.rated[3], 0);
    assert_true(isnan(fit.elo[2]) && isnan(fit.elo[3]));
    /* the fit used the anchor's group and all self-play: 24 + 6 games */
    assert_int_equal(fit.games, 30);
    /* the same as fitting the group's rows (and the self-play) alone */
    struct ratings_count alone[] = {{0, 1, 6, 2, 4}, {1, 0, 5, 2, 5},
                                    {2, 2, 3, 0, 3}};
    struct ratings_fit fit2 = fit_rows(alone, 3, 3);
    assert_float_equal(fit.elo[1], fit2.elo[1], 1e-9);
    assert_float_equal(fit.adv, fit2.adv, 1e-9);
    ratings_fit_free(&fit);
    ratings_fit_free(&fit2);
}

/* ---- from a database ----------------------------------------------------- */

struct db {
    char dir[64], path[128];
};

/* Registers the sweep `text` (its cells) in the database at d->path and
 * returns the open writer store; ids[] gets the cell ids. */
static struct store *register_sweep(struct db *d, const char *text,
                                    int64_t *ids, int max)
{
    struct sweep s;
    struct store *st;
    char err[1024];
    if (sweep_parse("test.ini", text, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    if (store_open(d->path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(s.n_cells <= max);
    if (store_begin_run(st, &s, 1, ids, err, sizeof err) != 0)
        fail_msg("%s", err);
    sweep_free(&s);
    return st;
}

/* Adds `count` games of cell `cell` with result `result`, from index
 * *next on, in one statement. */
static void add_games(struct store *st, int64_t cell, int *next, int count,
                      const char *result)
{
    char sql[1024], *msg = NULL;
    if (count <= 0)
        return;
    snprintf(sql, sizeof sql,
             "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k"
             " WHERE i + 1 < %d)"
             " INSERT INTO games (cell_id, game_index, seed, side0, side1,"
             " result, winner_seat, reason, plies, duration_ms, finished,"
             " moves) SELECT %lld, %d + i, i, 'white', 'black', '%s', %s,"
             " '%s', 10, 1.0, '2026-01-01T00:00:00Z', 'e2e4' FROM k",
             count, (long long)cell, *next, result,
             strcmp(result, "seat0") == 0   ? "0"
             : strcmp(result, "seat1") == 0 ? "1"
                                            : "NULL",
             strcmp(result, "draw") == 0 ? "repetition" : "king_captured");
    if (sqlite3_exec(store_db(st), sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : "?");
    *next += count;
}

static void add_counts(struct store *st, int64_t cell, long w, long d, long l)
{
    int next = 0;
    add_games(st, cell, &next, (int)w, "seat0");
    add_games(st, cell, &next, (int)d, "draw");
    add_games(st, cell, &next, (int)l, "seat1");
}

static const struct ratings_variant *variant_named(const struct ratings *r,
                                                   const char *game)
{
    for (int i = 0; i < r->n_variants; i++)
        if (strncmp(r->variants[i].variant, game, strlen(game)) == 0)
            return &r->variants[i];
    fail_msg("no variant %s", game);
    return NULL;
}

static int agent_named(const struct ratings_variant *v, const char *name)
{
    for (int i = 0; i < v->n_agents; i++)
        if (strcmp(v->agents[i].name, name) == 0)
            return i;
    fail_msg("no agent %s", name);
    return -1;
}

static void test_database_ratings(void **state)
{
    (void)state;
    struct db d;
    snprintf(d.dir, sizeof d.dir, "/tmp/rulelab_ratings_XXXXXX");
    assert_non_null(mkdtemp(d.dir));
    snprintf(d.path, sizeof d.path, "%s/r.db", d.dir);
    int64_t ids[32];
    /* sweep one: r vs w in tafl, both orders (cells r-w, w-r) */
    struct store *st = register_sweep(&d,
        "[sweep]\nname = one\ngames = 100\n[game tafl]\n"
        "[agents]\nw = mcts(iterations=5)\nr = random\n"
        "[matchups]\npairs = w vs r\n", ids, 32);
    add_counts(st, ids[0], 30, 20, 10); /* w in seat 0 */
    add_counts(st, ids[1], 10, 20, 30); /* r in seat 0 */
    store_close(st);
    /* sweep two: the same tafl pair again (other short names), and jetan,
     * where x wins every game */
    st = register_sweep(&d,
        "[sweep]\nname = two\ngames = 100\n[game tafl]\n[game jetan]\n"
        "[agents]\nweak = mcts(iterations=5)\nrnd = random\n"
        "[matchups]\npairs = weak vs rnd\n", ids, 32);
    add_counts(st, ids[0], 6, 0, 4); /* tafl: weak in seat 0 */
    add_counts(st, ids[1], 2, 0, 3);
    add_counts(st, ids[2], 5, 0, 0); /* jetan: weak wins all */
    add_counts(st, ids[3], 0, 0, 5);
    store_close(st);

    struct store *reader;
    char err[1024] = "";
    assert_int_equal(store_open(d.path, 1, &reader, err, sizeof err), 0);
    sqlite3 *db = store_db(reader);
    struct ratings r;
    assert_int_equal(ratings_build(db, NULL, NULL, 0, &r, err, sizeof err), 0);
    assert_int_equal(r.n_variants, 2);
    const struct ratings_variant *tafl = variant_named(&r, "tafl");
    /* pooled: both sweeps, counts added per seat order */
    assert_int_equal(tafl->n_sweeps, 2);
    assert_string_equal(tafl->sweeps, "one (seed 1), two (seed 1)");
    assert_int_equal(tafl->games, 135);
    int w = agent_named(tafl, "w"), rr = agent_named(tafl, "r");
    assert_int_equal(tafl->anchor, rr); /* random by default */
    assert_non_null(strstr(tafl->anchor_note, "random"));
    struct ratings_count pooled[] = {{w, rr, 36, 20, 14}, {rr, w, 12, 20, 33}};
    struct ratings_fit fit;
    assert_int_equal(ratings_fit(pooled, 2, 2, rr, 0, NULL, &fit, err,
                                 sizeof err), 0);
    assert_int_equal(tafl->fit.status, RATINGS_OK);
    assert_float_equal(tafl->fit.elo[w], fit.elo[w], 1e-9);
    assert_float_equal(tafl->fit.se[w], fit.se[w], 1e-9);
    assert_float_equal(tafl->fit.adv, fit.adv, 1e-9);
    assert_float_equal(tafl->fit.nu, fit.nu, 1e-12);
    assert_int_equal(tafl->order[0], w); /* the stronger first */
    assert_int_equal(tafl->agents[w].games, 135);
    assert_float_equal(tafl->agents[w].points, 36 + 33 + 20, 1e-12);
    ratings_fit_free(&fit);
    /* jetan: weak won every game */
    const struct ratings_variant *jetan = variant_named(&r, "jetan");
    assert_int_equal(jetan->fit.status, RATINGS_INFINITE);
    assert_non_null(strstr(jetan->fit.message, "weak won every game"));
    assert_int_equal(jetan->n_sweeps, 1);
    ratings_free(&r);

    /* --sweep one: only its games, not pooled; the closed form holds
     * (w at +400 log10 3 over random) */
    assert_int_equal(ratings_build(db, "one", NULL, 0, &r, err, sizeof err),
                     0);
    assert_int_equal(r.n_variants, 1);
    tafl = &r.variants[0];
    assert_int_equal(tafl->n_sweeps, 1);
    assert_int_equal(tafl->games, 120);
    w = agent_named(tafl, "w");
    assert_float_equal(tafl->fit.elo[w], 400 * log10(3), 1e-6);
    ratings_free(&r);

    /* --anchor by a short name of either sweep, and by a spec spelled
     * otherwise: the same agent, held at the value given */
    const char *spellings[] = {"w", "weak", "mcts(iterations=5,c=1.4)"};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(ratings_build(db, NULL, spellings[k], 1500, &r, err,
                                       sizeof err), 0);
        tafl = variant_named(&r, "tafl");
        w = agent_named(tafl, "w");
        assert_int_equal(tafl->anchor, w);
        assert_float_equal(tafl->fit.elo[w], 1500, 1e-9);
        assert_string_equal(tafl->anchor_note, "--anchor");
        ratings_free(&r);
    }
    /* an unknown one is an error listing the agents */
    assert_int_equal(ratings_build(db, NULL, "nobody", 0, &r, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "no agent 'nobody'"));
    assert_non_null(strstr(err, "w = mcts(bias=0,c=1.4,"));
    assert_non_null(strstr(err, "r = random"));
    /* no transaction is left open */
    assert_int_equal(sqlite3_get_autocommit(db), 1);
    store_close(reader);
    char side[160];
    const char *ends[] = {"", "-wal", "-shm", ".lock"};
    for (int k = 0; k < 4; k++) {
        snprintf(side, sizeof side, "%s%s", d.path, ends[k]);
        unlink(side);
    }
    rmdir(d.dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_agents_symmetric),
        cmocka_unit_test(test_two_agents_with_a_seat_term),
        cmocka_unit_test(test_two_agents_no_draws_interval),
        cmocka_unit_test(test_three_agents_against_naive_maximiser),
        cmocka_unit_test(test_intervals_cover_at_the_nominal_rate),
        cmocka_unit_test(test_undefeated_agent_has_no_finite_rating),
        cmocka_unit_test(test_seat_never_winning_or_all_draws),
        cmocka_unit_test(test_agents_that_never_met_are_not_rated),
        cmocka_unit_test(test_database_ratings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
