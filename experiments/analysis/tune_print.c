/*
 * tune_print.c -- what `rulelab tune` prints (tune.h): per variant, the
 * sample (games, held-out games, positions in each set), the fit (Newton
 * steps, whether it converged), every weight hand-set and fitted, the
 * log-loss of both on the train and held-out positions, and the fitted
 * weights as an agent spec; as a table, CSV (one row per weight, the
 * variant's figures repeated), JSON or Markdown, like `report`.
 */
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "table.h"

/* w with four significant digits in plain decimal (no exponent, no '+'),
 * trailing zeros of the fraction dropped: what a spec may hold. */
static void plain_number(double w, char *buf, size_t n)
{
    int decimals = 0;
    if (w != 0) {
        decimals = 3 - (int)floor(log10(fabs(w)));
        decimals = decimals < 0 ? 0 : decimals > 12 ? 12 : decimals;
    }
    snprintf(buf, n, "%.*f", decimals, w);
    if (strchr(buf, '.')) {
        size_t len = strlen(buf);
        while (buf[len - 1] == '0')
            buf[--len] = '\0';
        if (buf[len - 1] == '.')
            buf[--len] = '\0';
    }
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, n, "0");
}

void tune_spec(const struct tune_result *r, const char *agent, char *buf,
               size_t n)
{
    size_t len = strlen(agent);
    if (len && agent[len - 1] == ')') /* a spec: the weights go inside */
        len = (size_t)snprintf(buf, n, "%.*s%s", (int)(len - 1), agent,
                               len >= 2 && agent[len - 2] == '(' ? "" : ",");
    else
        len = (size_t)snprintf(buf, n, "%s(", agent);
    for (int i = 0; i < r->eval->n_features && len < n; i++) {
        char num[64];
        plain_number(r->fitted[i], num, sizeof num);
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", i ? "," : "",
                                r->eval->weights[i].name, num);
    }
    if (len < n)
        snprintf(buf + len, n - len, ")");
}

/* A log-loss as text: six decimals, "n/a" for none. */
static void loss_text(double x, char *buf, size_t n)
{
    if (isfinite(x))
        snprintf(buf, n, "%.6f", x);
    else
        snprintf(buf, n, "n/a");
}

static const char *weight_note(const struct tune_result *r, int i)
{
    return r->fixed[i] ? "kept: 0 in every position"
           : r->clamped[i] ? "clamped to the parameter's range" : "";
}

static void print_text(const struct tune_result *r, const struct tune_options *o,
                       const char *kind, enum report_format f, FILE *out)
{
    char name[VARIANT_TEXT_MAX], spec[VARIANT_TEXT_MAX];
    report_short_variant(r->variant, name, sizeof name);
    const char *item = f == REPORT_MARKDOWN ? "- " : "  ";
    if (f == REPORT_MARKDOWN)
        fprintf(out, "\n### %s\n\n", name);
    else
        fprintf(out, "\n%s\n", name);
    fprintf(out, "%s%ld games (%ld held out); positions: %d train, %d held "
            "out\n", item, r->games, r->games_held_out, r->train, r->held);
    fprintf(out, "%sfit: %d Newton steps, %s; scale %g fixed; l2 %g toward "
            "the hand-set weights\n", item, r->iterations,
            r->converged ? "converged" : "NOT converged (iteration cap)",
            o->fit.scale, o->fit.l2);
    static const char *const wh[] = {"weight", "hand_set", "fitted", "note"};
    struct table t;
    int nf = r->eval->n_features;
    if (table_new(&t, wh, 4, nf) != 0)
        return;
    for (int i = 0; i < nf; i++) {
        snprintf(t.cells[i][0], VARIANT_TEXT_MAX, "%s", r->eval->weights[i].name);
        plain_number(r->hand[i], t.cells[i][1], VARIANT_TEXT_MAX);
        plain_number(r->fitted[i], t.cells[i][2], VARIANT_TEXT_MAX);
        snprintf(t.cells[i][3], VARIANT_TEXT_MAX, "%s", weight_note(r, i));
    }
    fputc('\n', out);
    table_print(&t, f, out);
    free(t.cells);
    static const char *const lh[] = {"log_loss", "train", "held_out"};
    if (table_new(&t, lh, 3, 2) != 0)
        return;
    snprintf(t.cells[0][0], VARIANT_TEXT_MAX, "hand-set");
    snprintf(t.cells[1][0], VARIANT_TEXT_MAX, "fitted");
    loss_text(r->loss_hand[0], t.cells[0][1], VARIANT_TEXT_MAX);
    loss_text(r->loss_hand[1], t.cells[0][2], VARIANT_TEXT_MAX);
    loss_text(r->loss_fitted[0], t.cells[1][1], VARIANT_TEXT_MAX);
    loss_text(r->loss_fitted[1], t.cells[1][2], VARIANT_TEXT_MAX);
    fputc('\n', out);
    table_print(&t, f, out);
    free(t.cells);
    tune_spec(r, kind, spec, sizeof spec);
    if (f == REPORT_MARKDOWN)
        fprintf(out, "\nspec: `%s`\n", spec);
    else
        fprintf(out, "\n  spec: %s\n", spec);
}

