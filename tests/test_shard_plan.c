/*
 * test_shard_plan.c -- shard plans (shard.h, shard_plan.c): the deal of
 * whole cells by estimated cost, and the plan file.
 *
 * The deal is checked on hand-derived examples, against Graham's bounds
 * for longest-first greedy scheduling (the costliest shard holds at most
 * the mean plus the costliest cell, and at most 4/3 - 1/(3N) of the best
 * possible maximum, found here by trying every deal of small cases), and
 * for stability: one list of costs, one plan. The file is written and read
 * back, and every way a plan can fail to fit its sweep is refused with a
 * message that says which.
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

#include "shard.h"
#include "sweep.h"

/* ---- helpers ------------------------------------------------------------ */

/* A stop-rule sweep of `cells` tafl cells (max_plies 20, 21, ...) with
 * the given seed. */
static void make_sweep(struct sweep *s, int cells, int seed)
{
    char text[1024], values[512] = "";
    size_t len = 0;
    for (int i = 0; i < cells; i++)
        len += (size_t)snprintf(values + len, sizeof values - len, "%s%d",
                                i ? ", " : "", 20 + i);
    snprintf(text, sizeof text,
             "[sweep]\nname = plantest\nseed = %d\ngames = 10\nstop = sprt\n"
             "[game tafl]\nmax_plies = %s\n[agents]\na = random\n"
             "b = mcts(iterations=4)\n[matchups]\npairs = a vs b\n"
             "orders = given\n", seed, values);
    char err[1024];
    if (sweep_parse("plan.ini", text, s, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(s->n_cells, cells);
}

/* The largest shard load of a deal. */
static double max_load(const double *cost, int n_cells, int n,
                       const int *plan)
{
    double load[64] = {0}, most = 0;
    for (int c = 0; c < n_cells; c++)
        load[plan[c]] += cost[c];
    for (int k = 0; k < n; k++)
        most = load[k] > most ? load[k] : most;
    return most;
}

/* The best possible largest load over every deal of n_cells to n shards
 * (n ** n_cells of them: small cases only). */
static double best_max_load(const double *cost, int n_cells, int n)
{
    int plan[16] = {0};
    double best = -1;
    for (;;) {
        double m = max_load(cost, n_cells, n, plan);
        best = best < 0 || m < best ? m : best;
        int c = 0; /* the next deal: count in base n */
        while (c < n_cells && ++plan[c] == n)
            plan[c++] = 0;
        if (c == n_cells)
            return best;
    }
}

/* A reproducible cost from a 64-bit linear congruential step. */
static double next_cost(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*x >> 40) / (double)(1 << 24) * 100.0;
}

/* ---- the deal ----------------------------------------------------------- */

/* Costs 10 and ten 1s in 2 shards: 10 to shard 0, then each 1 to shard 1,
 * the lighter one until it reaches 10 with the last. Round-robin by index
 * would give shard 0 the 10 and five 1s (15) against 5. */
static void test_balance_one_heavy_cell(void **state)
{
    (void)state;
    double cost[11] = {10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    int plan[11];
    assert_int_equal(shard_plan_balance(cost, 11, 2, plan), 0);
    assert_int_equal(plan[0], 0);
    for (int c = 1; c < 11; c++)
        assert_int_equal(plan[c], 1);
    assert_true(max_load(cost, 11, 2, plan) == 10);
}

/* Costs 5 4 3 3 3 in 2 shards, by hand: 5 to shard 0; 4 to shard 1 (4 <
 * 5); 3 to shard 1 (4 < 5, load 7); 3 to shard 0 (5 < 7, load 8); 3 to
 * shard 1 (7 < 8, load 10). The greedy rule's classic miss: 5+4 against
 * 3+3+3 would be 9. Ties go to the lower cell first and the lower shard:
 * four cells of cost 2 in 2 shards alternate 0 1 0 1. */
static void test_balance_by_hand(void **state)
{
    (void)state;
    double cost[5] = {5, 4, 3, 3, 3};
    int plan[5], want[5] = {0, 1, 1, 0, 1};
    assert_int_equal(shard_plan_balance(cost, 5, 2, plan), 0);
    for (int c = 0; c < 5; c++)
        assert_int_equal(plan[c], want[c]);
    assert_true(max_load(cost, 5, 2, plan) == 10);
    assert_true(best_max_load(cost, 5, 2) == 9);
    double even[4] = {2, 2, 2, 2};
    int tie[4], tie_want[4] = {0, 1, 0, 1};
    assert_int_equal(shard_plan_balance(even, 4, 2, tie), 0);
    for (int c = 0; c < 4; c++)
        assert_int_equal(tie[c], tie_want[c]);
    /* more shards than cells: one cell each, the rest empty */
    double three[3] = {1, 7, 4};
    int few[3], few_want[3] = {2, 0, 1};
    assert_int_equal(shard_plan_balance(three, 3, 5, few), 0);
    for (int c = 0; c < 3; c++)
        assert_int_equal(few[c], few_want[c]);
}

/* Random costs: every cell in one shard below n; the costliest shard
 * within Graham's bounds; the same costs give the same plan. */
static void test_balance_bounds(void **state)
{
    (void)state;
    uint64_t x = 12345;
    for (int round = 0; round < 300; round++) {
        int n_cells = 1 + round % 9, n = 1 + (round / 9) % 4;
        double cost[16], total = 0, biggest = 0;
        for (int c = 0; c < n_cells; c++) {
            cost[c] = round % 5 == 0 ? (double)(c % 3) : next_cost(&x);
            total += cost[c];
            biggest = cost[c] > biggest ? cost[c] : biggest;
        }
        int plan[16], again[16];
        assert_int_equal(shard_plan_balance(cost, n_cells, n, plan), 0);
        assert_int_equal(shard_plan_balance(cost, n_cells, n, again), 0);
        for (int c = 0; c < n_cells; c++) {
            assert_true(plan[c] >= 0 && plan[c] < n);
            assert_int_equal(plan[c], again[c]);
        }
        double got = max_load(cost, n_cells, n, plan);
        double best = best_max_load(cost, n_cells, n);
        assert_true(got <= total / n + biggest + 1e-9);
        assert_true(got <= (4.0 / 3 - 1.0 / (3 * n)) * best + 1e-9);
        assert_true(got >= best - 1e-9);
    }
}

/* ---- the file ----------------------------------------------------------- */

/* Writes a plan of s for n shards to path. */
static void write_plan(const char *path, const struct sweep *s, int n,
                       const int *plan)
{
    double cost[64];
    for (int c = 0; c < s->n_cells; c++)
        cost[c] = 1.5 * c;
    char err[1024];
    if (shard_plan_write(path, s, n, plan, cost, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* Reads path against s and n; the return code, the message in err. */
static int read_plan(const char *path, const struct sweep *s, int n,
                     int *plan, char *err, size_t errsz)
{
    err[0] = '\0';
    return shard_plan_read(path, s, n, plan, err, errsz);
}

/* A temporary file name (the file made and left empty). */
static void temp_path(char *path, size_t n)
{
    snprintf(path, n, "/tmp/rulelab-plan-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

/* Replaces the first line of path that starts with `from` by `to`
 * (to NULL: drops it), or appends `to` when from is NULL. */
static void edit_line(const char *path, const char *from, const char *to)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[8192] = "", line[1024];
    int done = 0;
    while (fgets(line, sizeof line, f)) {
        if (!done && from && strncmp(line, from, strlen(from)) == 0) {
            done = 1;
            if (to)
                strcat(strcat(text, to), "\n");
            continue;
        }
        strcat(text, line);
    }
    fclose(f);
    if (!from)
        strcat(strcat(text, to), "\n");
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The number (from 1) of the first line of path that starts with `start`. */
static int line_of(const char *path, const char *start)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int n = 0, found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        n++;
        found = strncmp(line, start, strlen(start)) == 0;
    }
    fclose(f);
    assert_true(found);
    return n;
}

static void test_file_round_trip(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, 5, 3);
    char path[64], err[2048];
    temp_path(path, sizeof path);
    int plan[5] = {1, 0, 2, 2, 0}, got[5];
    write_plan(path, &s, 3, plan);
    assert_int_equal(read_plan(path, &s, 3, got, err, sizeof err), 0);
    for (int c = 0; c < 5; c++)
        assert_int_equal(got[c], plan[c]);
    /* a plan read into shards plays whole cells as it deals them */
    struct shard sh = {2, 3, got};
    for (int c = 0; c < 5; c++)
        assert_int_equal(shard_owns(&s, &sh, c, 4), plan[c] == 2);
    unlink(path);
    sweep_free(&s);
}

/* Each way a plan can fail to fit, with the words its message must have. */
static void test_file_refusals(void **state)
{
    (void)state;
    struct sweep s, other_seed, other_cells;
    make_sweep(&s, 4, 3);
    make_sweep(&other_seed, 4, 4);
    make_sweep(&other_cells, 5, 3);
    int plan[5] = {0, 1, 1, 0, 1}, got[5];
    char path[64], err[2048];
    temp_path(path, sizeof path);

    write_plan(path, &s, 2, plan);
    assert_int_equal(read_plan(path, &other_seed, 2, got, err, sizeof err), -1);
    assert_non_null(strstr(err, "the plan is for sweep plantest (seed 3)"));
    char where[32]; /* the message names the sweep line's number */
    snprintf(where, sizeof where, "line %d:", line_of(path, "sweep "));
    assert_non_null(strstr(err, where));
    assert_int_equal(read_plan(path, &s, 3, got, err, sizeof err), -1);
    assert_non_null(strstr(err, "the plan deals 2 shards, not 3"));

    /* the same name and seed, other text (5 cells): the digest differs */
    write_plan(path, &other_cells, 2, plan);
    assert_int_equal(read_plan(path, &s, 2, got, err, sizeof err), -1);
    assert_non_null(strstr(err, "with other file text"));

    struct {
        const char *from, *to, *words;
    } cases[] = {
        {"rulelab-shard-plan", "rulelab-shard-plan 2", "not a shard plan"},
        {"cells", "cells 5", "the plan has 5 cells, the sweep 4"},
        {"cells", "cells four", "expected 'cells C'"},
        {"cell 2 ", NULL, "cell 2 has no shard"},
        {"cell 2 ", "cell 1 0 1.0", "cell 1 is dealt twice"},
        {"cell 2 ", "cell 2 2 1.0", "shards from 0 to 1"},
        {"cell 2 ", "cell 4 0 1.0", "cells go from 0 to 3"},
        {"cell 2 ", "cell 2 1", "expected 'cell INDEX SHARD CPU_SECONDS'"},
        {"cell 2 ", "cell 2 1 3.0 extra", "expected 'cell INDEX SHARD"},
        {"cell 2 ", "cell 2 10000000001 3.0", "expected 'cell INDEX SHARD"},
        {"shards", "shards 20000000002", "expected 'shards N'"},
        {"shards", NULL, "expected 'shards N'"},
        {NULL, "cell 9 0 1.0", "cells go from 0 to 3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        write_plan(path, &s, 2, plan);
        edit_line(path, cases[i].from, cases[i].to);
        assert_int_equal(read_plan(path, &s, 2, got, err, sizeof err), -1);
        if (!strstr(err, cases[i].words))
            fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].words);
        assert_non_null(strstr(err, path));
    }
    /* cut short before the header ends, and a file that is not there */
    FILE *f = fopen(path, "w");
    fputs("rulelab-shard-plan 1\n", f);
    fclose(f);
    assert_int_equal(read_plan(path, &s, 2, got, err, sizeof err), -1);
    assert_non_null(strstr(err, "cut short (no sweep line)"));
    unlink(path);
    assert_int_equal(read_plan(path, &s, 2, got, err, sizeof err), -1);
    assert_non_null(strstr(err, "No such file"));
    sweep_free(&s);
    sweep_free(&other_seed);
    sweep_free(&other_cells);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_balance_one_heavy_cell),
        cmocka_unit_test(test_balance_by_hand),
        cmocka_unit_test(test_balance_bounds),
        cmocka_unit_test(test_file_round_trip),
        cmocka_unit_test(test_file_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
