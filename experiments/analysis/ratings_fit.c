/*
 * ratings_fit.c -- the maximum-likelihood fit behind `rulelab ratings`
 * (the model, the interval method and when there is no estimate:
 * ratings.h): Newton's method on the concave log-likelihood in natural
 * units (k r, k adv, ln nu), the anchor's rating fixed at 0 (every
 * probability depends on rating differences only; anchor_elo is added at
 * the end), with step halving so each step raises the likelihood. The
 * cases where the maximum is at infinity are found before fitting from the
 * counts (who won or drew against whom, which seat ever won), so a fit
 * that does run has a finite maximum; a parameter that still runs away or
 * a step that cannot raise the likelihood is reported, never printed as a
 * rating. Pure computation on a table of counts: ratings.c reads them from
 * the store and prints the results.
 */
#include "ratings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Elo points to natural units: exp(K r) is a rating's Bradley-Terry
 * strength, 10^(r / 400). */
#define K_ELO (2.302585092994045684 / 400.0)
#define Z95 1.959963984540054
/* |k r| beyond this (about 10,400 Elo) is taken as running to infinity */
#define RUNAWAY 60.0
#define MAX_NEWTON 200

/* ratings.h */
void *ratings_calloc(size_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

/* ---- the fit -------------------------------------------------------- */

static int find_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* The three outcomes of a game (seat-0 win, draw, seat-1 win) as linear
 * predictors over (r0, r1, adv, ln nu): coefficient[outcome][term]. */
static const double coefficient[3][4] = {
    {1, 0, 1, 0}, {0.5, 0.5, 0.5, 1}, {0, 1, 0, 0}};

struct problem {
    const struct ratings_count *rows;
    int n_rows, m; /* parameters: ratings, adv, ln nu (if draws) */
    const int *param; /* agent -> parameter index, -1 for none */
    int adv, draw; /* parameter indices; draw -1 without draws */
    const char *use; /* row i enters the fit */
};

/* The log-likelihood at x; with g and info not NULL also its gradient and
 * minus its Hessian (the information, m x m). */
static double evaluate(const struct problem *p, const double *x, double *g,
                       double *info)
{
    int m = p->m;
    if (g) {
        memset(g, 0, sizeof *g * (size_t)m);
        memset(info, 0, sizeof *info * (size_t)m * (size_t)m);
    }
    double ll = 0;
    for (int i = 0; i < p->n_rows; i++) {
        if (!p->use[i])
            continue;
        const struct ratings_count *r = &p->rows[i];
        int index[4] = {p->param[r->a0], p->param[r->a1], p->adv, p->draw};
        double value[4];
        for (int s = 0; s < 4; s++)
            value[s] = index[s] >= 0 ? x[index[s]] : 0;
        double y[3] = {(double)r->wins0, (double)r->draws, (double)r->wins1};
        double n = y[0] + y[1] + y[2], eta[3], top = -INFINITY;
        int outcomes = p->draw >= 0 ? 3 : 2; /* no draws: nu = 0 */
        for (int o = 0; o < 3; o++) {
            eta[o] = 0;
            for (int s = 0; s < 4; s++)
                eta[o] += coefficient[o][s] * value[s];
            if ((o != 1 || outcomes == 3) && eta[o] > top)
                top = eta[o];
        }
        double prob[3], sum = 0;
        for (int o = 0; o < 3; o++) {
            prob[o] = o == 1 && outcomes == 2 ? 0 : exp(eta[o] - top);
            sum += prob[o];
        }
        double lse = top + log(sum);
        for (int o = 0; o < 3; o++) {
            prob[o] /= sum;
            if (y[o] > 0)
                ll += y[o] * (eta[o] - lse);
        }
        if (!g)
            continue;
        double mean[4];
        for (int s = 0; s < 4; s++) {
            mean[s] = 0;
            for (int o = 0; o < 3; o++)
                mean[s] += prob[o] * coefficient[o][s];
        }
        for (int s = 0; s < 4; s++) {
            if (index[s] < 0)
                continue;
            for (int o = 0; o < 3; o++)
                g[index[s]] += y[o] * coefficient[o][s];
            g[index[s]] -= n * mean[s];
            for (int t = 0; t < 4; t++) {
                if (index[t] < 0)
                    continue;
                double c = 0;
                for (int o = 0; o < 3; o++)
                    c += prob[o] * (coefficient[o][s] - mean[s])
                         * (coefficient[o][t] - mean[t]);
                info[index[s] * m + index[t]] += n * c;
            }
        }
    }
    return ll;
}

/* Cholesky factor of the m x m positive definite a, in place (lower
 * triangle). Returns 0, or -1 if a is not positive definite. */
static int cholesky(double *a, int m)
{
    for (int j = 0; j < m; j++) {
        double d = a[j * m + j];
        for (int k = 0; k < j; k++)
            d -= a[j * m + k] * a[j * m + k];
        if (!(d > 1e-300))
            return -1;
        d = sqrt(d);
        a[j * m + j] = d;
        for (int i = j + 1; i < m; i++) {
            double v = a[i * m + j];
            for (int k = 0; k < j; k++)
                v -= a[i * m + k] * a[j * m + k];
            a[i * m + j] = v / d;
        }
    }
    return 0;
}

/* Solves L L^T x = b in place (b becomes x). */
static void cholesky_solve(const double *l, int m, double *b)
{
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < i; k++)
            b[i] -= l[i * m + k] * b[k];
        b[i] /= l[i * m + i];
    }
    for (int i = m - 1; i >= 0; i--) {
        for (int k = i + 1; k < m; k++)
            b[i] -= l[k * m + i] * b[k];
        b[i] /= l[i * m + i];
    }
}

