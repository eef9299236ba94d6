"""rulelab_stats -- the report's statistics, for the notebooks.

The same definitions as `rulelab report` (experiments/analysis/stats.h, report.h):
  - seat-0 score = (seat-0 wins + draws / 2) / games, with a 95% Wilson
    interval (no continuity correction);
  - p = exact two-sided binomial test of "seat 0 wins half of the decisive
    games" (a sign test: draws say nothing about who is favoured), as R's
    binom.test defines it, Holm-corrected across the rows of one table;
  - "balanced within +/- delta": the (1 - 2 alpha) Wilson interval lies
    inside [0.5 - delta, 0.5 + delta] (two one-sided tests at level alpha);
    "unbalanced" when it lies wholly outside that band; else "undecided";
  - Wald's SPRT on the seat-0 score (sprt), as the runner stops cells: a
    cell a stop rule ended early has no valid fixed-sample interval or p
    (its number of games depended on its results), so rulelab_data gives
    it NaN there and this test's own decision instead;
  - variants compared: Newcombe's (1998, method 10) hybrid score interval
    for a difference of two proportions (newcombe_diff), the pooled
    two-proportion z test (two_proportion_p) and the Cochran-Armitage
    trend test on the parameter's values (trend_p), with the seat-0 score
    (draws as half a point) and the draw rate as proportions of games.

Pure Python (math and statistics only), so it needs nothing beyond the
interpreter; tests/test_notebooks.sh checks it against `rulelab report`.
"""
import math
import os
from statistics import NormalDist

__all__ = ["normal_quantile", "wilson", "binom_two_sided_p", "holm",
           "equivalence", "sprt_bounds", "sprt", "newcombe_diff",
           "two_proportion_p", "trend_p", "settings", "Z95"]

# binom.test's relative tolerance for "no more likely than the outcome seen".
_BINOM_REL_TOL = 1e-7


def normal_quantile(p):
    """The z with Phi(z) = p (0 < p < 1)."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return NormalDist().inv_cdf(p)


Z95 = normal_quantile(0.975)  # 1.959963984540054


def wilson(successes, n, z=Z95):
    """The Wilson score interval (lo, hi) for successes / n; successes may be
    fractional (draws count 1/2). n = 0 gives (0, 1)."""
    if n <= 0:
        return 0.0, 1.0
    x = float(successes)
    n = float(n)
    z2 = z * z
    centre = 2.0 * x + z2
    half = z * math.sqrt(max(z2 + 4.0 * x * (n - x) / n, 0.0))
    denom = 2.0 * (n + z2)
    hi = 1.0 if x >= n else (centre + half) / denom
    # The smaller root from the product of the roots (x^2 / n / (n + z^2)):
    # no cancellation for small counts, exactly 0 when x = 0.
    lo = 0.0 if x <= 0 else (x * x / n) / (n + z2) / ((centre + half) / denom)
    return max(0.0, min(lo, 1.0)), max(0.0, min(hi, 1.0))


def _log_pmf(i, n, p0):
    return (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
            + i * math.log(p0) + (n - i) * math.log1p(-p0))


def binom_two_sided_p(k, n, p0=0.5):
    """Exact two-sided binomial test of P(success) = p0 given k successes in
    n trials: the H0 probability of every outcome no more likely than k
    (relative tolerance 1e-7, as R's binom.test). n = 0 gives 1."""
    k, n = int(k), int(n)
    if n == 0:
        return 1.0
    if p0 <= 0.0:
        return 1.0 if k == 0 else 0.0
    if p0 >= 1.0:
        return 1.0 if k == n else 0.0
    if k == n * p0:
        return 1.0
    log_d = _log_pmf(k, n, p0) + math.log(1.0 + _BINOM_REL_TOL)
    logs = [_log_pmf(i, n, p0) for i in range(n + 1)]
    top = max(v for v in logs if v <= log_d)
    total = sum(math.exp(v - top) for v in logs if v <= log_d)
    return max(0.0, min(1.0, total * math.exp(top)))


def holm(pvalues):
    """Holm's step-down adjustment, as R's p.adjust(method = "holm"), in the
    input order."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, (m - rank) * pvalues[i])
        adjusted[i] = min(1.0, running)
    return adjusted


def equivalence(successes, n, delta=0.05, alpha=0.05):
    """("balanced" | "unbalanced" | "undecided", lo, hi): the (1 - 2 alpha)
    Wilson interval against the band [0.5 - delta, 0.5 + delta]."""
    lo, hi = wilson(successes, n, normal_quantile(1.0 - alpha))
    if n <= 0:
        return "undecided", lo, hi
    if 0.5 - delta <= lo and hi <= 0.5 + delta:
        return "balanced", lo, hi
    if hi < 0.5 - delta or lo > 0.5 + delta:
        return "unbalanced", lo, hi
    return "undecided", lo, hi


def sprt_bounds(alpha, beta):
    """Wald's bounds (lower, upper) = (log(beta / (1 - alpha)),
    log((1 - beta) / alpha))."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt(wins, draws, losses, p0, p1, alpha, beta):
    """Wald's SPRT on seat 0's score, H0: score p0 against H1: score p1, a
    draw half a success and half a failure (as experiments/analysis/stats.h):
    ("accept_h1" | "accept_h0" | "none", llr, lower, upper)."""
    llr = ((wins + draws / 2) * math.log(p1 / p0)
           + (losses + draws / 2) * math.log((1 - p1) / (1 - p0)))
    lower, upper = sprt_bounds(alpha, beta)
    decision = ("accept_h1" if llr >= upper else
                "accept_h0" if llr <= lower else "none")
    return decision, llr, lower, upper


