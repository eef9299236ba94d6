/*
 * test_mirror.c -- are Serbest and tafl the same games in a mirror? The split solve
 * (experiments/prove/split.h) writes the part of a root move's mirror image by
 * mirroring its twin's certificate, where the game says its rules are
 * mirror symmetric (game.h's mirror_move_text and mirror_position_text).
 * The checker judges such a part like any other, so a false claim would
 * cost a failed part, not a wrong answer; this suite checks the claim
 * itself, so that it does not fail there.
 *
 *  - The text helpers (core/notation.h) on hand-made examples: squares'
 *    files reversed (a <-> j on 10 files, a <-> i on 9), two-digit ranks
 *    and runs kept whole, drops' letters and the fields after the board
 *    unchanged.
 *  - docs/rules.md#serbest names no file and no square colour: no castling,
 *    bishops drop anywhere, pawns move and capture alike to both sides.
 *    Along 20 random games of 24 plies of each of 4 variants (Kings
 *    Landing 7, 8, 9; adjacent drop checks allowed; stalemate a draw),
 *    the naive reference (tests/ref/serbest_ref) gives at each position's
 *    mirror image exactly the mirror images of its legal moves, and 8 of
 *    the moves (the one played on, and 7 drawn at random) and their
 *    mirror images lead to mirror-image positions with the same result
 *    (going on, or over with the same winner). The engine likewise lists
 *    the mirror images of its moves there.
 *  - tafl likewise (docs/rules.md#hnefatafl-9x9-tafl: the throne e5 and
 *    the corners are their own mirror images, no rule names a file): 20
 *    random games of 40 plies of each of 3 variants (corner and edge
 *    escape, the edge not capturing the King), checked the same way with
 *    tests/ref/tafl_ref.
 *  - The solver answers each of 150 random small positions' mirror
 *    image, in Serbest and in tafl, as minimax answers the position.
 *  - Jetan gives no mirror texts (its setup is symmetric through the
 *    centre only).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "disproof_reader.h"
#include "game.h"
#include "minimax.h"
#include "notation.h"
#include "random_positions.h"
#include "rng.h"
#include "serbest_ref.h"
#include "solver.h"

static void mirror_move_is(const struct board_geometry *g, const char *in,
                           const char *want)
{
    char out[32];
    assert_int_equal(notation_mirror_move(g, in, out, sizeof out),
                     (int)strlen(want));
    assert_string_equal(out, want);
}

static void test_text_helpers(void **state)
{
    (void)state;
    /* 10 files, a 12-wide mailbox as Serbest's; 9 files as tafl's */
    const struct board_geometry ten = {10, 10, 12, 25}, nine = {9, 9, 9, 0};
    char out[128];
    mirror_move_is(&ten, "Q@a1", "Q@j1");
    mirror_move_is(&ten, "K@e8", "K@f8");
    mirror_move_is(&ten, "a10b9", "j10i9");
    mirror_move_is(&ten, "j1j10", "a1a10");
    mirror_move_is(&nine, "e1e4", "e1e4"); /* the centre file */
    mirror_move_is(&nine, "a2c2", "i2g2");
    assert_int_equal(notation_mirror_move(&ten, "a1b2", out, 4), -1);
    const char *pos = "K9/10/3p6/10/10/10/10/10/10/q1R8[KQ] w 0 3";
    assert_int_equal(notation_mirror_position(pos, out, sizeof out),
                     (int)strlen(pos));
    assert_string_equal(out, "9K/10/6p3/10/10/10/10/10/10/8R1q[KQ] w 0 3");
    assert_int_equal(notation_mirror_position("4a4/9/9/a7a/9/9/9/4k4/9 d",
                                              out, sizeof out), 25);
    assert_string_equal(out, "4a4/9/9/a7a/9/9/9/4k4/9 d");
    assert_int_equal(notation_mirror_position(pos, out, 10), -1);
}

