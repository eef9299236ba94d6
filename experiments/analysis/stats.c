/*
 * stats.c -- the statistics reports and stopping rules need, in plain
 * double precision with no dependencies beyond libm. See stats.h for the
 * exact definitions.
 *
 * Why it is written this way. Cells are small or huge: a designer's quick
 * sweep has 20 games a cell, an overnight one 10^7, so the binomial test
 * neither forms C(n, k) nor sums all n + 1 terms. It works in log space
 * with Loader's (2000) saddle point form of the binomial probability (the
 * one R's dbinom uses): the Stirling remainder of n! and the deviance term
 * bd0 are each computed without cancellation, so log P(X = k) is accurate
 * to a few ulps even at n = 10^7, where the lgamma-based formula keeps only
 * eight or nine digits of the p-value. The outcomes no more likely than k
 * form two tails [0, a] and [b, n] (the distribution is unimodal), found by
 * bisection, each summed outward from its largest term with the ratio of
 * consecutive probabilities until the rest is provably below a 1e-17 share
 * of the sum. lgamma is avoided also because glibc's writes the global
 * signgam, and these functions must be safe in the runner's threads.
 *
 * The Wilson bounds take the smaller root of their quadratic from the
 * product of the roots: for a small count (a lone draw, say) the textbook
 * form subtracts two nearly equal numbers and loses two digits at z = 1.96,
 * three or four at z = 6. The normal quantile is Acklam's rational
 * approximation (relative error about 1e-9) polished by one Halley step on
 * erfc, which brings it to full double precision.
 *
 * Comparing two variants. The difference of two proportions gets
 * Newcombe's method 10 (the square-and-add of two Wilson intervals)
 * because it is built from the Wilson interval the report already gives
 * each cell, so a difference and its two scores are read the same way,
 * and because Newcombe (1998) found it close to nominal coverage at the
 * small counts of a quick sweep, where the Wald interval fails (it is
 * degenerate at 0/n). Its test is the pooled two-proportion z test (the
 * score test, Pearson's chi-square without correction), a score test as
 * the Wilson intervals are; it is not the inversion of Newcombe's
 * interval, so near p = 0.05 the two can disagree on whether the
 * difference is 0. A trend across three or more ordered
 * values is the Cochran-Armitage score test on the parameter's values.
 * The seat-0 score with draws as half a point is fed to all three as a
 * proportion of points, as the report's Wilson interval and the SPRT
 * treat it: that binomial variance p (1 - p) is an upper bound on the
 * variance of a game's score when draws occur, so the intervals are a
 * little wide and the tests conservative, never optimistic.
 */
#include "stats.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STATS_LN_2PI 1.8378770664093454835606594728112353 /* log(2 pi) */
#define STATS_SQRT_2PI 2.5066282746310005024157652848110453
#define STATS_SQRT1_2 0.7071067811865475244008443621048490 /* 1/sqrt(2) */

/* binom.test's relative tolerance for "no more likely than k". */
#define BINOM_REL_TOL 1e-7
/* A tail stops once what is left is below this share of what was summed. */
#define TAIL_REL_EPS 1e-17

/* ---- the normal quantile ------------------------------------------------ */

/* Acklam's approximation, for 0 < p <= 0.5 (the lower half). */
static double acklam_lower(double p)
{
    static const double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                -2.759285104469687e+02, 1.383577518672690e+02,
                                -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                -1.556989798598866e+02, 6.680131188771972e+01,
                                -1.328068155288572e+01};
    static const double c[6] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                -2.400758277161838e+00, -2.549732539343734e+00,
                                4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[4] = {7.784695709041462e-03, 3.224671290700398e-01,
                                2.445134137142996e+00, 3.754408661907416e+00};
    if (p < 0.02425) {
        double q = sqrt(-2.0 * log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q
                + c[5])
               / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    }
    double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r
            + a[5])
           * q
           / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r
              + 1.0);
}

double stats_normal_quantile(double p)
{
    assert(p >= 0.0 && p <= 1.0);
    if (p == 0.0)
        return -INFINITY;
    if (p == 1.0)
        return INFINITY;
    /* Work in the lower half, where erfc keeps full relative precision;
     * 1 - p is exact for p >= 0.5. */
    if (p > 0.5)
        return -stats_normal_quantile(1.0 - p);
    double x = acklam_lower(p);
    /* One Halley step on Phi(x) - p; skipped only where exp(x^2/2) would
     * overflow (p below about 1e-307), where Acklam's 1e-9 stands. */
    if (x > -37.5) {
        double e = 0.5 * erfc(-x * STATS_SQRT1_2) - p;
        double u = e * STATS_SQRT_2PI * exp(0.5 * x * x);
        x -= u / (1.0 + 0.5 * x * u);
    }
    return x;
}

