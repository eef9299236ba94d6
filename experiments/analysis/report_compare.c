/*
 * report_compare.c -- variants compared (report.h has the definitions):
 * the families of cells that differ in one parameter alone, same sweep
 * and agents; the difference between adjacent values with Newcombe's
 * interval and the two-proportion z test, and the Cochran-Armitage trend
 * across three or more whole-number values; printed as tables
 * (`rulelab report --compare PARAM` keeps one parameter's) and as JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"
#include "stats.h"

/* Cell i's variant, parsed once. */
struct parsed_cell {
    int ok;
    struct variant v;
};

/* Whether cells a and b belong to the same family for parameter k: the
 * same sweep, agents in the same seats, game, and every other value. */
static int same_family(const struct report_row *a, const struct parsed_cell *pa,
                       const struct report_row *b, const struct parsed_cell *pb,
                       int k)
{
    if (!pa->ok || !pb->ok || pa->v.game != pb->v.game
        || strcmp(a->sweep, b->sweep) || strcmp(a->spec[0], b->spec[0])
        || strcmp(a->spec[1], b->spec[1]))
        return 0;
    for (int i = 0; i < pa->v.game->n_params; i++)
        if (i != k && pa->v.values[i] != pb->v.values[i])
            return 0;
    return 1;
}

static void row_rates(const struct report_row *c, double *points,
                      double *draws)
{
    *draws = (double)(c->draws_rules + c->draws_cap);
    *points = (double)c->wins[0] + *draws / 2;
}

static void fill_compare(struct compare_row *o, const struct report_row *a,
                         const struct report_row *b,
                         const struct param_spec *ps, int va, int vb)
{
    memset(o, 0, sizeof *o);
    snprintf(o->sweep, sizeof o->sweep, "%s", a->sweep);
    snprintf(o->param, sizeof o->param, "%s", ps->name);
    param_value_text(ps, va, o->value[0], sizeof o->value[0]);
    param_value_text(ps, vb, o->value[1], sizeof o->value[1]);
    const struct report_row *c[2] = {a, b};
    double pts[2], dr[2];
    for (int k = 0; k < 2; k++) {
        snprintf(o->agent[k], sizeof o->agent[k], "%s", a->agent[k]);
        snprintf(o->variant[k], sizeof o->variant[k], "%s", c[k]->variant);
        snprintf(o->short_variant[k], sizeof o->short_variant[k], "%s",
                 c[k]->short_variant);
        o->games[k] = c[k]->games;
        row_rates(c[k], &pts[k], &dr[k]);
        o->score[k] = pts[k] / (double)c[k]->games;
        o->draw[k] = dr[k] / (double)c[k]->games;
    }
    double n0 = (double)o->games[0], n1 = (double)o->games[1];
    o->score_diff = o->score[1] - o->score[0];
    o->draw_diff = o->draw[1] - o->draw[0];
    o->fixed_sample = a->fixed_sample && b->fixed_sample;
    if (!o->fixed_sample) {
        o->score_lo = o->score_hi = o->score_p = NAN;
        o->draw_lo = o->draw_hi = o->draw_p = NAN;
        return;
    }
    stats_newcombe_diff(pts[1], n1, pts[0], n0, 1.959963984540054,
                        &o->score_lo, &o->score_hi);
    o->score_p = stats_two_proportion_p(pts[1], n1, pts[0], n0, NULL);
    stats_newcombe_diff(dr[1], n1, dr[0], n0, 1.959963984540054, &o->draw_lo,
                        &o->draw_hi);
    o->draw_p = stats_two_proportion_p(dr[1], n1, dr[0], n0, NULL);
}

static void fill_trend(struct trend_row *o, const struct report_row *const *c,
                       const int *values, int k, const struct param_spec *ps)
{
    memset(o, 0, sizeof *o);
    snprintf(o->sweep, sizeof o->sweep, "%s", c[0]->sweep);
    snprintf(o->param, sizeof o->param, "%s", ps->name);
    snprintf(o->short_variant, sizeof o->short_variant, "%s",
             c[0]->short_variant);
    for (int s = 0; s < 2; s++)
        snprintf(o->agent[s], sizeof o->agent[s], "%s", c[0]->agent[s]);
    double pts[REPORT_TREND_MAX], dr[REPORT_TREND_MAX], n[REPORT_TREND_MAX],
        t[REPORT_TREND_MAX];
    o->k = k;
    o->fixed_sample = 1;
    for (int i = 0; i < k; i++) {
        o->value[i] = values[i];
        o->games[i] = c[i]->games;
        row_rates(c[i], &pts[i], &dr[i]);
        n[i] = (double)c[i]->games;
        t[i] = values[i];
        o->score[i] = pts[i] / n[i];
        o->draw[i] = dr[i] / n[i];
        o->fixed_sample &= c[i]->fixed_sample;
    }
    o->score_p = stats_trend_p(pts, n, t, k, &o->score_slope, NULL);
    o->draw_p = stats_trend_p(dr, n, t, k, &o->draw_slope, NULL);
    if (!o->fixed_sample)
        o->score_p = o->draw_p = NAN;
}