def newcombe_diff(x1, n1, x2, n2, z=Z95):
    """Newcombe's hybrid score interval (lo, hi) for x1/n1 - x2/n2, from
    the two Wilson intervals (square and add); successes may be fractional.
    An empty sample gives (-1, 1)."""
    if n1 <= 0 or n2 <= 0:
        return -1.0, 1.0
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    lo = max(-1.0, min(d, d - math.hypot(p1 - l1, u2 - p2)))
    hi = min(1.0, max(d, d + math.hypot(u1 - p1, p2 - l2)))
    return lo, hi


def _two_sided_normal_p(z):
    return min(1.0, math.erfc(abs(z) / math.sqrt(2.0)))


def two_proportion_p(x1, n1, x2, n2):
    """The two-sided p of the pooled two-proportion z test of x1/n1 =
    x2/n2 (Pearson's chi-square without correction); 1 when a sample is
    empty or the pooled proportion is 0 or 1."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pbar = (x1 + x2) / (n1 + n2)
    var = pbar * (1.0 - pbar) * (1.0 / n1 + 1.0 / n2)
    if not var > 0:
        return 1.0
    return _two_sided_normal_p((x1 / n1 - x2 / n2) / math.sqrt(var))


def trend_p(x, n, t):
    """(p, slope): the Cochran-Armitage test of a linear trend of x[i]/n[i]
    in the scores t[i] (two-sided, without the N/(N-1) factor), and the
    weighted least-squares slope per unit of t. (1, 0) when there is no
    spread in t or no variance in the pooled proportion."""
    total = float(sum(n))
    if total <= 0:
        return 1.0, 0.0
    pbar = sum(x) / total
    tbar = sum(ni * ti for ni, ti in zip(n, t)) / total
    T = sum((ti - tbar) * (xi - ni * pbar) for xi, ni, ti in zip(x, n, t))
    S = sum(ni * (ti - tbar) ** 2 for ni, ti in zip(n, t))
    var = pbar * (1.0 - pbar) * S
    if not S > 0 or not var > 0:
        return 1.0, 0.0
    return _two_sided_normal_p(T / math.sqrt(var)), T / S


def settings():
    """(delta, alpha) from RULELAB_DELTA and RULELAB_ALPHA (defaults 0.05)."""
    delta = float(os.environ.get("RULELAB_DELTA", "0.05"))
    alpha = float(os.environ.get("RULELAB_ALPHA", "0.05"))
    if not 0 < delta < 0.5:
        raise ValueError(f"RULELAB_DELTA must be in (0, 0.5), got {delta}")
    if not 0 < alpha < 0.5:
        raise ValueError(f"RULELAB_ALPHA must be in (0, 0.5), got {alpha}")
    return delta, alpha


# ---- ratings and the skill trace (experiments/analysis/ratings.h, report_skill.c) ----

K_ELO = math.log(10.0) / 400.0
_COEF = ((1.0, 0.0, 1.0, 0.0), (0.5, 0.5, 0.5, 1.0), (0.0, 1.0, 0.0, 0.0))


def _solve(a, b):
    """x with a x = b (a symmetric positive definite, lists); None if a is
    singular (Gaussian elimination with partial pivoting)."""
    m = len(b)
    a = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(m):
        p = max(range(c, m), key=lambda r: abs(a[r][c]))
        if abs(a[p][c]) < 1e-300:
            return None
        a[c], a[p] = a[p], a[c]
        for r in range(m):
            if r != c:
                f = a[r][c] / a[c][c]
                if f:
                    for k in range(c, m + 1):
                        a[r][k] -= f * a[c][k]
    return [a[i][m] / a[i][i] for i in range(m)]


def ratings_fit(rows, n_agents, anchor, anchor_elo=0.0):
    """Davidson's Bradley-Terry model with draws and a first-move term, by
    maximum likelihood, as `rulelab ratings` fits it (experiments/analysis/ratings.h):
    rows are (a0, a1, seat-0 wins, draws, seat-1 wins) with agent indices.
    Returns a dict: status ("ok", "no_games", "infinite",
    "not_converged"), rated (list of bools), elo and se (lists, NaN where
    not rated or not ok), cov (the covariance in Elo^2, a dict of (i, j)).
    Written from the model's formulas (Newton's method with step halving
    on the log-likelihood, the information from its Hessian), not from the
    C code's structure; tests/test_notebooks.sh checks it against the
    report's JSON."""
    parent = list(range(n_agents))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i
    for a0, a1, w, d, l in rows:
        if a0 != a1 and w + d + l > 0:
            parent[root(a0)] = root(a1)
    rated = [root(i) == root(anchor) for i in range(n_agents)]
    nan = float("nan")
    out = dict(status="ok", rated=rated, elo=[nan] * n_agents,
               se=[nan] * n_agents, cov={})
    used = [r for r in rows if r[0] == r[1] or (rated[r[0]] and rated[r[1]])]
    w0 = sum(r[2] for r in used)
    dr = sum(r[3] for r in used)
    w1 = sum(r[4] for r in used)
    if w0 + dr + w1 == 0:
        out["status"] = "no_games"
        return out
    if w0 + w1 == 0 or w0 == 0 or w1 == 0:
        out["status"] = "infinite"
        return out
    # strongly connected by "won or drew against" within the rated group
    ids = [i for i in range(n_agents) if rated[i]]
    reach = {(i, j): i == j for i in ids for j in ids}
    for a0, a1, w, d, l in used:
        if a0 != a1:
            if w + d > 0:
                reach[(a0, a1)] = True
            if l + d > 0:
                reach[(a1, a0)] = True
    for k in ids:
        for i in ids:
            if reach[(i, k)]:
                for j in ids:
                    if reach[(k, j)]:
                        reach[(i, j)] = True
    if not all(reach[(i, j)] for i in ids for j in ids):
        out["status"] = "infinite"
        return out
    param = {}
    for i in ids:
        if i != anchor:
            param[i] = len(param)
    adv = len(param)
    draw = adv + 1 if dr > 0 else None
    m = adv + 1 + (1 if dr > 0 else 0)

    def evaluate(x, want_derivatives):
        ll = 0.0
        g = [0.0] * m
        info = [[0.0] * m for _ in range(m)]
        for a0, a1, w, d, l in used:
            index = (param.get(a0), param.get(a1), adv, draw)
            value = [x[s] if s is not None else 0.0 for s in index]
            y = (w, d, l)
            n = w + d + l
            eta = [sum(c * v for c, v in zip(_COEF[o], value)) for o in range(3)]
            allowed = [True, draw is not None, True]
            top = max(e for e, ok in zip(eta, allowed) if ok)
            prob = [math.exp(e - top) if ok else 0.0 for e, ok in zip(eta, allowed)]
            total = sum(prob)
            lse = top + math.log(total)
            prob = [p / total for p in prob]
            for o in range(3):
                if y[o] > 0:
                    ll += y[o] * (eta[o] - lse)
            if not want_derivatives:
                continue
            mean = [sum(prob[o] * _COEF[o][s] for o in range(3)) for s in range(4)]
            for s in range(4):
                if index[s] is None:
                    continue
                g[index[s]] += sum(y[o] * _COEF[o][s] for o in range(3)) - n * mean[s]
                for t in range(4):
                    if index[t] is None:
                        continue
                    info[index[s]][index[t]] += n * sum(
                        prob[o] * (_COEF[o][s] - mean[s]) * (_COEF[o][t] - mean[t])
                        for o in range(3))
        return ll, g, info

    x = [0.0] * m
    if draw is not None:
        x[draw] = math.log(dr / math.sqrt(w0 * w1))
    ll, g, info = evaluate(x, True)
    converged = False
    for _ in range(200):
        step = _solve(info, g)
        if step is None:
            out["status"] = "not_converged"
            return out
        t = 1.0
        for _ in range(60):
            trial = [a + t * b for a, b in zip(x, step)]
            nxt = evaluate(trial, False)[0]
            if nxt >= ll - 1e-12 * (1 + abs(ll)):
                break
            t /= 2
        size = max(abs(t * s) for s in step)
        if not nxt >= ll - 1e-12 * (1 + abs(ll)):
            if size < 1e-9:
                converged = True
                break
            out["status"] = "not_converged"
            return out
        x = trial
        ll, g, info = evaluate(x, True)
        if any(abs(v) > 60 for v in x):
            out["status"] = "not_converged"  # runs away: no finite maximum
            return out
        if size < 1e-10:
            converged = True
            break
    if not converged:
        out["status"] = "not_converged"
        return out
    cov = []
    for k in range(m):
        e = [0.0] * m
        e[k] = 1.0
        cov.append(_solve(info, e))
    for i in ids:
        a = param.get(i)
        out["elo"][i] = anchor_elo + (x[a] / K_ELO if a is not None else 0.0)
        for j in ids:
            b = param.get(j)
            out["cov"][(i, j)] = (cov[a][b] / K_ELO ** 2
                                  if a is not None and b is not None else 0.0)
        out["se"][i] = math.sqrt(out["cov"][(i, i)])
    return out