/* ---- Wilson ------------------------------------------------------------- */

void stats_wilson(double successes, double n, double z, double *lo,
                  double *hi)
{
    assert(lo && hi);
    assert(n >= 0.0 && successes >= 0.0 && successes <= n);
    assert(z >= 0.0 && isfinite(z));
    if (n == 0.0) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    double x = successes, z2 = z * z;
    double a = n + z2; /* the quadratic a p^2 - b p + c = 0 */
    double b = 2.0 * x + z2;
    double c = x * x / n;
    /* The larger root by addition (no cancellation). */
    double upper = (b + z * sqrt(z2 + 4.0 * x * (n - x) / n)) / (2.0 * a);
    /* The smaller from the product of the roots, c / a. */
    double lower = x == 0.0 ? 0.0 : c / (a * upper);
    if (x == n)
        upper = 1.0;
    *lo = fmax(0.0, fmin(lower, 1.0));
    *hi = fmax(*lo, fmin(upper, 1.0));
}

/* ---- the binomial distribution in log space ----------------------------- */

/* log(n!) - log(sqrt(2 pi n) (n/e)^n), the error of Stirling's formula,
 * for a whole number n >= 1. Above 15 the asymptotic series; the cut-offs
 * drop terms only where the first dropped one is below 1e-16. */
static double stirlerr(double n)
{
    static const double s0 = 1.0 / 12.0, s1 = 1.0 / 360.0, s2 = 1.0 / 1260.0,
                        s3 = 1.0 / 1680.0, s4 = 1.0 / 1188.0;
    if (n <= 15.0) {
        double lf = 0.0; /* log(n!), exact to rounding for n this small */
        for (int i = 2; i <= (int)n; i++)
            lf += log((double)i);
        return lf - (n + 0.5) * log(n) + n - 0.5 * STATS_LN_2PI;
    }
    double nn = n * n;
    if (n > 500.0)
        return (s0 - s1 / nn) / n;
    if (n > 80.0)
        return (s0 - (s1 - s2 / nn) / nn) / n;
    if (n > 35.0)
        return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n;
    return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n;
}

/* The deviance term x log(x / np) + np - x >= 0, by its series in
 * v = (x - np) / (x + np) when x is near np, where the direct form would
 * cancel. */
static double bd0(double x, double np)
{
    if (fabs(x - np) < 0.1 * (x + np)) {
        double v = (x - np) / (x + np);
        double s = (x - np) * v;
        double ej = 2.0 * x * v;
        double v2 = v * v;
        for (int j = 1; j < 1000; j++) {
            ej *= v2;
            double s1 = s + ej / (2 * j + 1);
            if (s1 == s)
                return s1;
            s = s1;
        }
        return s; /* cannot happen: |v| < 0.1 converges in ~16 terms */
    }
    return x * log(x / np) + np - x;
}

/* log P(X = x) for X ~ Binomial(n, p), 0 < p < 1, 0 <= x <= n. */
static double log_dbinom(long x, long n, double p)
{
    double q = 1.0 - p;
    if (x == 0)
        return (double)n * log1p(-p);
    if (x == n)
        return (double)n * log(p);
    double dx = (double)x, dn = (double)n;
    double lc = stirlerr(dn) - stirlerr(dx) - stirlerr(dn - dx)
                - bd0(dx, dn * p) - bd0(dn - dx, dn * q);
    double lf = STATS_LN_2PI + log(dx) + log1p(-dx / dn);
    return lc - 0.5 * lf;
}

/* P(X <= a) as exp(log P(X = a)) times the sum of ratios to P(X = a),
 * for a below the mode (terms fall as i falls). */
static double lower_tail(long a, long n, double p)
{
    if (a < 0)
        return 0.0;
    double q = 1.0 - p, sum = 1.0, t = 1.0;
    for (long i = a; i > 0; i--) {
        /* P(X = i-1) / P(X = i); it shrinks as i falls, so the rest is at
         * most t r / (1 - r) once r < 1. */
        double r = (double)i * q / ((double)(n - i + 1) * p);
        t *= r;
        sum += t;
        if (r < 1.0 && t * r / (1.0 - r) < TAIL_REL_EPS * sum)
            break;
    }
    return exp(log_dbinom(a, n, p)) * sum;
}

/* P(X >= b) likewise, for b above the mode. */
static double upper_tail(long b, long n, double p)
{
    if (b > n)
        return 0.0;
    double q = 1.0 - p, sum = 1.0, t = 1.0;
    for (long i = b; i < n; i++) {
        double r = (double)(n - i) * p / ((double)(i + 1) * q);
        t *= r;
        sum += t;
        if (r < 1.0 && t * r / (1.0 - r) < TAIL_REL_EPS * sum)
            break;
    }
    return exp(log_dbinom(b, n, p)) * sum;
}

