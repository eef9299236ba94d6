/*
 * test_metrics.c -- the game metrics that need replays or per-move values:
 * the game_metrics cache (metrics.h) against the naive tafl reference
 * (tests/ref/tafl_ref.c, which counts every position's legal moves on its
 * own), computed once and then kept, and refusing a damaged stored move
 * with nothing written; and the report's branching factor,
 * lead changes and settled share on a hand-made database whose values are
 * derived by hand below.
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
#include "game.h"
#include "metrics.h"
#include "report.h"
#include "report_helpers.h"
#include "runner.h"
#include "store.h"
#include "sweep.h"
#include "tafl_ref.h"
#include "variant.h"

/* ---- the cache ---------------------------------------------------------- */

/* Random tafl games (no shuttle rule: the reference does not have it). */
static const char *const cache_sweep =
    "[sweep]\nname = cache\nseed = 21\ngames = 6\n"
    "[game tafl]\nrepetition_limit = 0\nmax_plies = 40\n"
    "[agents]\na = random\nb = mcts(iterations=3)\n"
    "[matchups]\npairs = a vs b\n";

/* The legal moves of each position of a stored game, counted by the
 * reference: its moves replayed by the engine, each position written as
 * text and given to tafl_ref_perft at depth 1. */
static void reference_counts(const char *variant, const char *moves,
                             long *positions, long *legal)
{
    struct variant v;
    char err[256];
    if (variant_parse(variant, &v, err, sizeof err) != 0)
        fail_msg("%s", err);
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    if (game_setup(&v, st, NULL, "", err, sizeof err) != 0)
        fail_msg("%s", err);
    tafl_ref_params p;
    tafl_ref_defaults(&p);
    *positions = *legal = 0;
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", moves);
    char *save = NULL;
    for (char *m = strtok_r(copy, " ", &save); m;
         m = strtok_r(NULL, " ", &save)) {
        char text[256];
        v.game->to_text(st, text, sizeof text);
        *legal += tafl_ref_perft(text, &p, 1);
        (*positions)++;
        move_t mv;
        assert_int_equal(v.game->move_from_text(st, m, &mv), 0);
        v.game->apply(st, mv);
    }
}

