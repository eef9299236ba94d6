/*
 * report_skill.c -- the skill trace (`rulelab report --skill-trace`): does
 * a variant's first-mover balance still move when the players get
 * stronger?
 *
 * Rungs. For each variant, each agent spec that played itself (a cell
 * with the same spec in both seats; every such cell of the variant
 * pooled, or of the sweep reported on) is a strength rung. Its numbers
 * are those of the report (report.h): the seat-0 score = (seat-0 wins +
 * draws/2) / games and the draw rate = draws (by the rules and by the
 * cap) / games, each with its 95% Wilson interval (stats_wilson, draws
 * counted as half a point in the score); a rung with a cell that a stop
 * rule ended early keeps its shares and loses its intervals, as cells do.
 * Next to them is the rung's rating from the variant's ratings fit
 * (ratings_build, default anchor: ratings.h), which uses every game of
 * the variant, cross-play included -- self-play alone says nothing about
 * strength -- with its 95% interval (+/- 1.96 standard errors).
 *
 * The verdict, per variant, from two rungs of one agent family (the
 * agent kind: the spec's name, "mcts" or "ab"): of the families with two
 * rated rungs or more, the one whose best rung has the highest rating,
 * and in it the two highest-rated rungs, "top" and "second". With x1
 * seat-0 points in n1 games of top and x2 in n2 of second,
 * d = x1/n1 - x2/n2, and
 *   converged        when TOST shows |d| < delta at level alpha: each of
 *                    the two one-sided tests, of d <= -delta and of
 *                    d >= delta, rejects at alpha; done as Newcombe's
 *                    hybrid score interval for d (stats_newcombe_diff)
 *                    at z = Phi^-1(1 - alpha), the (1 - 2 alpha) two-sided
 *                    interval, lying inside [-delta, delta] -- the same
 *                    inversion as the report's one-proportion equivalence
 *                    (stats_equivalence), with Wilson's score variance
 *                    p (1 - p) / n at each bound;
 *   still moving     otherwise, when the two-sided two-proportion z test
 *                    of d = 0 rejects at alpha (p < alpha), with the
 *                    pooled variance pbar (1 - pbar) (1/n1 + 1/n2)
 *                    (stats_two_proportion_p: Pearson's chi-square
 *                    without correction);
 *   not enough games otherwise, and when there is no such pair (no two
 *                    rated rungs of one family, no ratings, or a rung
 *                    stopped early, which has no fixed-sample test).
 * Both are normal approximations that treat a game's score as a
 * Bernoulli trial (a draw half a success), as the report's intervals do:
 * with draws the binomial variance p (1 - p) is an upper bound on a
 * game's score variance (p (1 - p) - draws/4), so both tests are
 * conservative: they need more games to say "converged" or "still
 * moving", never fewer. Converged is checked first: a difference that is
 * shown to be smaller than delta is converged even if it is shown to be
 * non-zero (with many games both can hold), since delta is the change
 * that matters. delta and alpha are --delta and --alpha (default 0.05
 * each), the notebooks' RULELAB_DELTA and RULELAB_ALPHA.
 *
 * Printed as two sections (the rungs, then the verdicts) in the table,
 * CSV and Markdown formats, and as the JSON member "skill_trace".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "report_internal.h"
#include "stats.h"

#define Z95 1.959963984540054

enum skill_verdict report_skill_test(double x1, double n1, double x2,
                                     double n2, double delta, double alpha,
                                     struct skill_test *t)
{
    memset(t, 0, sizeof *t);
    t->diff = n1 > 0 && n2 > 0 ? x1 / n1 - x2 / n2 : 0;
    stats_newcombe_diff(x1, n1, x2, n2, stats_normal_quantile(1 - alpha),
                        &t->tost_lo, &t->tost_hi);
    t->p = stats_two_proportion_p(x1, n1, x2, n2, &t->z);
    if (!(n1 > 0 && n2 > 0))
        t->verdict = SKILL_NOT_ENOUGH;
    else if (-delta <= t->tost_lo && t->tost_hi <= delta)
        t->verdict = SKILL_CONVERGED;
    else if (t->p < alpha)
        t->verdict = SKILL_MOVING;
    else
        t->verdict = SKILL_NOT_ENOUGH;
    return t->verdict;
}

const char *report_skill_verdict_name(enum skill_verdict v)
{
    return v == SKILL_CONVERGED ? "converged"
           : v == SKILL_MOVING  ? "still moving"
                                : "not enough games";
}

/* ---- building ----------------------------------------------------------- */