static const char *agent_name(const char *const *names, int i, char *buf,
                              size_t n)
{
    if (names)
        return names[i];
    snprintf(buf, n, "agent %d", i);
    return buf;
}

/* Whether the agents in the anchor's group are strongly connected by "won
 * or drew a game against": if not, a group that no outside agent ever won
 * or drew against (it won every game against the rest) has ratings
 * running to +infinity, and one that never won or drew against an outsider
 * to -infinity. Writes such a message and returns 1; 0 if connected. */
static int unbounded_groups(const struct ratings_count *rows, int n_rows,
                            int n, const int *in, const char *const *names,
                            char *msg, size_t msgsz)
{
    char *reach = ratings_calloc((size_t)n * (size_t)n, 1);
    int *group = ratings_calloc((size_t)n, sizeof *group);
    if (!reach || !group) {
        free(reach);
        free(group);
        return -1;
    }
    for (int i = 0; i < n_rows; i++) {
        const struct ratings_count *r = &rows[i];
        if (r->a0 == r->a1 || !in[r->a0] || !in[r->a1])
            continue;
        if (r->wins0 + r->draws > 0)
            reach[r->a0 * n + r->a1] = 1;
        if (r->wins1 + r->draws > 0)
            reach[r->a1 * n + r->a0] = 1;
    }
    for (int i = 0; i < n; i++)
        reach[i * n + i] = 1;
    for (int k = 0; k < n; k++) /* Warshall: the transitive closure */
        for (int i = 0; i < n; i++)
            if (reach[i * n + k])
                for (int j = 0; j < n; j++)
                    reach[i * n + j] |= reach[k * n + j];
    /* group[i]: the lowest agent mutually reachable with i */
    int groups = 0, first = -1;
    for (int i = 0; i < n; i++) {
        if (!in[i])
            continue;
        group[i] = i;
        for (int j = 0; j < i; j++)
            if (in[j] && reach[i * n + j] && reach[j * n + i]) {
                group[i] = group[j];
                break;
            }
        groups += group[i] == i;
        if (first < 0)
            first = i;
    }
    if (groups <= 1) {
        free(reach);
        free(group);
        return 0;
    }
    size_t len = (size_t)snprintf(msg, msgsz, "no finite ratings:");
    int said = 0;
    for (int pass = 0; pass < 2; pass++) /* +infinite groups, then - */
        for (int g = 0; g < n; g++) {
            int size = 0;
            for (int i = 0; i < n; i++)
                size += in[i] && group[i] == g;
            if (!in[g] || group[g] != g)
                continue;
            int reached_from_outside = 0, reaches_outside = 0;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    if (in[i] && in[j] && group[i] != g && group[j] == g
                        && reach[i * n + j])
                        reached_from_outside = 1;
                    else if (in[i] && in[j] && group[i] == g && group[j] != g
                             && reach[i * n + j])
                        reaches_outside = 1;
            if (pass == 0 ? reached_from_outside : reaches_outside)
                continue;
            for (int i = 0, k = 0; i < n && len < msgsz; i++) {
                if (!in[i] || group[i] != g)
                    continue;
                char buf[32];
                len += (size_t)snprintf(msg + len, msgsz - len, "%s%s",
                                        k++ ? ", " : said++ ? "; " : " ",
                                        agent_name(names, i, buf, sizeof buf));
            }
            if (len < msgsz)
                len += (size_t)snprintf(
                    msg + len, msgsz - len, " %s every game against %s "
                    "(rating%s %sinfinite)", pass == 0 ? "won" : "lost",
                    size == 1 ? "the others" : "the agents not named here",
                    size == 1 ? "" : "s", pass == 0 ? "+" : "-");
        }
    free(reach);
    free(group);
    return 1;
}

