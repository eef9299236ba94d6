/*
 * test_tafl_ludii_rules.c -- the tafl rules that Ludii's Tablut brought
 * (docs/rules.md#hnefatafl-9x9-tafl): king_throne (the King may not cross
 * or re-enter the empty throne once it has left it), throne_hostile=2 (the
 * throne stays hostile to defenders while the King stands on it),
 * repetition_draw, and the exact Ludii preset's perft. Each case is
 * checked in the fast engine and in the naive reference
 * (tests/ref/tafl_ref.c), on hand-built positions whose answers were
 * worked out by hand. test_tafl_ludii.c replays Ludii's own games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "game.h"
#include "tafl_helpers.h"
#include "tafl_ref.h"

/* Each case below is checked in the fast engine and in the naive
 * reference (tests/ref/tafl_ref.c), whose parameters are read from the
 * same variant text. */
static void ref_params_of(const char *variant, tafl_ref_params *p)
{
    struct variant v;
    char err[256] = "";
    if (variant_parse(variant, &v, err, sizeof err) != 0)
        fail_msg("%s: %s", variant, err);
    tafl_ref_defaults(p);
    p->first_defenders = variant_get(&v, "first");
    p->throne_passable = variant_get(&v, "throne_passable");
    p->throne_hostile = variant_get(&v, "throne_hostile");
    p->king_armed = variant_get(&v, "king_armed");
    p->edge_captures_king = variant_get(&v, "edge_captures_king");
    p->king_custodial = variant_get(&v, "king_capture");
    p->escape_edge = variant_get(&v, "escape");
    p->king_throne_barred = variant_get(&v, "king_throne");
}

/* The number of legal moves, in both engines. */
static void both_count(const char *variant, const char *pieces, char side,
                       int expected)
{
    struct tafl_state st;
    tafl_ref_params p;
    char fen[128], moves[TAFL_REF_MAX_MOVES][8];
    tafl_setup(&st, variant, pieces, side);
    ref_params_of(variant, &p);
    fen_from_pieces(pieces, side, fen);
    int fast = count_moves(&st);
    int ref = tafl_ref_moves(fen, &p, moves, TAFL_REF_MAX_MOVES);
    if (fast != expected || ref != expected)
        fail_msg("%s [%s]: fast %d moves, reference %d, expected %d",
                 variant, fen, fast, ref, expected);
}

/* Whether move is legal, in both engines. */
static void both_legal(const char *variant, const char *pieces, char side,
                       const char *move, int expected)
{
    struct tafl_state st;
    tafl_ref_params p;
    char fen[128], moves[TAFL_REF_MAX_MOVES][8];
    tafl_setup(&st, variant, pieces, side);
    ref_params_of(variant, &p);
    fen_from_pieces(pieces, side, fen);
    int n = tafl_ref_moves(fen, &p, moves, TAFL_REF_MAX_MOVES), ref = 0;
    for (int i = 0; i < n; i++)
        ref |= strcmp(moves[i], move) == 0;
    if (is_legal(&st, move) != expected || ref != expected)
        fail_msg("%s [%s] %s: fast %s, reference %s, expected %s", variant,
                 fen, move, is_legal(&st, move) ? "legal" : "illegal",
                 ref ? "legal" : "illegal", expected ? "legal" : "illegal");
}

/* The letter on square sq of a position text's board ('.' if empty). */
static char square_of(const char *fen, const char *sq)
{
    int want = (8 - (sq[1] - '1')) * 9 + (sq[0] - 'a'), k = 0;
    for (const char *c = fen; *c && *c != ' '; c++) {
        if (*c == '/')
            continue;
        int run = *c >= '1' && *c <= '9' ? *c - '0' : 1;
        if (want < k + run)
            return run > 1 || (*c >= '1' && *c <= '9') ? '.' : *c;
        k += run;
    }
    return '?';
}

/* After move, square sq holds `expected` ('.' once captured), in both
 * engines. */
static void both_after(const char *variant, const char *pieces, char side,
                       const char *move, const char *sq, char expected)
{
    struct tafl_state st;
    tafl_ref_params p;
    char fen[128], after[128];
    int result;
    tafl_setup(&st, variant, pieces, side);
    ref_params_of(variant, &p);
    fen_from_pieces(pieces, side, fen);
    play(&st, move);
    if (tafl_ref_apply(fen, &p, move, after, sizeof after, &result) != 0)
        fail_msg("%s [%s] %s: not legal in the reference", variant, fen,
                 move);
    if (at(&st, sq) != expected || square_of(after, sq) != expected)
        fail_msg("%s [%s] %s: %s holds '%c' (fast), '%c' (reference), "
                 "expected '%c'", variant, fen, move, sq, at(&st, sq),
                 square_of(after, sq), expected);
}

#define BARRED "tafl(king_throne=barred)"

/* "the King may always pass over the throne and stop on it, unless
 * king_throne=barred" / "king_throne (free default ...; barred: once the
 * King has left the throne it may neither stop on it nor pass over it,
 * like the other pieces with throne_passable=0)". */