/* Makes room in *items (n used of *cap, each size bytes) for one more.
 * Returns 0, or -1 (nothing changed) if memory could not be had. */
static int grow(void **items, int n, int *cap, size_t size)
{
    if (n < *cap)
        return 0;
    int bigger = *cap ? 2 * *cap : 8;
    void *grown = realloc(*items, size * (size_t)bigger);
    if (!grown)
        return -1;
    *items = grown;
    *cap = bigger;
    return 0;
}

struct member {
    int cell, value;
};

static int member_cmp(const void *va, const void *vb)
{
    const struct member *a = va, *b = vb;
    return (a->value > b->value) - (a->value < b->value);
}

/* Every family (a cell and the cells differing from it in parameter k
 * alone), found from its first cell: its adjacent pairs and its trend. */
int report_build_compared(struct report *r)
{
    int n = r->n_cells;
    struct parsed_cell *pc = calloc((size_t)(n ? n : 1), sizeof *pc);
    struct member *m = malloc(sizeof *m * (size_t)(n ? n : 1));
    int cap_c = 0, cap_t = 0, rc = -1;
    if (!pc || !m)
        goto done;
    for (int i = 0; i < n; i++) {
        char err[256];
        pc[i].ok = variant_parse(r->cells[i].variant, &pc[i].v, err,
                                 sizeof err) == 0;
    }
    for (int i = 0; i < n; i++) {
        if (!pc[i].ok)
            continue;
        const struct game *g = pc[i].v.game;
        for (int k = 0; k < g->n_params; k++) {
            int count = 0, first = 1;
            for (int j = 0; j < n && first; j++) {
                if (!same_family(&r->cells[i], &pc[i], &r->cells[j], &pc[j],
                                 k))
                    continue;
                if (j < i)
                    first = 0; /* the family was done from cell j */
                else
                    m[count++] = (struct member){j, pc[j].v.values[k]};
            }
            if (!first || count < 2)
                continue;
            qsort(m, (size_t)count, sizeof *m, member_cmp);
            const struct param_spec *ps = &g->params[k];
            for (int a = 0; a + 1 < count; a++) {
                if (grow((void **)&r->compares, r->n_compares, &cap_c,
                         sizeof *r->compares))
                    goto done;
                fill_compare(&r->compares[r->n_compares++],
                             &r->cells[m[a].cell], &r->cells[m[a + 1].cell],
                             ps, m[a].value, m[a + 1].value);
            }
            if (ps->type != PARAM_INT || count < 3
                || count > REPORT_TREND_MAX)
                continue;
            if (grow((void **)&r->trends, r->n_trends, &cap_t,
                     sizeof *r->trends))
                goto done;
            const struct report_row *cells[REPORT_TREND_MAX];
            int values[REPORT_TREND_MAX];
            for (int a = 0; a < count; a++) {
                cells[a] = &r->cells[m[a].cell];
                values[a] = m[a].value;
            }
            fill_trend(&r->trends[r->n_trends++], cells, values, count, ps);
        }
    }
    rc = 0;
done:
    free(pc);
    free(m);
    return rc;
}

int report_keep_compared(struct report *r, const char *param)
{
    if (param) {
        int kept = 0;
        for (int i = 0; i < r->n_compares; i++)
            if (strcmp(r->compares[i].param, param) == 0)
                r->compares[kept++] = r->compares[i];
        r->n_compares = kept;
        kept = 0;
        for (int i = 0; i < r->n_trends; i++)
            if (strcmp(r->trends[i].param, param) == 0)
                r->trends[kept++] = r->trends[i];
        r->n_trends = kept;
    }
    return r->n_compares + r->n_trends;
}

/* "a->b" of two numbers to 3 places. */
static void two_values(char *out, double a, double b)
{
    snprintf(out, VARIANT_TEXT_MAX, "%.3f->%.3f", a, b);
}

static void interval_text(char *out, int valid, double lo, double hi)
{
    if (valid)
        snprintf(out, VARIANT_TEXT_MAX, "%+.3f..%+.3f", lo, hi);
    else
        snprintf(out, VARIANT_TEXT_MAX, "n/a");
}

static void p_text(char *out, int valid, double p)
{
    if (valid)
        snprintf(out, VARIANT_TEXT_MAX, "%.3g", p);
    else
        snprintf(out, VARIANT_TEXT_MAX, "n/a");
}

