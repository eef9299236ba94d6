/*
 * test_game.c -- what core/game.c adds to the games: game_perft's error
 * return when memory is short, and the state_ok invariant check that Debug
 * builds run after every apply (RULELAB_CHECK_INVARIANTS) catching a
 * corrupted state in each game.
 *
 * This suite is linked with -Wl,--wrap=malloc (tests/CMakeLists.txt), so
 * every malloc in the core goes through __wrap_malloc below, which fails on
 * request: the allocation failure path runs for real.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"
#include "jetan.h"
#include "serbest.h"
#include "tafl.h"

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static int fail_mallocs; /* set by a test: the next malloc returns NULL */

void *__wrap_malloc(size_t size)
{
    if (fail_mallocs) {
        fail_mallocs = 0;
        return NULL;
    }
    return __real_malloc(size);
}

static void start_of(const char *variant, struct variant *v, void *st)
{
    char err[256];
    if (variant_parse(variant, v, err, sizeof err) != 0
        || game_setup(v, st, NULL, NULL, err, sizeof err) != 0)
        fail_msg("%s: %s", variant, err);
}

/* game_perft used to return 0 on allocation failure, a count that a game
 * can really have (a finished game at depth >= 1). */
static void test_perft_reports_allocation_failure(void **state)
{
    (void)state;
    for (int i = 0; game_list[i]; i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        start_of(game_list[i]->name, &v, st);
        uint64_t count = 12345;
        fail_mallocs = 1;
        assert_int_equal(game_perft(game_list[i], st, 2, &count), -1);
        assert_int_equal(count, 0);
        /* with memory it counts the first moves: tafl 72 (the attackers
         * table that tests/ref/tafl_ref.c agrees with), serbest 670 (6
         * kinds x 100 squares + 10 x 7 king drops), jetan 112 (the
         * reference author's count, see test_jetan.c) */
        assert_int_equal(game_perft(game_list[i], st, 1, &count), 0);
        uint64_t want = strcmp(game_list[i]->name, "tafl") == 0 ? 72
                        : strcmp(game_list[i]->name, "serbest") == 0 ? 670
                        : 112;
        assert_int_equal(count, want);
        assert_int_equal(game_perft(game_list[i], st, 0, &count), 0);
        assert_int_equal(count, 1);
    }
}

/* Each game's state_ok sees a piece put on the board behind the hash's
 * back and a hash changed alone: what the Debug build's check after every
 * apply relies on. */
static void test_state_ok_catches_corruption(void **state)
{
    (void)state;
    struct variant v;
    struct tafl_state t;
    start_of("tafl", &v, &t);
    assert_true(tafl_game.state_ok(&t));
    t.board[TAFL_SQ(1, 1)] = TAFL_ATTACKER; /* b2 is empty at the start */
    assert_false(tafl_game.state_ok(&t));
    start_of("tafl", &v, &t);
    t.head.hash ^= 1;
    assert_false(tafl_game.state_ok(&t));

    struct serbest_state s;
    start_of("serbest", &v, &s);
    assert_true(serbest_game.state_ok(&s));
    s.board[SERBEST_SQ(4, 4)] = SERBEST_PIECE(SERBEST_QUEEN, 0);
    assert_false(serbest_game.state_ok(&s));
    start_of("serbest", &v, &s);
    s.head.hash ^= 1;
    assert_false(serbest_game.state_ok(&s));

    struct jetan_state j;
    start_of("jetan", &v, &j);
    assert_true(jetan_game.state_ok(&j));
    j.board[JETAN_SQ(4, 4)] = JETAN_PIECE(0, JETAN_WARRIOR); /* e5 empty */
    assert_false(jetan_game.state_ok(&j));
    start_of("jetan", &v, &j);
    j.head.hash ^= 1;
    assert_false(jetan_game.state_ok(&j));
}

int main(void)
{
#ifdef RULELAB_CHECK_INVARIANTS
    printf("invariant checks: on (state_ok after every apply)\n");
#else
    printf("invariant checks: off in this build\n");
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_reports_allocation_failure),
        cmocka_unit_test(test_state_ok_catches_corruption),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
