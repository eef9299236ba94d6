/*
 * report_tunings.c -- a variant's fitted evaluation weights in the report:
 * the latest `rulelab tune --save` of each variant the report covers, read
 * from the tunings table, printed beside the hand-set weights (a variant's
 * fitted piece values are a balance finding of their own), and as JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"

/* Reads "name=value,..." into the names and values of t (at most
 * TUNING_MAX_WEIGHTS); returns how many. */
static int read_weights(const char *text, char (*name)[64], double *value)
{
    int n = 0;
    while (text && *text && n < TUNING_MAX_WEIGHTS) {
        const char *eq = strchr(text, '='), *comma = strchr(text, ',');
        if (!eq || (comma && comma < eq))
            break;
        size_t len = (size_t)(eq - text);
        snprintf(name[n], 64, "%.*s", (int)(len < 63 ? len : 63), text);
        value[n] = strtod(eq + 1, NULL);
        n++;
        text = comma ? comma + 1 : NULL;
    }
    return n;
}

/* Copies column i of q as text into out (n bytes; "" for NULL). */
static void column_text(sqlite3_stmt *q, int i, char *out, size_t n)
{
    const char *s = (const char *)sqlite3_column_text(q, i);
    snprintf(out, n, "%s", s ? s : "");
}

int report_read_tunings(sqlite3 *db, struct report *r, char *err,
                        size_t errsz)
{
    sqlite3_stmt *q;
    r->tunings = NULL;
    r->n_tunings = 0;
    if (sqlite3_prepare_v2(db, "SELECT t.created, t.sweep, t.positions,"
                           " t.held_out, t.games, t.loss_hand, t.loss_fitted,"
                           " t.hand_weights, t.fitted_weights, t.spec FROM"
                           " tunings t JOIN variants v ON v.id = t.variant_id"
                           " WHERE v.canonical = ?1 ORDER BY t.created DESC,"
                           " t.id DESC LIMIT 1", -1, &q, NULL) != SQLITE_OK) {
        snprintf(err, errsz, "reading the tunings: %s", sqlite3_errmsg(db));
        return -1;
    }
    r->tunings = calloc((size_t)(r->n_variants ? r->n_variants : 1),
                        sizeof *r->tunings);
    if (!r->tunings) {
        sqlite3_finalize(q);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    for (int i = 0; i < r->n_variants; i++) {
        sqlite3_reset(q);
        sqlite3_bind_text(q, 1, r->variants[i].variant, -1, SQLITE_STATIC);
        int step = sqlite3_step(q);
        if (step == SQLITE_DONE)
            continue;
        if (step != SQLITE_ROW) {
            snprintf(err, errsz, "reading the tunings: %s", sqlite3_errmsg(db));
            sqlite3_finalize(q);
            return -1;
        }
        struct tuning_row *t = &r->tunings[r->n_tunings++];
        snprintf(t->variant, sizeof t->variant, "%s", r->variants[i].variant);
        snprintf(t->short_variant, sizeof t->short_variant, "%s",
                 r->variants[i].short_variant);
        column_text(q, 0, t->created, sizeof t->created);
        column_text(q, 1, t->sweep, sizeof t->sweep);
        t->positions = sqlite3_column_int64(q, 2);
        t->held_out = sqlite3_column_int64(q, 3);
        t->games = sqlite3_column_int64(q, 4);
        t->loss_hand = sqlite3_column_type(q, 5) == SQLITE_NULL
                           ? NAN : sqlite3_column_double(q, 5);
        t->loss_fitted = sqlite3_column_type(q, 6) == SQLITE_NULL
                             ? NAN : sqlite3_column_double(q, 6);
        char hand[VARIANT_TEXT_MAX], fitted[VARIANT_TEXT_MAX];
        char names[TUNING_MAX_WEIGHTS][64];
        column_text(q, 7, hand, sizeof hand);
        column_text(q, 8, fitted, sizeof fitted);
        column_text(q, 9, t->spec, sizeof t->spec);
        int nh = read_weights(hand, names, t->hand);
        t->n_weights = read_weights(fitted, t->name, t->fitted);
        for (int k = nh; k < t->n_weights; k++)
            t->hand[k] = NAN;
    }
    sqlite3_finalize(q);
    return 0;
}

void report_print_tunings(const struct report *r, enum report_format f,
                          FILE *out)
{
    if (!r->n_tunings)
        return;
    static const char *const headers[] = {
        "variant", "weight", "hand_set", "fitted", "tuned", "positions",
        "held_out", "log_loss_hand", "log_loss_fitted"};
    int rows = 0;
    for (int i = 0; i < r->n_tunings; i++)
        rows += r->tunings[i].n_weights;
    struct table t;
    if (table_new(&t, headers, 9, rows))
        return;
    int row = 0;
    for (int i = 0; i < r->n_tunings; i++) {
        const struct tuning_row *u = &r->tunings[i];
        for (int k = 0; k < u->n_weights; k++, row++) {
            char (*c)[VARIANT_TEXT_MAX] = t.cells[row];
            snprintf(c[0], VARIANT_TEXT_MAX, "%s",
                     f == REPORT_CSV ? u->variant : u->short_variant);
            snprintf(c[1], VARIANT_TEXT_MAX, "%s", u->name[k]);
            snprintf(c[2], VARIANT_TEXT_MAX, "%.4g", u->hand[k]);
            snprintf(c[3], VARIANT_TEXT_MAX, "%.4g", u->fitted[k]);
            snprintf(c[4], VARIANT_TEXT_MAX, "%s", u->created);
            snprintf(c[5], VARIANT_TEXT_MAX, "%ld", u->positions);
            snprintf(c[6], VARIANT_TEXT_MAX, "%ld", u->held_out);
            table_number_text(c[7], "%.4f", u->loss_hand);
            table_number_text(c[8], "%.4f", u->loss_fitted);
        }
    }
    table_print_section(&t, "fitted evaluation weights per variant (the latest "
                        "`rulelab tune --save` of each): hand-set and fitted "
                        "weight, the positions fitted on and held out, and "
                        "the held-out log-loss of each set of weights",
                        "tunings", f, out);
}

void report_json_tunings(const struct report *r, FILE *out)
{
    fprintf(out, ",\n  \"tunings\": [");
    for (int i = 0; i < r->n_tunings; i++) {
        const struct tuning_row *u = &r->tunings[i];
        fprintf(out, "%s\n    {\"variant\": ", i ? "," : "");
        json_string(out, u->variant);
        json_key_string(out, "created", u->created);
        fprintf(out, ", \"sweep\": ");
        if (u->sweep[0])
            json_string(out, u->sweep);
        else
            fprintf(out, "null");
        fprintf(out, ", \"positions\": %ld, \"held_out\": %ld, \"games\": "
                "%ld, \"log_loss_hand\": ", u->positions, u->held_out,
                u->games);
        json_number(out, "%.6g", u->loss_hand);
        fprintf(out, ", \"log_loss_fitted\": ");
        json_number(out, "%.6g", u->loss_fitted);
        json_key_string(out, "spec", u->spec);
        fprintf(out, ", \"weights\": [");
        for (int k = 0; k < u->n_weights; k++) {
            fprintf(out, "%s{\"name\": ", k ? ", " : "");
            json_string(out, u->name[k]);
            fprintf(out, ", \"hand_set\": ");
            json_number(out, "%.6g", u->hand[k]);
            fprintf(out, ", \"fitted\": ");
            json_number(out, "%.6g", u->fitted[k]);
            fprintf(out, "}");
        }
        fprintf(out, "]}");
    }
    fprintf(out, "\n  ]");
}
