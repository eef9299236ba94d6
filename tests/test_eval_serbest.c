/*
 * test_eval_serbest.c -- Serbest's evaluation (agents/eval_serbest.c): a
 * hand-built position for each feature, showing that the term moves the
 * evaluation the right way for the side to move (each read with either
 * side to move, so the sign flips), with the value derived by hand in a
 * comment; capture_value and is_forcing on hand-built moves; and, on
 * positions from seeded random games, the king terms (attacks, path,
 * checking drops, Khan steps) and is_forcing against references built
 * from the core's own attack test and apply.
 *
 * Positions are written as placements ("Ke5 ra7": a white king on e5, a
 * black rook on a7), the hands and the side to move; placement_text turns
 * them into the position text of docs/rules.md#notation-serbest.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "eval.h"
#include "rng.h"
#include "serbest.h"
#include "serbest_helpers.h"

/* ---- positions ---------------------------------------------------------- */

/* The position text (docs/rules.md#notation-serbest) of the placements
 * (space-separated tokens: piece letter, file a..j, rank 1..10), hands and
 * side ('w' or 'b'). */
static void placement_text(const char *placements, const char *hands,
                           char side, char *out, size_t n)
{
    char grid[10][10];
    memset(grid, 0, sizeof grid);
    for (const char *p = placements; *p;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        int file = p[1] - 'a', rank = p[2] - '0';
        int len = 3;
        if (p[3] >= '0' && p[3] <= '9')
            rank = rank * 10 + p[3] - '0', len = 4;
        assert_true(file >= 0 && file < 10 && rank >= 1 && rank <= 10);
        grid[rank - 1][file] = p[0];
        p += len;
    }
    char rest[2] = {side, 0};
    serbest_grid_text(grid, hands, rest, out, n);
}

/* The state of the placements under variant (NULL: the defaults); the
 * game must be ongoing, as features' contract asks. */
