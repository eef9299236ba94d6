/*
 * test_solver_table.c -- one transposition table shared by solvers on
 * several threads (solver_table_open, as a split's threads use it): the
 * answers must be minimax's (tests/ref/minimax.c) whatever the other
 * threads write. Every thread solves the same positions, each from its
 * own place in the list, at once, in a table of 64 entries (16 buckets),
 * so different positions are written to the same entries at the same
 * time: an entry torn by two writers must read as a miss, never as
 * another position's proof or disproof. (Whether a torn entry happens in
 * a run is up to the scheduler; the answers are checked either way.) A
 * torn entry made by hand, with words of two entries, reads as a miss.
 */
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "minimax.h"
#include "random_positions.h"
#include "solver.h"
#include "solver_internal.h" /* the table's entries, for a torn one */

#define POSITIONS 60
#define PLIES 3
#define THREADS 4
#define ROUNDS 3

struct position {
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    int wins[PLIES + 1]; /* minimax's answer within d plies */
};

static struct position positions[POSITIONS];

/* Solves every position at every bound on THREADS threads sharing one
 * table (ROUNDS times over, so entries of earlier rounds and of other
 * threads are met); returns the number of answers that differ from
 * minimax's (an unknown counts as one). */
static int solve_shared(size_t entries, int *wins_seen)
{
    struct solver_options to = {.plies = PLIES, .tt_entries = entries};
    struct solver_table *t = solver_table_open(&to);
    int wrong = 0, wins = 0;
    assert_non_null(t);
#pragma omp parallel num_threads(THREADS) reduction(+ : wrong, wins)
    for (int round = 0; round < ROUNDS; round++)
        for (int k = 0; k < POSITIONS; k++)
            for (int d = 1; d <= PLIES; d++) {
                /* each thread from its own place in the list */
                int i = (k + omp_get_thread_num() * POSITIONS / THREADS)
                        % POSITIONS;
                const struct position *p = &positions[i];
                struct solver_options o = {.plies = d, .table = t};
                struct solver_result r;
                char err[256];
                if (solver_solve(p->v.game, p->st, &o, &r, err, sizeof err)
                    != 0) {
                    wrong++;
                    continue;
                }
                wrong += r.answer != (p->wins[d] ? SOLVER_WIN
                                                 : SOLVER_NO_WIN);
                wins += r.answer == SOLVER_WIN;
            }
    solver_table_close(t);
    *wins_seen = wins;
    return wrong;
}

static void test_shared_table(void **state)
{
    (void)state;
    for (int game = 0; game < 3; game++) {
        struct rng r;
        rng_seed(&r, 4242 + (uint64_t)game);
        int expect_wins = 0;
        for (int i = 0; i < POSITIONS; i++) {
            struct position *p = &positions[i];
            random_position(game, &r, &p->v, p->st);
            for (int d = 1; d <= PLIES; d++) {
                p->wins[d] = minimax_forced_win(p->v.game, p->st, d);
                expect_wins += p->wins[d];
            }
        }
        /* 64 entries: every bucket fought over; 1 << 16: room for all */
        static const size_t sizes[] = {64, (size_t)1 << 16};
        for (int k = 0; k < 2; k++) {
            int wins = 0, wrong = solve_shared(sizes[k], &wins);
            print_message("%s: %d positions x %d bounds, %d threads x %d "
                          "rounds, table of %zu: %d answers differ from "
                          "minimax\n", random_position_variants[game][0],
                          POSITIONS, PLIES, THREADS, ROUNDS, sizes[k], wrong);
            assert_int_equal(wrong, 0);
            assert_int_equal(wins, expect_wins * THREADS * ROUNDS);
        }
        /* the sample is not one-sided */
        assert_true(expect_wins >= POSITIONS / 10);
        assert_true(expect_wins <= POSITIONS * PLIES - POSITIONS / 10);
    }
}

/* The entry of key in s's table, or NULL. */
static struct tt_entry *entry_of(const struct solver *s, uint64_t key)
{
    for (size_t i = 0; i <= s->tt_mask; i++)
        if (atomic_load(&s->tt[i].key) == key)
            return &s->tt[i];
    return NULL;
}

/* A torn entry made by hand: the root's key and lock words with value
 * words of another write (the opposite answer, another bound, or both),
 * as two writers racing on one slot could leave it. The table must read
 * it as a miss, (1, 1). */
static void test_torn_entry_is_a_miss(void **state)
{
    (void)state;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct rng r;
    struct solver s;
    struct solver_options o = {.plies = 3, .tt_entries = 1 << 12};
    char err[256];
    uint32_t pn, dn;
    rng_seed(&r, 99);
    random_position(1, &r, &v, st); /* Serbest */
    assert_int_equal(solver_init(&s, v.game, st, &o, err, sizeof err), 0);
    solver_search(&s, st, 3, &pn, &dn);
    assert_true(pn == 0 || dn == 0); /* settled, so stored as such */
    const uint64_t key = solver_tt_key(&s, st), check = v.game->hash(st);
    struct tt_entry *root = entry_of(&s, key);
    assert_non_null(root);
    const uint64_t value = atomic_load(&root->value);
    const uint64_t extra = atomic_load(&root->extra);
    /* value: pn | dn << 32, swapped; extra: its depth (bits 0-15) 5 */
    const uint64_t opposite = value >> 32 | value << 32;
    const uint64_t deeper = (extra & ~(uint64_t)0xffff) | 5;
    assert_int_equal(extra & 0xffff, 3);
    uint32_t got_pn, got_dn;
    for (int torn = 1; torn <= 3; torn++) {
        atomic_store(&root->value, torn & 1 ? opposite : value);
        atomic_store(&root->extra, torn & 2 ? deeper : extra);
        solver_tt_get(&s, key, check, 3, &got_pn, &got_dn);
        assert_int_equal(got_pn, 1);
        assert_int_equal(got_dn, 1);
    }
    /* whole again, it reads as the search left it */
    atomic_store(&root->value, value);
    atomic_store(&root->extra, extra);
    solver_tt_get(&s, key, check, 3, &got_pn, &got_dn);
    assert_int_equal(got_pn, pn);
    assert_int_equal(got_dn, dn);
    solver_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_table),
        cmocka_unit_test(test_torn_entry_is_a_miss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
