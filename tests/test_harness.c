/*
 * test_harness.c -- sweep files, the store, the runner and the report:
 * a good file expands to the expected cells and seeds; each kind of bad
 * file names its file, line and fault; stored games read back as written;
 * the same sweep gives the same rows on 1 and 2 threads, with and without
 * early stopping; and the report's numbers equal a hand computation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "db_helpers.h"
#include "report.h"
#include "runner.h"
#include "stats.h"
#include "store.h"
#include "sweep.h"

static const char *small_sweep =
    "; a small sweep for the tests\n"
    "[sweep]\n"
    "name = small\n"
    "seed = 7\n"
    "games = 6\n"
    "\n"
    "[game tafl]\n"
    "first = attackers, defenders\n"
    "max_plies = 60\n"
    "[game jetan]\n"
    "\n"
    "[agents]\n"
    "rnd = random\n"
    "tiny = mcts(iterations=8)\n"
    "[matchups]\n"
    "pairs = rnd vs tiny\n";

static void load(const char *text, struct sweep *s)
{
    char err[1024];
    if (sweep_parse("test.ini", text, s, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void test_sweep_expands(void **state)
{
    (void)state;
    struct sweep s;
    load(small_sweep, &s);
    assert_string_equal(s.name, "small");
    assert_int_equal(s.seed, 7);
    assert_int_equal(s.games_per_cell, 6);
    assert_int_equal(s.n_agents, 2);
    /* every own parameter of mcts (agents/mcts.c), sorted, defaults
     * filled in; the evaluation weights only off their defaults */
    assert_string_equal(s.agents[1].spec,
                        "mcts(bias=0,c=1.4,decisive=1,epsilon=0.1,eval_cut=0,"
                        "eval_scale=200,iterations=8,max_mb=64,max_nodes=0,"
                        "ms=0,playout=random,playout_cap=0,prior=capture,"
                        "reuse=1,solver=1,widen=0)");
    /* tafl x 2 values x 2 orders, then jetan x 1 x 2 */
    assert_int_equal(s.n_cells, 6);
    assert_non_null(strstr(s.cells[0].variant_text, "first=attackers"));
    assert_non_null(strstr(s.cells[0].variant_text, "max_plies=60"));
    assert_int_equal(s.cells[0].agent[0], 0);
    assert_int_equal(s.cells[1].agent[0], 1); /* the other seat order */
    assert_non_null(strstr(s.cells[2].variant_text, "first=defenders"));
    assert_string_equal(s.cells[4].variant.game->name, "jetan");
    /* seeds depend on the cell and index only */
    uint64_t a = sweep_game_seed(&s, &s.cells[0], 3);
    struct sweep again;
    load(small_sweep, &again);
    assert_int_equal(a, sweep_game_seed(&again, &again.cells[0], 3));
    assert_int_not_equal(a, sweep_game_seed(&s, &s.cells[0], 4));
    assert_int_not_equal(a, sweep_game_seed(&s, &s.cells[1], 3));
    sweep_free(&again);
    sweep_free(&s);
}

