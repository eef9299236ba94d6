/*
 * stats.h -- the statistics behind experiment reports and early stopping:
 * Wilson intervals, the exact binomial test, Holm's adjustment, Wald's SPRT,
 * an equivalence (TOST) verdict, the difference of two proportions
 * (Newcombe's interval, the two-proportion z test), the Cochran-Armitage
 * trend test, and small summaries of ply counts.
 *
 * Every function is pure: no globals, no I/O, no hidden state, safe to call
 * from any thread. Arguments outside the documented domain are programmer
 * errors and are asserted. "Score" always means seat 0's score: a win 1, a
 * draw 1/2, a loss 0, so a cell of W wins, D draws and L losses has
 * successes = W + D/2 out of n = W + D + L.
 */
#ifndef RULELAB_STATS_H
#define RULELAB_STATS_H

/* The normal quantile of a two-sided 95% interval. */
#define STATS_Z95 1.959963984540054

#include <stddef.h>

/* The standard normal quantile: the z with Phi(z) = p, for 0 < p < 1
 * (p = 0 gives -INFINITY, p = 1 gives +INFINITY). Accurate to a few units
 * in the last place over the whole range. stats_normal_quantile(0.975) is
 * the 1.959964 of a two-sided 95% interval. */
double stats_normal_quantile(double p);

/* The Wilson score interval (Wilson 1927; Newcombe 1998 method 3, no
 * continuity correction) for a proportion: the set of p with
 * |x - n p| <= z sqrt(n p (1 - p)), that is the roots of
 *   (n + z^2) p^2 - (2x + z^2) p + x^2 / n = 0,
 *   lo, hi = (2x + z^2 -/+ z sqrt(z^2 + 4 x (n - x) / n)) / (2 (n + z^2)),
 * with x = successes. successes may be fractional (draws count 1/2);
 * 0 <= successes <= n, z >= 0 (z = stats_normal_quantile(1 - a/2) for a
 * 1 - a two-sided interval). Writes *lo <= *hi, both in [0, 1]; lo is
 * exactly 0 when successes = 0 and hi exactly 1 when successes = n; n = 0
 * gives [0, 1]. */
void stats_wilson(double successes, double n, double z, double *lo,
                  double *hi);

/* The exact two-sided binomial test of H0: P(success) = p0 given k
 * successes in n trials, as R's binom.test defines it: the probability
 * under H0 of every outcome i in 0..n with
 *   P(X = i) <= P(X = k) * (1 + 1e-7),
 * the relative tolerance keeping outcomes that tie with k in exact
 * arithmetic from being lost to rounding. 0 <= k <= n, 0 <= p0 <= 1.
 * n = 0 gives 1; p0 = 0 gives 1 if k = 0 and 0 otherwise (likewise p0 = 1
 * and k = n). Probabilities are evaluated in log space (Loader's saddle
 * point form) and tails summed outward from their largest term, so the
 * cost is O(log n + sqrt(n)) and n up to 10^7 and beyond is fine. The
 * result is clamped to [0, 1]; p-values below about 1e-308 come out 0. */
double stats_binomial_two_sided_p(long k, long n, double p0);

/* Holm's (1979) step-down adjustment of m p-values, as R's
 * p.adjust(method = "holm"): with p(1) <= ... <= p(m) the sorted values,
 *   adj(i) = min(1, max over j <= i of (m - j + 1) p(j)),
 * written to adjusted[] in the input order (adjusted[i] belongs to p[i]).
 * Rejecting every hypothesis with adjusted <= alpha controls the
 * family-wise error rate at alpha. Each p[i] in [0, 1]; m >= 0; adjusted
 * may be the same array as p. Returns 0, or -1 if memory for the sort could
 * not be had (adjusted is then unchanged). */
int stats_holm(const double *p, int m, double *adjusted);

enum stats_sprt_decision {
    STATS_SPRT_CONTINUE, /* neither bound crossed: play more games */
    STATS_SPRT_ACCEPT_H0, /* llr <= lower: seat 0's score is p0 */
    STATS_SPRT_ACCEPT_H1 /* llr >= upper: seat 0's score is p1 */
};

/* Wald's bounds for error rates alpha (accepting H1 when H0 holds) and beta
 * (accepting H0 when H1 holds): lower = log(beta / (1 - alpha)),
 * upper = log((1 - beta) / alpha). 0 < alpha, 0 < beta, alpha + beta < 1,
 * so lower < 0 < upper. */
void stats_sprt_bounds(double alpha, double beta, double *lower,
                       double *upper);

/* Wald's sequential probability ratio test on seat 0's score, H0: expected
 * score p0 against H1: expected score p1.
 *
 * Model: each game is a Bernoulli trial with success probability equal to
 * the expected score, and a draw is half a success and half a failure, so
 *   llr = (W + D/2) log(p1 / p0) + (L + D/2) log((1 - p1) / (1 - p0)).
 * This is the likelihood ratio of the binomial on the score; it is not a
 * trinomial model and ignores that draws lower the variance of a game's
 * score, which makes the test conservative (more games, error rates at or
 * below nominal) when draws are common. With D = 0 it is the exact SPRT.
 *
 * 0 < p0, p1 < 1, p0 != p1 (either order); counts >= 0; alpha and beta as
 * for stats_sprt_bounds. Writes the log-likelihood ratio to *llr (if not
 * NULL) and returns ACCEPT_H1 if llr >= upper, ACCEPT_H0 if llr <= lower,
 * CONTINUE otherwise. */
