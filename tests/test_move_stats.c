/*
 * test_move_stats.c -- schema 5: per-move search figures (`record =
 * search`, table move_stats) and the game_metrics cache.
 *
 * The sweep key is read strictly; with it, the runner stores one row for
 * every ply of an agent that searches and none for a random agent's, with
 * figures that agree with the agent's budget; without it, none, and the
 * games are the same either way. Shards with figures merge into what a
 * one-machine run holds, and again add nothing. A schema-4 database made
 * by bdf4274 (tests/fixtures/bdf4274.sql) migrates keeping every row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "db_helpers.h"
#include "run_helpers.h"
#include "merge.h"
#include "migration_helpers.h"
#include "runner.h"
#include "shard.h"
#include "store.h"
#include "sweep.h"

#ifndef RULELAB_FIXTURES
#error "RULELAB_FIXTURES must name tests/fixtures"
#endif

/* ---- helpers ------------------------------------------------------------ */

/* A tafl sweep (ply cap 24), seat 0 `zero` against seat 1 `one`, in the
 * given order only, 3 games, with `record` ("" to leave the key out). */
static void make_sweep(struct sweep *s, const char *zero, const char *one,
                       const char *record)
{
    char text[1024], err[1024];
    snprintf(text, sizeof text,
             "[sweep]\nname = stats\nseed = 5\ngames = 3\n%s%s%s"
             "[game tafl]\nmax_plies = 24\n[agents]\nx = %s\ny = %s\n"
             "[matchups]\npairs = x vs y\norders = given\n",
             *record ? "record = " : "", record, *record ? "\n" : "", zero,
             one);
    if (sweep_parse("stats.ini", text, s, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* move_stats by natural key (the game's index and the ply), in order. */
static const char *const stats_rows =
    "SELECT g.game_index, m.ply, m.iterations, m.nodes, m.depth, m.value,"
    " m.proven FROM move_stats m JOIN games g ON g.id = m.game_id ORDER BY"
    " g.game_index, m.ply";

/* ---- the sweep key ------------------------------------------------------ */

static void test_record_key(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, "random", "mcts(iterations=5)", "");
    assert_int_equal(s.record_search, 0);
    sweep_free(&s);
    make_sweep(&s, "random", "mcts(iterations=5)", "none");
    assert_int_equal(s.record_search, 0);
    sweep_free(&s);
    make_sweep(&s, "random", "mcts(iterations=5)", "search");
    assert_int_equal(s.record_search, 1);
    sweep_free(&s);
    char err[1024];
    assert_int_equal(sweep_parse("bad.ini", "[sweep]\nname = x\ngames = 1\n"
                                 "record = all\n[game tafl]\n[agents]\n"
                                 "a = random\n", &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad.ini:4:"));
    assert_non_null(strstr(err, "record must be none or search, not 'all'"));
}

/* ---- what the runner stores --------------------------------------------- */

/* Random (seat 0) against mcts(iterations=30) (seat 1): a row for each of
 * MCTS's plies, the odd ones (seat 0 moves at ply 0), so floor(plies / 2)
 * a game, none for random's. MCTS ran at most its 30 iterations a move
 * (the solver may stop it early on a proven move) and its first move used
 * all 30 (nothing is proven at the start of tafl within 24 plies' reach
 * of 30 iterations); values are in 0..1. */
static void test_rows_for_searching_plies_only(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, "random", "mcts(iterations=30)", "search");
    char path[64];
    db_temp_path(path, sizeof path);
    run_play(&s, path, (struct shard){0, 0, NULL});
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM games"), 3);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM move_stats"),
                     db_count(path, "SELECT SUM(plies / 2) FROM games"));
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM move_stats WHERE"
                     " ply % 2 = 0"), 0);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM move_stats WHERE"
                     " iterations < 1 OR iterations > 30 OR value < 0 OR"
                     " value > 1 OR nodes < 1 OR proven NOT IN (-1, 0, 1)"),
                     0);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM move_stats WHERE"
                     " ply = 1 AND iterations = 30"), 3);
    db_remove(path);
    sweep_free(&s);
}

/* Alpha-beta in both seats: a row every ply, each with a depth, and with
 * nodes searched but on the ply before the cap (ply 23 of 24), where ab
 * sees the draw by the cap and searches nothing. */
static void test_alpha_beta_rows(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, "ab(nodes=300)", "ab(nodes=400)", "search");
    char path[64];
    db_temp_path(path, sizeof path);
    run_play(&s, path, (struct shard){0, 0, NULL});
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM move_stats"),
                     db_count(path, "SELECT SUM(plies) FROM games"));
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM move_stats WHERE"
                     " depth < 1 OR (nodes < 1 AND ply <> 23)"), 0);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM move_stats WHERE"
                     " nodes > 0"), db_count(path, "SELECT SUM(plies) -"
                     " SUM(plies = 24) FROM games"));
    db_remove(path);
    sweep_free(&s);
}