/* The agent kind of a canonical spec: its text up to '('. */
static void spec_family(const char *spec, char *out, size_t n)
{
    size_t len = strcspn(spec, "(");
    if (len >= n)
        len = n - 1;
    memcpy(out, spec, len);
    out[len] = '\0';
}

static const struct ratings_variant *find_rated(const struct ratings *rt,
                                                const char *variant)
{
    for (int i = 0; i < rt->n_variants; i++)
        if (strcmp(rt->variants[i].variant, variant) == 0)
            return &rt->variants[i];
    return NULL;
}

/* The rungs of variant sv from r's self-play cells; *index[k] is rung k's
 * agent in rv (-1 if none). Returns 0 or -1 (memory). */
static int collect_rungs(const struct report *r, struct skill_variant *sv,
                         const struct ratings_variant *rv, int **index)
{
    int n = 0;
    for (int i = 0; i < r->n_cells; i++)
        n += strcmp(r->cells[i].variant, sv->variant) == 0
             && strcmp(r->cells[i].spec[0], r->cells[i].spec[1]) == 0;
    sv->rungs = calloc((size_t)(n ? n : 1), sizeof *sv->rungs);
    *index = calloc((size_t)(n ? n : 1), sizeof **index);
    if (!sv->rungs || !*index)
        return -1;
    int *fixed = calloc((size_t)(n ? n : 1), sizeof *fixed);
    if (!fixed)
        return -1;
    for (int i = 0; i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        if (strcmp(c->variant, sv->variant) || strcmp(c->spec[0], c->spec[1]))
            continue;
        int k = 0;
        while (k < sv->n_rungs && strcmp(sv->rungs[k].spec, c->spec[0]))
            k++;
        struct skill_rung *g = &sv->rungs[k];
        if (k == sv->n_rungs) {
            sv->n_rungs++;
            snprintf(g->agent, sizeof g->agent, "%s", c->agent[0]);
            snprintf(g->spec, sizeof g->spec, "%s", c->spec[0]);
            spec_family(g->spec, g->family, sizeof g->family);
            fixed[k] = 1;
        }
        g->games += c->games;
        g->wins[0] += c->wins[0];
        g->wins[1] += c->wins[1];
        g->draws += c->draws_rules + c->draws_cap;
        fixed[k] &= c->fixed_sample;
    }
    int ok = rv && rv->fit.status == RATINGS_OK;
    for (int k = 0; k < sv->n_rungs; k++) {
        struct skill_rung *g = &sv->rungs[k];
        double n_games = (double)g->games, pts = (double)g->wins[0]
                                                 + (double)g->draws / 2;
        g->fixed_sample = fixed[k];
        g->score = pts / n_games;
        g->draw = (double)g->draws / n_games;
        if (g->fixed_sample) {
            stats_wilson(pts, n_games, Z95, &g->score_lo, &g->score_hi);
            stats_wilson((double)g->draws, n_games, Z95, &g->draw_lo,
                         &g->draw_hi);
        } else {
            g->score_lo = g->score_hi = g->draw_lo = g->draw_hi = NAN;
        }
        (*index)[k] = -1;
        g->elo = g->elo_lo = g->elo_hi = NAN;
        for (int a = 0; rv && a < rv->n_agents; a++)
            if (strcmp(rv->agents[a].spec, g->spec) == 0)
                (*index)[k] = a;
        int a = (*index)[k];
        if (ok && a >= 0 && rv->fit.rated[a]) {
            g->rated = 1;
            g->elo = rv->fit.elo[a];
            g->elo_lo = g->elo - Z95 * rv->fit.se[a];
            g->elo_hi = g->elo + Z95 * rv->fit.se[a];
        }
    }
    free(fixed);
    /* rated by rating ascending (stable), then the unrated as read */
    for (int k = 1; k < sv->n_rungs; k++) {
        struct skill_rung g = sv->rungs[k];
        int a = (*index)[k], j = k;
        while (j > 0 && g.rated
               && (!sv->rungs[j - 1].rated || sv->rungs[j - 1].elo > g.elo)) {
            sv->rungs[j] = sv->rungs[j - 1];
            (*index)[j] = (*index)[j - 1];
            j--;
        }
        sv->rungs[j] = g;
        (*index)[j] = a;
    }
    return 0;
}

