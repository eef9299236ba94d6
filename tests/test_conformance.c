/*
 * test_conformance.c -- what every game of the registry must do, checked
 * the same way for each: the three games and the test-only Nim
 * (tests/games/nim.c, registered here through game_register as any game
 * outside core/ would be). Per game, over seeded random games from its
 * default start (docs/developing.md, How to add a game):
 *  - state_ok holds after every move applied;
 *  - the game is over exactly when it has no legal move, and status says
 *    why (a reason) once it is;
 *  - the position's text reads back (from_text) to a state whose text and
 *    hash are the same, and whose legal moves are the same set;
 *  - every legal move's text parses back to that move;
 *  - the random playout's move (game_random_move) is the one legal_moves
 *    + rng_below would draw;
 *  - the wins_at_once hook, where it answers, agrees with playing every
 *    move (game_mover_wins_at_once);
 *  - perft at depth 1 counts legal_moves, and at depth 2 the sum of each
 *    child's depth 1;
 *  - a mirror image's mirror image is the text itself, where the game has
 *    mirrors.
 * Each game's own suite (test_tafl.c, ...) proves its rules against a
 * naive reference; this one proves the contract of core/game.h.
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
#include "rng.h"

extern const struct game nim_game;

#define GAMES_EACH 12  /* seeded random games per game */
#define PLY_LIMIT 120  /* plies checked per game at most */

/* The position text of st, checked to fit. */
static void text_of(const struct game *g, const void *st, char *buf,
                    size_t n)
{
    if (g->to_text(st, buf, n) < 0)
        fail_msg("%s: a position's text does not fit %zu bytes", g->name, n);
}

static int by_move(const void *a, const void *b)
{
    move_t x = *(const move_t *)a, y = *(const move_t *)b;
    return (x > y) - (x < y);
}

/* The checks of one position (see the file's comment). */
static void check_position(const struct game *g, const struct variant *v,
                           const void *st, struct rng *r)
{
    move_t legal[GAME_MAX_MOVES], again[GAME_MAX_MOVES];
    char text[2048], back_text[2048], mtext[64];
    _Alignas(GAME_STATE_ALIGN) unsigned char back[GAME_MAX_STATE_SIZE];
    char err[256];
    assert_true(g->state_ok(st));
    int n = g->legal_moves(st, legal);
    struct game_status s = g->status(st);
    assert_int_equal(n == 0, s.outcome != GAME_ONGOING);
    assert_int_equal(s.reason == REASON_NONE, s.outcome == GAME_ONGOING);
    /* the text reads back to the same state, as far as the rules see */
    text_of(g, st, text, sizeof text);
    if (g->from_text(back, v, text, err, sizeof err) != 0)
        fail_msg("%s: its own text '%s' does not read back: %s", g->name,
                 text, err);
    text_of(g, back, back_text, sizeof back_text);
    assert_string_equal(back_text, text);
    assert_true(g->hash(back) == g->hash(st));
    /* the same moves, as a set: their order may follow bytes that record
     * only the route (piece lists), which the text does not carry */
    assert_int_equal(g->legal_moves(back, again), n);
    move_t sorted[GAME_MAX_MOVES];
    memcpy(sorted, legal, sizeof *legal * (size_t)n);
    qsort(sorted, (size_t)n, sizeof *sorted, by_move);
    qsort(again, (size_t)n, sizeof *again, by_move);
    assert_memory_equal(again, sorted, sizeof *sorted * (size_t)n);
    for (int i = 0; i < n; i++) {
        move_t m;
        assert_true(g->move_to_text(st, legal[i], mtext, sizeof mtext) > 0);
        assert_int_equal(g->move_from_text(st, mtext, &m), 0);
        assert_true(m == legal[i]);
        if (g->mirror_move_text) {
            char mirrored[64], twice[64];
            assert_true(g->mirror_move_text(mtext, mirrored,
                                            sizeof mirrored) > 0);
            assert_true(g->mirror_move_text(mirrored, twice, sizeof twice)
                        > 0);
            assert_string_equal(twice, mtext);
        }
    }
    if (g->mirror_position_text) {
        char mirrored[2048], twice[2048];
        assert_true(g->mirror_position_text(text, mirrored, sizeof mirrored)
                    > 0);
        assert_true(g->mirror_position_text(mirrored, twice, sizeof twice)
                    > 0);
        assert_string_equal(twice, text);
    }
    /* the playout's move is the list's move at the same draw */
    struct rng a = *r, b = *r;
    move_t drawn = 0;
    assert_int_equal(game_random_move(g, st, &a, &drawn), n);
    if (n > 0)
        assert_true(drawn == legal[rng_below(&b, (uint32_t)n)]);
    /* the hook agrees with playing every move, where it answers */
    if (n > 0 && g->wins_at_once) {
        int hook = g->wins_at_once(st);
        if (hook >= 0)
            assert_int_equal(hook, game_mover_wins_at_once(g, st));
    }
    /* perft 1 and 2 from the list and the children */
    uint64_t p1, p2, sum = 0;
    assert_int_equal(game_perft(g, st, 1, &p1), 0);
    assert_int_equal(p1, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
        uint64_t c;
        game_copy_state(g, child, st);
        g->apply(child, legal[i]);
        assert_int_equal(game_perft(g, child, 1, &c), 0);
        sum += c;
    }
    assert_int_equal(game_perft(g, st, 2, &p2), 0);
    assert_int_equal(p2, sum);
}