static void expect_bad(const char *text, const char *needle)
{
    struct sweep s;
    char err[1024] = "";
    assert_int_equal(sweep_parse("bad.ini", text, &s, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error '%s' lacks '%s'", err, needle);
}

static void test_sweep_errors(void **state)
{
    (void)state;
    const char *head = "[sweep]\nname = x\ngames = 2\n";
    char text[1024];
#define BAD(body, needle)                                          \
    do {                                                           \
        snprintf(text, sizeof text, "%s%s", head, body);           \
        expect_bad(text, needle);                                  \
    } while (0)
    BAD("[game tafl]\n[agents]\na = random\nb = random\n[colours]\nx = 1\n",
        "bad.ini:8: unknown section [colours]");
    BAD("size = 3\n", "bad.ini:4: unknown key 'size' in [sweep]");
    BAD("[game chess]\nfirst = white\n", "bad.ini:4: unknown game 'chess'");
    BAD("[game tafl]\nfirst = attackers, sideways\n",
        "bad.ini:5: tafl: bad value 'sideways' for first (allowed: "
        "attackers|defenders)");
    BAD("[game tafl]\nthrone = 1\n", "bad.ini:5: tafl: unknown key 'throne'");
    BAD("[game tafl]\n[agents]\na = mcts(iters=3)\n",
        "bad.ini:6: agent a: mcts: unknown key 'iters'");
    BAD("[game tafl]\n[agents]\na = random\na = random\n",
        "bad.ini:7: agent 'a' named twice");
    BAD("[game tafl]\n[agents]\na = random\n[matchups]\npairs = a vs b\n",
        "bad.ini:8: unknown agent 'b'");
    BAD("[game tafl]\n[agents]\na = random\n[matchups]\npairs = a b\n",
        "bad.ini:8: 'a b' is no pair");
    BAD("[game tafl]\n[agents]\na = random\n[matchups]\norders = some\n",
        "orders must be both or given");
    BAD("[game tafl]\n[agents]\na = random\n", "pairs is missing");
    BAD("seed = -4\n", "bad.ini:4: seed must be a whole number");
    BAD("stop = maybe\n", "stop must be none, sprt or ci");
    BAD("[agents]\na = random\nb = random\n", "no [game NAME] section");
    BAD("[game tafl]\n", "no agents");
    BAD("this is not ini\n", "bad.ini:4: not INI");
#undef BAD
    expect_bad("[sweep]\ngames = 2\n[game tafl]\n", "needs a name");
    expect_bad("[sweep]\nname = x\n[game tafl]\n", "needs games");
    expect_bad("[sweep]\nname = a b\n", "bad.ini:2: name must be");
    expect_bad("[sweep]\nname = x\ngames = 2.5\n",
               "bad.ini:3: games must be a whole number");
}

/* ---- the store and the runner ------------------------------------------ */

static void run_into(const char *text, const char *path, int threads,
                     struct run_result *r)
{
    struct sweep s;
    struct store *st;
    char err[1024];
    load(text, &s);
    if (store_open(path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct run_options o = {threads, 1, 2.0, 3, {0, 0, NULL}};
    if (runner_run(&s, st, &o, r, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
    sweep_free(&s);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_same_rows_on_one_and_two_threads(void **state)
{
    (void)state;
    char one[64], two[64];
    struct run_result r1, r2, again;
    db_temp_path(one, sizeof one);
    db_temp_path(two, sizeof two);
    run_into(small_sweep, one, 1, &r1);
    run_into(small_sweep, two, 2, &r2);
    assert_int_equal(r1.total, 36);
    assert_int_equal(r1.played, 36);
    assert_int_equal(r2.played, 36);
    char *a = db_game_rows(one), *b = db_game_rows(two);
    assert_int_equal(count_lines(a), 36);
    assert_string_equal(a, b);
    /* running it again resumes: nothing left, nothing duplicated */
    run_into(small_sweep, two, 2, &again);
    assert_int_equal(again.total, 0);
    char *c = db_game_rows(two);
    assert_string_equal(a, c);
    /* stored games replay to their stored results */
    struct store *st;
    char err[256];
    assert_int_equal(store_open(one, 1, &st, err, sizeof err), 0);
    sqlite3_stmt *q;
    sqlite3_prepare_v2(store_db(st), "SELECT variant, moves, result, reason,"
                       " plies FROM game_view", -1, &q, NULL);
    while (sqlite3_step(q) == SQLITE_ROW) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char g[GAME_MAX_STATE_SIZE];
        variant_parse((const char *)sqlite3_column_text(q, 0), &v, NULL, 0);
        assert_int_equal(game_setup(&v, g, NULL,
                                    (const char *)sqlite3_column_text(q, 1),
                                    err, sizeof err), 0);
        struct game_status s = v.game->status(g);
        const char *names[] = {"ongoing", "seat0", "seat1", "draw"};
        assert_string_equal(names[s.outcome], sqlite3_column_text(q, 2));
        assert_string_equal(end_reason_name(s.reason),
                            sqlite3_column_text(q, 3));
    }
    sqlite3_finalize(q);
    store_close(st);
    free(a);
    free(b);
    free(c);
    db_remove(one);
    db_remove(two);
}

static void test_early_stop_is_deterministic(void **state)
{
    (void)state;
    /* random vs random in tafl: attackers rarely win, so the interval
     * narrows fast; stop once it is 0.5 wide (after min_games). */
    const char *text =
        "[sweep]\nname = stop\nseed = 3\ngames = 40\nstop = ci\n"
        "ci_width = 0.5\nmin_games = 5\n"
        "[game tafl]\nmax_plies = 80\n"
        "[agents]\na = random\nb = mcts(iterations=4)\n"
        "[matchups]\npairs = a vs b\n";
    char one[64], two[64];
    struct run_result r1, r2;
    db_temp_path(one, sizeof one);
    db_temp_path(two, sizeof two);
    run_into(text, one, 1, &r1);
    run_into(text, two, 2, &r2);
    char *a = db_game_rows(one), *b = db_game_rows(two);
    assert_string_equal(a, b);
    /* both cells stopped early, after the same games */
    assert_true(count_lines(a) < 80);
    assert_true(count_lines(a) >= 10);
    struct store *st;
    char err[256];
    assert_int_equal(store_open(one, 1, &st, err, sizeof err), 0);
    sqlite3_stmt *q;
    sqlite3_prepare_v2(store_db(st), "SELECT COUNT(*) FROM cells WHERE "
                       "stopped_at IS NOT NULL AND stopped_at = (SELECT "
                       "COUNT(*) FROM games WHERE cell_id = cells.id)", -1, &q,
                       NULL);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 2);
    sqlite3_finalize(q);
    store_close(st);
    free(a);
    free(b);
    db_remove(one);
    db_remove(two);
}

/* ---- the report against a hand computation ---------------------------- */

static void insert(struct store *st, int64_t cell, int index,
                   enum game_outcome o, enum end_reason why, int plies)
{
    struct game_record g = {cell, index, (uint64_t)index, {"white", "black"},
                            o, why, plies, 1.0, "e2e4", 4, NULL};
    char err[256];
    if (store_insert_game(st, &g, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void test_report_matches_hand_computation(void **state)
{
    (void)state;
    const char *text =
        "[sweep]\nname = hand\ngames = 10\n[game serbest]\n"
        "[agents]\na = random\nb = mcts(iterations=5)\n"
        "[matchups]\npairs = a vs b\n";
    struct sweep s;
    load(text, &s);
    char path[64], err[512];
    db_temp_path(path, sizeof path);
    struct store *st;
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    int64_t ids[2];
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), 0);
    /* cell a-b: 6 seat-0 wins (plies 10..15), 3 seat-1 wins (20, 21, 22),
     * 1 draw by the ply cap (500) */
    for (int i = 0; i < 6; i++)
        insert(st, ids[0], i, GAME_WIN_SEAT0, REASON_CHECKMATE, 10 + i);
    for (int i = 0; i < 3; i++)
        insert(st, ids[0], 6 + i, GAME_WIN_SEAT1, REASON_KHAN, 20 + i);
    insert(st, ids[0], 9, GAME_DRAW, REASON_PLY_CAP, 500);
    /* cell b-a: 2 seat-0 wins, 2 draws by repetition (plies 30, 40, 50, 60) */
    insert(st, ids[1], 0, GAME_WIN_SEAT0, REASON_KHAN, 30);
    insert(st, ids[1], 1, GAME_WIN_SEAT0, REASON_KHAN, 40);
    insert(st, ids[1], 2, GAME_DRAW, REASON_REPETITION, 50);
    insert(st, ids[1], 3, GAME_DRAW, REASON_REPETITION, 60);
    assert_int_equal(store_commit(st, err, sizeof err), 0);
    struct report r;
    assert_int_equal(report_build(store_db(st), NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.n_cells, 2);
    const struct report_row *c = &r.cells[0];
    assert_int_equal(c->games, 10);
    assert_int_equal(c->wins[0], 6);
    assert_int_equal(c->wins[1], 3);
    assert_int_equal(c->draws_rules, 0);
    assert_int_equal(c->draws_cap, 1);
    /* (10+11+12+13+14+15 + 20+21+22 + 500) / 10 = 63.8; median of
     * 10..15,20,21,22,500 = (14 + 15) / 2 */
    assert_float_equal(c->mean_plies, 63.8, 1e-9);
    assert_float_equal(c->median_plies, 14.5, 1e-9);
    assert_float_equal(c->score0, 6.5 / 10, 1e-12);
    double lo, hi;
    stats_wilson(6.5, 10, 1.959963984540054, &lo, &hi);
    assert_float_equal(c->lo, lo, 1e-12);
    assert_float_equal(c->hi, hi, 1e-12);
    /* binomial: 6 of 9 decisive; P(X>=6) + P(X<=3) for n=9 = 2 * 130/512 */
    assert_float_equal(c->p, 260.0 / 512, 1e-9);
    assert_string_equal(c->reasons, "checkmate 6, khan 3, ply_cap 1");
    const struct report_row *d = &r.cells[1];
    assert_int_equal(d->games, 4);
    assert_int_equal(d->draws_rules, 2);
    assert_float_equal(d->median_plies, 45, 1e-9);
    /* 2 of 2 decisive: p = 2 * (1/4) = 0.5 */
    assert_float_equal(d->p, 0.5, 1e-9);
    /* Holm over the two cells: sorted 0.5078, 0.5 -> 0.5*2=1, max(..)=1 */
    assert_float_equal(d->p_holm, 1.0, 1e-9);
    assert_float_equal(c->p_holm, 1.0, 1e-9);
    /* one variant: 14 games, 8 seat-0 wins, 3 seat-1 wins, 3 draws */
    assert_int_equal(r.n_variants, 1);
    assert_int_equal(r.variants[0].games, 14);
    assert_float_equal(r.variants[0].score0, (8 + 1.5) / 14, 1e-12);
    /* pair a vs b: a has 6 + 0.5 in a-b and 0 wins + 2 draws as seat 1 of
     * b-a: (6.5 + 1) / 14 */
    assert_int_equal(r.n_pairs, 1);
    assert_string_equal(r.pairs[0].agent[0], "a");
    assert_int_equal(r.pairs[0].games, 14);
    assert_float_equal(r.pairs[0].score, 7.5 / 14, 1e-12);
    report_free(&r);
    store_close(st);
    sweep_free(&s);
    db_remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_expands),
        cmocka_unit_test(test_sweep_errors),
        cmocka_unit_test(test_same_rows_on_one_and_two_threads),
        cmocka_unit_test(test_early_stop_is_deterministic),
        cmocka_unit_test(test_report_matches_hand_computation),
    };
    return cmocka_run_group_tests_name("harness", tests, NULL, NULL);
}