/* Where "x counts" (log_dbinom(x, n, p0) <= limit) changes between lo
 * and hi (lo < hi, neither evaluated: they may be -1 and n + 1), given
 * that it changes once: counts at lo and not at hi when lo_counts, the
 * other way round otherwise. Returns the counting end of the change (the
 * last x that counts when lo_counts, else the first), found by binary
 * search; lo or hi themselves when no x between them counts. */
static long counting_edge(long lo, long hi, int lo_counts, long n, double p0,
                          double limit)
{
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if ((log_dbinom(mid, n, p0) <= limit) == lo_counts)
            lo = mid;
        else
            hi = mid;
    }
    return lo_counts ? lo : hi;
}

double stats_binomial_two_sided_p(long k, long n, double p0)
{
    assert(n >= 0 && k >= 0 && k <= n);
    assert(p0 >= 0.0 && p0 <= 1.0);
    if (n == 0)
        return 1.0;
    if (p0 == 0.0)
        return k == 0 ? 1.0 : 0.0;
    if (p0 == 1.0)
        return k == n ? 1.0 : 0.0;

    double limit = log_dbinom(k, n, p0) + log1p(BINOM_REL_TOL);
    /* floor((n+1) p0) is a mode: P rises up to it and falls after it. */
    long mode = (long)floor(((double)n + 1.0) * p0);
    if (mode > n)
        mode = n;
    if (log_dbinom(mode, n, p0) <= limit)
        return 1.0; /* k is as likely as the mode: every outcome counts */

    /* a: the last outcome at or below the mode that counts (-1: none);
     * b: the first outcome above the mode that counts (n + 1: none). */
    long a = counting_edge(-1, mode, 1, n, p0, limit);
    long b = counting_edge(mode, n + 1, 0, n, p0, limit);
    double pv = lower_tail(a, n, p0) + upper_tail(b, n, p0);
    return pv < 1.0 ? pv : 1.0;
}

/* ---- Holm --------------------------------------------------------------- */

struct ranked {
    double p;
    int index;
};