/* The mirror images of moves (n of them), sorted, into out. */
static void mirror_all(const struct game *g, char moves[][8], int n,
                       char out[][8])
{
    for (int i = 0; i < n; i++)
        assert_true(g->mirror_move_text(moves[i], out[i], 8) > 0);
    qsort(out, (size_t)n, sizeof out[0],
          (int (*)(const void *, const void *))strcmp);
}

/* The engine's legal moves at text, as sorted texts; their count. */
static int engine_moves(const struct variant *v, const char *text,
                        char out[][8])
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    char err[256];
    const struct game *g = v->game;
    if (g->from_text(st, v, text, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    int n = g->legal_moves(st, moves);
    for (int i = 0; i < n; i++)
        assert_true(g->move_to_text(st, moves[i], out[i], 8) > 0);
    qsort(out, (size_t)n, sizeof out[0],
          (int (*)(const void *, const void *))strcmp);
    return n;
}

static void same_lists(char a[][8], char b[][8], int n, const char *what,
                       const char *fen)
{
    for (int i = 0; i < n; i++)
        if (strcmp(a[i], b[i]) != 0)
            fail_msg("%s at %s: %s where the mirror image has %s", what, fen,
                     a[i], b[i]);
}

/* Moves of a position played, with their mirror images. */
#define MOVES_PLAYED 8

/* One random game of v from the empty board, up to `plies` plies, each
 * position checked against its mirror image. */
static void check_game(const struct variant *v, struct rng *r, int plies)
{
    static char moves[SERBEST_REF_MAX_MOVES][8], mirrored[SERBEST_REF_MAX_MOVES][8];
    static char there[SERBEST_REF_MAX_MOVES][8];
    const struct game *g = v->game;
    char fen[256], mfen[256], next[256], mnext[256], back[256];
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[256];
    assert_int_equal(game_setup(v, st, NULL, NULL, err, sizeof err), 0);
    assert_true(g->to_text(st, fen, sizeof fen) > 0);
    struct ref ref = ref_for(v, fen);
    for (int ply = 0; ply < plies; ply++) {
        assert_true(g->mirror_position_text(fen, mfen, sizeof mfen) > 0);
        int n = ref_moves(&ref, fen, moves);
        assert_true(n >= 0);
        assert_int_equal(ref_moves(&ref, mfen, there), n);
        mirror_all(g, moves, n, mirrored);
        same_lists(mirrored, there, n, "the reference", fen);
        assert_int_equal(engine_moves(v, mfen, there), n);
        same_lists(mirrored, there, n, "the engine", fen);
        if (n == 0)
            return;
        /* moves and their mirror images: mirror-image results (a sample:
         * the reference judges a Serbest move by playing every reply) */
        int pick = (int)rng_below(r, (uint32_t)n);
        for (int k = 0; k < MOVES_PLAYED; k++) {
            int i = k == 0 ? pick : (int)rng_below(r, (uint32_t)n);
            char mm[8];
            g->mirror_move_text(moves[i], mm, sizeof mm);
            int res = ref_play(&ref, fen, moves[i], next, sizeof next);
            int mres = ref_play(&ref, mfen, mm, mnext, sizeof mnext);
            assert_true(res >= 0);
            if (res != mres)
                fail_msg("at %s, %s gives %d, its mirror image %s gives %d",
                         fen, moves[i], res, mm, mres);
            g->mirror_position_text(mnext, back, sizeof back);
            if (strcmp(back, next) != 0)
                fail_msg("at %s, %s leads to %s, its mirror image to the "
                         "mirror of %s", fen, moves[i], next, back);
        }
        if (ref_play(&ref, fen, moves[pick], next, sizeof next) != 0)
            return;
        snprintf(fen, sizeof fen, "%s", next);
    }
}

/* check_game along `games` random games of `plies` plies of each of the
 * n variants, seeded with seed. */
static void check_variants(const char *const *variants, size_t n,
                           uint64_t seed, int games, int plies)
{
    struct rng r;
    rng_seed(&r, seed);
    for (size_t k = 0; k < n; k++) {
        struct variant v;
        char err[256];
        assert_int_equal(variant_parse(variants[k], &v, err, sizeof err), 0);
        assert_non_null(v.game->mirror_move_text);
        assert_non_null(v.game->mirror_position_text);
        for (int game = 0; game < games; game++)
            check_game(&v, &r, plies);
    }
}

static void test_serbest_is_mirror_symmetric(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "serbest", "serbest(kings_landing=8)", "serbest(kings_landing=9)",
        "serbest(adjacent_drop_check=1,stalemate=draw)"};
    check_variants(variants, sizeof variants / sizeof variants[0], 20261202,
                   20, 24);
}