/* The first three cells of a comparison or trend row: sweep and agents. */
static void fill_who(char (*row)[VARIANT_TEXT_MAX], const char *sweep,
                     const char (*agent)[VARIANT_TEXT_MAX])
{
    snprintf(row[0], VARIANT_TEXT_MAX, "%s", sweep);
    snprintf(row[1], VARIANT_TEXT_MAX, "%s", agent[0]);
    snprintf(row[2], VARIANT_TEXT_MAX, "%s", agent[1]);
}

void report_print_compared(const struct report *r, enum report_format f,
                           FILE *out)
{
    static const char *const headers[] = {
        "sweep", "seat0", "seat1", "variant", "change", "games", "s0_score",
        "s0_diff", "s0_diff_ci95", "p", "draw_rate", "draw_diff",
        "draw_diff_ci95", "draw_p"};
    struct table t;
    if (table_new(&t, headers, 14, r->n_compares))
        return;
    for (int i = 0; i < r->n_compares; i++) {
        const struct compare_row *c = &r->compares[i];
        char (*row)[VARIANT_TEXT_MAX] = t.cells[i];
        fill_who(row, c->sweep, c->agent);
        snprintf(row[3], VARIANT_TEXT_MAX, "%s",
                 f == REPORT_CSV ? c->variant[0] : c->short_variant[0]);
        snprintf(row[4], VARIANT_TEXT_MAX, "%s %s->%s", c->param,
                 c->value[0], c->value[1]);
        snprintf(row[5], VARIANT_TEXT_MAX, "%ld->%ld", c->games[0],
                 c->games[1]);
        two_values(row[6], c->score[0], c->score[1]);
        snprintf(row[7], VARIANT_TEXT_MAX, "%+.3f", c->score_diff);
        interval_text(row[8], c->fixed_sample, c->score_lo, c->score_hi);
        p_text(row[9], c->fixed_sample, c->score_p);
        two_values(row[10], c->draw[0], c->draw[1]);
        snprintf(row[11], VARIANT_TEXT_MAX, "%+.3f", c->draw_diff);
        interval_text(row[12], c->fixed_sample, c->draw_lo, c->draw_hi);
        p_text(row[13], c->fixed_sample, c->draw_p);
    }
    table_print_section(&t, "variants compared: one parameter changed, same "
                        "sweep and agents (later value minus earlier; 95% "
                        "Newcombe interval; p = two-proportion z test)",
                        "compared", f, out);
}

/* "a,b,c": k whole numbers (iv or lv), or k numbers to 3 places (dv). */
static void list_text(char *out, const int *iv, const double *dv,
                      const long *lv, int k)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < k && len < VARIANT_TEXT_MAX; i++) {
        const char *sep = i ? "," : "";
        if (iv)
            len += (size_t)snprintf(out + len, VARIANT_TEXT_MAX - len, "%s%d",
                                    sep, iv[i]);
        else if (lv)
            len += (size_t)snprintf(out + len, VARIANT_TEXT_MAX - len,
                                    "%s%ld", sep, lv[i]);
        else
            len += (size_t)snprintf(out + len, VARIANT_TEXT_MAX - len,
                                    "%s%.3f", sep, dv[i]);
    }
}

void report_print_trends(const struct report *r, enum report_format f,
                         FILE *out)
{
    static const char *const headers[] = {
        "sweep", "seat0", "seat1", "variant", "param", "values", "games",
        "s0_scores", "s0_slope", "s0_trend_p", "draw_rates", "draw_slope",
        "draw_trend_p"};
    struct table t;
    if (table_new(&t, headers, 13, r->n_trends))
        return;
    for (int i = 0; i < r->n_trends; i++) {
        const struct trend_row *c = &r->trends[i];
        char (*row)[VARIANT_TEXT_MAX] = t.cells[i];
        fill_who(row, c->sweep, c->agent);
        snprintf(row[3], VARIANT_TEXT_MAX, "%s", c->short_variant);
        snprintf(row[4], VARIANT_TEXT_MAX, "%s", c->param);
        list_text(row[5], c->value, NULL, NULL, c->k);
        list_text(row[6], NULL, NULL, c->games, c->k);
        list_text(row[7], NULL, c->score, NULL, c->k);
        snprintf(row[8], VARIANT_TEXT_MAX, "%+.4f", c->score_slope);
        p_text(row[9], c->fixed_sample, c->score_p);
        list_text(row[10], NULL, c->draw, NULL, c->k);
        snprintf(row[11], VARIANT_TEXT_MAX, "%+.4f", c->draw_slope);
        p_text(row[12], c->fixed_sample, c->draw_p);
    }
    table_print_section(&t, "variants compared: trend across 3 or more values "
                        "of a parameter (slope per unit; p = Cochran-Armitage "
                        "trend test)", "trends", f, out);
}