/* Says the information matrix is singular in fit->message; returns 0. */
static int singular(struct ratings_fit *fit)
{
    snprintf(fit->message, sizeof fit->message, "the information matrix is "
             "singular: the ratings are not identified");
    return 0;
}

/* Newton's method with step halving from x (p->m parameters) to the
 * maximum of the log-likelihood; work holds 3 m + m^2 doubles. On return
 * with 1, x is the maximum and info (the last m^2 of work) holds the
 * Cholesky factor of the information there; with 0, fit->message says
 * why there is none. fit->iterations counts the steps. */
static int maximise(const struct problem *p, double *x, double *work,
                    struct ratings_fit *fit)
{
    size_t mm = (size_t)p->m;
    double *g = work, *step = work + mm, *trial = work + 2 * mm,
           *info = work + 3 * mm;
    double ll = evaluate(p, x, g, info);
    int converged = 0;
    for (fit->iterations = 0; fit->iterations < MAX_NEWTON && !converged;
         fit->iterations++) {
        if (cholesky(info, p->m) != 0)
            return singular(fit);
        memcpy(step, g, sizeof *step * mm);
        cholesky_solve(info, p->m, step);
        double t = 1, next = -INFINITY, size = 0;
        for (int halvings = 0; halvings < 60; halvings++, t /= 2) {
            for (int k = 0; k < p->m; k++)
                trial[k] = x[k] + t * step[k];
            next = evaluate(p, trial, NULL, NULL);
            if (next >= ll - 1e-12 * (1 + fabs(ll)))
                break;
        }
        for (int k = 0; k < p->m; k++)
            size = fmax(size, fabs(t * step[k]));
        if (!(next >= ll - 1e-12 * (1 + fabs(ll)))) {
            if (size < 1e-9) { /* at the maximum to rounding */
                evaluate(p, x, g, info); /* info held its factor */
                return cholesky(info, p->m) == 0 ? 1 : singular(fit);
            }
            snprintf(fit->message, sizeof fit->message, "no step raises the "
                     "likelihood (Newton's method stalled)");
            return 0;
        }
        memcpy(x, trial, sizeof *x * mm);
        ll = evaluate(p, x, g, info);
        for (int k = 0; k < p->m; k++)
            if (fabs(x[k]) > RUNAWAY) {
                snprintf(fit->message, sizeof fit->message, "an estimate "
                         "grows without bound (no finite maximum)");
                return 0;
            }
        converged = size < 1e-10;
    }
    if (!converged) {
        snprintf(fit->message, sizeof fit->message, "no convergence in %d "
                 "Newton steps", MAX_NEWTON);
        return 0;
    }
    return cholesky(info, p->m) == 0 ? 1 : singular(fit);
}