void report_skill_judge(struct skill_variant *sv, double delta,
                        double alpha)
{
    sv->top = sv->second = -1;
    sv->family[0] = '\0';
    sv->test.verdict = SKILL_NOT_ENOUGH;
    sv->test.diff = sv->test.tost_lo = sv->test.tost_hi = NAN;
    sv->test.z = sv->test.p = NAN;
    if (sv->n_rungs == 0) {
        snprintf(sv->why, sizeof sv->why, "no self-play games");
        return;
    }
    if (strcmp(sv->ratings_status, "ok")) {
        snprintf(sv->why, sizeof sv->why, "no ratings: %.200s",
                 sv->ratings_message);
        return;
    }
    /* top: the best-rated rung whose family has another rated rung;
     * second: the best-rated other rung of that family (ties: the first
     * listed) */
    for (int k = 0; k < sv->n_rungs; k++) {
        const struct skill_rung *g = &sv->rungs[k];
        if (!g->rated || (sv->top >= 0 && !(g->elo > sv->rungs[sv->top].elo)))
            continue;
        int partner = -1;
        for (int j = 0; j < sv->n_rungs; j++)
            if (j != k && sv->rungs[j].rated
                && strcmp(sv->rungs[j].family, g->family) == 0
                && (partner < 0 || sv->rungs[j].elo > sv->rungs[partner].elo))
                partner = j;
        if (partner >= 0) {
            sv->top = k;
            sv->second = partner;
        }
    }
    if (sv->top < 0) {
        snprintf(sv->why, sizeof sv->why, "no agent family has two rated "
                 "rungs (self-play games and a rating)");
        return;
    }
    const struct skill_rung *a = &sv->rungs[sv->top], *b = &sv->rungs[sv->second];
    snprintf(sv->family, sizeof sv->family, "%s", a->family);
    if (!a->fixed_sample || !b->fixed_sample) {
        snprintf(sv->why, sizeof sv->why, "%.63s's games include a cell a "
                 "stop rule ended early: no fixed-sample test",
                 a->fixed_sample ? b->agent : a->agent);
        return;
    }
    report_skill_test((double)a->wins[0] + (double)a->draws / 2,
                      (double)a->games,
                      (double)b->wins[0] + (double)b->draws / 2,
                      (double)b->games, delta, alpha, &sv->test);
    const struct skill_test *t = &sv->test;
    int level = (int)lround(100 * (1 - 2 * alpha));
    if (t->verdict == SKILL_CONVERGED)
        snprintf(sv->why, sizeof sv->why, "%.63s - %.63s = %+.3f, %d%% "
                 "interval %+.3f to %+.3f inside +/-%g", a->agent, b->agent,
                 t->diff, level, t->tost_lo, t->tost_hi, delta);
    else if (t->verdict == SKILL_MOVING)
        snprintf(sv->why, sizeof sv->why, "%.63s - %.63s = %+.3f, %d%% "
                 "interval %+.3f to %+.3f, p = %.3g < %g", a->agent, b->agent,
                 t->diff, level, t->tost_lo, t->tost_hi, t->p, alpha);
    else
        snprintf(sv->why, sizeof sv->why, "%.63s - %.63s = %+.3f, %d%% "
                 "interval %+.3f to %+.3f not inside +/-%g, p = %.3g >= %g",
                 a->agent, b->agent, t->diff, level, t->tost_lo, t->tost_hi,
                 delta, t->p, alpha);
}

static const char *const status_names[] = {"ok", "no_games", "infinite",
                                           "not_converged"};

