/*
 * test_game.c -- what core/game.c adds to the games: game_perft's error
 * return when memory is short, and the state_ok invariant check that Debug
 * builds run after every apply (RULELAB_CHECK_INVARIANTS) catching a
 * corrupted state in each game; and that a state copied with
 * game_copy_state (only the bytes game_state_used names, the rest of the
 * buffer left as it was) plays exactly like a whole copy, and one in its
 * canonical form (game_canonical_copy) alike but for the order of its
 * moves; and game_replay, the one replay of a stored game, against the
 * naive reference's move counts and on each kind of bad stored move.
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
#include "history.h"
#include "jetan.h"
#include "rng.h"
#include "serbest.h"
#include "tafl.h"
#include "tafl_ref.h"

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

/* The history of a tafl or Serbest state (jetan has none: NULL). */
static const struct history *history_of(const struct game *g, const void *st)
{
    if (g == &tafl_game)
        return &((const struct tafl_state *)st)->history;
    if (g == &serbest_game)
        return &((const struct serbest_state *)st)->history;
    return NULL;
}

/* Two lines of play with the same random moves: `whole` copied in full
 * at every ply (memcpy of state_size bytes), `part` with game_copy_state
 * into a buffer first filled with a fresh garbage byte. If any rule read
 * a byte past game_state_used, the garbage would make the lines part:
 * their used bytes, legal moves, status, hash and search key must agree
 * at every ply. The variants' long quiet stretches (no no-capture limit)
 * wrap the 256-slot repetition ring, and the test checks that they do,
 * and that a repetition draw is among the games' ends. */
static void test_partial_copy_plays_alike(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "serbest", "serbest(no_capture_limit=0,max_plies=1500)", "jetan",
        "tafl", "tafl(no_capture_limit=0,max_plies=1500)",
        "tafl(escape=edge,king_armed=1,throne_hostile=1,throne_passable=0,"
        "king_capture=custodial,repetition_limit=0,no_capture_limit=0,"
        "max_plies=1500)"};
    static _Alignas(GAME_STATE_ALIGN) unsigned char whole[GAME_MAX_STATE_SIZE],
        part[GAME_MAX_STATE_SIZE], next[GAME_MAX_STATE_SIZE];
    static move_t moves[GAME_MAX_MOVES], moves2[GAME_MAX_MOVES];
    int wrapped = 0, repetitions = 0;
    struct rng r;
    rng_seed(&r, 2026);
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        struct variant v;
        start_of(variants[k], &v, whole);
        const struct game *g = v.game;
        for (int game = 0; game < 12; game++) {
            start_of(variants[k], &v, whole);
            memset(part, 0x5a, sizeof part);
            game_copy_state(g, part, whole);
            for (;;) {
                assert_true(game_state_used(g, part) <= g->state_size);
                assert_true(game_same_state(g, whole, part));
                assert_true(g->state_ok(part));
                assert_int_equal(g->hash(whole), g->hash(part));
                assert_true(g->search_key(whole) == g->search_key(part));
                struct game_status a = g->status(whole), b = g->status(part);
                assert_int_equal(a.outcome, b.outcome);
                assert_int_equal(a.reason, b.reason);
                int n = g->legal_moves(whole, moves);
                assert_int_equal(g->legal_moves(part, moves2), n);
                assert_memory_equal(moves, moves2, sizeof *moves * (size_t)n);
                const struct history *h = history_of(g, whole);
                wrapped += h && h->next > HISTORY_PLIES;
                if (n == 0) {
                    repetitions += a.reason == REASON_REPETITION;
                    break;
                }
                move_t m = moves[rng_below(&r, (uint32_t)n)];
                memcpy(next, whole, g->state_size);
                g->apply(next, m);
                memcpy(whole, next, g->state_size);
                memset(next, (int)rng_below(&r, 256), sizeof next);
                game_copy_state(g, next, part);
                g->apply(next, m);
                memset(part, (int)rng_below(&r, 256), sizeof part);
                game_copy_state(g, part, next);
            }
        }
    }
    printf("plies with a wrapped ring: %d; repetition draws: %d\n", wrapped,
           repetitions);
    assert_true(wrapped > 0);
    assert_true(repetitions > 0);
}

static int compare_moves(const void *a, const void *b)
{
    move_t x = *(const move_t *)a, y = *(const move_t *)b;
    return (x > y) - (x < y);
}