static void test_king_throne(void **state)
{
    (void)state;
    struct tafl_state st;
    /* King e4, nothing on rank 4 or the e file: free, a4-d4 and f4-i4 (8),
     * e1-e3 (3), e5-e9 over the throne (5) = 16; barred, the throne stops
     * it upwards: 8 + 3 = 11 */
    both_count("tafl", "k:e4 a:h8", 'd', 16);
    both_count(BARRED, "k:e4 a:h8", 'd', 11);
    both_legal("tafl", "k:e4 a:h8", 'd', "e4e5", 1);
    both_legal("tafl", "k:e4 a:h8", 'd', "e4e6", 1);
    both_legal(BARRED, "k:e4 a:h8", 'd', "e4e5", 0); /* no stop */
    both_legal(BARRED, "k:e4 a:h8", 'd', "e4e6", 0); /* no passing */
    both_legal(BARRED, "k:e4 a:h8", 'd', "e4e3", 1);
    /* along rank 5: King b5, free: a5, c5-i5 (8) and b1-b4, b6-b9 (8) =
     * 16; barred: a5, c5, d5 (3) + 8 = 11 */
    both_count("tafl", "k:b5 a:h8", 'd', 16);
    both_count(BARRED, "k:b5 a:h8", 'd', 11);
    both_legal(BARRED, "k:b5 a:h8", 'd', "b5d5", 1);
    both_legal(BARRED, "k:b5 a:h8", 'd', "b5e5", 0);
    both_legal(BARRED, "k:b5 a:h8", 'd', "b5f5", 0);
    /* not before it has left: the King on the throne moves as ever, 4
     * directions x 4 squares */
    both_count(BARRED, "k:e5 a:a2", 'd', 16);
    /* in a game: the King leaves e5, and then may not come back or cross;
     * e6, between it and the throne, stays open */
    tafl_setup(&st, BARRED, "k:e5 a:h8", 'd');
    play(&st, "e5e7 h8h9");
    assert_false(is_legal(&st, "e7e5"));
    assert_false(is_legal(&st, "e7e4"));
    assert_true(is_legal(&st, "e7e6"));
    both_legal(BARRED, "k:e7 a:h9", 'd', "e7e5", 0); /* the same position */
    both_legal(BARRED, "k:e7 a:h9", 'd', "e7e6", 1);
    /* it concerns the King only: men still pass over the empty throne
     * (throne_passable=1): e6 passes to e4-e1 (4), e7-e9 (3), a6-d6 and
     * f6-i6 (8), King b2 16, as under the defaults = 31 */
    both_count(BARRED, "d:e6 k:b2 a:h8", 'd', 31);
    both_legal(BARRED, "d:e6 k:b2 a:h8", 'd', "e6e4", 1);
    /* and the corners stay the King's (escape=corner) */
    tafl_setup(&st, BARRED, "k:b1 a:h8", 'd');
    play(&st, "b1a1");
    assert_int_equal(tafl_game.status(&st).reason, REASON_KING_ESCAPED);
    both_legal(BARRED, "k:b1 a:h8", 'd', "b1a1", 1);
}

#define HOSTILE2 "tafl(throne_hostile=2)"

/* "throne_hostile=2: the throne is hostile to the men of both sides
 * whether empty or occupied (with the King on it, a defender between an
 * attacker and the throne is captured; an attacker between a defender and
 * the empty or occupied throne likewise)". */
static void test_throne_hostile_occupied(void **state)
{
    (void)state;
    /* the King on e5; attacker a3 to e3 encloses defender e4 against the
     * throne: taken under 2, not under 0 or 1 (an occupied throne is never
     * hostile in itself there, and the King is not an attacker) */
    both_after(HOSTILE2, "k:e5 d:e4 a:a3", 'a', "a3e3", "e4", '.');
    both_after("tafl(throne_hostile=1)", "k:e5 d:e4 a:a3", 'a', "a3e3", "e4",
               'd');
    both_after("tafl", "k:e5 d:e4 a:a3", 'a', "a3e3", "e4", 'd');
    /* the same along rank 5: attacker c1 to c5 encloses d5 */
    both_after(HOSTILE2, "k:e5 d:d5 a:c1", 'a', "c1c5", "d5", '.');
    both_after(HOSTILE2, "k:e5 d:d5 a:c1", 'a', "c1c5", "e5", 'k');
    /* an attacker between a defender and the occupied throne (the King
     * unarmed, king_armed=0: it is the throne that encloses) */
    both_after(HOSTILE2, "k:e5 a:e4 d:a3", 'd', "a3e3", "e4", '.');
    both_after("tafl(throne_hostile=1)", "k:e5 a:e4 d:a3", 'd', "a3e3", "e4",
               'a');
    /* the empty throne, as under 1, for both sides */
    both_after(HOSTILE2, "d:e4 a:a3 k:h8", 'a', "a3e3", "e4", '.');
    both_after(HOSTILE2, "a:e4 d:a3 k:h8", 'd', "a3e3", "e4", '.');
    /* only the side that moved captures, with the moved piece: d:e4 stands
     * between a:e3 and the occupied throne, and a8a7 takes nothing */
    both_after(HOSTILE2, "k:e5 d:e4 a:e3 a:a8", 'a', "a8a7", "e4", 'd');
    /* hostile to men, not to the King: the King next to the throne, an
     * attacker moving to its other side, is not captured (the surround
     * rule applies there, and d6 and f6 are free) */
    both_after("tafl(throne_hostile=2,king_capture=custodial)", "k:e6 a:a7",
               'a', "a7e7", "e6", 'k');
    both_after(HOSTILE2, "k:e6 a:a7", 'a', "a7e7", "e6", 'k');
}