int report_build_skill(sqlite3 *db, const char *sweep, double delta,
                       double alpha, struct report *r, char *err,
                       size_t errsz)
{
    struct ratings rt;
    if (ratings_build(db, sweep, NULL, 0, &rt, err, errsz) != 0)
        return -1;
    r->skill_trace = 1;
    r->skill_delta = delta;
    r->skill_alpha = alpha;
    r->n_skill = 0;
    r->skill = calloc((size_t)(r->n_variants ? r->n_variants : 1),
                      sizeof *r->skill);
    int rc = r->skill ? 0 : -1;
    for (int v = 0; v < r->n_variants && rc == 0; v++) {
        struct skill_variant *sv = &r->skill[r->n_skill++];
        snprintf(sv->variant, sizeof sv->variant, "%s", r->variants[v].variant);
        snprintf(sv->short_variant, sizeof sv->short_variant, "%s",
                 r->variants[v].short_variant);
        const struct ratings_variant *rv = find_rated(&rt, sv->variant);
        if (rv) {
            snprintf(sv->ratings_status, sizeof sv->ratings_status, "%s",
                     status_names[rv->fit.status]);
            snprintf(sv->ratings_message, sizeof sv->ratings_message, "%s",
                     rv->fit.message);
            snprintf(sv->anchor, sizeof sv->anchor, "%s",
                     rv->agents[rv->anchor].name);
            sv->anchor_elo = rv->anchor_elo;
        } else {
            snprintf(sv->ratings_status, sizeof sv->ratings_status, "no_games");
            snprintf(sv->ratings_message, sizeof sv->ratings_message,
                     "no games");
        }
        int *index = NULL;
        sv->los = NAN;
        if (collect_rungs(r, sv, rv, &index) == 0) {
            report_skill_judge(sv, delta, alpha);
            if (sv->top >= 0)
                sv->los = ratings_los(&rv->fit, index[sv->top],
                                      index[sv->second]);
        } else {
            rc = -1;
        }
        free(index);
    }
    ratings_free(&rt);
    if (rc)
        snprintf(err, errsz, "out of memory");
    return rc;
}

void report_free_skill(struct report *r)
{
    for (int v = 0; v < r->n_skill; v++)
        free(r->skill[v].rungs);
    free(r->skill);
    r->skill = NULL;
    r->n_skill = 0;
    r->skill_trace = 0;
}

/* ---- printing ----------------------------------------------------------- */

static void interval_text(char *out, int valid, const char *format, double lo,
                          double hi)
{
    if (!valid || !isfinite(lo) || !isfinite(hi)) {
        snprintf(out, VARIANT_TEXT_MAX, "n/a");
        return;
    }
    char a[64], b[64];
    snprintf(a, sizeof a, format, lo);
    snprintf(b, sizeof b, format, hi);
    snprintf(out, VARIANT_TEXT_MAX, "%s-%s", a, b);
}