static void print_csv(const struct tune_result *r, int n, const char *kind,
                      FILE *out)
{
    static const char *const h[] = {
        "variant", "weight", "hand_set", "fitted", "note", "games",
        "games_held_out", "positions_train", "positions_held_out",
        "loss_hand_train", "loss_hand_held_out", "loss_fitted_train",
        "loss_fitted_held_out", "spec"};
    int rows = 0;
    for (int k = 0; k < n; k++)
        rows += r[k].eval->n_features;
    struct table t;
    if (table_new(&t, h, 14, rows) != 0)
        return;
    int row = 0;
    for (int k = 0; k < n; k++) {
        const struct tune_result *v = &r[k];
        for (int i = 0; i < v->eval->n_features; i++, row++) {
            char (*c)[VARIANT_TEXT_MAX] = t.cells[row];
            snprintf(c[0], VARIANT_TEXT_MAX, "%s", v->variant);
            snprintf(c[1], VARIANT_TEXT_MAX, "%s", v->eval->weights[i].name);
            plain_number(v->hand[i], c[2], VARIANT_TEXT_MAX);
            plain_number(v->fitted[i], c[3], VARIANT_TEXT_MAX);
            snprintf(c[4], VARIANT_TEXT_MAX, "%s", weight_note(v, i));
            snprintf(c[5], VARIANT_TEXT_MAX, "%ld", v->games);
            snprintf(c[6], VARIANT_TEXT_MAX, "%ld", v->games_held_out);
            snprintf(c[7], VARIANT_TEXT_MAX, "%d", v->train);
            snprintf(c[8], VARIANT_TEXT_MAX, "%d", v->held);
            loss_text(v->loss_hand[0], c[9], VARIANT_TEXT_MAX);
            loss_text(v->loss_hand[1], c[10], VARIANT_TEXT_MAX);
            loss_text(v->loss_fitted[0], c[11], VARIANT_TEXT_MAX);
            loss_text(v->loss_fitted[1], c[12], VARIANT_TEXT_MAX);
            tune_spec(v, kind, c[13], VARIANT_TEXT_MAX);
        }
    }
    table_print(&t, REPORT_CSV, out);
    free(t.cells);
}

static void print_json_variant(const struct tune_result *r, const char *kind,
                               FILE *out)
{
    char spec[VARIANT_TEXT_MAX];
    fprintf(out, "{\"variant\": ");
    json_string(out, r->variant);
    fprintf(out, ", \"games\": %ld, \"games_held_out\": %ld, "
            "\"positions_train\": %d, \"positions_held_out\": %d, "
            "\"iterations\": %d, \"converged\": %s,\n     \"log_loss\": "
            "{\"hand_set\": {\"train\": ", r->games, r->games_held_out,
            r->train, r->held, r->iterations, r->converged ? "true" : "false");
    json_number(out, "%.6f", r->loss_hand[0]);
    fprintf(out, ", \"held_out\": ");
    json_number(out, "%.6f", r->loss_hand[1]);
    fprintf(out, "}, \"fitted\": {\"train\": ");
    json_number(out, "%.6f", r->loss_fitted[0]);
    fprintf(out, ", \"held_out\": ");
    json_number(out, "%.6f", r->loss_fitted[1]);
    fprintf(out, "}},\n     \"weights\": [");
    for (int i = 0; i < r->eval->n_features; i++) {
        fprintf(out, "%s\n       {\"name\": ", i ? "," : "");
        json_string(out, r->eval->weights[i].name);
        fprintf(out, ", \"hand_set\": ");
        json_number(out, "%.17g", r->hand[i]);
        fprintf(out, ", \"fitted\": ");
        json_number(out, "%.17g", r->fitted[i]);
        fprintf(out, ", \"fixed\": %s, \"clamped\": %s}",
                r->fixed[i] ? "true" : "false",
                r->clamped[i] ? "true" : "false");
    }
    tune_spec(r, kind, spec, sizeof spec);
    fprintf(out, "\n     ],\n     \"spec\": ");
    json_string(out, spec);
    fputc('}', out);
}

void tune_print(const struct tune_result *r, int n, const struct tune_options *o,
                const char *agent_kind, enum report_format f, FILE *out)
{
    if (f == REPORT_CSV) {
        print_csv(r, n, agent_kind, out);
        return;
    }
    if (f == REPORT_JSON) {
        fprintf(out, "{\n  \"scale\": %g, \"l2\": %g, \"skip_plies\": %d, "
                "\"holdout\": %g, \"seed\": %llu, \"sweep\": ", o->fit.scale,
                o->fit.l2, o->skip_plies, o->holdout,
                (unsigned long long)o->seed);
        if (o->sweep)
            json_string(out, o->sweep);
        else
            fputs("null", out);
        fprintf(out, ",\n  \"variants\": [");
        for (int k = 0; k < n; k++) {
            fprintf(out, "%s\n    ", k ? "," : "");
            print_json_variant(&r[k], agent_kind, out);
        }
        fprintf(out, "\n  ]\n}\n");
        return;
    }
    fprintf(out, "Evaluation weights fitted to stored results (Texel-style "
            "logistic regression):\npositions after %d agent plies or more, "
            "game going on, no win in one for the side to move;\nlabel: the "
            "game's result for the side to move (1, 1/2, 0); held-out set "
            "split by game (%g of games, seed %llu).\n", o->skip_plies,
            o->holdout, (unsigned long long)o->seed);
    if (o->sweep)
        fprintf(out, "Games of sweep %s only.\n", o->sweep);
    for (int k = 0; k < n; k++)
        print_text(&r[k], o, agent_kind, f, out);
}