/* Seeded random games of g from its default start, every position checked
 * (perft 2 at the first plies and every tenth, as it costs a ply more). */
static void check_game(const struct game *g)
{
    struct variant v;
    char err[256];
    if (variant_parse(g->name, &v, err, sizeof err) != 0)
        fail_msg("%s: %s", g->name, err);
    long positions = 0;
    for (int k = 0; k < GAMES_EACH; k++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        struct rng r;
        rng_seed(&r, 0xC0FFEEu + (uint64_t)k);
        g->init(st, &v);
        for (int ply = 0; ply < PLY_LIMIT; ply++) {
            check_position(g, &v, st, &r);
            positions++;
            move_t m;
            if (game_random_move(g, st, &r, &m) == 0)
                break;
            g->apply(st, m);
        }
    }
    printf("%s: %ld positions checked\n", g->name, positions);
}

static void test_every_game_keeps_the_contract(void **state)
{
    (void)state;
    int games = 0;
    for (int i = 0; game_list[i]; i++, games++)
        check_game(game_list[i]);
    assert_int_equal(games, 4); /* the three and the test-only Nim */
}

/* The registry: a second game of a name is refused, and so is one past
 * GAME_MAX_GAMES; game_find finds what was registered. */
static void test_registry(void **state)
{
    (void)state;
    assert_ptr_equal(game_find("nim"), &nim_game);
    assert_int_equal(game_register(&nim_game), -1);
    assert_null(game_find("no_such_game"));
}

/* Nim by hand (tests/games/nim.c's rules, 21 stones, take 1 to 3): every
 * position has 3 moves until fewer than 3 stones are left, so perft(d) =
 * 3^d while 3 d <= 21 - 3 ... and at depth 8 the 7-move sequences summing
 * to 21 (all 3s: 1 of them) leave no move, to 20 (one 2: 7) one move, to
 * 19 (one 1 or two 2s: 7 + 21 = 28) two, the other 2187 - 36 = 2151
 * three: 3 x 2151 + 2 x 28 + 7 = 6516. */
static void test_nim_perft_by_hand(void **state)
{
    (void)state;
    struct variant v;
    char err[256];
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    assert_int_equal(variant_parse("nim", &v, err, sizeof err), 0);
    nim_game.init(st, &v);
    uint64_t c, want[] = {3, 9, 27, 81, 243, 729, 2187, 6516};
    for (int d = 1; d <= 8; d++) {
        assert_int_equal(game_perft(&nim_game, st, d, &c), 0);
        assert_int_equal(c, want[d - 1]);
    }
}

int main(void)
{
    if (game_register(&nim_game) != 0) {
        fprintf(stderr, "cannot register nim\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_nim_perft_by_hand),
        cmocka_unit_test(test_every_game_keeps_the_contract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