/* A state in canonical form (game_canonical_copy) plays alike: along
 * random games of Serbest, tafl (whose captures reorder the piece lists)
 * and Jetan (which has no hook: the copy is the state), at every ply the
 * canonical copy passes state_ok, has the same hash, search key, status
 * and legal moves as a set, is its own canonical form, and after the
 * ply's move has the same canonical form as the game. In Serbest and
 * tafl the form must differ from the state's bytes somewhere (else the
 * hook did nothing). And one Serbest position by two drop orders: bytes
 * that differ (test_search_hooks), one canonical form. */
static void test_canonical_plays_alike(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "serbest", "tafl", "tafl(king_capture=custodial,max_plies=600)",
        "jetan"};
    static _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE],
        form[GAME_MAX_STATE_SIZE], again[GAME_MAX_STATE_SIZE],
        after[GAME_MAX_STATE_SIZE], after_form[GAME_MAX_STATE_SIZE];
    static move_t moves[GAME_MAX_MOVES], moves2[GAME_MAX_MOVES];
    struct rng r;
    rng_seed(&r, 20261202);
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        struct variant v;
        start_of(variants[k], &v, st);
        const struct game *g = v.game;
        long plies = 0, reordered = 0;
        for (int game = 0; game < 10; game++) {
            start_of(variants[k], &v, st);
            for (;;) {
                game_canonical_copy(g, form, st);
                assert_true(g->state_ok(form));
                assert_int_equal(g->hash(form), g->hash(st));
                assert_true(g->search_key(form) == g->search_key(st));
                assert_int_equal(g->status(form).outcome,
                                 g->status(st).outcome);
                assert_int_equal(g->status(form).reason,
                                 g->status(st).reason);
                game_canonical_copy(g, again, form);
                assert_true(game_same_state(g, again, form));
                reordered += !game_same_state(g, form, st);
                int n = g->legal_moves(st, moves);
                assert_int_equal(g->legal_moves(form, moves2), n);
                qsort(moves, (size_t)n, sizeof *moves, compare_moves);
                qsort(moves2, (size_t)n, sizeof *moves2, compare_moves);
                assert_memory_equal(moves, moves2, sizeof *moves * (size_t)n);
                if (n == 0)
                    break;
                move_t m = moves[rng_below(&r, (uint32_t)n)];
                game_copy_state(g, after, form);
                g->apply(after, m);
                g->apply(st, m);
                game_canonical_copy(g, after_form, after);
                game_canonical_copy(g, again, st);
                assert_true(game_same_state(g, after_form, again));
                plies++;
            }
        }
        printf("%s: %ld plies, %ld whose canonical form differs in bytes\n",
               variants[k], plies, reordered);
        assert_true(g->canonical ? reordered > 0 : reordered == 0);
    }
    /* two drop orders, one position */
    struct variant v;
    static const char *const lines[2] = {"N@a1 n@a10 B@b1 b@b10",
                                         "B@b1 b@b10 N@a1 n@a10"};
    static _Alignas(GAME_STATE_ALIGN) unsigned char a[GAME_MAX_STATE_SIZE],
        b[GAME_MAX_STATE_SIZE];
    unsigned char *ends[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        char buf[64], err[256];
        start_of("serbest", &v, ends[i]);
        snprintf(buf, sizeof buf, "%s", lines[i]);
        for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
            move_t m;
            if (game_parse_move(&serbest_game, ends[i], t, &m, err,
                                sizeof err) != 0)
                fail_msg("%s: %s", t, err);
            serbest_game.apply(ends[i], m);
        }
    }
    assert_false(game_same_state(&serbest_game, a, b));
    game_canonical_copy(&serbest_game, form, a);
    game_canonical_copy(&serbest_game, again, b);
    assert_true(game_same_state(&serbest_game, form, again));
}

/* What a game_replay visitor saw, and when it asks to stop. */
struct seen {
    int calls, ply[8], n_legal[8], stop_at;
    char move[8][16];
};

static int record_step(void *arg, const struct game *g,
                       const struct game_replay_step *step)
{
    struct seen *s = arg;
    (void)g;
    if (s->calls < 8) {
        s->ply[s->calls] = step->ply;
        s->n_legal[s->calls] = step->n_legal;
        snprintf(s->move[s->calls], sizeof s->move[0], "%s",
                 step->move ? step->move : "(end)");
    }
    s->calls++;
    return step->ply == s->stop_at ? 7 : 0;
}

