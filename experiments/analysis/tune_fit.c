/*
 * tune_fit.c -- the logistic regression behind `rulelab tune` (tune.h):
 * weights w that minimise the mean log-loss of the predicted reward
 * sigma(w . x / scale) against results y in {0, 1/2, 1}, plus an L2 pull
 * toward the hand-set weights, by Newton's method.
 *
 * Why these choices. The model is the evaluation's own: eval_score is the
 * dot product w . x (eval.h) and eval_win_probability its logistic, so a
 * fitted w drops straight into an agent spec. The scale is fixed, not
 * fitted: w and the scale enter only as w / scale, so fitting both leaves
 * one direction free; fixing it (at AB_VALUE_SCALE, 200, as ab and mcts
 * read scores) keeps the weights in the evaluation's "points". The penalty
 * (l2 / 2) sum_i (r_i (w_i - d_i))^2, with r_i the root mean square of
 * feature i over the data divided by the scale, measures each weight's
 * change by what it does to the logit of a typical position, so one l2
 * suits features in points and features that are 0 or 1 alike; it keeps
 * weights the data say little about near their hand-set values, and makes
 * the objective strictly convex. A feature that is 0 in every position
 * carries no information at all: its weight stays at the hand-set value.
 * Newton's method suits a dozen weights and tens of thousands of
 * positions: each step is one pass over the data and a 12x12 Cholesky
 * solve; a backtracking line search keeps every step a descent.
 */
#include "tune.h"

#include <math.h>
#include <string.h>