def ratings_los(fit, i, j):
    """P(agent i is stronger than agent j) under the fit's normal
    approximation (Phi(d / se(d)))."""
    d = fit["elo"][i] - fit["elo"][j]
    var = fit["cov"][(i, i)] + fit["cov"][(j, j)] - 2 * fit["cov"][(i, j)]
    if not var > 0:
        return 1.0 if d > 0 else 0.0 if d < 0 else 0.5
    return 0.5 * math.erfc(-d / math.sqrt(2 * var))


def difference_verdict(lo, hi, p, delta=0.05, alpha=0.05):
    """The skill trace's words for a difference d with (1 - 2 alpha)
    interval (lo, hi) and two-sided p of d = 0: "converged" when the
    interval lies inside [-delta, delta] (TOST), else "still moving" when
    p < alpha, else "not enough games"."""
    if -delta <= lo and hi <= delta:
        return "converged"
    if p < alpha:
        return "still moving"
    return "not enough games"


def skill_test(x1, n1, x2, n2, delta=0.05, alpha=0.05):
    """The skill trace's verdict on two rungs (x seat-0 points of n games,
    top then second), as experiments/analysis/report_skill.c: ("converged" | "still
    moving" | "not enough games", d, tost_lo, tost_hi, p). converged: the
    (1 - 2 alpha) Newcombe interval of d = x1/n1 - x2/n2 lies inside
    [-delta, delta] (TOST); still moving: the pooled two-proportion z test
    rejects d = 0 at alpha; else not enough games."""
    lo, hi = newcombe_diff(x1, n1, x2, n2, normal_quantile(1.0 - alpha))
    p = two_proportion_p(x1, n1, x2, n2)
    d = x1 / n1 - x2 / n2 if n1 > 0 and n2 > 0 else 0.0
    if not (n1 > 0 and n2 > 0):
        verdict = "not enough games"
    else:
        verdict = difference_verdict(lo, hi, p, delta, alpha)
    return verdict, d, lo, hi, p