/* Plays cache_sweep's 12 games into a new database, its path in path. */
static void play_cache_sweep(char *path, size_t n)
{
    char err[1024];
    db_temp_path(path, n);
    struct sweep s;
    if (sweep_parse("cache.ini", cache_sweep, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct store *st;
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    struct run_options o = {1, 1, 2.0, 500, {0, 0, NULL}};
    struct run_result rr;
    assert_int_equal(runner_run(&s, st, &o, &rr, err, sizeof err), 0);
    store_close(st);
    sweep_free(&s);
}

static void test_cache_against_reference(void **state)
{
    (void)state;
    char path[64], err[1024];
    play_cache_sweep(path, sizeof path);
    struct store *st;
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    struct metrics_result r;
    assert_int_equal(metrics_cache(st, NULL, &r, NULL, err, sizeof err), 0);
    assert_int_equal(r.games, 12);
    assert_int_equal(r.computed, 12);
    assert_int_equal(r.cached, 0);
    /* again: every game cached already */
    assert_int_equal(metrics_cache(st, NULL, &r, NULL, err, sizeof err), 0);
    assert_int_equal(r.computed, 0);
    assert_int_equal(r.cached, 12);
    /* another sweep's name: none of these games */
    assert_int_equal(metrics_cache(st, "other", &r, NULL, err, sizeof err), 0);
    assert_int_equal(r.games, 0);
    store_close(st);
    char *rows = db_rows(path, "SELECT v.canonical, g.moves, m.positions,"
                         " m.legal_moves, g.plies FROM games g JOIN cells c ON"
                         " c.id = g.cell_id JOIN variants v ON v.id ="
                         " c.variant_id JOIN game_metrics m ON m.game_id ="
                         " g.id ORDER BY g.id");
    int n = 0;
    char *lines = NULL;
    for (char *line = strtok_r(rows, "\n", &lines); line;
         line = strtok_r(NULL, "\n", &lines)) {
        char *f[5], *save = NULL;
        f[0] = strtok_r(line, "|", &save);
        for (int k = 1; k < 5; k++)
            f[k] = strtok_r(NULL, "|", &save);
        long positions, legal;
        reference_counts(f[0], f[1], &positions, &legal);
        assert_int_equal(atol(f[2]), positions);
        assert_int_equal(atol(f[3]), legal);
        assert_int_equal(atol(f[4]), positions);
        n++;
    }
    assert_int_equal(n, 12);
    free(rows);
    db_remove(path);
}

/* A stored game whose second move was damaged (a man moved onto itself,
 * never legal): store_each_game hands it over, game_replay refuses it,
 * and metrics_cache fails naming the game and the move, with no row
 * written, not even for the games read before it. */
static void test_cache_refuses_a_damaged_game(void **state)
{
    (void)state;
    char path[64], err[1024];
    play_cache_sweep(path, sizeof path);
    struct store *st;
    /* game 7: its first move kept, the second made e5e5, the rest dropped */
    db_exec(path, "UPDATE games SET moves = substr(moves, 1, instr(moves,"
                  " ' ')) || 'e5e5' WHERE id = 7");
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    struct metrics_result r;
    assert_int_equal(metrics_cache(st, NULL, &r, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "game 7 does not replay: move 2 'e5e5' is"
                                " not legal there"));
    store_close(st);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM game_metrics"), 0);
    db_remove(path);
}

/* ---- the report --------------------------------------------------------- */

/* One hand-made game of cell 1: result, plies. */
static void add_game(const char *path, int index, const char *result,
                     int plies)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "INSERT INTO games (cell_id, game_index, seed, side0, side1,"
             " result, winner_seat, reason, plies, duration_ms, finished,"
             " moves) VALUES (1, %d, %d, 'attackers', 'defenders', '%s', %s,"
             " '%s', %d, 1.0, '2026-01-01T00:00:00Z', 'a1a2')",
             index, index, result,
             strcmp(result, "seat0") == 0   ? "0"
             : strcmp(result, "seat1") == 0 ? "1"
                                            : "NULL",
             strcmp(result, "draw") == 0 ? "ply_cap" : "king_escaped", plies);
    db_exec(path, sql);
}

/* The mover's value at `ply` of game `index`. */
static void add_value(const char *path, int index, int ply, double value)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "INSERT INTO move_stats SELECT id, %d, 10, 10, 2, %.3f, 0 FROM"
             " games WHERE game_index = %d", ply, value, index);
    db_exec(path, sql);
}

/* Five games; seat 0 moves at even plies, so seat 0's view of a value at
 * an odd ply is 1 - value, and above 1/2 seat 0 leads:
 *   A (0): seat 0 wins in 6. Values .6 .7 .5 .2 .9 .1 -> seat 0's view
 *      .6 .3 (tie) .8 .9 .9: leaders 0 1 - 0 0 0: 2 changes; the winner
 *      leads from ply 3 to the end: settled 3/6 = .5.
 *   B (1): seat 1 wins in 4, values at plies 1 and 3 only (one agent
 *      searched): .8 .9 -> seat 0's .2 .1: seat 1 leads from ply 1: 0
 *      changes, settled 1/4 = .25.
 *   C (2): a draw in 2: .4 .4 -> .4 .6: 1 change; not decisive.
 *   D (3): seat 0 wins in 4: plies 0 and 2 at .3 .2: seat 1 leads to the
 *      end, so the winner never led: settled 4/4 = 1.
 *   E (4): no values: not counted.
 * Lead changes (2 + 0 + 1 + 0) / 4 = .75 over 4 games; settled
 * (.5 + .25 + 1) / 3 = .583333 over 3. Branching from the cache rows of
 * A (6 positions, 120 moves) and B (4, 100): 220 / 10 = 22 over 2 games. */
