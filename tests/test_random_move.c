/*
 * test_random_move.c -- a game's random_move (core/game.h) against the
 * way it must agree with: legal_moves, then moves[rng_below(r, n)].
 *
 * At every ply of seeded random games, under variants that reach each
 * rule random_move has to know of (tafl's shuttle rule, whose forbidden
 * move legal_moves drops by moving its last move into its place; the
 * barred King; the blocked throne; edge escape; Serbest's drops, king in
 * hand and checks; Jetan's Princess), two copies of one generator draw:
 * one through the move list, one through game_random_move. The move, the
 * count and the generator's state afterwards must be the same, and once
 * the game is over random_move must return 0 and draw nothing. Then the
 * random playout (agents/playout.c), which uses random_move, must play
 * the very games a loop over legal_moves plays from the same seeds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"
#include "playout.h"
#include "rng.h"
#include "tafl.h"

static const char *const variants[] = {
    "tafl",
    "tafl(repetition_limit=1,no_capture_limit=0,max_plies=600)",
    "tafl(repetition_limit=2,first=defenders)",
    "tafl(king_throne=barred,throne_hostile=2,throne_passable=0)",
    "tafl(escape=edge,king_armed=1,throne_hostile=1,throne_passable=0,"
    "king_capture=custodial,repetition_limit=0,no_capture_limit=0,"
    "max_plies=0)",
    "tafl(escape=edge,king_armed=1,throne_hostile=2,throne_passable=0,"
    "king_capture=custodial,king_throne=barred,repetition_draw=0,"
    "repetition_limit=0,no_capture_limit=0,max_plies=0)",
    "jetan",
    "jetan(thoat_jumps=1,princess_escape=off)",
    "jetan(princess_safe=1)",
    "serbest",
    "serbest(kings_landing=9,adjacent_drop_check=1)",
    "serbest(stalemate=draw,no_capture_limit=0,max_plies=1000)",
};

static void start_of(const char *text, struct variant *v, void *st)
{
    char err[256];
    assert_int_equal(variant_parse(text, v, err, sizeof err), 0);
    v->game->init(st, v);
}

/* Whether tafl's shuttle rule takes a move from the side to move's list
 * in st: the list of a copy with the shuttle forgotten is one longer. */
static int tafl_shuttle_drops_a_move(const struct tafl_state *s, int n)
{
    static move_t moves[GAME_MAX_MOVES];
    struct tafl_state t = *s;
    t.shuttle_len[0] = t.shuttle_len[1] = 0;
    return tafl_game.legal_moves(&t, moves) == n + 1;
}

static void test_random_move_draws_as_the_list(void **state)
{
    (void)state;
    static _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    static move_t moves[GAME_MAX_MOVES];
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        struct variant v;
        start_of(variants[k], &v, st);
        const struct game *g = v.game;
        long plies = 0, shuttles = 0;
        struct rng r;
        rng_seed(&r, 1000 + k);
        for (int game = 0; game < (g == &serbest_game ? 100 : 400); game++) {
            g->init(st, &v);
            for (;;) {
                struct rng by_list = r, by_draw = r;
                int n = g->legal_moves(st, moves);
                move_t m = 0xdeadbeef, expected = 0;
                if (n > 0)
                    expected = moves[rng_below(&by_list, (uint32_t)n)];
                assert_int_equal(game_random_move(g, st, &by_draw, &m), n);
                assert_memory_equal(&by_list, &by_draw, sizeof by_list);
                if (n == 0) {
                    assert_int_equal(m, 0xdeadbeef);
                    assert_int_not_equal(g->status(st).outcome, GAME_ONGOING);
                    break;
                }
                assert_int_equal(m, expected);
                if (g == &tafl_game)
                    shuttles += tafl_shuttle_drops_a_move(
                        (const struct tafl_state *)st, n);
                r = by_list;
                g->apply(st, m);
                plies++;
            }
        }
        printf("%-60.60s %7ld plies", variants[k], plies);
        if (g == &tafl_game)
            printf(", %ld with a move the shuttle rule forbids", shuttles);
        printf("\n");
        assert_true(plies > 1000);
        if (strstr(variants[k], "repetition_limit=1"))
            assert_true(shuttles > 500);
    }
}

/* playout_run with the random policy (random_move) plays the games a
 * loop over legal_moves plays: the same plies and the same final state. */
static void test_random_playout_plays_the_list_games(void **state)
{
    (void)state;
    static _Alignas(GAME_STATE_ALIGN) unsigned char a[GAME_MAX_STATE_SIZE],
        b[GAME_MAX_STATE_SIZE];
    static move_t moves[GAME_MAX_MOVES];
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        struct variant v;
        start_of(variants[k], &v, a);
        const struct game *g = v.game;
        for (uint64_t seed = 1; seed <= 10; seed++) {
            struct rng ra, rb;
            rng_seed(&ra, seed);
            rng_seed(&rb, seed);
            g->init(a, &v);
            g->init(b, &v);
            const int cap = seed % 2 ? 0 : 40; /* a cap stops both alike */
            int plies = playout_run(playout_policies[0], g, a, &ra, cap);
            int listed = 0, n;
            while ((cap == 0 || listed < cap)
                   && (n = g->legal_moves(b, moves)) > 0) {
                g->apply(b, moves[rng_below(&rb, (uint32_t)n)]);
                listed++;
            }
            assert_int_equal(plies, listed);
            assert_true(game_same_state(g, a, b));
            assert_memory_equal(&ra, &rb, sizeof ra);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_move_draws_as_the_list),
        cmocka_unit_test(test_random_playout_plays_the_list_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