/* log(1 + e^z) without overflow. */
static double softplus(double z)
{
    return z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

/* The log-loss of predicting sigma(z) for result y: -(y log p + (1 - y)
 * log(1 - p)) = y softplus(-z) + (1 - y) softplus(z). */
static double loss_at(double z, double y)
{
    return y * softplus(-z) + (1 - y) * softplus(z);
}

double tune_log_loss(const double *x, const double *y, int n, int nf,
                     const double *w, double scale)
{
    if (n <= 0)
        return NAN;
    double sum = 0;
    for (int j = 0; j < n; j++) {
        double z = 0;
        for (int i = 0; i < nf; i++)
            z += w[i] * x[(size_t)j * nf + i];
        sum += loss_at(z / scale, y[j]);
    }
    return sum / n;
}

/* The objective: mean log-loss plus the penalty (r2[i] = r_i^2). */
static double objective(const double *x, const double *y, int n, int nf,
                        const double *w, const double *prior,
                        const double *r2, double l2, double scale)
{
    double pen = 0;
    for (int i = 0; i < nf; i++)
        pen += r2[i] * (w[i] - prior[i]) * (w[i] - prior[i]);
    return tune_log_loss(x, y, n, nf, w, scale) + 0.5 * l2 * pen;
}

/* Solves a x = b for the m x m symmetric positive definite a (row-major,
 * overwritten by its Cholesky factor), b overwritten by x. Returns 0, or
 * -1 when a is not positive definite, or so near singular that a pivot
 * keeps less than 1e-12 of its diagonal entry (rounding would decide the
 * step). */
static int cholesky_solve(double *a, double *b, int m)
{
    for (int i = 0; i < m; i++) {
        for (int k = 0; k <= i; k++) {
            double s = a[i * m + k], diagonal = s;
            for (int p = 0; p < k; p++)
                s -= a[i * m + p] * a[k * m + p];
            if (i == k) {
                if (!(s > 1e-12 * diagonal))
                    return -1;
                a[i * m + i] = sqrt(s);
            } else {
                a[i * m + k] = s / a[k * m + k];
            }
        }
    }
    for (int i = 0; i < m; i++) {
        double s = b[i];
        for (int p = 0; p < i; p++)
            s -= a[i * m + p] * b[p];
        b[i] = s / a[i * m + i];
    }
    for (int i = m - 1; i >= 0; i--) {
        double s = b[i];
        for (int p = i + 1; p < m; p++)
            s -= a[p * m + i] * b[p];
        b[i] = s / a[i * m + i];
    }
    return 0;
}

int tune_fit(const double *x, const double *y, int n, int nf,
             const double *prior, const struct tune_fit_options *o,
             struct tune_fit_result *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < nf; i++)
        out->w[i] = prior[i];
    if (n <= 0 || nf <= 0 || nf > EVAL_MAX_FEATURES || !(o->scale > 0)
        || !(o->l2 >= 0))
        return -1;
    const double s = o->scale;
    /* r_i^2 and the free features (those not 0 everywhere) */
    double r2[EVAL_MAX_FEATURES];
    int free_of[EVAL_MAX_FEATURES], m = 0;
    for (int i = 0; i < nf; i++) {
        double sq = 0;
        for (int j = 0; j < n; j++)
            sq += x[(size_t)j * nf + i] * x[(size_t)j * nf + i];
        r2[i] = sq / n / (s * s);
        out->fixed[i] = !(sq > 0);
        if (!out->fixed[i])
            free_of[m++] = i;
    }
    double *w = out->w;
    double value = objective(x, y, n, nf, w, prior, r2, o->l2, s);
    for (int it = 0; it < o->max_iterations && m > 0; it++) {
        /* gradient g and Hessian h over the free weights */
        double g[EVAL_MAX_FEATURES] = {0},
               h[EVAL_MAX_FEATURES * EVAL_MAX_FEATURES] = {0};
        for (int j = 0; j < n; j++) {
            const double *xj = x + (size_t)j * nf;
            double z = 0;
            for (int i = 0; i < nf; i++)
                z += w[i] * xj[i];
            double p = 1 / (1 + exp(-z / s)), d = (p - y[j]) / s,
                   c = p * (1 - p) / (s * s);
            for (int a = 0; a < m; a++) {
                double xa = xj[free_of[a]];
                g[a] += d * xa;
                for (int b = 0; b <= a; b++)
                    h[a * m + b] += c * xa * xj[free_of[b]];
            }
        }
        double step[EVAL_MAX_FEATURES];
        for (int a = 0; a < m; a++) {
            int i = free_of[a];
            g[a] = g[a] / n + o->l2 * r2[i] * (w[i] - prior[i]);
            for (int b = 0; b <= a; b++)
                h[a * m + b] /= n;
            h[a * m + a] += o->l2 * r2[i];
            for (int b = 0; b < a; b++)
                h[b * m + a] = h[a * m + b];
            step[a] = g[a];
        }
        double grad[EVAL_MAX_FEATURES];
        memcpy(grad, g, sizeof grad);
        if (cholesky_solve(h, step, m) != 0) {
            /* singular: features linearly dependent, l2 0 */
            for (int i = 0; i < nf; i++)
                out->w[i] = prior[i];
            return -1;
        }
        /* the Newton decrement: half of it estimates the gain left */
        double decrement = 0;
        for (int a = 0; a < m; a++)
            decrement += grad[a] * step[a];
        out->iterations = it + 1;
        if (decrement / 2 < o->tolerance) {
            out->converged = 1;
            break;
        }
        /* backtracking (Armijo) along -step */
        double t = 1, trial[EVAL_MAX_FEATURES], tv;
        for (;;) {
            memcpy(trial, w, sizeof trial);
            for (int a = 0; a < m; a++)
                trial[free_of[a]] -= t * step[a];
            tv = objective(x, y, n, nf, trial, prior, r2, o->l2, s);
            if (tv <= value - 0.25 * t * decrement || t < 1e-10)
                break;
            t /= 2;
        }
        if (!(tv <= value)) {
            out->converged = 1; /* no descent left at machine precision */
            break;
        }
        memcpy(w, trial, sizeof trial);
        value = tv;
    }
    if (m == 0)
        out->converged = 1;
    out->objective = value;
    return 0;
}
