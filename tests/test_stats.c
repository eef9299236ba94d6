/*
 * test_stats.c -- the statistics module against published values, against
 * naive reference implementations written here, and on its edge cases,
 * monotonicity and symmetries.
 *
 * Where the expected numbers come from. No R or SciPy was at hand, so every
 * number below was recomputed independently with Python 3.11's standard
 * library (scripts kept out of the tree; the method is given beside each
 * value):
 *   - exact binomial p-values for n <= 10^3: the definition of R's
 *     binom.test summed in exact rational arithmetic (fractions.Fraction,
 *     math.comb), then rounded to double once;
 *   - exact binomial p-values for n = 10^6 and 10^7: 60-digit
 *     decimal.Decimal, log n! from Stirling's series (pi by Machin's
 *     formula), every probability within 14 standard deviations of the mode
 *     from the exact ratio P(i+1)/P(i), the rule applied to that window
 *     (outside it each term is below 1e-42). Cross-checked against the
 *     exact rationals at n = 1000 and 9000: agreement to 1e-36;
 *   - Wilson bounds: the roots of (n + z^2) p^2 - (2x + z^2) p + x^2/n in
 *     50- or 60-digit Decimal;
 *   - normal quantiles: statistics.NormalDist().inv_cdf (Wichura's AS241);
 *   - SPRT log-likelihood ratios: the formula in stats.h in 50-digit
 *     Decimal; Holm adjustments by hand (shown).
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rng.h"
#include "stats.h"

/* qnorm(0.975), the z of a two-sided 95% interval. */
#define Z95 1.959963984540054

static void expect_near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.17g, expected %.17g (tolerance %g)", what, got,
                 want, tol);
}

static void expect_rel(double got, double want, double rel, const char *what)
{
    expect_near(got, want, rel * fabs(want), what);
}

/* ---- normal quantile ---------------------------------------------------- */