/* "repetition_draw (default 1; 0 = threefold repetition is not a draw, as
 * in Ludii, where positions may repeat without end until another rule
 * ends the game)". The reference has no history rules, so this is the
 * fast engine's alone. */
static void test_repetition_draw(void **state)
{
    (void)state;
    struct tafl_state st;
    /* test_threefold_repetition's game: the 8th ply brings the start
     * position a third time, a draw by default, not with 0 */
    tafl_setup(&st, "tafl(repetition_draw=0)", "a:c3 d:g7 k:e5", 'a');
    play(&st, "c3c4 g7g8 c4c3 g8g7 c3c4 g7g8 c4c3 g8g7");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    /* the shuttle rule still applies: attackers' moves 5 and 6 of the
     * c3-c4 shuttle are allowed, a 7th is not (repetition_limit=3) */
    play(&st, "c3c4 g7g8 c4c3 g8g7");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    assert_false(is_legal(&st, "c3c4"));
    /* without the shuttle rule, the position repeats without end until
     * another rule ends the game: here the no-capture limit (2 x 10
     * plies) */
    tafl_setup(&st, "tafl(repetition_draw=0,repetition_limit=0,"
                    "no_capture_limit=10)", "a:c3 d:g7 k:e5", 'a');
    for (int i = 0; i < 4; i++) {
        play(&st, "c3c4 g7g8 c4c3 g8g7");
        assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    }
    play(&st, "c3c4 g7g8 c4c3");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    play(&st, "g8g7"); /* ply 20, the start position a 6th time */
    assert_int_equal(tafl_game.status(&st).reason, REASON_NO_CAPTURE);
    /* and with no limit at all, the ply cap */
    tafl_setup(&st, "tafl(repetition_draw=0,repetition_limit=0,"
                    "no_capture_limit=0,max_plies=40)", "a:c3 d:g7 k:e5", 'a');
    for (int i = 0; i < 9; i++)
        play(&st, "c3c4 g7g8 c4c3 g8g7");
    play(&st, "c3c4 g7g8 c4c3");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    play(&st, "g8g7");
    assert_int_equal(tafl_game.status(&st).reason, REASON_PLY_CAP);
    /* the default, 1, is the draw of test_threefold_repetition */
    tafl_setup(&st, "tafl(repetition_draw=1)", "a:c3 d:g7 k:e5", 'a');
    play(&st, "c3c4 g7g8 c4c3 g8g7 c3c4 g7g8 c4c3 g8g7");
    assert_int_equal(tafl_game.status(&st).reason, REASON_REPETITION);
}

#define LUDII_PRESET                                                         \
    "tafl(escape=edge,king_armed=1,king_capture=custodial,king_throne="     \
    "barred,throne_hostile=2,throne_passable=0,repetition_limit=0,"         \
    "repetition_draw=0,no_capture_limit=0,max_plies=2500)"

/* Perft of the exact Ludii preset (docs/rules.md#tafl-ludiis-tablut-preset)
 * from the start: depths 2-4 are the reference's own perft (none of the
 * history rules is on), which the fast engine reproduces.
 * Depth 1 is Ludii's 80 before its first ply (every game of
 * tests/fixtures/tablut_ludii_300_games.txt.gz starts "P 0 80"): the
 * defaults' 72, plus 8 corner squares the edge escape leaves to the men
 * (a1 and i1 from d1 and f1 along rank 1, a9 and i9 likewise, and the four
 * corners along the a and i files from a4, a6, i4, i6); with
 * throne_passable=0 no man passes e5, but none could from the start. */
static void test_perft_ludii_preset(void **state)
{
    (void)state;
    const char *fen =
        "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a";
    tafl_ref_params p;
    ref_params_of(LUDII_PRESET, &p);
    const uint64_t expected[] = {80, 4400, 353200, 19901208};
    for (int d = 1; d <= 4; d++) {
        assert_int_equal(perft_of(LUDII_PRESET, NULL, d), expected[d - 1]);
        assert_int_equal(tafl_ref_perft(fen, &p, d),
                         (long long)expected[d - 1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_king_throne),
        cmocka_unit_test(test_throne_hostile_occupied),
        cmocka_unit_test(test_repetition_draw),
        cmocka_unit_test(test_perft_ludii_preset),
    };
    return cmocka_run_group_tests_name("tafl_ludii_rules", tests, NULL, NULL);
}
