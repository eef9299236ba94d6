/*
 * test_tunings.c -- schema 6: `rulelab tune --save` keeps each variant's
 * fitted weights in the tunings table, the report shows the latest of each
 * variant beside the hand-set weights, merge copies them once, and a
 * schema-5 database made by 7e6a745 (tests/fixtures/7e6a745.sql) migrates
 * keeping every row, its move_stats and game_metrics included.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "db_helpers.h"
#include "eval.h"
#include "merge.h"
#include "migration_helpers.h"
#include "report.h"
#include "report_helpers.h"
#include "runner.h"
#include "store.h"
#include "sweep.h"
#include "tune.h"

#ifndef RULELAB_FIXTURES
#error "RULELAB_FIXTURES must name tests/fixtures"
#endif

/* Plays a small tafl sweep (random against a tiny MCTS, both orders, 30
 * games a cell) into path. */
static void play_sweep(const char *path)
{
    struct sweep s;
    char err[1024];
    if (sweep_parse("t.ini", "[sweep]\nname = tunings\nseed = 4\ngames = 30\n"
                    "[game tafl]\nmax_plies = 40\n[agents]\na = random\n"
                    "b = mcts(iterations=5)\n", &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct store *st;
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    struct run_options o = {2, 1, 2.0, 500, {0, 0, NULL}};
    struct run_result r;
    assert_int_equal(runner_run(&s, st, &o, &r, err, sizeof err), 0);
    store_close(st);
    sweep_free(&s);
}

/* Tunes the one variant of path (every game) into *r. */
static void tune_one(const char *path, struct tune_result *r)
{
    struct store *st;
    char err[1024], (*variants)[VARIANT_TEXT_MAX] = NULL;
    int n = 0;
    assert_int_equal(store_open(path, 1, &st, err, sizeof err), 0);
    assert_int_equal(tune_variants(store_db(st), "tafl", NULL, &variants, &n,
                                   err, sizeof err), 0);
    assert_int_equal(n, 1);
    struct tune_options o = {NULL, TUNE_SKIP_PLIES, 3000, 0.2, 1,
                             {TUNE_SCALE, 1e-3, 100, 1e-12}};
    if (tune_variant(store_db(st), variants[0], &o, r, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(variants);
    store_close(st);
}

/* Saves r into path. */
static void save(const char *path, const struct tune_result *r)
{
    struct store *st;
    char err[1024];
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    if (tune_save(st, r, 1, NULL, "ab", err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
}

/* Builds the report of path into *rep. */
static void report_of(const char *path, struct report *rep)
{
    struct store *st;
    char err[1024];
    assert_int_equal(store_open(path, 1, &st, err, sizeof err), 0);
    assert_int_equal(report_build(store_db(st), NULL, rep, err, sizeof err), 0);
    store_close(st);
}

/* The saved row holds the result's own figures; the report reads them
 * back for its variant, weight by weight, beside the hand-set ones; a
 * database without tunings shows none. */
static void test_saved_and_reported(void **state)
{
    (void)state;
    char path[64];
    db_temp_path(path, sizeof path);
    play_sweep(path);
    struct report rep;
    report_of(path, &rep);
    assert_int_equal(rep.n_tunings, 0);
    report_free(&rep);
    struct tune_result r;
    tune_one(path, &r);
    save(path, &r);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM tunings"), 1);
    assert_int_equal(db_count(path, "SELECT positions FROM tunings"), r.train);
    assert_int_equal(db_count(path, "SELECT held_out FROM tunings"), r.held);
    assert_int_equal(db_count(path, "SELECT games FROM tunings"), r.games);
    report_of(path, &rep);
    assert_int_equal(rep.n_tunings, 1);
    const struct tuning_row *t = &rep.tunings[0];
    assert_string_equal(t->variant, r.variant);
    assert_int_equal(t->n_weights, r.eval->n_features);
    for (int i = 0; i < t->n_weights; i++) {
        assert_string_equal(t->name[i], r.eval->weights[i].name);
        /* stored with 6 significant digits */
        assert_float_equal(t->fitted[i], r.fitted[i],
                           1e-5 * fabs(r.fitted[i]) + 1e-9);
        assert_float_equal(t->hand[i], r.eval->weights[i].def, 1e-9);
    }
    assert_float_equal(t->loss_fitted, r.loss_fitted[1], 1e-12);
    assert_float_equal(t->loss_hand, r.loss_hand[1], 1e-12);
    char *buf = report_printed(&rep, REPORT_TABLE);
    assert_non_null(strstr(buf, "fitted evaluation weights per variant"));
    assert_non_null(strstr(buf, "tafl_attackers"));
    free(buf);
    buf = report_printed(&rep, REPORT_JSON);
    assert_non_null(strstr(buf, "\"tunings\": [\n    {\"variant\": "));
    assert_non_null(strstr(buf, "\"weights\": [{\"name\": \"tafl_attackers\", "
                                "\"hand_set\": 50, \"fitted\": "));
    free(buf);
    report_free(&rep);
    db_remove(path);
}

/* Merged: the tunings come along, once however often they are merged. */
static void test_merged_once(void **state)
{
    (void)state;
    char path[64], out[64], err[1024];
    db_temp_path(path, sizeof path);
    db_temp_path(out, sizeof out);
    play_sweep(path);
    struct tune_result r;
    tune_one(path, &r);
    save(path, &r);
    const char *in[] = {path};
    assert_int_equal(merge_databases(out, in, 1, NULL, err, sizeof err), 0);
    assert_int_equal(merge_databases(out, in, 1, NULL, err, sizeof err), 0);
    const char *rows = "SELECT v.canonical, t.sweep, t.created, t.positions,"
                       " t.held_out, t.games, t.loss_hand, t.loss_fitted,"
                       " t.hand_weights, t.fitted_weights, t.spec FROM"
                       " tunings t JOIN variants v ON v.id = t.variant_id";
    char *a = db_rows(path, rows), *b = db_rows(out, rows);
    assert_string_equal(a, b);
    assert_int_equal(db_count(out, "SELECT COUNT(*) FROM tunings"), 1);
    free(a);
    free(b);
    db_remove(path);
    db_remove(out);
}

/* A schema-5 database made by 7e6a745 migrates up keeping every row. */
static void test_migration_from_schema_5(void **state)
{
    (void)state;
    char old[64];
    db_temp_path(old, sizeof old);
    static const char *const tables[] = {"games", "cells", "runs", "sweeps",
                                         "move_stats", "game_metrics"};
    migrate_keeping_rows(old, RULELAB_FIXTURES "/7e6a745.sql", 5, tables, 6);
    /* tests/fixtures/7e6a745.ini: 2 games of random against MCTS, MCTS's
     * plies recorded, both games cached */
    assert_int_equal(db_count(old, "SELECT COUNT(*) FROM games"), 2);
    assert_true(db_count(old, "SELECT COUNT(*) FROM move_stats") > 0);
    assert_int_equal(db_count(old, "SELECT COUNT(*) FROM game_metrics"), 2);
    assert_int_equal(db_count(old, "SELECT COUNT(*) FROM tunings"), 0);
    db_remove(old);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saved_and_reported),
        cmocka_unit_test(test_merged_once),
        cmocka_unit_test(test_migration_from_schema_5),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
