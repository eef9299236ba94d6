/*
 * report_metrics.c -- the game metrics per cell (report.h has the
 * definitions, after Ludii's game-evaluation metrics): decisiveness, draws
 * by the rules and by the ply cap with Wilson intervals, and the length
 * in plies; printed as a table (`rulelab report --metrics`) and as JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"
#include "stats.h"

void report_metrics(const struct report_row *c, struct report_metrics *m)
{
    double n = (double)c->games;
    struct {
        double share, *lo, *hi;
        long count;
    } part[3] = {
        {0, &m->decisive_lo, &m->decisive_hi, c->wins[0] + c->wins[1]},
        {0, &m->rule_draws_lo, &m->rule_draws_hi, c->draws_rules},
        {0, &m->cap_draws_lo, &m->cap_draws_hi, c->draws_cap}};
    for (int k = 0; k < 3; k++) {
        if (c->fixed_sample)
            stats_wilson((double)part[k].count, n, 1.959963984540054,
                         part[k].lo, part[k].hi);
        else
            *part[k].lo = *part[k].hi = NAN;
    }
    m->decisive = n > 0 ? (double)part[0].count / n : NAN;
    m->rule_draws = n > 0 ? (double)c->draws_rules / n : NAN;
    m->cap_draws = n > 0 ? (double)c->draws_cap / n : NAN;
    m->mean_plies = c->mean_plies;
    m->median_plies = c->median_plies;
    double half = n > 0 ? 1.959963984540054 * c->sd_plies / sqrt(n) : NAN;
    m->mean_lo = c->fixed_sample ? c->mean_plies - half : NAN;
    m->mean_hi = c->fixed_sample ? c->mean_plies + half : NAN;
}

static void share_text(char (*row)[VARIANT_TEXT_MAX], double share,
                       double lo, double hi, int valid)
{
    snprintf(row[0], VARIANT_TEXT_MAX, "%.3f", share);
    if (valid)
        snprintf(row[1], VARIANT_TEXT_MAX, "%.3f-%.3f", lo, hi);
    else
        snprintf(row[1], VARIANT_TEXT_MAX, "n/a");
}

void report_print_metrics(const struct report *r, enum report_format f,
                          FILE *out)
{
    static const char *const headers[] = {
        "variant", "seat0", "seat1", "games", "decisive", "decisive_ci95",
        "draws_rules", "draws_rules_ci95", "draws_cap", "draws_cap_ci95",
        "mean_plies", "mean_plies_ci95", "median_plies"};
    struct report_table t;
    if (report_table_new(&t, headers, 13, r->n_cells))
        return;
    for (int i = 0; i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        char (*row)[VARIANT_TEXT_MAX] = t.cells[i];
        struct report_metrics m;
        report_metrics(c, &m);
        snprintf(row[0], VARIANT_TEXT_MAX, "%s",
                 f == REPORT_CSV ? c->variant : c->short_variant);
        snprintf(row[1], VARIANT_TEXT_MAX, "%s", c->agent[0]);
        snprintf(row[2], VARIANT_TEXT_MAX, "%s", c->agent[1]);
        snprintf(row[3], VARIANT_TEXT_MAX, "%ld", c->games);
        share_text(row + 4, m.decisive, m.decisive_lo, m.decisive_hi,
                   c->fixed_sample);
        share_text(row + 6, m.rule_draws, m.rule_draws_lo, m.rule_draws_hi,
                   c->fixed_sample);
        share_text(row + 8, m.cap_draws, m.cap_draws_lo, m.cap_draws_hi,
                   c->fixed_sample);
        snprintf(row[10], VARIANT_TEXT_MAX, "%.1f", m.mean_plies);
        if (c->fixed_sample)
            snprintf(row[11], VARIANT_TEXT_MAX, "%.1f-%.1f", m.mean_lo,
                     m.mean_hi);
        else
            snprintf(row[11], VARIANT_TEXT_MAX, "n/a");
        snprintf(row[12], VARIANT_TEXT_MAX, "%.1f", m.median_plies);
    }
    report_section_title("game metrics per cell: decisive (won by either seat), "
                  "drawn by the rules, drawn by the ply cap (shares of games, "
                  "95% Wilson), length in plies (mean with 95% interval, "
                  "median)", "metrics", f, out);
    report_table_print(&t, f, out);
    free(t.cells);
}

void report_json_metrics(const struct report *r, FILE *out)
{
    fprintf(out, ",\n  \"metrics\": [");
    for (int i = 0; i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        struct report_metrics m;
        report_metrics(c, &m);
        int ok = c->fixed_sample;
        fprintf(out, "%s\n    {\"variant\": ", i ? "," : "");
        report_json_string(out, c->variant);
        for (int k = 0; k < 2; k++) {
            fprintf(out, ", \"seat%d\": ", k);
            report_json_string(out, c->agent[k]);
        }
        fprintf(out, ", \"games\": %ld, \"decisive\": %.6f, "
                "\"decisive_ci95\": ", c->games, m.decisive);
        report_json_interval(out, "%.6f", ok, m.decisive_lo, m.decisive_hi);
        fprintf(out, ", \"draws_rules\": %.6f, \"draws_rules_ci95\": ",
                m.rule_draws);
        report_json_interval(out, "%.6f", ok, m.rule_draws_lo, m.rule_draws_hi);
        fprintf(out, ", \"draws_cap\": %.6f, \"draws_cap_ci95\": ",
                m.cap_draws);
        report_json_interval(out, "%.6f", ok, m.cap_draws_lo, m.cap_draws_hi);
        fprintf(out, ", \"mean_plies\": %.6f, \"mean_plies_ci95\": ",
                m.mean_plies);
        report_json_interval(out, "%.6f", ok, m.mean_lo, m.mean_hi);
        fprintf(out, ", \"median_plies\": %.1f, \"fixed_sample\": %s}",
                m.median_plies, ok ? "true" : "false");
    }
    fprintf(out, "\n  ]");
}