static void test_tafl_is_mirror_symmetric(void **state)
{
    (void)state;
    static const char *const variants[] = {"tafl", "tafl(escape=edge)",
                                           "tafl(edge_captures_king=0)"};
    check_variants(variants, sizeof variants / sizeof variants[0], 20261203,
                   20, 40);
}

/* What a mirror-image part stands on, asked of the search itself: on 150
 * random small positions of Serbest and of tafl (random_positions.h,
 * under four variants each), the solver answers the position's mirror
 * image (from mirror_position_text) as minimax (tests/ref/minimax.c)
 * answers the position, at bounds 1 to 3: a folded search, which answers
 * one for the other, answers as the full search does. */
static void check_mirror_answers(int game, uint64_t seed)
{
    struct rng r;
    int wins = 0, count = 150, plies = 3;
    rng_seed(&r, seed);
    for (int i = 0; i < count; i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        _Alignas(GAME_STATE_ALIGN) unsigned char m[GAME_MAX_STATE_SIZE];
        char text[1024], mtext[1024], err[256];
        random_position(game, &r, &v, st);
        const struct game *g = v.game;
        assert_true(g->to_text(st, text, sizeof text) >= 0);
        assert_true(g->mirror_position_text(text, mtext, sizeof mtext) >= 0);
        if (g->from_text(m, &v, mtext, err, sizeof err) != 0)
            fail_msg("%s: the mirror image %s: %s", text, mtext, err);
        for (int d = 1; d <= plies; d++) {
            struct solver_options o = {.plies = d, .max_mb = 1};
            struct solver_result res;
            int expect = minimax_forced_win(g, st, d);
            assert_int_equal(solver_solve(g, m, &o, &res, err, sizeof err), 0);
            if ((res.answer == SOLVER_WIN) != expect)
                fail_msg("%s within %d: minimax %s, the solver on its mirror "
                         "image %s %s", text, d, expect ? "win" : "no win",
                         mtext, solver_answer_name(res.answer));
            wins += expect && d == plies;
        }
    }
    print_message("%s: %d positions, %d wins within %d plies, each mirror "
                  "image answered alike\n", random_position_variants[game][0],
                  count, wins, plies);
    assert_true(wins >= count / 10 && wins <= count - count / 10);
}

static void test_mirror_answers(void **state)
{
    (void)state;
    check_mirror_answers(0, 1202); /* tafl */
    check_mirror_answers(1, 1203); /* Serbest */
}

static void test_others_claim_nothing(void **state)
{
    (void)state;
    const char *names[] = {"jetan"};
    for (int k = 0; k < 1; k++) {
        struct variant v;
        char err[256];
        assert_int_equal(variant_parse(names[k], &v, err, sizeof err), 0);
        assert_null(v.game->mirror_move_text);
        assert_null(v.game->mirror_position_text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_helpers),
        cmocka_unit_test(test_others_claim_nothing),
        cmocka_unit_test(test_serbest_is_mirror_symmetric),
        cmocka_unit_test(test_tafl_is_mirror_symmetric),
        cmocka_unit_test(test_mirror_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