static void test_replay_visits_each_position(void **state)
{
    (void)state;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[256];
    struct seen s = {.stop_at = -1};
    int plies = -1;
    assert_int_equal(variant_parse("tafl", &v, err, sizeof err), 0);
    /* tafl, the attackers first: d1 to d2, then the defender e3 to d3 */
    assert_int_equal(game_replay(&v, st, "", "", " d1d2  e3d3 ", record_step,
                                 &s, &plies, err, sizeof err), 0);
    assert_int_equal(plies, 2);
    assert_int_equal(s.calls, 3);
    assert_int_equal(s.ply[0], 0);
    assert_int_equal(s.ply[2], 2);
    assert_string_equal(s.move[0], "d1d2");
    assert_string_equal(s.move[1], "e3d3");
    assert_string_equal(s.move[2], "(end)");
    /* the start's legal moves: 72 (docs/rules.md, check data) */
    assert_int_equal(s.n_legal[0], 72);
    /* after d1d2, the defenders' moves as the naive reference counts them */
    tafl_ref_params p;
    tafl_ref_defaults(&p);
    long long after_d1d2 = tafl_ref_perft(
        "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/3aa4/4aa3 d", &p, 1);
    assert_int_equal(s.n_legal[1], after_d1d2);

    /* the same game with its first move as the opening: ply 0 is after it */
    memset(&s, 0, sizeof s);
    s.stop_at = -1;
    assert_int_equal(game_replay(&v, st, NULL, "d1d2", "e3d3", record_step,
                                 &s, &plies, err, sizeof err), 0);
    assert_int_equal(plies, 1);
    assert_int_equal(s.calls, 2);
    assert_int_equal(s.n_legal[0], after_d1d2);
    assert_string_equal(s.move[0], "e3d3");

    /* a visitor's non-zero return stops the replay and is returned */
    memset(&s, 0, sizeof s);
    s.stop_at = 1;
    assert_int_equal(game_replay(&v, st, "", "", "d1d2 e3d3", record_step,
                                 &s, &plies, err, sizeof err), 7);
    assert_int_equal(s.calls, 2);
    assert_int_equal(plies, 1);
}

static void test_replay_refuses_bad_moves(void **state)
{
    (void)state;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[256], long_move[80];
    int plies = -1;
    assert_int_equal(variant_parse("tafl", &v, err, sizeof err), 0);
    /* not legal (a man cannot stay where it is) */
    assert_int_equal(game_replay(&v, st, "", "", "d1d2 e3e3 e2e3", NULL,
                                 NULL, &plies, err, sizeof err), -1);
    assert_non_null(strstr(err, "move 2 'e3e3' is not legal there"));
    assert_int_equal(plies, 1);
    /* not a move at all */
    assert_int_equal(game_replay(&v, st, "", "", "castle", NULL, NULL, NULL,
                                 err, sizeof err), -1);
    assert_non_null(strstr(err, "move 1 'castle' is not a tafl move"));
    /* longer than any move */
    memset(long_move, 'x', sizeof long_move - 1);
    long_move[sizeof long_move - 1] = '\0';
    assert_int_equal(game_replay(&v, st, "", "", long_move, NULL, NULL,
                                 &plies, err, sizeof err), -1);
    assert_non_null(strstr(err, "move 1 "));
    assert_non_null(strstr(err, "is longer than any move"));
    assert_int_equal(plies, 0);
    /* the King on a corner: the defenders have won, no move may follow */
    struct seen s = {.stop_at = -1};
    assert_int_equal(game_replay(&v, st, "8k/9/9/9/9/9/9/9/1a7 a", "", "",
                                 record_step, &s, &plies, err, sizeof err), 0);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.n_legal[0], 0);
    assert_int_equal(game_replay(&v, st, "8k/9/9/9/9/9/9/9/1a7 a", "", "b1b2",
                                 NULL, NULL, &plies, err, sizeof err), -1);
    assert_non_null(strstr(err, "move 1 'b1b2' comes after the end of the"));
    /* an opening that does not replay */
    assert_int_equal(game_replay(&v, st, NULL, "e5e5", "", NULL, NULL, NULL,
                                 err, sizeof err), -1);
    assert_non_null(strstr(err, "the opening does not replay"));
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
        cmocka_unit_test(test_partial_copy_plays_alike),
        cmocka_unit_test(test_canonical_plays_alike),
        cmocka_unit_test(test_replay_visits_each_position),
        cmocka_unit_test(test_replay_refuses_bad_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
