/*
 * tune_store.c -- `rulelab tune --save`: the fitted weights of each tuned
 * variant kept in the database's tunings table (results/README.md), so
 * that `rulelab report` can show a variant's fitted piece values beside
 * its balance figures.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store.h"
#include "tune.h"

/* Writes "name=value,..." of the n weights w (names from e) into buf. */
static void weights_text(const struct game_eval *e, const double *w,
                         char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < e->n_features && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%.6g", i ? "," : "",
                                e->weights[i].name, w[i]);
}

int tune_save(struct store *st, const struct tune_result *r, int n,
              const char *sweep, const char *agent, char *err, size_t errsz)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *q = NULL;
    char now[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (store_lock_writer(st, err, errsz) != 0
        || store_exec(st, "BEGIN IMMEDIATE", err, errsz) != 0)
        return -1;
    if (sqlite3_prepare_v2(db, "INSERT INTO tunings (variant_id, sweep,"
                           " created, positions, held_out, games, loss_hand,"
                           " loss_fitted, hand_weights, fitted_weights, spec)"
                           " SELECT id, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                           " ?11 FROM variants WHERE canonical = ?1 ON"
                           " CONFLICT DO NOTHING", -1, &q, NULL) != SQLITE_OK)
        goto fail;
    for (int k = 0; k < n; k++) {
        char hand[VARIANT_TEXT_MAX], fitted[VARIANT_TEXT_MAX],
            spec[VARIANT_TEXT_MAX];
        weights_text(r[k].eval, r[k].hand, hand, sizeof hand);
        weights_text(r[k].eval, r[k].fitted, fitted, sizeof fitted);
        tune_spec(&r[k], agent, spec, sizeof spec);
        sqlite3_reset(q);
        sqlite3_clear_bindings(q);
        sqlite3_bind_text(q, 1, r[k].variant, -1, SQLITE_STATIC);
        if (sweep)
            sqlite3_bind_text(q, 2, sweep, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, now, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 4, r[k].train);
        sqlite3_bind_int(q, 5, r[k].held);
        sqlite3_bind_int64(q, 6, r[k].games);
        if (r[k].held > 0) {
            sqlite3_bind_double(q, 7, r[k].loss_hand[1]);
            sqlite3_bind_double(q, 8, r[k].loss_fitted[1]);
        }
        sqlite3_bind_text(q, 9, hand, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 10, fitted, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 11, spec, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(q) != SQLITE_DONE)
            goto fail;
    }
    sqlite3_finalize(q);
    return store_exec(st, "COMMIT", err, errsz);
fail:
    store_error(db, err, errsz, "saving the fitted weights");
    sqlite3_finalize(q);
    store_rollback(st, NULL, 0);
    return -1;
}