static void test_normal_quantile(void **state)
{
    (void)state;
    /* Expected: statistics.NormalDist().inv_cdf(p), except 0.95, where the
     * widely tabulated qnorm(0.95) = 1.6448536269514722 is used (AS241 in
     * Python gives ...4715, 4e-16 away). */
    static const struct {
        double p, z;
    } cases[] = {
        {1e-200, -30.205594179579634}, {1e-20, -9.262340089798405},
        {1e-10, -6.361340902404056}, {0.001, -3.090232306167813},
        {0.02, -2.0537489106318225}, {0.025, -1.9599639845400538},
        {0.1, -1.2815515655446008}, {0.3, -0.5244005127080407},
        {0.75, 0.6744897501960817}, {0.95, 1.6448536269514722},
        {0.975, 1.9599639845400536}, {0.999, 3.090232306167813},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        expect_rel(stats_normal_quantile(cases[i].p), cases[i].z, 1e-14,
                   "normal quantile");
    assert_true(stats_normal_quantile(0.5) == 0.0);
    assert_true(isinf(stats_normal_quantile(0.0))
                && stats_normal_quantile(0.0) < 0);
    assert_true(isinf(stats_normal_quantile(1.0))
                && stats_normal_quantile(1.0) > 0);
    /* Odd about 1/2, and increasing. */
    double prev = -INFINITY;
    for (int i = 1; i < 1000; i++) {
        double p = i / 1000.0, z = stats_normal_quantile(p);
        expect_near(z, -stats_normal_quantile(1.0 - p), 1e-14, "symmetry");
        assert_true(z > prev);
        prev = z;
    }
}

/* ---- Wilson ------------------------------------------------------------- */

static void test_wilson_newcombe_examples(void **state)
{
    (void)state;
    /* Newcombe, R. G. (1998), "Two-sided confidence intervals for the
     * single proportion: comparison of seven methods", Statistics in
     * Medicine 17:857-872: the worked examples 81/263, 15/148, 0/20 and
     * 1/29, method 3 (score, no continuity correction), printed to four
     * places as 0.2553-0.3662, 0.0624-0.1605, 0.0000-0.1611 and
     * 0.0061-0.1718. The full-precision values are the roots of the
     * quadratic in 50-digit Decimal with z = 1.959963984540054. */
    static const struct {
        double x, n, lo, hi, lo4, hi4;
    } cases[] = {
        {81, 263, 0.2552885198782742, 0.36620957698280004, 0.2553, 0.3662},
        {15, 148, 0.06238639953073629, 0.16048724172330803, 0.0624, 0.1605},
        {0, 20, 0.0, 0.1611251580528193, 0.0000, 0.1611},
        {1, 29, 0.0061132142927626636, 0.17175521879320282, 0.0061, 0.1718},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double lo, hi;
        stats_wilson(cases[i].x, cases[i].n, Z95, &lo, &hi);
        expect_near(lo, cases[i].lo, 1e-14, "Wilson lower");
        expect_near(hi, cases[i].hi, 1e-14, "Wilson upper");
        expect_near(lo, cases[i].lo4, 5e-5, "Newcombe's printed lower");
        expect_near(hi, cases[i].hi4, 5e-5, "Newcombe's printed upper");
    }
    /* A fractional count (draws as halves): 7.5 / 20, same method. */
    double lo, hi;
    stats_wilson(7.5, 20, Z95, &lo, &hi);
    expect_near(lo, 0.19977085566463154, 1e-14, "Wilson 7.5/20 lower");
    expect_near(hi, 0.5905104338485733, 1e-14, "Wilson 7.5/20 upper");
}

static void test_wilson_edges(void **state)
{
    (void)state;
    double lo, hi;
    stats_wilson(0, 0, Z95, &lo, &hi); /* no games: no information */
    assert_true(lo == 0.0 && hi == 1.0);
    /* x = 0: lo is exactly 0 and hi = z^2 / (n + z^2). */
    stats_wilson(0, 1, Z95, &lo, &hi);
    assert_true(lo == 0.0);
    expect_near(hi, Z95 * Z95 / (1 + Z95 * Z95), 1e-15, "0/1 upper");
    /* x = n: the mirror image, hi exactly 1. */
    stats_wilson(20, 20, Z95, &lo, &hi);
    assert_true(hi == 1.0);
    expect_near(lo, 1.0 - 0.1611251580528193, 1e-14, "20/20 lower");
    /* z = 0 collapses to the point estimate. */
    stats_wilson(3, 8, 0.0, &lo, &hi);
    expect_near(lo, 0.375, 1e-15, "z=0 lower");
    expect_near(hi, 0.375, 1e-15, "z=0 upper");
    /* A lone draw (x = 1/2) in 10^9 games at z = 6: the textbook form of
     * the lower bound subtracts two numbers that agree to 3-4 digits
     * (relative error 1.1e-13 in double); taken from the product of the
     * roots it keeps full precision. Reference from 60-digit Decimal,
     * where that cancellation costs nothing. */
    stats_wilson(0.5, 1e9, 6.0, &lo, &hi);
    expect_rel(lo, 6.757991093115102e-12, 4e-15, "0.5/1e9 lower");
    expect_rel(hi, 3.699324067690693e-08, 4e-15, "0.5/1e9 upper");
}

static void test_wilson_monotone_and_symmetric(void **state)
{
    (void)state;
    for (int n = 1; n <= 60; n++) {
        double plo = -1, phi = -1;
        for (int x2 = 0; x2 <= 2 * n; x2++) { /* half steps: draws */
            double x = x2 / 2.0, lo, hi, mlo, mhi;
            stats_wilson(x, n, Z95, &lo, &hi);
            assert_true(0.0 <= lo && lo <= x / n && x / n <= hi && hi <= 1.0);
            /* Both bounds rise with the count. */
            assert_true(lo > plo || (x == 0 && lo == 0));
            assert_true(hi > phi);
            plo = lo;
            phi = hi;
            /* The interval for failures is the mirror image. */
            stats_wilson(n - x, n, Z95, &mlo, &mhi);
            expect_near(lo, 1.0 - mhi, 1e-14, "mirror lower");
            expect_near(hi, 1.0 - mlo, 1e-14, "mirror upper");
            /* A wider z gives a wider interval. */
            double wlo, whi;
            stats_wilson(x, n, 2.5758293035489, &wlo, &whi);
            assert_true(wlo <= lo && whi >= hi);
        }
    }
    /* The same proportion from more games gives a narrower interval. */
    double prev = 1.0;
    for (double n = 10; n <= 1e7; n *= 10) {
        double lo, hi;
        stats_wilson(0.3 * n, n, Z95, &lo, &hi);
        assert_true(hi - lo < prev);
        prev = hi - lo;
    }
}

/* ---- exact binomial test ------------------------------------------------ */

static void test_binomial_published(void **state)
{
    (void)state;
    /* R's ?binom.test example (Conover 1971, p. 97f): 682 giant and 243
     * dwarf plants against p = 3/4; R prints p-value = 0.3825. Exact
     * rational value of the definition: 0.3824915595748517. */
    double pv = stats_binomial_two_sided_p(682, 925, 0.75);
    expect_rel(pv, 0.3824915595748517, 1e-12, "binom.test(682, 925, 3/4)");
    expect_near(pv, 0.3825, 5e-5, "R's printed 0.3825");
    /* Sprent & Smeeton, Applied Nonparametric Statistical Methods (5th
     * ed.), Examples 4.11, 4.12 and Exercise 4.7, as asserted in the tests
     * of their R package ANSM5 (tests/testthat/test-binom.R:
     * 0.041389465, 0.062912758, 0.23788452, 6.433...e-7); all four
     * reproduced exactly with rationals, digits below from that. 13 of 32
     * against 1/4 is asymmetric, so it checks the "no more likely than"
     * rule itself, not a doubled tail. */
    expect_rel(stats_binomial_two_sided_p(15, 20, 0.5), 0.04138946533203125,
               1e-13, "15/20");
    expect_rel(stats_binomial_two_sided_p(13, 32, 0.25), 0.06291275809545452,
               1e-12, "13/32 against 1/4");
    expect_rel(stats_binomial_two_sided_p(6, 18, 0.5), 0.237884521484375,
               1e-13, "6/18");
    expect_rel(stats_binomial_two_sided_p(75, 225, 0.5),
               6.433102088708881e-07, 1e-11, "75/225");
}

static void test_binomial_large_n(void **state)
{
    (void)state;
    /* 60-digit Decimal reference (see the top of this file); these must
     * also be fast, being run on every report of an overnight sweep. */
    static const struct {
        long k, n;
        double p0, want;
    } cases[] = {
        {4996000, 10000000, 0.5, 0.011422321641171483},
        {4992095, 10000000, 0.5, 5.755500867282918e-07},
        {3001500, 10000000, 0.3, 0.30062300016915594},
        {749000, 1000000, 0.75, 0.020985376773882288},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        expect_rel(stats_binomial_two_sided_p(cases[i].k, cases[i].n,
                                              cases[i].p0),
                   cases[i].want, 1e-11, "large n");
    /* The exact centre of a symmetric distribution, and the far ends,
     * whose probability 2^-10^7 underflows: clamped to 0, never NaN. */
    assert_true(stats_binomial_two_sided_p(5000000, 10000000, 0.5) == 1.0);
    assert_true(stats_binomial_two_sided_p(0, 10000000, 0.5) == 0.0);
    assert_true(stats_binomial_two_sided_p(10000000, 10000000, 0.5) == 0.0);
}

static void test_binomial_edges(void **state)
{
    (void)state;
    assert_true(stats_binomial_two_sided_p(0, 0, 0.5) == 1.0);
    assert_true(stats_binomial_two_sided_p(0, 0, 0.0) == 1.0);
    /* k = 0 and k = n of 10 fair coins: 2 / 2^10, exactly. */
    expect_rel(stats_binomial_two_sided_p(0, 10, 0.5), 0.001953125, 1e-14,
               "0 of 10");
    expect_rel(stats_binomial_two_sided_p(10, 10, 0.5), 0.001953125, 1e-14,
               "10 of 10");
    /* p0 at the ends: only one outcome is possible. */
    assert_true(stats_binomial_two_sided_p(0, 10, 0.0) == 1.0);
    assert_true(stats_binomial_two_sided_p(1, 10, 0.0) == 0.0);
    assert_true(stats_binomial_two_sided_p(10, 10, 1.0) == 1.0);
    assert_true(stats_binomial_two_sided_p(9, 10, 1.0) == 0.0);
    /* p0 next to an end: k = 0 is the mode (p = 1); k = 1 of 100 at
     * 1e-12 is P(X >= 1) = 1 - (1 - 1e-12)^100 = 9.999999999505e-11
     * (exact rationals, p0 taken as the double nearest 1e-12). */
    assert_true(stats_binomial_two_sided_p(0, 100, 1e-12) == 1.0);
    expect_rel(stats_binomial_two_sided_p(1, 100, 1e-12), 9.999999999505e-11,
               1e-10, "1 of 100 at 1e-12");
    /* The mirror image; 1 - 1e-12 rounds to a double whose complement is
     * 9.999778782798785e-13, hence (exact rationals again): */
    expect_rel(stats_binomial_two_sided_p(99, 100, 1.0 - 1e-12),
               9.999778782303807e-11, 1e-10, "99 of 100 at 1 - 1e-12");
    /* One trial: either outcome is no more likely than the other at 1/2. */
    assert_true(stats_binomial_two_sided_p(1, 1, 0.5) == 1.0);
    expect_rel(stats_binomial_two_sided_p(1, 1, 0.2), 0.2, 1e-14, "1 of 1");
}

/* P(X = i) for all i, by the plain product formula in long double; only
 * for small n. */
static void naive_pmf(long n, double p, long double *d)
{
    for (long i = 0; i <= n; i++) {
        long double c = 1.0L;
        for (long j = 1; j <= i; j++)
            c = c * (long double)(n - i + j) / (long double)j;
        d[i] = c * powl(p, (long double)i) * powl(1.0L - p, (long double)(n - i));
    }
}

static void test_binomial_against_naive_sum(void **state)
{
    (void)state;
    static const double ps[] = {0.5, 0.3, 0.75, 0.01, 0.123};
    long double d[64];
    for (size_t pi = 0; pi < sizeof ps / sizeof *ps; pi++) {
        double p = ps[pi];
        for (long n = 1; n <= 60; n++) {
            naive_pmf(n, p, d);
            for (long k = 0; k <= n; k++) {
                long double limit = d[k] * (1.0L + 1e-7L), sum = 0.0L;
                for (long i = 0; i <= n; i++)
                    if (d[i] <= limit)
                        sum += d[i];
                double want = sum < 1.0L ? (double)sum : 1.0;
                double got = stats_binomial_two_sided_p(k, n, p);
                if (!(fabs(got - want) <= 1e-12 * want + 1e-300))
                    fail_msg("k=%ld n=%ld p=%g: got %.17g, naive %.17g", k, n,
                             p, got, want);
            }
        }
    }
}

static void test_binomial_monotone_and_symmetric(void **state)
{
    (void)state;
    const long n = 200;
    const double p = 0.37;
    long mode = (long)floor((n + 1) * p); /* 74 */
    double prev = 0.0;
    for (long k = 0; k <= n; k++) {
        double pv = stats_binomial_two_sided_p(k, n, p);
        assert_true(pv >= 0.0 && pv <= 1.0);
        /* Rising towards the mode, falling after it. */
        if (k <= mode)
            assert_true(pv >= prev);
        else
            assert_true(pv <= prev);
        prev = pv;
        /* Successes against p0 are failures against 1 - p0. */
        expect_rel(stats_binomial_two_sided_p(n - k, n, 1.0 - p), pv, 1e-12,
                   "swap successes and failures");
    }
    assert_true(stats_binomial_two_sided_p(mode, n, p) == 1.0);
    /* At 1/2 the distribution is symmetric. */
    for (long k = 0; k <= 1000; k += 37)
        expect_rel(stats_binomial_two_sided_p(k, 1000, 0.5),
                   stats_binomial_two_sided_p(1000 - k, 1000, 0.5), 1e-12,
                   "symmetric at 1/2");
}

/* ---- Holm --------------------------------------------------------------- */

static void expect_holm(const double *p, int m, const double *want)
{
    double adj[16];
    assert_true(m <= 16);
    assert_int_equal(stats_holm(p, m, adj), 0);
    for (int i = 0; i < m; i++)
        expect_near(adj[i], want[i], 1e-15, "Holm adjusted p");
}

static void test_holm_worked_examples(void **state)
{
    (void)state;
    /* The example of Wikipedia's "Holm-Bonferroni method" article: four
     * hypotheses with p = 0.01, 0.04, 0.03, 0.005; at alpha = 0.05 H1 and
     * H4 are rejected. By hand: sorted 0.005, 0.01, 0.03, 0.04 times
     * 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04, running maximum 0.02, 0.03,
     * 0.06, 0.06, back in input order: */
    const double p4[] = {0.01, 0.04, 0.03, 0.005};
    const double a4[] = {0.03, 0.06, 0.06, 0.02};
    expect_holm(p4, 4, a4);
    /* Six p-values (the metricgate.com Holm page's R example,
     * p.adjust(c(0.01, 0.04, 0.20, 0.03, 0.005, 0.07), "holm")). By hand:
     * sorted 0.005, 0.01, 0.03, 0.04, 0.07, 0.20 times 6..1 = 0.03, 0.05,
     * 0.12, 0.12, 0.14, 0.20 (already non-decreasing). */
    const double p6[] = {0.01, 0.04, 0.20, 0.03, 0.005, 0.07};
    const double a6[] = {0.05, 0.12, 0.20, 0.12, 0.03, 0.14};
    expect_holm(p6, 6, a6);
}

static void test_holm_edges(void **state)
{
    (void)state;
    double adj[4] = {-1, -1, -1, -1};
    assert_int_equal(stats_holm(NULL, 0, adj), 0); /* nothing to adjust */
    assert_true(adj[0] == -1);
    const double one[] = {0.3};
    const double one_want[] = {0.3};
    expect_holm(one, 1, one_want); /* one test: unchanged */
    /* Capped at 1: 2 x 0.6 and the maximum carried up. */
    const double cap[] = {0.6, 0.7};
    const double cap_want[] = {1.0, 1.0};
    expect_holm(cap, 2, cap_want);
    /* Ties get the same value whatever their order: 3 x 0.01 for both. */
    const double ties[] = {0.2, 0.01, 0.01};
    const double ties_want[] = {0.2, 0.03, 0.03};
    expect_holm(ties, 3, ties_want);
    const double zero[] = {0.0, 1.0, 0.5};
    const double zero_want[] = {0.0, 1.0, 1.0};
    expect_holm(zero, 3, zero_want);
    /* In place. */
    double inplace[] = {0.01, 0.04, 0.03, 0.005};
    assert_int_equal(stats_holm(inplace, 4, inplace), 0);
    expect_near(inplace[0], 0.03, 1e-15, "in place");
    expect_near(inplace[1], 0.06, 1e-15, "in place");
    expect_near(inplace[2], 0.06, 1e-15, "in place");
    expect_near(inplace[3], 0.02, 1e-15, "in place");
}

/* Holm straight from the definition, O(m^2): hypothesis i's value is the
 * largest (m - r_j + 1) p_j over the j with p_j <= p_i, r_j being j's rank
 * (1 + how many are smaller), capped at 1. */
static void naive_holm(const double *p, int m, double *adj)
{
    for (int i = 0; i < m; i++) {
        double best = 0.0;
        for (int j = 0; j < m; j++) {
            if (p[j] > p[i])
                continue;
            int rank = 1;
            for (int l = 0; l < m; l++)
                rank += p[l] < p[j];
            double v = (m - rank + 1) * p[j];
            if (v > best)
                best = v;
        }
        adj[i] = best < 1.0 ? best : 1.0;
    }
}

static void test_holm_against_definition(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 20240501);
    double p[50], got[50], want[50];
    for (int trial = 0; trial < 500; trial++) {
        int m = 1 + (int)rng_below(&r, 50);
        for (int i = 0; i < m; i++) {
            /* Mostly small values, some repeated, to exercise ties. */
            double u = rng_double(&r);
            p[i] = rng_below(&r, 4) == 0 ? 0.01 * (double)rng_below(&r, 5)
                                         : u * u * u;
        }
        assert_int_equal(stats_holm(p, m, got), 0);
        naive_holm(p, m, want);
        for (int i = 0; i < m; i++) {
            expect_near(got[i], want[i], 1e-15, "Holm vs definition");
            assert_true(got[i] >= p[i] && got[i] <= 1.0);
            for (int j = 0; j < m; j++) /* order kept */
                if (p[i] <= p[j])
                    assert_true(got[i] <= got[j]);
        }
    }
}

/* ---- SPRT --------------------------------------------------------------- */

static void test_sprt_bounds(void **state)
{
    (void)state;
    /* Wald (1945): A = (1 - beta) / alpha, B = beta / (1 - alpha); in logs
     * +-log 19 for alpha = beta = 0.05 (math.log in Python). */
    double lower, upper;
    stats_sprt_bounds(0.05, 0.05, &lower, &upper);
    expect_near(lower, -2.9444389791664403, 1e-15, "lower 5/5");
    expect_near(upper, 2.9444389791664403, 1e-15, "upper 5/5");
    stats_sprt_bounds(0.05, 0.1, &lower, &upper);
    expect_near(lower, -2.251291798606495, 1e-15, "lower 5/10");
    expect_near(upper, 2.8903717578961645, 1e-15, "upper 5/10");
}

static void test_sprt_values_and_decisions(void **state)
{
    (void)state;
    /* H0: score 0.5 against H1: 0.55, alpha = beta = 0.05 (bounds
     * +-2.944). llr = (W + D/2) log 1.1 + (L + D/2) log 0.9; expected
     * values from 50-digit Decimal. */
    static const struct {
        long w, d, l;
        double llr;
        enum stats_sprt_decision decision;
    } cases[] = {
        {0, 0, 0, 0.0, STATS_SPRT_CONTINUE},
        {100, 0, 70, 2.155781884384645, STATS_SPRT_CONTINUE},
        {130, 0, 70, 5.0150872785143905, STATS_SPRT_ACCEPT_H1},
        {60, 0, 100, -4.817440777523139, STATS_SPRT_ACCEPT_H0},
        {100, 50, 70, 1.904523488047109, STATS_SPRT_CONTINUE},
        {40, 10, 20, 1.6549451997489613, STATS_SPRT_CONTINUE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double llr = NAN;
        enum stats_sprt_decision dec =
            stats_sprt(cases[i].w, cases[i].d, cases[i].l, 0.5, 0.55, 0.05,
                       0.05, &llr);
        expect_near(llr, cases[i].llr, 1e-12, "llr");
        assert_int_equal(dec, cases[i].decision);
    }
    /* Another pair of hypotheses: 0.45 against 0.55 (Decimal). */
    double llr;
    stats_sprt(40, 10, 20, 0.45, 0.55, 0.05, 0.05, &llr);
    expect_near(llr, 4.013413909243023, 1e-12, "llr 0.45/0.55");
    /* llr may be NULL. */
    assert_int_equal(stats_sprt(130, 0, 70, 0.5, 0.55, 0.05, 0.05, NULL),
                     STATS_SPRT_ACCEPT_H1);
}

static void test_sprt_model_properties(void **state)
{
    (void)state;
    double lower, upper;
    stats_sprt_bounds(0.05, 0.1, &lower, &upper);
    for (long w = 0; w < 120; w += 7)
        for (long d = 0; d < 60; d += 11)
            for (long l = 0; l < 120; l += 9) {
                double a, b, c, e;
                enum stats_sprt_decision dec =
                    stats_sprt(w, d, l, 0.5, 0.56, 0.05, 0.1, &a);
                /* The decision is the llr against Wald's bounds. */
                enum stats_sprt_decision want =
                    a >= upper   ? STATS_SPRT_ACCEPT_H1
                    : a <= lower ? STATS_SPRT_ACCEPT_H0
                                 : STATS_SPRT_CONTINUE;
                assert_int_equal(dec, want);
                /* Two draws weigh as one win plus one loss. */
                stats_sprt(w + 1, d, l + 1, 0.5, 0.56, 0.05, 0.1, &b);
                stats_sprt(w, d + 2, l, 0.5, 0.56, 0.05, 0.1, &c);
                expect_near(b, c, 1e-9, "two draws = a win and a loss");
                /* Swapping the hypotheses negates the llr... */
                stats_sprt(w, d, l, 0.56, 0.5, 0.1, 0.05, &e);
                expect_near(e, -a, 1e-9, "H0 <-> H1");
                /* ...and so does seeing it from seat 1. */
                stats_sprt(l, d, w, 0.5, 0.44, 0.05, 0.1, &e);
                expect_near(e, a, 1e-9, "seat 1's view");
            }
    /* More wins never lower the llr when p1 > p0. */
    double prev = -INFINITY, llr;
    for (long w = 0; w < 100; w++) {
        stats_sprt(w, 5, 50, 0.5, 0.55, 0.05, 0.05, &llr);
        assert_true(llr > prev);
        prev = llr;
    }
}

/* ---- equivalence -------------------------------------------------------- */

static void test_equivalence_verdicts(void **state)
{
    (void)state;
    double lo, hi;
    /* Seat 0 scores exactly 1/2: the 90% Wilson half-width is
     * z / (2 sqrt(n + z^2)) with z = qnorm(0.95), at most 0.05 from
     * n >= (z / 0.1)^2 - z^2 = 267.85 on, so delta = 0.05 is shown with
     * 268 games and not with 267 (the margins are 1.4e-5 and 7.9e-5). */
    assert_int_equal(stats_equivalence(134, 268, 0.05, 0.05, &lo, &hi),
                     STATS_EQUIV_BALANCED);
    expect_near(lo, 0.45001396528131693, 1e-13, "268 lower");
    expect_near(hi, 0.549986034718683, 1e-13, "268 upper");
    assert_int_equal(stats_equivalence(133.5, 267, 0.05, 0.05, &lo, &hi),
                     STATS_EQUIV_UNDECIDED);
    expect_near(lo, 0.44992138322704867, 1e-13, "267 lower");
    expect_near(hi, 0.5500786167729513, 1e-13, "267 upper");
    /* 60% over 10^4 games: [0.5919, 0.6080], beyond 0.55. */
    assert_int_equal(stats_equivalence(6000, 10000, 0.05, 0.05, &lo, &hi),
                     STATS_EQUIV_UNBALANCED);
    expect_near(lo, 0.5919158921633125, 1e-13, "6000 lower");
    expect_near(hi, 0.6080300116035765, 1e-13, "6000 upper");
    assert_int_equal(stats_equivalence(4000, 10000, 0.05, 0.05, NULL, NULL),
                     STATS_EQUIV_UNBALANCED);
    /* One cell, three margins: [0.51283, 0.52926] (Decimal) is inside
     * 0.5 +- 0.03, straddles 0.52 and lies beyond 0.51. */
    assert_int_equal(stats_equivalence(5210.5, 10000, 0.03, 0.05, &lo, &hi),
                     STATS_EQUIV_BALANCED);
    expect_near(lo, 0.5128284392276112, 1e-13, "5210.5 lower");
    expect_near(hi, 0.529260173515319, 1e-13, "5210.5 upper");
    assert_int_equal(stats_equivalence(5210.5, 10000, 0.02, 0.05, NULL, NULL),
                     STATS_EQUIV_UNDECIDED);
    assert_int_equal(stats_equivalence(5210.5, 10000, 0.01, 0.05, NULL, NULL),
                     STATS_EQUIV_UNBALANCED);
    /* Too few games to say anything. */
    assert_int_equal(stats_equivalence(50, 100, 0.05, 0.05, &lo, &hi),
                     STATS_EQUIV_UNDECIDED);
    expect_near(lo, 0.41884779611252954, 1e-13, "100 lower");
    assert_int_equal(stats_equivalence(0, 0, 0.05, 0.05, &lo, &hi),
                     STATS_EQUIV_UNDECIDED);
    assert_true(lo == 0.0 && hi == 1.0);
}

static void test_equivalence_is_tost_on_wilson(void **state)
{
    (void)state;
    /* The interval is the (1 - 2 alpha) Wilson interval, and the verdict
     * is symmetric in seat 0's successes and failures. */
    for (int s2 = 0; s2 <= 2 * 300; s2 += 3) {
        double s = s2 / 2.0, lo, hi, wlo, whi;
        enum stats_equivalence_verdict v =
            stats_equivalence(s, 300, 0.05, 0.025, &lo, &hi);
        stats_wilson(s, 300, stats_normal_quantile(0.975), &wlo, &whi);
        assert_true(lo == wlo && hi == whi);
        assert_int_equal(v, stats_equivalence(300 - s, 300, 0.05, 0.025, NULL,
                                              NULL));
    }
}

/* ---- two proportions and trends ---------------------------------------- */

static void test_newcombe_diff_examples(void **state)
{
    (void)state;
    /* Newcombe, R. G. (1998), "Interval estimation for the difference
     * between independent proportions: comparison of eleven methods",
     * Statistics in Medicine 17:873-890, Table II, method 10: example (a)
     * 56/70 - 48/80 is printed as 0.0524 to 0.3339 (the figure the issue
     * quotes; the paper itself could not be opened here). By hand: Wilson
     * 56/70 = [0.691834, 0.876953], 48/80 = [0.490455, 0.700382] (the
     * roots, as in test_wilson_newcombe_examples), d = 0.2, and
     *   lo = 0.2 - sqrt(0.108166^2 + 0.100382^2) = 0.2 - 0.147569 = 0.0524,
     *   hi = 0.2 + sqrt(0.076953^2 + 0.109545^2) = 0.2 + 0.133873 = 0.3339.
     * The other rows: the same formula evaluated in Python from Wilson
     * bounds in double (not checked against the printed table). They
     * cover the boundaries: 0/n on both sides and 10/10 against 0/n. */
    static const struct {
        double x1, n1, x2, n2, lo, hi;
    } cases[] = {
        {56, 70, 48, 80, 0.0524314724023649, 0.3338726540369059},
        {9, 10, 3, 10, 0.17052272393450313, 0.809017973535488},
        {5, 56, 0, 29, -0.03813714790353685, 0.19256001385511157},
        {0, 10, 0, 20, -0.16112515805281932, 0.27753279986288915},
        {0, 10, 0, 10, -0.27753279986288915, 0.27753279986288915},
        {10, 10, 0, 20, 0.679086037141915, 1.0},
        {10, 10, 0, 10, 0.6075093504305245, 1.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double lo, hi;
        stats_newcombe_diff(cases[i].x1, cases[i].n1, cases[i].x2,
                            cases[i].n2, Z95, &lo, &hi);
        expect_near(lo, cases[i].lo, 1e-13, "Newcombe lower");
        expect_near(hi, cases[i].hi, 1e-13, "Newcombe upper");
    }
    double lo, hi;
    stats_newcombe_diff(56, 70, 48, 80, Z95, &lo, &hi);
    expect_near(lo, 0.0524, 5e-5, "Newcombe's printed lower (a)");
    expect_near(hi, 0.3339, 5e-5, "Newcombe's printed upper (a)");
    /* Antisymmetric: swapping the samples negates and swaps the bounds. */
    double lo2, hi2;
    stats_newcombe_diff(48, 80, 56, 70, Z95, &lo2, &hi2);
    expect_near(lo2, -hi, 1e-15, "swapped lower");
    expect_near(hi2, -lo, 1e-15, "swapped upper");
    /* Fractional counts (draws as halves) are the Wilson intervals of
     * those counts, squared and added: 7.5/20 - 7.5/20 is symmetric. */
    stats_newcombe_diff(7.5, 20, 7.5, 20, Z95, &lo, &hi);
    expect_near(lo, -hi, 1e-15, "equal fractional samples");
    expect_near(hi, hypot(0.5905104338485733 - 0.375,
                          0.375 - 0.19977085566463154), 1e-14,
                "fractional upper");
    /* An empty sample: nothing is known. */
    stats_newcombe_diff(0, 0, 3, 10, Z95, &lo, &hi);
    assert_true(lo == -1.0 && hi == 1.0);
    /* z = 0 collapses to the point estimate. */
    stats_newcombe_diff(3, 10, 1, 10, 0.0, &lo, &hi);
    expect_near(lo, 0.2, 1e-15, "z = 0 lower");
    expect_near(hi, 0.2, 1e-15, "z = 0 upper");
}

static void test_two_proportion_z(void **state)
{
    (void)state;
    /* 56/70 vs 48/80 by hand: Pearson's chi-square of [[56, 14], [48, 32]]
     * = 150 (56 32 - 14 48)^2 / (70 80 104 46) = 188160000 / 26790400
     * = 7.023410..., z = sqrt of it = 2.650172; p = erfc(z / sqrt 2) =
     * 0.008045 (the chi-square(1) tail of 7.0234). */
    double z, p = stats_two_proportion_p(56, 70, 48, 80, &z);
    expect_near(z * z, 188160000.0 / 26790400.0, 1e-12, "z^2 = chi-square");
    expect_near(p, erfc(sqrt(188160000.0 / 26790400.0) / sqrt(2.0)), 1e-15,
                "two-proportion p");
    expect_near(p, 0.008045, 5e-7, "two-proportion p, 4 figures");
    /* antisymmetric in z, symmetric in p */
    double z2, p2 = stats_two_proportion_p(48, 80, 56, 70, &z2);
    expect_near(z2, -z, 1e-15, "swapped z");
    expect_near(p2, p, 1e-15, "swapped p");
    /* equal proportions: z = 0, p = 1 */
    assert_true(stats_two_proportion_p(3, 10, 6, 20, &z) == 1.0 && z == 0.0);
    /* no variance (all failures, all successes) and empty samples: 1 */
    assert_true(stats_two_proportion_p(0, 10, 0, 20, &z) == 1.0 && z == 0.0);
    assert_true(stats_two_proportion_p(10, 10, 20, 20, NULL) == 1.0);
    assert_true(stats_two_proportion_p(0, 0, 5, 20, &z) == 1.0 && z == 0.0);
    /* 10/10 vs 0/10: pbar = 1/2, z = 1 / sqrt(1/4 * 1/5) = sqrt 20 */
    p = stats_two_proportion_p(10, 10, 0, 10, &z);
    expect_near(z, sqrt(20.0), 1e-14, "extreme z");
    expect_near(p, erfc(sqrt(10.0)), 1e-18, "extreme p");
}

static void test_trend_hand_computation(void **state)
{
    (void)state;
    /* Three groups at scores 7, 8, 9 with 2/10, 5/10, 8/10 successes:
     * N = 30, pbar = 15/30 = 1/2, tbar = 8,
     *   T = (7-8)(2-5) + (8-8)(5-5) + (9-8)(8-5) = 3 + 0 + 3 = 6,
     *   S = 10 (1 + 0 + 1) = 20,
     *   z = 6 / sqrt(1/4 * 20) = 6 / sqrt 5 = 2.683282 (z^2 = 7.2),
     *   p = erfc(z / sqrt 2) = 0.007290 (the chi-square(1) tail of 7.2),
     *   slope = T / S = 0.3 per unit (the proportions 0.2, 0.5, 0.8). */
    double x[] = {2, 5, 8}, n[] = {10, 10, 10}, t[] = {7, 8, 9};
    double slope, z, p = stats_trend_p(x, n, t, 3, &slope, &z);
    expect_near(z, 6.0 / sqrt(5.0), 1e-14, "trend z");
    expect_near(p, erfc(6.0 / sqrt(10.0)), 1e-16, "trend p");
    expect_near(p, 0.007290, 5e-7, "trend p, 4 figures");
    expect_near(slope, 0.3, 1e-15, "trend slope");
    /* Scores 0, 1, 2 give the same test (a linear change of scores), the
     * slope per unit of the new score being the same here (unit steps). */
    double t0[] = {0, 1, 2}, slope0, z0;
    double p0 = stats_trend_p(x, n, t0, 3, &slope0, &z0);
    expect_near(z0, z, 1e-14, "trend z, scores 0 1 2");
    expect_near(p0, p, 1e-16, "trend p, scores 0 1 2");
    expect_near(slope0, 0.3, 1e-15, "trend slope, scores 0 1 2");
    /* Unequal groups and fractional counts (draws as halves), by hand:
     * x = 1.5/4, 3/6 at t = 1, 3: N = 10, pbar = 0.45, tbar = 2.2,
     *   T = (1-2.2)(1.5-1.8) + (3-2.2)(3-2.7) = 0.36 + 0.24 = 0.6,
     *   S = 4 (1.44) + 6 (0.64) = 9.6, var = 0.45 0.55 9.6 = 2.376,
     *   z = 0.6 / sqrt 2.376, slope = 0.6 / 9.6 = 0.0625. Two groups: the
     *   trend test is the two-proportion z test. */
    double xf[] = {1.5, 3}, nf[] = {4, 6}, tf[] = {1, 3};
    p = stats_trend_p(xf, nf, tf, 2, &slope, &z);
    expect_near(z, 0.6 / sqrt(2.376), 1e-13, "fractional trend z");
    expect_near(slope, 0.0625, 1e-15, "fractional trend slope");
    double zz, pz = stats_two_proportion_p(3, 6, 1.5, 4, &zz);
    expect_near(zz, z, 1e-13, "two groups: the z test");
    expect_near(pz, p, 1e-14, "two groups: the z test's p");
    /* Reversed order of the scores flips the sign of z and slope only. */
    double tr[] = {9, 8, 7};
    p = stats_trend_p(x, n, tr, 3, &slope, &z);
    expect_near(z, -6.0 / sqrt(5.0), 1e-14, "reversed z");
    expect_near(slope, -0.3, 1e-15, "reversed slope");
    /* No trend to test: one score, no variance, no games. */
    double same[] = {8, 8, 8};
    assert_true(stats_trend_p(x, n, same, 3, &slope, &z) == 1.0
                && slope == 0.0 && z == 0.0);
    double none[] = {0, 0, 0};
    assert_true(stats_trend_p(none, n, t, 3, &slope, &z) == 1.0);
    assert_true(stats_trend_p(none, none, t, 3, &slope, &z) == 1.0);
    /* A flat proportion: z = 0, p = 1. */
    double flat[] = {5, 5, 5};
    p = stats_trend_p(flat, n, t, 3, &slope, &z);
    expect_near(p, 1.0, 1e-15, "flat p");
    expect_near(z, 0.0, 1e-15, "flat z");
}

/* ---- mean and median ----------------------------------------------------- */

static void test_mean_and_median(void **state)
{
    (void)state;
    const int odd[] = {41, 7, 19, 7, 100};
    const int even[] = {10, -4, 3, 8};
    int scratch[8];
    assert_true(stats_mean_int(odd, 5) == 174.0 / 5.0);
    assert_true(stats_median_int(odd, 5, scratch) == 19.0);
    /* scratch is left sorted, the input untouched. */
    const int sorted[] = {7, 7, 19, 41, 100};
    assert_memory_equal(scratch, sorted, sizeof sorted);
    assert_int_equal(odd[0], 41);
    assert_true(stats_median_int(even, 4, scratch) == 5.5); /* (3 + 8) / 2 */
    assert_true(stats_mean_int(even, 4) == 4.25);
    /* scratch may be the input itself. */
    int mine[] = {5, 1, 4};
    assert_true(stats_median_int(mine, 3, mine) == 4.0);
    assert_int_equal(mine[0], 1);
    /* No overflow from big values. */
    const int big[] = {INT_MAX, INT_MAX, INT_MAX, INT_MAX};
    assert_true(stats_mean_int(big, 4) == (double)INT_MAX);
    assert_true(stats_median_int(big, 4, scratch) == (double)INT_MAX);
    const int one[] = {-3};
    assert_true(stats_median_int(one, 1, scratch) == -3.0);
    assert_true(isnan(stats_mean_int(NULL, 0)));
    assert_true(isnan(stats_median_int(NULL, 0, NULL)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_quantile),
        cmocka_unit_test(test_wilson_newcombe_examples),
        cmocka_unit_test(test_wilson_edges),
        cmocka_unit_test(test_wilson_monotone_and_symmetric),
        cmocka_unit_test(test_binomial_published),
        cmocka_unit_test(test_binomial_large_n),
        cmocka_unit_test(test_binomial_edges),
        cmocka_unit_test(test_binomial_against_naive_sum),
        cmocka_unit_test(test_binomial_monotone_and_symmetric),
        cmocka_unit_test(test_holm_worked_examples),
        cmocka_unit_test(test_holm_edges),
        cmocka_unit_test(test_holm_against_definition),
        cmocka_unit_test(test_sprt_bounds),
        cmocka_unit_test(test_sprt_values_and_decisions),
        cmocka_unit_test(test_sprt_model_properties),
        cmocka_unit_test(test_equivalence_verdicts),
        cmocka_unit_test(test_equivalence_is_tost_on_wilson),
        cmocka_unit_test(test_newcombe_diff_examples),
        cmocka_unit_test(test_two_proportion_z),
        cmocka_unit_test(test_trend_hand_computation),
        cmocka_unit_test(test_mean_and_median),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