/* Fills fit's ratings, standard errors, covariance, first-move term and
 * draw parameter from the maximum x and the Cholesky factor of the
 * information there (info), relative to the anchor at anchor_elo.
 * Returns 0, or -1 when memory is short. */
static int fill_estimates(const struct problem *p, const double *x,
                          const double *info, int n_agents, double anchor_elo,
                          struct ratings_fit *fit)
{
    size_t mm = (size_t)p->m;
    double *covx = ratings_calloc(mm * mm, sizeof *covx);
    double *col = ratings_calloc(mm, sizeof *col);
    if (!covx || !col) {
        free(covx);
        free(col);
        return -1;
    }
    /* the covariance: column k of the inverse information */
    for (int k = 0; k < p->m; k++) {
        memset(col, 0, sizeof *col * mm);
        col[k] = 1;
        cholesky_solve(info, p->m, col);
        for (int j = 0; j < p->m; j++)
            covx[j * p->m + k] = col[j];
    }
    for (int i = 0; i < n_agents; i++) {
        if (!fit->rated[i])
            continue;
        int a = p->param[i];
        fit->elo[i] = anchor_elo + (a >= 0 ? x[a] / K_ELO : 0);
        for (int j = 0; j < n_agents; j++)
            if (fit->rated[j] && a >= 0 && p->param[j] >= 0)
                fit->cov[i * n_agents + j] =
                    covx[a * p->m + p->param[j]] / (K_ELO * K_ELO);
        fit->se[i] = sqrt(fit->cov[i * n_agents + i]);
    }
    fit->adv = x[p->adv] / K_ELO;
    fit->adv_se = sqrt(covx[p->adv * p->m + p->adv]) / K_ELO;
    if (p->draw >= 0) {
        double se = sqrt(covx[p->draw * p->m + p->draw]);
        fit->nu = exp(x[p->draw]);
        fit->nu_lo = exp(x[p->draw] - Z95 * se);
        fit->nu_hi = exp(x[p->draw] + Z95 * se);
    } else {
        fit->nu = fit->nu_lo = fit->nu_hi = 0;
    }
    free(covx);
    free(col);
    return 0;
}

/* Sets fit->status and fit->message where the counts already show there
 * is no finite estimate (no games, every game drawn, a seat that never
 * won, a group that won or lost every game against the rest). Returns 1
 * when there is none, 0 to go on, -1 when memory is short. */
static int no_finite_estimate(const struct ratings_count *rows, int n_rows,
                              int n_agents, long wins0, long wins1,
                              const char *const *names,
                              struct ratings_fit *fit)
{
    if (fit->games == 0) {
        fit->status = RATINGS_NO_GAMES;
        snprintf(fit->message, sizeof fit->message, "no games");
        return 1;
    }
    fit->status = RATINGS_INFINITE;
    if (wins0 + wins1 == 0) {
        snprintf(fit->message, sizeof fit->message, "every game was drawn: "
                 "the ratings and the first-move term are not defined");
        return 1;
    }
    if (wins0 == 0 || wins1 == 0) {
        snprintf(fit->message, sizeof fit->message, "seat %d won no game: the"
                 " first-move term is %sinfinite", wins0 ? 1 : 0,
                 wins0 ? "+" : "-");
        return 1;
    }
    return unbounded_groups(rows, n_rows, n_agents, fit->rated, names,
                            fit->message, sizeof fit->message);
}