void report_json_compared(const struct report *r, FILE *out)
{
    fprintf(out, ",\n  \"compared\": [");
    for (int i = 0; i < r->n_compares; i++) {
        const struct compare_row *c = &r->compares[i];
        int ok = c->fixed_sample;
        fprintf(out, "%s\n    {\"sweep\": ", i ? "," : "");
        json_string(out, c->sweep);
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"seat%d\": ", k);
            json_string(out, c->agent[k]);
        }
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"variant%d\": ", k);
            json_string(out, c->variant[k]);
        }
        json_key_string(out, "param", c->param);
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"value%d\": ", k);
            json_string(out, c->value[k]);
        }
        fprintf(out, ", \"games\": [%ld, %ld], \"s0_score\": [%.6f, %.6f], "
                "\"s0_diff\": %.6f, \"s0_diff_ci95\": ", c->games[0],
                c->games[1], c->score[0], c->score[1], c->score_diff);
        json_interval(out, "%.6f", ok, c->score_lo, c->score_hi);
        fprintf(out, ", \"p\": ");
        json_number(out, "%.6g", ok ? c->score_p : NAN);
        fprintf(out, ", \"draw_rate\": [%.6f, %.6f], \"draw_diff\": %.6f, "
                "\"draw_diff_ci95\": ", c->draw[0], c->draw[1], c->draw_diff);
        json_interval(out, "%.6f", ok, c->draw_lo, c->draw_hi);
        fprintf(out, ", \"draw_p\": ");
        json_number(out, "%.6g", ok ? c->draw_p : NAN);
        fprintf(out, ", \"fixed_sample\": %s}", ok ? "true" : "false");
    }
    fprintf(out, "\n  ],\n  \"trends\": [");
    for (int i = 0; i < r->n_trends; i++) {
        const struct trend_row *c = &r->trends[i];
        fprintf(out, "%s\n    {\"sweep\": ", i ? "," : "");
        json_string(out, c->sweep);
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"seat%d\": ", k);
            json_string(out, c->agent[k]);
        }
        json_key_string(out, "variant", c->short_variant);
        json_key_string(out, "param", c->param);
        fprintf(out, ", \"values\": [");
        for (int k = 0; k < c->k; k++)
            fprintf(out, "%s%d", k ? ", " : "", c->value[k]);
        fprintf(out, "], \"games\": [");
        for (int k = 0; k < c->k; k++)
            fprintf(out, "%s%ld", k ? ", " : "", c->games[k]);
        fprintf(out, "], \"s0_score\": [");
        for (int k = 0; k < c->k; k++)
            fprintf(out, "%s%.6f", k ? ", " : "", c->score[k]);
        fprintf(out, "], \"s0_slope\": %.6g, \"s0_trend_p\": ",
                c->score_slope);
        json_number(out, "%.6g", c->fixed_sample ? c->score_p : NAN);
        fprintf(out, ", \"draw_rate\": [");
        for (int k = 0; k < c->k; k++)
            fprintf(out, "%s%.6f", k ? ", " : "", c->draw[k]);
        fprintf(out, "], \"draw_slope\": %.6g, \"draw_trend_p\": ",
                c->draw_slope);
        json_number(out, "%.6g", c->fixed_sample ? c->draw_p : NAN);
        fprintf(out, ", \"fixed_sample\": %s}",
                c->fixed_sample ? "true" : "false");
    }
    fprintf(out, "\n  ]");
}

int report_has_param(const struct report *r, const char *param)
{
    const struct game *seen = NULL;
    for (int i = 0; i < r->n_cells; i++) {
        struct variant v;
        char err[256];
        if (variant_parse(r->cells[i].variant, &v, err, sizeof err) != 0
            || v.game == seen)
            continue;
        seen = v.game;
        for (int k = 0; k < v.game->n_params; k++)
            if (strcmp(v.game->params[k].name, param) == 0)
                return 1;
    }
    return 0;
}

/* Appends name to the list out (len bytes used) unless it is there. */
static size_t add_name(char *out, size_t n, size_t len, const char *name)
{
    for (const char *p = out; (p = strstr(p, name)) != NULL; p++) {
        size_t k = strlen(name);
        if ((p == out || p[-1] == ' ') && (p[k] == ',' || p[k] == '\0'))
            return len;
    }
    if (len < n)
        len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "",
                                name);
    return len < n ? len : n;
}

void report_compared_params(const struct report *r, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < r->n_compares; i++)
        len = add_name(out, n, len, r->compares[i].param);
    for (int i = 0; i < r->n_trends; i++)
        len = add_name(out, n, len, r->trends[i].param);
}