enum stats_sprt_decision stats_sprt(long wins, long draws, long losses,
                                    double p0, double p1, double alpha,
                                    double beta, double *llr);

enum stats_equivalence_verdict {
    STATS_EQUIV_UNDECIDED, /* the interval straddles a margin: more games */
    STATS_EQUIV_BALANCED, /* inside [0.5 - delta, 0.5 + delta] */
    STATS_EQUIV_UNBALANCED /* wholly outside that band */
};

/* "Is seat 0's score within 0.5 +/- delta?", by two one-sided tests (TOST)
 * at level alpha each, done with Wilson score tests: computes the
 * (1 - 2 alpha) two-sided Wilson interval [lo, hi] for successes / n (z =
 * stats_normal_quantile(1 - alpha)) and returns
 *   BALANCED   if 0.5 - delta <= lo and hi <= 0.5 + delta (both one-sided
 *              tests reject "beyond the margin": equivalence shown),
 *   UNBALANCED if hi < 0.5 - delta or lo > 0.5 + delta (the score is shown
 *              to lie beyond the margin, at one-sided level alpha),
 *   UNDECIDED  otherwise.
 * Since the Wilson interval is the inversion of the score test, lo >= c is
 * exactly the one-sided score test of "p <= c" rejecting at level alpha.
 * successes may be fractional (draws count 1/2); 0 <= successes <= n;
 * 0 < delta < 0.5; 0 < alpha < 0.5. Writes the interval to *lo and *hi if
 * they are not NULL. n = 0 gives [0, 1] and UNDECIDED. */
enum stats_equivalence_verdict stats_equivalence(double successes, double n,
                                                 double delta, double alpha,
                                                 double *lo, double *hi);

/* Newcombe's (1998, method 10) hybrid score interval for the difference
 * d = x1/n1 - x2/n2 of two independent proportions, from the Wilson
 * intervals [l1, u1] and [l2, u2] of each (stats_wilson, same z):
 *   lo = d - sqrt((p1 - l1)^2 + (u2 - p2)^2),
 *   hi = d + sqrt((u1 - p1)^2 + (p2 - l2)^2).
 * Successes may be fractional (draws count 1/2), as for stats_wilson;
 * 0 <= x1 <= n1, 0 <= x2 <= n2, z >= 0. Writes lo <= d <= hi, both in
 * [-1, 1]; if n1 or n2 is 0 the difference is unknown: [-1, 1]. */
void stats_newcombe_diff(double x1, double n1, double x2, double n2,
                         double z, double *lo, double *hi);

/* The two-sided p-value of the two-proportion z test of H0: the two
 * proportions are equal, with the pooled variance:
 *   z = (p1 - p2) / sqrt(pbar (1 - pbar) (1/n1 + 1/n2)),
 *   pbar = (x1 + x2) / (n1 + n2), p = 2 (1 - Phi(|z|)) = erfc(|z|/sqrt 2),
 * the score test, whose z^2 is Pearson's chi-square of the 2x2 table
 * without continuity correction (R's prop.test(correct = FALSE)).
 * Fractional successes as above. Returns 1 when n1 or n2 is 0 or when
 * pbar is 0 or 1 (both samples all failures or all successes). If z is
 * not NULL the statistic is written there (0 in those cases). */
double stats_two_proportion_p(double x1, double n1, double x2, double n2,
                              double *z);

/* The Cochran-Armitage test for a linear trend of a proportion across k
 * ordered groups with scores t[i] (the parameter's values): x[i]
 * successes of n[i] (fractional allowed), N = sum n, pbar = sum x / N,
 * tbar = sum n t / N,
 *   T = sum t[i] (x[i] - n[i] pbar),  S = sum n[i] (t[i] - tbar)^2,
 *   z = T / sqrt(pbar (1 - pbar) S),  p = erfc(|z| / sqrt 2),
 * the score test of slope 0 in a linear-probability model (the variance
 * without the N / (N - 1) factor: z^2 is R's prop.trend.test statistic).
 * T / S, the weighted least-squares slope of x[i]/n[i] on t[i] (the
 * change in the proportion per unit of the score), is written to *slope
 * and z to *z, when not NULL. k >= 1, n[i] >= 0, 0 <= x[i] <= n[i].
 * Returns 1 (slope and z 0) when S = 0 (fewer than two groups with games
 * at different scores) or pbar is 0 or 1. */
double stats_trend_p(const double *x, const double *n, const double *t,
                     int k, double *slope, double *z);

/* The arithmetic mean of x[0..n-1], summed exactly in 64 bits (n < 2^32)
 * and divided once; NAN if n = 0. */
double stats_mean_int(const int *x, size_t n);

/* The median of x[0..n-1]: the middle value, or the mean of the two middle
 * values when n is even; NAN if n = 0. x is not changed: its values are
 * copied into scratch (n ints, supplied by the caller), which is left
 * sorted ascending. scratch may be x itself, which then gets sorted. */
double stats_median_int(const int *x, size_t n, int *scratch);

#endif