static void read_position(const char *variant, const char *placements,
                          const char *hands, char side,
                          struct serbest_state *s)
{
    struct variant v;
    char text[256], err[256];
    if (variant) {
        if (variant_parse(variant, &v, err, sizeof err) != 0)
            fail_msg("%s: %s", variant, err);
    } else {
        variant_default(&serbest_game, &v);
    }
    placement_text(placements, hands, side, text, sizeof text);
    if (serbest_game.from_text(s, &v, text, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    assert_int_equal(serbest_game.status(s).outcome, GAME_ONGOING);
}

static int feature_index(const char *name)
{
    const struct game_eval *e = eval_of(&serbest_game);
    for (int i = 0; i < e->n_features; i++)
        if (strcmp(e->weights[i].name, name) == 0)
            return i;
    fail_msg("no feature %s", name);
    return -1;
}

static double feature_in(const char *variant, const char *placements,
                         const char *hands, char side, const char *name)
{
    struct serbest_state s;
    double f[EVAL_MAX_FEATURES];
    read_position(variant, placements, hands, side, &s);
    eval_of(&serbest_game)->features(&s, f);
    return f[feature_index(name)];
}

static double feature(const char *placements, const char *hands, char side,
                      const char *name)
{
    return feature_in(NULL, placements, hands, side, name);
}

/* Asserts the feature is `white` with White to move and -white with
 * Black to move. */
static void assert_flips(const char *placements, const char *hands,
                         const char *name, double white)
{
    assert_true(feature(placements, hands, 'w', name) == white);
    assert_true(feature(placements, hands, 'b', name) == -white);
}

/* ---- the features ------------------------------------------------------- */

static void test_weights_table(void **state)
{
    (void)state;
    const struct game_eval *e = eval_of(&serbest_game);
    assert_true(e->n_features <= 10 && e->n_features <= EVAL_MAX_FEATURES);
    for (int i = 0; i < e->n_features; i++) {
        const struct param_spec *w = &e->weights[i];
        assert_int_equal(strncmp(w->name, "serbest_", 8), 0);
        assert_int_equal(w->type, PARAM_REAL);
        assert_int_equal(w->since, 2);
        assert_true(w->min <= w->def && w->def <= w->max && w->doc);
    }
}

static void test_material(void **state)
{
    (void)state;
    /* Full hands: level. Black's queen gone: White, to move, is a queen
     * (900 points, eval_serbest.c's table) ahead in hand. */
    assert_flips("", "KQRRBBNNPPPPPPSSkqrrbbnnppppppss",
                 "serbest_material_hand", 0);
    assert_flips("", "KQRRBBNNPPPPPPSSkrrbbnnppppppss",
                 "serbest_material_hand", 900);
    assert_flips("", "KQRRBBNNPPPPPPSSkrrbbnnppppppss",
                 "serbest_material_board", 0);
    /* The same queen on the board counts there and not in hand. */
    assert_flips("Qa1", "Kk", "serbest_material_board", 900);
    assert_flips("Qa1", "Kk", "serbest_material_hand", 0);
    /* A black rook (500) and Subedei (120) on the board against a white
     * knight (300): 300 - 620. */
    assert_flips("Nb2 rh8 sc9", "Kk", "serbest_material_board", -320);
}

static void test_king_landed(void **state)
{
    (void)state;
    /* White's king on e1, Black's in hand: +1 for White to move. */
    assert_flips("Ke1", "k", "serbest_king_landed", 1);
    assert_flips("Ke1 ke10", "", "serbest_king_landed", 0);
    assert_flips("", "Kk", "serbest_king_landed", 0);
}

static void test_king_advance(void **state)
{
    (void)state;
    /* A white king on e7 has come 6 ranks: 36. Black's on e10 none (its
     * first rank), on e4 six (from rank 10 down to 4): 36 - 36. */
    assert_flips("Ke7", "k", "serbest_king_advance", 36);
    assert_flips("Ke7 ke10", "", "serbest_king_advance", 36);
    assert_flips("Ke7 ke4", "", "serbest_king_advance", 0);
    /* On e3, 2 ranks: 4, less than on e7. */
    assert_flips("Ke3", "k", "serbest_king_advance", 4);
}

static void test_king_path(void **state)
{
    (void)state;
    /* A white king on e5 (advance 4) on an empty board: d6 e6 f6 and
     * c7..g7 open, 8 squares * 4/8 = 4. */
    assert_flips("Ke5", "k", "serbest_king_path", 4);
    /* A black pawn on e7 occupies e7 and attacks d6 and f6 (it captures
     * downward): e6 c7 d7 f7 g7 are left, 5 * 4/8 = 2.5. */
    assert_flips("Ke5 pe7", "k", "serbest_king_path", 2.5);
    /* A black rook on a7 covers the whole rank 7: d6 e6 f6, 3 * 4/8. */
    assert_flips("Ke5 ra7", "k", "serbest_king_path", 1.5);
    /* At the edges: a5 sees a6 b6, a7 b7 c7; j5 sees i6 j6, h7 i7 j7:
     * 5 * 4/8. */
    assert_flips("Ka5", "k", "serbest_king_path", 2.5);
    assert_flips("Kj5", "k", "serbest_king_path", 2.5);
    /* On e9 (advance 8) only the far rank is ahead: d10 e10 f10, 3. */
    assert_flips("Ke9", "k", "serbest_king_path", 3);
    /* A black king on e6 (advance 4) looks down: d5 e5 f5, c4..g4; a
     * white pawn on e4 occupies e4 and attacks d5 and f5: 5 * 4/8, good
     * for Black. */
    assert_flips("ke6", "K", "serbest_king_path", -4);
    assert_flips("ke6 Pe4", "K", "serbest_king_path", -2.5);
}

static void test_khan_now(void **state)
{
    (void)state;
    /* A white king on e9 with d10 e10 f10 free: a win in one for White to
     * move; nothing for Black to move (its king is in hand). */
    assert_true(feature("Ke9", "k", 'w', "serbest_khan_now") == 1);
    assert_true(feature("Ke9", "k", 'b', "serbest_khan_now") == 0);
    /* A black rook on a10 covers all three. */
    assert_true(feature("Ke9 ra10", "k", 'w', "serbest_khan_now") == 0);
    /* White knights on d10 and f10 leave e10; a black rook on e2, giving
     * check up the e-file, covers e10 through the king's own square (the
     * king cannot step along the line away from it). */
    assert_true(feature("Ke9 Nd10 Nf10", "kr", 'w', "serbest_khan_now") == 1);
    assert_true(feature("Ke9 Nd10 Nf10 re2", "k", 'w', "serbest_khan_now")
                == 0);
    /* Black's king on e2 steps down to rank 1. */
    assert_true(feature("ke2", "K", 'b', "serbest_khan_now") == 1);
    assert_true(feature("ke2", "K", 'w', "serbest_khan_now") == 0);
}

static void test_khan_threatened(void **state)
{
    (void)state;
    /* Black to move against a white king on e9: d10 e10 f10, -3. White to
     * move: Black's king is in hand, 0. */
    assert_true(feature("Ke9", "k", 'b', "serbest_khan_threatened") == -3);
    assert_true(feature("Ke9", "k", 'w', "serbest_khan_threatened") == 0);
    /* A black bishop on a7 covers d10 (b8, c9 empty): -2. */
    assert_true(feature("Ke9 ba7", "k", 'b', "serbest_khan_threatened")
                == -2);
    /* A black knight on d10 can be taken (the king steps there): still 3;
     * defended by a rook on a10 (which it blocks from e10 and f10), 2. */
    assert_true(feature("Ke9 nd10", "k", 'b', "serbest_khan_threatened")
                == -3);
    assert_true(feature("Ke9 nd10 ra10", "k", 'b', "serbest_khan_threatened")
                == -2);
    /* Black's king on e2 threatens d1 e1 f1. */
    assert_true(feature("ke2", "K", 'w', "serbest_khan_threatened") == -3);
}

static void test_king_attacks(void **state)
{
    (void)state;
    /* A black rook on a4 attacks d4 e4 f4 beside the white king on e5:
     * -3 for White to move. One on a6 too: d6 e6 f6, -6. */
    assert_flips("Ke5 ra4", "k", "serbest_king_attacks", -3);
    assert_flips("Ke5 ra4 ra6", "k", "serbest_king_attacks", -6);
    /* A black pawn on e7 attacks d6 and f6. */
    assert_flips("Ke5 pe7", "k", "serbest_king_attacks", -2);
    /* White's knight on c3 attacks a2 a4 b1 b5 d1 d5 e2 e4, of which d5
     * is beside Black's king on e6: +1. */
    assert_flips("Nc3 ke6", "K", "serbest_king_attacks", 1);
}

static void test_drop_checks(void **state)
{
    (void)state;
    /* White's king on e5, Black's knight in hand: the 8 knight squares
     * c4 c6 d3 d7 f3 f7 g4 g6 are empty: -8. */
    assert_flips("Ke5", "kn", "serbest_drop_checks", -8);
    /* A rook: only from two away on the lines (no check from beside the
     * king, docs/rules.md#serbest-check-and-drops): e7 e3 c5 g5. A queen:
     * those and c7 g7 c3 g3. */
    assert_flips("Ke5", "kr", "serbest_drop_checks", -4);
    assert_flips("Ke5", "kq", "serbest_drop_checks", -8);
    /* A white pawn on e6 blocks e7 (and fills e6): c5 g5 e3. */
    assert_flips("Ke5 Pe6", "kr", "serbest_drop_checks", -3);
    /* A black pawn on e7 takes that square: c5 g5 e3. */
    assert_flips("Ke5 pe7", "kr", "serbest_drop_checks", -3);
    /* A pawn never checks when dropped under the default rules. */
    assert_flips("Ke5", "kp", "serbest_drop_checks", 0);
    /* In the corner a1: a knight from b3 c2; a queen from a3 c3 c1. */
    assert_flips("Ka1", "kn", "serbest_drop_checks", -2);
    assert_flips("Ka1", "kq", "serbest_drop_checks", -3);
    /* Black's king on e6, White's queen in hand: 8, good for White. */
    assert_flips("ke6", "KQ", "serbest_drop_checks", 8);
    /* adjacent_drop_check=1: a black pawn from d6 or f6 (it captures
     * downward), a Subedei from the 4 diagonal neighbours, a queen from
     * all 8 and the 8 two away; queen and Subedei share squares: 16. */
    const char *adjacent = "serbest(adjacent_drop_check=1)";
    assert_true(feature_in(adjacent, "Ke5", "kp", 'w', "serbest_drop_checks")
                == -2);
    /* The pawn's two squares are d6 and f6, not d4 and f4. */
    assert_true(feature_in(adjacent, "Ke5 Pd6 Pf6", "kp", 'w',
                           "serbest_drop_checks") == 0);
    assert_true(feature_in(adjacent, "Ke5 Pd4 Pf4", "kp", 'w',
                           "serbest_drop_checks") == -2);
    assert_true(feature_in(adjacent, "Ke5", "ks", 'w', "serbest_drop_checks")
                == -4);
    assert_true(feature_in(adjacent, "Ke5", "kqs", 'w', "serbest_drop_checks")
                == -16);
    assert_true(feature_in(adjacent, "Ke5", "kqs", 'b', "serbest_drop_checks")
                == 16);
}

static void test_mobility(void **state)
{
    (void)state;
    /* A rook on a1: 9 up, 9 right. */
    assert_flips("Ra1", "Kk", "serbest_mobility", 18);
    /* A pawn on a2 stops it going up (9 right left); the pawn: a3 a4,
     * b2 c2 (a1 is taken, left is off the board): 13. */
    assert_flips("Ra1 Pa2", "Kk", "serbest_mobility", 13);
    assert_flips("Ne5", "Kk", "serbest_mobility", 8);
    /* A knight on a1 does not jump onto its own pawn on b3, only to c2;
     * the pawn: b4 b5, b2 b1, a3 (then the edge), c3 d3: 1 + 7. */
    assert_flips("Na1 Pb3", "Kk", "serbest_mobility", 8);
    /* The king's moves are not counted. */
    assert_flips("Ke5", "k", "serbest_mobility", 0);
    /* A white pawn on e5: 2 steps each way (8) and the capture of the
     * queen on d6: 9. The black queen on d6: up 4, down 5, left 3,
     * right 6, up-left 3, up-right 4, down-left 3, and the capture on
     * e5: 29. 9 - 29. */
    assert_flips("Pe5 qd6", "Kk", "serbest_mobility", -20);
}

/* A feature's hand-derived value, by name. */
struct named_value {
    const char *name;
    double value;
};

/* Asserts that eval_score, with the default weights, is the weighted sum
 * of the n hand-derived features in want (the others 0). */
static void assert_score(const struct serbest_state *s,
                         const struct named_value *want, int n)
{
    const struct game_eval *e = eval_of(&serbest_game);
    double w[EVAL_MAX_FEATURES], f[EVAL_MAX_FEATURES] = {0}, expected = 0;
    for (int i = 0; i < e->n_features; i++)
        w[i] = e->weights[i].def;
    for (int i = 0; i < n; i++)
        f[feature_index(want[i].name)] = want[i].value;
    for (int i = 0; i < e->n_features; i++)
        expected += w[i] * f[i];
    double got = eval_score(e, w, s);
    assert_true(got > expected - 1e-9 && got < expected + 1e-9);
}

/* Every feature of one position at once, from both sides: a white king
 * on e9 (advance 8) with d10 e10 f10 free, a black rook on a3 (18 moves:
 * a4..a10, a2 a1, b3..j3; it attacks nothing beside e9), Black's king in
 * hand. Only the rook's is any mobility (the king's is not counted). */
static void test_score(void **state)
{
    (void)state;
    struct serbest_state s;
    read_position(NULL, "Ke9 ra3", "k", 'w', &s);
    const struct named_value white[] = {
        {"serbest_material_board", -500}, {"serbest_king_landed", 1},
        {"serbest_king_advance", 64},     {"serbest_king_path", 3},
        {"serbest_khan_now", 1},          {"serbest_mobility", -18},
    };
    assert_score(&s, white, 6);
    read_position(NULL, "Ke9 ra3", "k", 'b', &s);
    const struct named_value black[] = {
        {"serbest_material_board", 500}, {"serbest_king_landed", -1},
        {"serbest_king_advance", -64},   {"serbest_king_path", -3},
        {"serbest_khan_threatened", -3}, {"serbest_mobility", 18},
    };
    assert_score(&s, black, 6);
}

/* ---- capture_value and is_forcing ------------------------------------- */

static move_t move_of(const struct serbest_state *s, const char *text)
{
    move_t m;
    if (serbest_game.move_from_text(s, text, &m) != 0)
        fail_msg("bad move %s", text);
    /* The contract's precondition: m is legal in s. */
    move_t moves[GAME_MAX_MOVES];
    int n = serbest_game.legal_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return m;
    fail_msg("%s is not legal here", text);
    return 0;
}

static int capture_value(const char *placements, const char *hands,
                         char side, const char *move)
{
    struct serbest_state s;
    read_position(NULL, placements, hands, side, &s);
    return eval_of(&serbest_game)->capture_value(&s, move_of(&s, move));
}

static void test_capture_value(void **state)
{
    (void)state;
    /* The values of eval_serbest.c's table: queen 900, Subedei 120. */
    assert_int_equal(capture_value("Ra1 qa8", "Kk", 'w', "a1a8"), 900);
    assert_int_equal(capture_value("Ra1 sa8", "Kk", 'w', "a1a8"), 120);
    assert_int_equal(capture_value("Ra1 sa8", "Kk", 'w', "a1a5"), 0);
    assert_int_equal(capture_value("Ra1 sa8", "Kk", 'w', "K@e1"), 0);
    /* A black pawn takes diagonally downward. */
    assert_int_equal(capture_value("Nd4 pe5", "Kk", 'b', "e5d4"), 300);
}

static int forcing_in(const char *variant, const char *placements,
                      const char *hands, char side, const char *move)
{
    struct serbest_state s;
    read_position(variant, placements, hands, side, &s);
    return eval_of(&serbest_game)->is_forcing(&s, move_of(&s, move));
}

static int forcing(const char *placements, const char *hands, char side,
                   const char *move)
{
    return forcing_in(NULL, placements, hands, side, move);
}

static void test_forcing_checks(void **state)
{
    (void)state;
    /* Black's king on e8. A queen dropped on e5 checks up the file (e6 e7
     * empty), on b5 along the diagonal c6 d7; on a1 it is on no line. */
    assert_true(forcing("ke8", "KQN", 'w', "Q@e5"));
    assert_true(forcing("ke8", "KQN", 'w', "Q@b5"));
    assert_false(forcing("ke8", "KQN", 'w', "Q@a1"));
    /* A knight from d6 (one file, two ranks) checks; from d5 it does not. */
    assert_true(forcing("ke8", "KQN", 'w', "N@d6"));
    assert_false(forcing("ke8", "KQN", 'w', "N@d5"));
    /* A pawn dropped on d6 attacks c7 and e7: no check. With
     * adjacent_drop_check=1 it may be dropped on d7, attacking e8. */
    assert_false(forcing("ke8", "KP", 'w', "P@d6"));
    assert_true(forcing_in("serbest(adjacent_drop_check=1)", "ke8", "KP",
                           'w', "P@d7"));
    /* A rook moving to a8 checks along rank 8, to e3 up the e-file; to
     * a4 it does not. Taking a pawn on a8 with check is a capture, which
     * is not counted as forcing. */
    assert_true(forcing("Ra3 ke8", "K", 'w', "a3a8"));
    assert_true(forcing("Ra3 ke8", "K", 'w', "a3e3"));
    assert_false(forcing("Ra3 ke8", "K", 'w', "a3a4"));
    assert_false(forcing("Ra3 pa8 ke8", "K", 'w', "a3a8"));
    /* Discovered checks from a rook on e1: the knight on e4 leaving the
     * file, the pawn on e4 stepping sideways; the pawn stepping up to e5
     * still blocks. */
    assert_true(forcing("Re1 Ne4 ke8", "K", 'w', "e4c5"));
    assert_true(forcing("Re1 Pe4 ke8", "K", 'w', "e4d4"));
    assert_false(forcing("Re1 Pe4 ke8", "K", 'w', "e4e5"));
    /* Black: a queen dropped on e6 checks White's king on e3. */
    assert_true(forcing("Ke3", "kq", 'b', "Q@e6"));
    assert_false(forcing("Ke3", "kq", 'b', "Q@a1"));
}

static void test_forcing_khan(void **state)
{
    (void)state;
    /* The king stepping to e9 sees d10 e10 f10 free: a Khan threat. To d8
     * it stays on rank 8. With a black rook on a10 all three are covered. */
    assert_true(forcing("Ke8", "k", 'w', "e8e9"));
    assert_false(forcing("Ke8", "k", 'w', "e8d8"));
    assert_false(forcing("Ke8 ra10", "k", 'w', "e8e9"));
    /* The Khan move itself. */
    assert_true(forcing("Ke9", "k", 'w', "e9e10"));
    /* A threat the mover had already (it could have won) is not made by
     * the move: a king step along rank 9, a knight drop. */
    assert_false(forcing("Ke9", "Nk", 'w', "e9d9"));
    assert_false(forcing("Ke9", "Nk", 'w', "N@a1"));
    /* A knight dropped on c10 blocks the rook on a10 from d10 e10 f10;
     * dropped on a1 it blocks nothing. */
    assert_true(forcing("Ke9 ra10", "Nk", 'w', "N@c10"));
    assert_false(forcing("Ke9 ra10", "Nk", 'w', "N@a1"));
    /* White's own pieces fill d10 e10 f10; the knight leaving d10 opens
     * it. */
    assert_true(forcing("Ke9 Nd10 Re10 Bf10", "k", 'w', "d10c8"));
    /* kings_landing=9: a king dropped on e9 threatens rank 10; on e8 not. */
    const char *kl9 = "serbest(kings_landing=9)";
    assert_true(forcing_in(kl9, "", "Kk", 'w', "K@e9"));
    assert_false(forcing_in(kl9, "", "Kk", 'w', "K@e8"));
    /* Black's king stepping to e2 threatens rank 1. */
    assert_true(forcing("ke3", "K", 'b', "e3e2"));
    assert_false(forcing("ke3", "K", 'b', "e3d3"));
}

/* ---- against references on random positions -------------------------- */

/* Far-rank squares colour's king steps onto legally, by the core's own
 * test: empty or the enemy's, not attacked with the king lifted. */
static int ref_khan_steps(const struct serbest_state *s, int colour)
{
    int k = s->king_sq[colour];
    int far = colour == SERBEST_WHITE ? 9 : 0, dir = colour ? -1 : 1;
    if (!k || SERBEST_RANK(k) + dir != far)
        return 0;
    int n = 0;
    for (int df = -1; df <= 1; df++) {
        int file = SERBEST_FILE(k) + df;
        if (file < 0 || file > 9)
            continue;
        int t = SERBEST_SQ(file, far), p = s->board[t];
        n += (p == SERBEST_EMPTY || SERBEST_COLOUR(p) != colour)
             && !serbest_attacked(s, t, colour ^ 1, k);
    }
    return n;
}

/* The squares beside colour's king its enemy attacks, by the core. */
static int ref_king_attacks(const struct serbest_state *s, int colour)
{
    int k = s->king_sq[colour], n = 0;
    for (int df = -1; df <= 1; df++)
        for (int dr = -1; dr <= 1; dr++) {
            int file = SERBEST_FILE(k) + df, rank = SERBEST_RANK(k) + dr;
            if ((df || dr) && file >= 0 && file <= 9 && rank >= 0 && rank <= 9)
                n += serbest_attacked(s, SERBEST_SQ(file, rank), colour ^ 1, 0);
        }
    return n;
}

/* The path term of colour's king, by the core: squares of the two ranks
 * ahead that the enemy does not attack or hold, times advance / 8. */
static double ref_king_path(const struct serbest_state *s, int colour)
{
    const int k = s->king_sq[colour], enemy = colour ^ 1;
    const int dir = colour == SERBEST_WHITE ? 1 : -1;
    const int advance = colour == SERBEST_WHITE ? SERBEST_RANK(k)
                                                : 9 - SERBEST_RANK(k);
    int open = 0;
    for (int ahead = 1; ahead <= 2; ahead++)
        for (int df = -ahead; df <= ahead; df++) {
            int file = SERBEST_FILE(k) + df;
            int rank = SERBEST_RANK(k) + ahead * dir;
            if (file < 0 || file > 9 || rank < 0 || rank > 9)
                continue;
            int t = SERBEST_SQ(file, rank), p = s->board[t];
            open += !serbest_attacked(s, t, enemy, 0)
                    && !(p != SERBEST_EMPTY && SERBEST_COLOUR(p) == enemy);
        }
    return open * advance / 8.0;
}

/* The empty squares within two of colour's king where a piece from the
 * enemy's hand, put there, would itself attack the king (from beside it
 * only under adjacent_drop_check), by the core's attack test on a copy in
 * which the enemy's own pieces are turned to colour's (they still block
 * but no longer attack). */
static int ref_drop_checks(const struct serbest_state *s, int colour)
{
    struct serbest_state copy = *s;
    const int k = s->king_sq[colour], dropper = colour ^ 1;
    for (int sq = 0; sq < SERBEST_SQUARES; sq++) {
        int p = copy.board[sq];
        if (p != SERBEST_EMPTY && p != SERBEST_OFF
            && SERBEST_COLOUR(p) == dropper)
            copy.board[sq] = (uint8_t)SERBEST_PIECE(SERBEST_KIND(p), colour);
    }
    int n = 0;
    for (int df = -2; df <= 2; df++)
        for (int dr = -2; dr <= 2; dr++) {
            int file = SERBEST_FILE(k) + df, rank = SERBEST_RANK(k) + dr;
            int adjacent = df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
            if (file < 0 || file > 9 || rank < 0 || rank > 9
                || (adjacent && !s->adjacent_drop_check))
                continue;
            int t = SERBEST_SQ(file, rank), checks = 0;
            if (copy.board[t] != SERBEST_EMPTY)
                continue;
            for (int kind = SERBEST_QUEEN; kind <= SERBEST_SUBEDEI; kind++) {
                if (!s->hand[dropper][kind])
                    continue;
                copy.board[t] = (uint8_t)SERBEST_PIECE(kind, dropper);
                checks |= serbest_attacked(&copy, k, dropper, 0);
            }
            copy.board[t] = SERBEST_EMPTY;
            n += checks;
        }
    return n;
}

/* is_forcing by making the move: not a capture, and then the enemy in
 * check, the game won by Khan, or a Khan step the mover lacked before. */
static int ref_forcing(const struct serbest_state *s, move_t m)
{
    const int us = s->head.side;
    if (!SERBEST_DROP_KIND(m) && s->board[SERBEST_TO(m)] != SERBEST_EMPTY)
        return 0;
    struct serbest_state after = *s;
    serbest_game.apply(&after, m);
    struct game_status st = serbest_game.status(&after);
    if (st.reason == REASON_KHAN)
        return 1;
    return serbest_in_check(&after, us ^ 1)
           || (ref_khan_steps(&after, us) > 0 && ref_khan_steps(s, us) == 0);
}

/* Positions from seeded random games under variant: 40 games of 10 to 69
 * plies, those still ongoing. */
static int random_positions(const char *variant, struct serbest_state *out,
                            int max)
{
    struct variant v;
    struct rng r;
    move_t moves[GAME_MAX_MOVES];
    assert_int_equal(variant_parse(variant, &v, NULL, 0), 0);
    rng_seed(&r, 20261201);
    int n = 0;
    for (int game = 0; game < 40 && n < max; game++) {
        struct serbest_state s;
        serbest_game.init(&s, &v);
        int plies = 10 + (int)rng_below(&r, 60);
        for (int p = 0; p < plies
                        && serbest_game.status(&s).outcome == GAME_ONGOING;
             p++)
            serbest_game.apply(&s, moves[rng_below(
                                       &r, (uint32_t)serbest_game.legal_moves(
                                               &s, moves))]);
        if (serbest_game.status(&s).outcome == GAME_ONGOING)
            out[n++] = s;
    }
    return n;
}

static void check_against_references(const char *variant)
{
    static struct serbest_state positions[40];
    static move_t moves[GAME_MAX_MOVES];
    const struct game_eval *e = eval_of(&serbest_game);
    int n = random_positions(variant, positions, 40), forcing_seen = 0;
    assert_true(n >= 20);
    for (int i = 0; i < n; i++) {
        const struct serbest_state *s = &positions[i];
        const int us = s->head.side, them = us ^ 1;
        double f[EVAL_MAX_FEATURES];
        e->features(s, f);
        int attacks = (s->king_sq[them] ? ref_king_attacks(s, them) : 0)
                      - (s->king_sq[us] ? ref_king_attacks(s, us) : 0);
        assert_true(f[feature_index("serbest_king_attacks")] == attacks);
        double path = 0;
        int drops = 0;
        for (int c = 0; c < 2; c++)
            if (s->king_sq[c]) {
                path += (c == us ? 1 : -1) * ref_king_path(s, c);
                drops -= (c == us ? 1 : -1) * ref_drop_checks(s, c);
            }
        assert_true(fabs(f[feature_index("serbest_king_path")] - path) < 1e-9);
        assert_true(f[feature_index("serbest_drop_checks")] == drops);
        assert_true(f[feature_index("serbest_khan_now")]
                    == (ref_khan_steps(s, us) > 0));
        assert_true(f[feature_index("serbest_khan_threatened")]
                    == -ref_khan_steps(s, them));
        int nmoves = serbest_game.legal_moves(s, moves);
        for (int j = 0; j < nmoves; j++) {
            int want = ref_forcing(s, moves[j]);
            if (e->is_forcing(s, moves[j]) != want) {
                char text[256], mt[32];
                serbest_game.to_text(s, text, sizeof text);
                serbest_game.move_to_text(s, moves[j], mt, sizeof mt);
                fail_msg("%s %s: forcing should be %d", text, mt, want);
            }
            forcing_seen += want;
        }
    }
    /* The games reach checks, so the comparison has both answers. */
    assert_true(forcing_seen > 0);
}

static void test_against_references(void **state)
{
    (void)state;
    check_against_references("serbest");
    check_against_references("serbest(kings_landing=9,adjacent_drop_check=1)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights_table),
        cmocka_unit_test(test_material),
        cmocka_unit_test(test_king_landed),
        cmocka_unit_test(test_king_advance),
        cmocka_unit_test(test_king_path),
        cmocka_unit_test(test_khan_now),
        cmocka_unit_test(test_khan_threatened),
        cmocka_unit_test(test_king_attacks),
        cmocka_unit_test(test_drop_checks),
        cmocka_unit_test(test_mobility),
        cmocka_unit_test(test_score),
        cmocka_unit_test(test_capture_value),
        cmocka_unit_test(test_forcing_checks),
        cmocka_unit_test(test_forcing_khan),
        cmocka_unit_test(test_against_references),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