static void print_rungs(const struct report *r, enum report_format f,
                        FILE *out)
{
    static const char *const headers[] = {
        "variant", "agent", "family", "spec", "games", "s0_score", "s0_ci95",
        "draw_rate", "draw_ci95", "elo", "elo_ci95"};
    int rows = 0, csv = f == REPORT_CSV;
    for (int v = 0; v < r->n_skill; v++)
        rows += r->skill[v].n_rungs;
    struct table t;
    /* the spec in CSV only: a canonical spec is long */
    const char *const *h = headers;
    const char *text_headers[10];
    if (!csv) {
        for (int c = 0, k = 0; c < 11; c++)
            if (c != 3)
                text_headers[k++] = headers[c];
        h = text_headers;
    }
    if (table_new(&t, h, csv ? 11 : 10, rows))
        return;
    for (int v = 0, i = 0; v < r->n_skill; v++) {
        const struct skill_variant *sv = &r->skill[v];
        for (int k = 0; k < sv->n_rungs; k++, i++) {
            const struct skill_rung *g = &sv->rungs[k];
            char (*row)[VARIANT_TEXT_MAX] = t.cells[i];
            int c = 0;
            snprintf(row[c++], VARIANT_TEXT_MAX, "%s",
                     csv ? sv->variant : sv->short_variant);
            snprintf(row[c++], VARIANT_TEXT_MAX, "%s", g->agent);
            snprintf(row[c++], VARIANT_TEXT_MAX, "%s", g->family);
            if (csv)
                snprintf(row[c++], VARIANT_TEXT_MAX, "%s", g->spec);
            snprintf(row[c++], VARIANT_TEXT_MAX, "%ld", g->games);
            snprintf(row[c++], VARIANT_TEXT_MAX, "%.3f", g->score);
            interval_text(row[c++], g->fixed_sample, "%.3f", g->score_lo,
                          g->score_hi);
            snprintf(row[c++], VARIANT_TEXT_MAX, "%.3f", g->draw);
            interval_text(row[c++], g->fixed_sample, "%.3f", g->draw_lo,
                          g->draw_hi);
            if (g->rated)
                snprintf(row[c++], VARIANT_TEXT_MAX, "%.1f", g->elo);
            else
                snprintf(row[c++], VARIANT_TEXT_MAX, "%s",
                         csv ? "" : "not rated");
            if (g->rated && g->elo_hi > g->elo_lo)
                snprintf(row[c++], VARIANT_TEXT_MAX, "%.1f to %.1f", g->elo_lo,
                         g->elo_hi);
            else
                snprintf(row[c++], VARIANT_TEXT_MAX, "%s",
                         g->rated ? "anchor" : csv ? "" : "-");
        }
    }
    table_print_section(&t, "skill trace: self-play at each strength rung, "
                        "seat-0 score and draw rate (95% Wilson) against "
                        "the rung's Elo (95%; ratings fitted on all games "
                        "of the variant, cross-play included)",
                        "skill_trace", f, out);
}

static void print_verdicts(const struct report *r, enum report_format f,
                           FILE *out)
{
    static const char *const headers[] = {
        "variant", "family", "top", "second", "games", "s0_top", "s0_second",
        "s0_diff", "tost_ci", "p", "los", "verdict", "why"};
    struct table t;
    if (table_new(&t, headers, 13, r->n_skill))
        return;
    int csv = f == REPORT_CSV;
    for (int v = 0; v < r->n_skill; v++) {
        const struct skill_variant *sv = &r->skill[v];
        char (*row)[VARIANT_TEXT_MAX] = t.cells[v];
        snprintf(row[0], VARIANT_TEXT_MAX, "%s",
                 csv ? sv->variant : sv->short_variant);
        snprintf(row[11], VARIANT_TEXT_MAX, "%s",
                 report_skill_verdict_name(sv->test.verdict));
        snprintf(row[12], VARIANT_TEXT_MAX, "%s", sv->why);
        if (sv->top < 0)
            continue;
        const struct skill_rung *a = &sv->rungs[sv->top],
                                *b = &sv->rungs[sv->second];
        snprintf(row[1], VARIANT_TEXT_MAX, "%s", sv->family);
        snprintf(row[2], VARIANT_TEXT_MAX, "%s", a->agent);
        snprintf(row[3], VARIANT_TEXT_MAX, "%s", b->agent);
        snprintf(row[4], VARIANT_TEXT_MAX, "%ld/%ld", a->games, b->games);
        snprintf(row[5], VARIANT_TEXT_MAX, "%.3f", a->score);
        snprintf(row[6], VARIANT_TEXT_MAX, "%.3f", b->score);
        snprintf(row[10], VARIANT_TEXT_MAX, "%.3f", sv->los);
        if (!isfinite(sv->test.diff)) {
            snprintf(row[7], VARIANT_TEXT_MAX, "%+.3f", a->score - b->score);
            snprintf(row[8], VARIANT_TEXT_MAX, "n/a");
            snprintf(row[9], VARIANT_TEXT_MAX, "n/a");
            continue;
        }
        snprintf(row[7], VARIANT_TEXT_MAX, "%+.3f", sv->test.diff);
        snprintf(row[8], VARIANT_TEXT_MAX, "%+.3f..%+.3f", sv->test.tost_lo,
                 sv->test.tost_hi);
        snprintf(row[9], VARIANT_TEXT_MAX, "%.3g", sv->test.p);
    }
    char title[512];
    snprintf(title, sizeof title, "skill trace verdicts: the top two rungs by "
             "Elo of one agent family (the family of the best rung with a "
             "second); converged = TOST, the %g%% Newcombe interval of the "
             "seat-0 score difference (tost_ci) inside +/-%g; still moving = "
             "pooled two-proportion z test p < %g; else not enough games",
             100 * (1 - 2 * r->skill_alpha), r->skill_delta, r->skill_alpha);
    table_print_section(&t, title, "skill_verdicts", f, out);
}