/* Without the key no row is stored, and the games are the same. */
static void test_same_games_without_rows(void **state)
{
    (void)state;
    struct sweep with, without;
    make_sweep(&with, "random", "mcts(iterations=30)", "search");
    make_sweep(&without, "random", "mcts(iterations=30)", "");
    char a[64], b[64];
    db_temp_path(a, sizeof a);
    db_temp_path(b, sizeof b);
    run_play(&with, a, (struct shard){0, 0, NULL});
    run_play(&without, b, (struct shard){0, 0, NULL});
    assert_int_equal(db_count(b, "SELECT COUNT(*) FROM move_stats"), 0);
    assert_true(db_count(a, "SELECT COUNT(*) FROM move_stats") > 0);
    char *ga = db_game_rows(a), *gb = db_game_rows(b);
    assert_string_equal(ga, gb);
    free(ga);
    free(gb);
    db_remove(a);
    db_remove(b);
    sweep_free(&with);
    sweep_free(&without);
}

/* ---- merge -------------------------------------------------------------- */

/* Two shards' figures merged: those of a one-machine run, row for row;
 * merged again, nothing added; a cached metric is copied, and replaced
 * only by one of a later engine version. */
static void test_merge_carries_rows(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, "random", "mcts(iterations=30)", "search");
    char whole[64], s0[64], s1[64], out[64], err[1024];
    db_temp_path(whole, sizeof whole);
    db_temp_path(s0, sizeof s0);
    db_temp_path(s1, sizeof s1);
    db_temp_path(out, sizeof out);
    run_play(&s, whole, (struct shard){0, 0, NULL});
    run_play(&s, s0, (struct shard){0, 2, NULL});
    run_play(&s, s1, (struct shard){1, 2, NULL});
    db_exec(s0, "INSERT INTO game_metrics SELECT id, 10, 250, 1 FROM games"
            " WHERE game_index = 0");
    const char *in[] = {s0, s1};
    assert_int_equal(merge_databases(out, in, 2, NULL, err, sizeof err), 0);
    char *want = db_rows(whole, stats_rows), *got = db_rows(out, stats_rows);
    assert_string_equal(want, got);
    free(got);
    assert_int_equal(db_count(out, "SELECT COUNT(*) FROM game_metrics g JOIN"
                     " games x ON x.id = g.game_id WHERE x.game_index = 0 AND"
                     " g.legal_moves = 250"), 1);
    /* again: the same rows; then a later engine version's metric wins */
    assert_int_equal(merge_databases(out, in, 2, NULL, err, sizeof err), 0);
    got = db_rows(out, stats_rows);
    assert_string_equal(want, got);
    free(got);
    db_exec(s0, "UPDATE game_metrics SET legal_moves = 260, engine_behaviour"
            " = 2");
    assert_int_equal(merge_databases(out, in, 2, NULL, err, sizeof err), 0);
    assert_int_equal(db_count(out, "SELECT legal_moves FROM game_metrics"),
                     260);
    free(want);
    db_remove(whole);
    db_remove(s0);
    db_remove(s1);
    db_remove(out);
    sweep_free(&s);
}

/* ---- the migration ------------------------------------------------------ */

/* A schema-4 database made by bdf4274 migrates up: every old row kept,
 * the two new tables empty; it merges into a new database. */
static void test_migration_from_schema_4(void **state)
{
    (void)state;
    char old[64], out[64], err[1024];
    db_temp_path(old, sizeof old);
    db_temp_path(out, sizeof out);
    static const char *const tables[] = {"games", "cells", "runs", "sweeps",
                                         "variants", "agents", "claims"};
    migrate_keeping_rows(old, RULELAB_FIXTURES "/bdf4274.sql", 4, tables, 7);
    /* tests/fixtures/bdf4274.ini: 2 cells x 2 games */
    assert_int_equal(db_count(old, "SELECT COUNT(*) FROM games"), 4);
    assert_int_equal(db_count(old, "SELECT COUNT(*) FROM move_stats"), 0);
    assert_int_equal(db_count(old, "SELECT COUNT(*) FROM game_metrics"), 0);
    const char *in[] = {old};
    assert_int_equal(merge_databases(out, in, 1, NULL, err, sizeof err), 0);
    char *a = db_game_rows(old), *b = db_game_rows(out);
    assert_string_equal(a, b);
    free(a);
    free(b);
    db_remove(old);
    db_remove(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_key),
        cmocka_unit_test(test_rows_for_searching_plies_only),
        cmocka_unit_test(test_alpha_beta_rows),
        cmocka_unit_test(test_same_games_without_rows),
        cmocka_unit_test(test_merge_carries_rows),
        cmocka_unit_test(test_migration_from_schema_4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