static int ranked_cmp(const void *va, const void *vb)
{
    const struct ranked *a = va, *b = vb;
    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

int stats_holm(const double *p, int m, double *adjusted)
{
    assert(m >= 0);
    if (m == 0)
        return 0;
    assert(p && adjusted);
    struct ranked *r = malloc((size_t)m * sizeof *r);
    if (!r)
        return -1;
    for (int i = 0; i < m; i++) {
        assert(p[i] >= 0.0 && p[i] <= 1.0); /* also rejects NaN */
        r[i].p = p[i];
        r[i].index = i;
    }
    qsort(r, (size_t)m, sizeof *r, ranked_cmp);
    /* Ties need no care: of equal p's the first sorted gets the largest
     * multiplier, and the running maximum hands it to the rest. */
    double running = 0.0;
    for (int j = 0; j < m; j++) {
        double v = (double)(m - j) * r[j].p;
        if (v > running)
            running = v;
        adjusted[r[j].index] = running < 1.0 ? running : 1.0;
    }
    free(r);
    return 0;
}

/* ---- SPRT --------------------------------------------------------------- */

void stats_sprt_bounds(double alpha, double beta, double *lower,
                       double *upper)
{
    assert(lower && upper);
    assert(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0);
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}

enum stats_sprt_decision stats_sprt(long wins, long draws, long losses,
                                    double p0, double p1, double alpha,
                                    double beta, double *llr)
{
    assert(wins >= 0 && draws >= 0 && losses >= 0);
    assert(p0 > 0.0 && p0 < 1.0 && p1 > 0.0 && p1 < 1.0 && p0 != p1);
    double lower, upper;
    stats_sprt_bounds(alpha, beta, &lower, &upper);
    double up = log(p1) - log(p0); /* a success's log ratio */
    double down = log1p(-p1) - log1p(-p0); /* a failure's */
    double half = 0.5 * (double)draws;
    double l = ((double)wins + half) * up + ((double)losses + half) * down;
    if (llr)
        *llr = l;
    if (l >= upper)
        return STATS_SPRT_ACCEPT_H1;
    if (l <= lower)
        return STATS_SPRT_ACCEPT_H0;
    return STATS_SPRT_CONTINUE;
}

/* ---- equivalence -------------------------------------------------------- */

enum stats_equivalence_verdict stats_equivalence(double successes, double n,
                                                 double delta, double alpha,
                                                 double *lo, double *hi)
{
    assert(delta > 0.0 && delta < 0.5);
    assert(alpha > 0.0 && alpha < 0.5);
    double l, h;
    stats_wilson(successes, n, stats_normal_quantile(1.0 - alpha), &l, &h);
    if (lo)
        *lo = l;
    if (hi)
        *hi = h;
    if (l >= 0.5 - delta && h <= 0.5 + delta)
        return STATS_EQUIV_BALANCED;
    if (h < 0.5 - delta || l > 0.5 + delta)
        return STATS_EQUIV_UNBALANCED;
    return STATS_EQUIV_UNDECIDED;
}

/* ---- two proportions and trends ---------------------------------------- */

void stats_newcombe_diff(double x1, double n1, double x2, double n2,
                         double z, double *lo, double *hi)
{
    assert(lo && hi);
    assert(n1 >= 0.0 && x1 >= 0.0 && x1 <= n1);
    assert(n2 >= 0.0 && x2 >= 0.0 && x2 <= n2);
    if (n1 == 0.0 || n2 == 0.0) {
        *lo = -1.0;
        *hi = 1.0;
        return;
    }
    double l1, u1, l2, u2, p1 = x1 / n1, p2 = x2 / n2, d = p1 - p2;
    stats_wilson(x1, n1, z, &l1, &u1);
    stats_wilson(x2, n2, z, &l2, &u2);
    /* hypot: the square root of a sum of squares without overflow or
     * underflow, and exactly 0 when both terms are. */
    *lo = fmax(-1.0, fmin(d, d - hypot(p1 - l1, u2 - p2)));
    *hi = fmin(1.0, fmax(d, d + hypot(u1 - p1, p2 - l2)));
}

/* The two-sided normal tail 2 (1 - Phi(|z|)), accurate far out. */
static double two_sided_normal_p(double z)
{
    double p = erfc(fabs(z) * STATS_SQRT1_2);
    return p < 1.0 ? p : 1.0;
}

double stats_two_proportion_p(double x1, double n1, double x2, double n2,
                              double *z)
{
    assert(n1 >= 0.0 && x1 >= 0.0 && x1 <= n1);
    assert(n2 >= 0.0 && x2 >= 0.0 && x2 <= n2);
    if (z)
        *z = 0.0;
    if (n1 == 0.0 || n2 == 0.0)
        return 1.0;
    double pbar = (x1 + x2) / (n1 + n2);
    double var = pbar * (1.0 - pbar) * (1.0 / n1 + 1.0 / n2);
    if (!(var > 0.0))
        return 1.0;
    double s = (x1 / n1 - x2 / n2) / sqrt(var);
    if (z)
        *z = s;
    return two_sided_normal_p(s);
}

double stats_trend_p(const double *x, const double *n, const double *t,
                     int k, double *slope, double *z)
{
    assert(k >= 1 && x && n && t);
    double total = 0.0, succ = 0.0, tsum = 0.0;
    for (int i = 0; i < k; i++) {
        assert(n[i] >= 0.0 && x[i] >= 0.0 && x[i] <= n[i]);
        total += n[i];
        succ += x[i];
        tsum += n[i] * t[i];
    }
    if (slope)
        *slope = 0.0;
    if (z)
        *z = 0.0;
    if (total == 0.0)
        return 1.0;
    double pbar = succ / total, tbar = tsum / total, T = 0.0, S = 0.0;
    /* Centred scores: T is unchanged (sum (x - n pbar) = 0), and S is
     * summed without the cancellation of sum n t^2 - N tbar^2. */
    for (int i = 0; i < k; i++) {
        double c = t[i] - tbar;
        T += c * (x[i] - n[i] * pbar);
        S += n[i] * c * c;
    }
    double var = pbar * (1.0 - pbar) * S;
    if (!(S > 0.0) || !(var > 0.0))
        return 1.0;
    double s = T / sqrt(var);
    if (slope)
        *slope = T / S;
    if (z)
        *z = s;
    return two_sided_normal_p(s);
}

/* ---- summaries of ply counts -------------------------------------------- */

double stats_mean_int(const int *x, size_t n)
{
    if (n == 0)
        return NAN;
    assert(x);
    long long sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return (double)sum / (double)n;
}

static int int_cmp(const void *va, const void *vb)
{
    int a = *(const int *)va, b = *(const int *)vb;
    return (a > b) - (a < b);
}

double stats_median_int(const int *x, size_t n, int *scratch)
{
    if (n == 0)
        return NAN;
    assert(x && scratch);
    if (scratch != x)
        memcpy(scratch, x, n * sizeof *x);
    qsort(scratch, n, sizeof *scratch, int_cmp);
    if (n % 2)
        return scratch[n / 2];
    /* In double: the sum of two ints may not fit in an int. */
    return 0.5 * ((double)scratch[n / 2 - 1] + (double)scratch[n / 2]);
}