void report_print_skill(const struct report *r, enum report_format f,
                        FILE *out)
{
    print_rungs(r, f, out);
    print_verdicts(r, f, out);
}

void report_json_skill(const struct report *r, FILE *out)
{
    fprintf(out, ",\n  \"skill_trace\": {\"delta\": %g, \"alpha\": %g, "
            "\"variants\": [", r->skill_delta, r->skill_alpha);
    for (int v = 0; v < r->n_skill; v++) {
        const struct skill_variant *sv = &r->skill[v];
        fprintf(out, "%s\n    {\"variant\": ", v ? "," : "");
        json_string(out, sv->variant);
        json_key_string(out, "short_variant", sv->short_variant);
        json_key_string(out, "ratings_status", sv->ratings_status);
        json_key_string(out, "ratings_message", sv->ratings_message);
        json_key_string(out, "anchor", sv->anchor);
        fprintf(out, ", \"anchor_elo\": %g,\n     \"rungs\": [", sv->anchor_elo);
        for (int k = 0; k < sv->n_rungs; k++) {
            const struct skill_rung *g = &sv->rungs[k];
            int ok = g->fixed_sample;
            fprintf(out, "%s\n      {\"agent\": ", k ? "," : "");
            json_string(out, g->agent);
            json_key_string(out, "spec", g->spec);
            json_key_string(out, "family", g->family);
            fprintf(out, ", \"games\": %ld, \"s0_wins\": %ld, \"s1_wins\": "
                    "%ld, \"draws\": %ld, \"s0_score\": %.6f, \"s0_ci95\": ",
                    g->games, g->wins[0], g->wins[1], g->draws, g->score);
            json_interval(out, "%.6f", ok, g->score_lo, g->score_hi);
            fprintf(out, ", \"draw_rate\": %.6f, \"draw_ci95\": ", g->draw);
            json_interval(out, "%.6f", ok, g->draw_lo, g->draw_hi);
            fprintf(out, ", \"fixed_sample\": %s, \"rated\": %s, \"elo\": ",
                    ok ? "true" : "false", g->rated ? "true" : "false");
            json_number(out, "%.4f", g->rated ? g->elo : NAN);
            fprintf(out, ", \"elo_ci95\": ");
            json_interval(out, "%.4f", g->rated, g->elo_lo, g->elo_hi);
            fputc('}', out);
        }
        fprintf(out, "],\n     \"verdict\": ");
        json_string(out, report_skill_verdict_name(sv->test.verdict));
        json_key_string(out, "why", sv->why);
        fprintf(out, ", \"family\": ");
        if (sv->top >= 0) {
            json_string(out, sv->family);
            json_key_string(out, "top", sv->rungs[sv->top].spec);
            json_key_string(out, "second", sv->rungs[sv->second].spec);
        } else {
            fprintf(out, "null, \"top\": null, \"second\": null");
        }
        int tested = isfinite(sv->test.diff);
        fprintf(out, ", \"s0_diff\": ");
        json_number(out, "%.6f", sv->test.diff);
        fprintf(out, ", \"tost_ci\": ");
        json_interval(out, "%.6f", tested, sv->test.tost_lo,
                      sv->test.tost_hi);
        fprintf(out, ", \"z\": ");
        json_number(out, "%.6f", sv->test.z);
        fprintf(out, ", \"p\": ");
        json_number(out, "%.6g", sv->test.p);
        fprintf(out, ", \"los\": ");
        json_number(out, "%.6f", sv->los);
        fputc('}', out);
    }
    fprintf(out, "\n  ]}");
}
