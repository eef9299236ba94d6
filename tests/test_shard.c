/*
 * test_shard.c -- the partition of a sweep into shards (shard.h): K/N
 * parsed strictly; every (cell, game index) in exactly one shard; shards
 * balanced as shard.h states (without a stop rule, each cell's games
 * within one of each other and the totals within one; with one, whole
 * cells, their numbers within one); owners that hand derivations give,
 * so the partition is the same in every program run; and shards played
 * by the runner hold, together, exactly the games of a one-machine run,
 * each with its seed and moves, also when a shard is resumed, and also
 * when a plan (shard_plan.c) deals a stop-rule sweep's cells.
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
#include "run_helpers.h"
#include "runner.h"
#include "shard.h"
#include "store.h"
#include "sweep.h"

/* ---- helpers ------------------------------------------------------------ */

/* A sweep of `cells` cells (tafl with max_plies 1..cells, one pair in one
 * order) and `games` games a cell; stop rule sprt when stop is set. */
static void make_sweep(struct sweep *s, int cells, int games, int stop,
                       int max_plies_base)
{
    char text[1024], values[512] = "";
    size_t len = 0;
    for (int i = 0; i < cells; i++)
        len += (size_t)snprintf(values + len, sizeof values - len, "%s%d",
                                i ? ", " : "", max_plies_base + i);
    snprintf(text, sizeof text,
             "[sweep]\nname = shardtest\nseed = 3\ngames = %d\n%s"
             "[game tafl]\nmax_plies = %s\n[agents]\na = random\n"
             "b = mcts(iterations=4)\n[matchups]\npairs = a vs b\n"
             "orders = given\n",
             games, stop ? "stop = sprt\nmin_games = 2\n" : "", values);
    char err[1024];
    if (sweep_parse("test.ini", text, s, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(s->n_cells, cells);
}

/* Sorts the lines of text (each ending in '\n') in place. */
static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_lines(char *text)
{
    size_t n = 0, len = strlen(text);
    for (char *p = text; *p; p++)
        n += *p == '\n';
    char **line = malloc((n ? n : 1) * sizeof *line);
    char *copy = malloc(len + 1);
    memcpy(copy, text, len + 1);
    size_t i = 0;
    for (char *p = copy; *p; i++) {
        char *end = strchr(p, '\n');
        *end = '\0';
        line[i] = p;
        p = end + 1;
    }
    qsort(line, n, sizeof *line, compare_lines);
    size_t at = 0;
    for (i = 0; i < n; i++)
        at += (size_t)sprintf(text + at, "%s\n", line[i]);
    free(line);
    free(copy);
}

/* Every column of game_view that a shard and a one-machine run share:
 * all but the ids (id, cell_id) and the timing (duration_ms, finished). */
static const char *const content =
    "SELECT sweep, sweep_seed, game, variant, agent0_name, agent1_name,"
    " agent0, agent1, game_index, seed, side0, side1, result, winner_seat,"
    " reason, plies, moves, opening_position, opening, pair_id, openings"
    " FROM game_view ORDER BY variant, agent0, agent1, game_index";

/* ---- parsing K/N -------------------------------------------------------- */

static void test_parse(void **state)
{
    (void)state;
    struct shard sh;
    char err[512];
    assert_int_equal(shard_parse("0/1", &sh, err, sizeof err), 0);
    assert_int_equal(sh.k, 0);
    assert_int_equal(sh.n, 1);
    assert_int_equal(shard_parse("15/16", &sh, err, sizeof err), 0);
    assert_int_equal(sh.k, 15);
    assert_int_equal(sh.n, 16);
    static const char *const bad[] = {"4/4", "5/4", "-1/4", "1/0", "1/",
                                      "/4", "1/4x", "a/b", "1", "", "1/+4",
                                      " 1/4", "1/4/2", "0/100001",
                                      "99999999999/100000"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        assert_int_equal(shard_parse(bad[i], &sh, err, sizeof err), -1);
        assert_non_null(strstr(err, "--shard"));
    }
    shard_parse("4/4", &sh, err, sizeof err);
    assert_non_null(strstr(err, "below N (0 to 3), not 4"));
    shard_parse("1/0", &sh, err, sizeof err);
    assert_non_null(strstr(err, "N must be from 1"));
}

/* ---- the partition ------------------------------------------------------ */

/* Checks, for s and n: every (cell, index) in exactly one shard; the
 * owner is the dealer's (dealing the games round-robin in sweep order
 * without a stop rule, the cells with one); shard_next and shard_count
 * agree with shard_owns index by index; and the balance shard.h states. */
static void check_partition(const struct sweep *s, int n, const int *plan)
{
    int G = s->games_per_cell;
    long *total = calloc((size_t)n, sizeof *total);
    long *cells_of = calloc((size_t)n, sizeof *cells_of);
    long dealt = 0; /* the dealer's counter: games (or cells) so far */
    for (int c = 0; c < s->n_cells; c++) {
        long *in_cell = calloc((size_t)n, sizeof *in_cell);
        for (int i = 0; i < G; i++) {
            int owners = 0, owner = -1;
            for (int k = 0; k < n; k++) {
                struct shard sh = {k, n, plan};
                if (shard_owns(s, &sh, c, i)) {
                    owners++;
                    owner = k;
                }
            }
            assert_int_equal(owners, 1);
            long dealer = s->stop == STOP_NONE ? dealt % n
                          : plan              ? plan[c]
                                              : c % n;
            assert_int_equal(owner, dealer);
            dealt++;
            in_cell[owner]++;
            total[owner]++;
        }
        long lo = G, hi = 0;
        int holders = 0;
        for (int k = 0; k < n; k++) {
            lo = in_cell[k] < lo ? in_cell[k] : lo;
            hi = in_cell[k] > hi ? in_cell[k] : hi;
            holders += in_cell[k] > 0;
            if (in_cell[k])
                cells_of[k]++;
        }
        if (s->stop == STOP_NONE)
            assert_true(hi - lo <= 1);
        else
            assert_int_equal(holders, 1); /* whole cells */
        /* shard_next and shard_count against a walk over the indices */
        for (int k = 0; k < n; k++) {
            struct shard sh = {k, n, plan};
            for (int from = 0; from <= G; from++) {
                int next = from;
                while (next < G && !shard_owns(s, &sh, c, next))
                    next++;
                int got = shard_next(s, &sh, c, from);
                if (next < G)
                    assert_int_equal(got, next);
                else
                    assert_true(got >= G);
                long count = 0;
                for (int i = from; i < G; i++)
                    count += shard_owns(s, &sh, c, i);
                assert_int_equal(shard_count(s, &sh, c, from, G), count);
            }
        }
        free(in_cell);
    }
    long lo = total[0], hi = total[0], clo = cells_of[0], chi = cells_of[0];
    for (int k = 1; k < n; k++) {
        lo = total[k] < lo ? total[k] : lo;
        hi = total[k] > hi ? total[k] : hi;
        clo = cells_of[k] < clo ? cells_of[k] : clo;
        chi = cells_of[k] > chi ? cells_of[k] : chi;
    }
    if (s->stop == STOP_NONE)
        assert_true(hi - lo <= 1);
    else if (!plan) /* a plan balances cost, not the number of cells */
        assert_true(chi - clo <= 1);
    free(total);
    free(cells_of);
}

static void test_partition_disjoint_complete_balanced(void **state)
{
    (void)state;
    static const int shape[][2] = {{1, 1}, {3, 7}, {5, 4}, {4, 16}, {7, 3},
                                   {2, 33}};
    static const int ns[] = {1, 2, 3, 4, 7, 16, 40};
    for (size_t a = 0; a < sizeof shape / sizeof *shape; a++)
        for (int stop = 0; stop < 2; stop++) {
            struct sweep s;
            make_sweep(&s, shape[a][0], shape[a][1], stop, 20);
            for (size_t b = 0; b < sizeof ns / sizeof *ns; b++) {
                check_partition(&s, ns[b], NULL);
                /* with a plan: cell c to shard (c * c + 1) mod N, a deal
                 * that is neither round-robin nor balanced */
                int plan[64];
                for (int c = 0; c < s.n_cells; c++)
                    plan[c] = (c * c + 1) % ns[b];
                if (stop)
                    check_partition(&s, ns[b], plan);
            }
            sweep_free(&s);
        }
}

/* The owners of a 3-cell sweep of 7 games in 3 shards, derived by hand
 * from shard.h's rule (c * 7 + i) mod 3: cell 0 deals 0 1 2 0 1 2 0, cell
 * 1 starts at 7 mod 3 = 1, cell 2 at 14 mod 3 = 2. A fixed answer, so
 * the partition cannot change between program runs or machines. With a
 * stop rule, cell c is shard c mod 3's. */
static void test_partition_is_the_stated_one(void **state)
{
    (void)state;
    static const int owner[3][7] = {{0, 1, 2, 0, 1, 2, 0},
                                    {1, 2, 0, 1, 2, 0, 1},
                                    {2, 0, 1, 2, 0, 1, 2}};
    struct sweep s, again;
    make_sweep(&s, 3, 7, 0, 20);
    make_sweep(&again, 3, 7, 0, 20);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 7; i++)
            for (int k = 0; k < 3; k++) {
                struct shard sh = {k, 3, NULL};
                assert_int_equal(shard_owns(&s, &sh, c, i), owner[c][i] == k);
                assert_int_equal(shard_owns(&again, &sh, c, i),
                                 owner[c][i] == k);
            }
    /* shard 1 plays 2 + 3 + 2 games: counted from the table */
    struct shard one = {1, 3, NULL};
    assert_int_equal(shard_count(&s, &one, 0, 0, 7), 2);
    assert_int_equal(shard_count(&s, &one, 1, 0, 7), 3);
    assert_int_equal(shard_count(&s, &one, 2, 0, 7), 2);
    sweep_free(&s);
    sweep_free(&again);
    make_sweep(&s, 5, 7, 1, 20);
    struct shard two = {2, 3, NULL};
    for (int c = 0; c < 5; c++)
        assert_int_equal(shard_count(&s, &two, c, 0, 7), c == 2 ? 7 : 0);
    sweep_free(&s);
}

/* ---- shards played ------------------------------------------------------ */

/* Three shards, each into its own database, hold together exactly the
 * games of a one-machine run, each with the same content; each run row
 * says its shard; a shard run again plays nothing. */
static void run_shards_equal_one_machine(int stop, const int *plan)
{
    struct sweep s;
    make_sweep(&s, 3, 5, stop, 24);
    char whole[64], part[3][64];
    db_temp_path(whole, sizeof whole);
    struct shard all = {0, 0, NULL};
    long played = run_play(&s, whole, all);
    char *want = db_rows(whole, content);
    char *got = calloc(1, 1);
    long sum = 0;
    for (int k = 0; k < 3; k++) {
        struct shard sh = {k, 3, plan};
        db_temp_path(part[k], sizeof part[k]);
        long n = run_play(&s, part[k], sh);
        long expected = 0;
        for (int c = 0; c < s.n_cells; c++)
            expected += shard_count(&s, &sh, c, 0, s.games_per_cell);
        if (!stop) /* a stop rule may end a cell before its plan */
            assert_int_equal(n, expected);
        sum += n;
        char *r = db_rows(part[k], content);
        got = realloc(got, strlen(got) + strlen(r) + 1);
        strcat(got, r);
        free(r);
        char *run = db_rows(part[k],
                            "SELECT shard_index, shard_count FROM runs");
        char line[32];
        snprintf(line, sizeof line, "%d|3\n", k);
        assert_string_equal(run, line);
        free(run);
        /* resumed: nothing left to play */
        assert_int_equal(run_play(&s, part[k], sh), 0);
    }
    assert_int_equal(sum, played);
    /* the same games, each once: the same lines once sorted */
    sort_lines(want);
    sort_lines(got);
    assert_string_equal(want, got);
    free(want);
    free(got);
    db_remove(whole);
    for (int k = 0; k < 3; k++)
        db_remove(part[k]);
    sweep_free(&s);
}

static void test_shards_equal_one_machine(void **state)
{
    (void)state;
    run_shards_equal_one_machine(0, NULL);
}

static void test_stop_rule_shards_equal_one_machine(void **state)
{
    (void)state;
    run_shards_equal_one_machine(1, NULL);
}

/* A plan that gives shard 0 two cells, shard 1 none and shard 2 one: an
 * empty shard plays nothing, and the shards still hold the whole sweep. */
static void test_planned_shards_equal_one_machine(void **state)
{
    (void)state;
    static const int plan[3] = {2, 0, 0};
    run_shards_equal_one_machine(1, plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_partition_disjoint_complete_balanced),
        cmocka_unit_test(test_partition_is_the_stated_one),
        cmocka_unit_test(test_shards_equal_one_machine),
        cmocka_unit_test(test_stop_rule_shards_equal_one_machine),
        cmocka_unit_test(test_planned_shards_equal_one_machine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