static void test_report_play_metrics(void **state)
{
    (void)state;
    char path[64], err[1024];
    db_temp_path(path, sizeof path);
    struct sweep s;
    if (sweep_parse("hand.ini", "[sweep]\nname = hand\ngames = 5\n"
                    "[game tafl]\n[agents]\na = random\n"
                    "b = mcts(iterations=2)\n[matchups]\npairs = a vs b\n"
                    "orders = given\n", &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct store *st;
    int64_t ids[4];
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), 0);
    store_close(st);
    assert_int_equal(ids[0], 1);
    add_game(path, 0, "seat0", 6);
    add_game(path, 1, "seat1", 4);
    add_game(path, 2, "draw", 2);
    add_game(path, 3, "seat0", 4);
    add_game(path, 4, "seat1", 9);
    const double a[] = {.6, .7, .5, .2, .9, .1};
    for (int ply = 0; ply < 6; ply++)
        add_value(path, 0, ply, a[ply]);
    add_value(path, 1, 1, .8);
    add_value(path, 1, 3, .9);
    add_value(path, 2, 0, .4);
    add_value(path, 2, 1, .4);
    add_value(path, 3, 0, .3);
    add_value(path, 3, 2, .2);
    db_exec(path, "INSERT INTO game_metrics SELECT id, 6, 120, 1 FROM games"
            " WHERE game_index = 0");
    db_exec(path, "INSERT INTO game_metrics SELECT id, 4, 100, 1 FROM games"
            " WHERE game_index = 1");
    assert_int_equal(store_open(path, 1, &st, err, sizeof err), 0);
    struct report r;
    assert_int_equal(report_build(store_db(st), NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.n_cells, 1);
    const struct report_row *c = &r.cells[0];
    assert_int_equal(c->branching_games, 2);
    assert_float_equal(c->branching, 22.0, 1e-12);
    assert_int_equal(c->lead_games, 4);
    assert_float_equal(c->lead_changes, 0.75, 1e-12);
    assert_int_equal(c->settled_games, 3);
    assert_float_equal(c->lead_settled, (0.5 + 0.25 + 1.0) / 3, 1e-12);
    char *buf = report_printed(&r, REPORT_JSON);
    assert_non_null(strstr(buf, "\"branching\": 22.000000, "
                                "\"branching_games\": 2, \"lead_changes\": "
                                "0.750000, \"lead_changes_games\": 4, "
                                "\"lead_settled\": 0.583333, "
                                "\"lead_settled_games\": 3"));
    free(buf);
    report_free(&r);
    store_close(st);
    db_remove(path);
    sweep_free(&s);
}

/* A cell without cached metrics or values shows n/a (NAN, JSON null). */
static void test_report_without_play_metrics(void **state)
{
    (void)state;
    char path[64], err[1024];
    db_temp_path(path, sizeof path);
    struct sweep s;
    if (sweep_parse("none.ini", "[sweep]\nname = none\ngames = 2\n"
                    "[game jetan]\nmax_plies = 10\n[agents]\na = random\n"
                    "[matchups]\npairs = a vs a\norders = given\n", &s, err,
                    sizeof err) != 0)
        fail_msg("%s", err);
    struct store *st;
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    struct run_options o = {1, 1, 2.0, 500, {0, 0, NULL}};
    struct run_result rr;
    assert_int_equal(runner_run(&s, st, &o, &rr, err, sizeof err), 0);
    struct report r;
    assert_int_equal(report_build(store_db(st), NULL, &r, err, sizeof err), 0);
    assert_true(isnan(r.cells[0].branching) && isnan(r.cells[0].lead_changes)
                && isnan(r.cells[0].lead_settled));
    char *buf = report_printed(&r, REPORT_JSON);
    assert_non_null(strstr(buf, "\"branching\": null, \"branching_games\": 0"));
    free(buf);
    report_free(&r);
    store_close(st);
    db_remove(path);
    sweep_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_against_reference),
        cmocka_unit_test(test_cache_refuses_a_damaged_game),
        cmocka_unit_test(test_report_play_metrics),
        cmocka_unit_test(test_report_without_play_metrics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