int ratings_fit(const struct ratings_count *rows, int n_rows, int n_agents,
                int anchor, double anchor_elo, const char *const *names,
                struct ratings_fit *fit, char *err, size_t errsz)
{
    memset(fit, 0, sizeof *fit);
    size_t n = (size_t)n_agents;
    fit->n_agents = n_agents;
    fit->rated = ratings_calloc(n, sizeof *fit->rated);
    fit->elo = ratings_calloc(n, sizeof *fit->elo);
    fit->se = ratings_calloc(n, sizeof *fit->se);
    fit->cov = ratings_calloc(n * n, sizeof *fit->cov);
    int *parent = ratings_calloc(n, sizeof *parent);
    int *param = ratings_calloc(n, sizeof *param);
    char *use = ratings_calloc((size_t)n_rows, 1);
    double *x = NULL, *work = NULL;
    int m = 0, rc = -1;
    if (!fit->rated || !fit->elo || !fit->se || !fit->cov || !parent || !param
        || !use)
        goto done;
    for (int i = 0; i < n_agents; i++) {
        parent[i] = i;
        fit->elo[i] = fit->se[i] = NAN;
    }
    fit->adv = fit->adv_se = fit->nu = fit->nu_lo = fit->nu_hi = NAN;
    /* rated: the agents joined to the anchor by games between agents */
    for (int i = 0; i < n_rows; i++)
        if (rows[i].a0 != rows[i].a1
            && rows[i].wins0 + rows[i].draws + rows[i].wins1 > 0)
            parent[find_root(parent, rows[i].a0)] = find_root(parent, rows[i].a1);
    long wins0 = 0, draws = 0, wins1 = 0;
    for (int i = 0; i < n_agents; i++) {
        fit->rated[i] = find_root(parent, i) == find_root(parent, anchor);
        param[i] = fit->rated[i] && i != anchor ? m++ : -1;
    }
    for (int i = 0; i < n_rows; i++) {
        const struct ratings_count *r = &rows[i];
        use[i] = r->a0 == r->a1 || (fit->rated[r->a0] && fit->rated[r->a1]);
        if (!use[i])
            continue;
        wins0 += r->wins0;
        draws += r->draws;
        wins1 += r->wins1;
    }
    fit->games = wins0 + draws + wins1;
    fit->has_draws = draws > 0;
    struct problem p = {rows, n_rows, 0, param, m, draws > 0 ? m + 1 : -1, use};
    p.m = m + 1 + (draws > 0);
    int none = no_finite_estimate(rows, n_rows, n_agents, wins0, wins1,
                                  names, fit);
    rc = none < 0 ? -1 : 0;
    if (none)
        goto done;
    size_t mm = (size_t)p.m;
    x = ratings_calloc(mm, sizeof *x);
    work = ratings_calloc(3 * mm + mm * mm, sizeof *work);
    if (!x || !work) {
        rc = -1;
        goto done;
    }
    if (p.draw >= 0) /* nu's estimate between equal agents */
        x[p.draw] = log((double)draws / sqrt((double)wins0 * (double)wins1));
    fit->status = RATINGS_NOT_CONVERGED;
    if (maximise(&p, x, work, fit) != 1)
        goto done;
    if (fill_estimates(&p, x, work + 3 * mm, n_agents, anchor_elo, fit)) {
        rc = -1;
        goto done;
    }
    fit->status = RATINGS_OK;
    fit->message[0] = '\0';
done:
    free(parent);
    free(param);
    free(use);
    free(x);
    free(work);
    if (rc != 0) {
        ratings_fit_free(fit);
        snprintf(err, errsz, "out of memory");
    }
    return rc;
}

void ratings_fit_free(struct ratings_fit *fit)
{
    free(fit->rated);
    free(fit->elo);
    free(fit->se);
    free(fit->cov);
    fit->rated = NULL;
    fit->elo = fit->se = fit->cov = NULL;
}

double ratings_los(const struct ratings_fit *fit, int i, int j)
{
    int n = fit->n_agents;
    double d = fit->elo[i] - fit->elo[j];
    double var = fit->cov[i * n + i] + fit->cov[j * n + j]
                 - 2 * fit->cov[i * n + j];
    if (!(var > 0))
        return d > 0 ? 1 : d < 0 ? 0 : 0.5;
    return 0.5 * erfc(-d / sqrt(2 * var));
}
