/*
 * test_eval_tafl.c -- tafl's evaluation (agents/eval_tafl.c): a hand-built
 * position for each feature, showing that the term moves the evaluation
 * the right way for the side to move, with both sides to move; the
 * captures and threats on hand-built positions; and, on positions reached
 * by seeded random play under several variants, every feature, capture
 * value and threat that has a naive reference, checked against one built
 * from the move generator and apply() (core/tafl.c, checked by perft);
 * and threat_replies on hand-built positions and, against apply() and
 * game_mover_wins_at_once, over random games that seek threats.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "eval.h"
#include "eval_helpers.h"
#include "rng.h"
#include "tafl_helpers.h"

static const struct game_eval *tafl_ev(void)
{
    return eval_of(&tafl_game);
}

/* The index of the feature whose weight is called name. */
static int feature(const char *name)
{
    const struct game_eval *e = tafl_ev();
    for (int i = 0; i < e->n_features; i++)
        if (strcmp(e->weights[i].name, name) == 0)
            return i;
    fail_msg("no feature %s", name);
    return -1;
}

static double feature_at(const char *variant, const char *pieces, char side,
                         const char *name)
{
    struct tafl_state st;
    double f[EVAL_MAX_FEATURES];
    tafl_setup(&st, variant, pieces, side);
    assert_int_equal(st.head.outcome, GAME_ONGOING);
    tafl_ev()->features(&st, f);
    return f[feature(name)];
}

/* Asserts that feature `name` of the position is `value` with `good_for`
 * ('a' or 'd') to move, and -value with the other side to move. */
static void assert_feature(const char *variant, const char *pieces,
                           const char *name, char good_for, double value)
{
    char other = good_for == 'a' ? 'd' : 'a';
    double mine = feature_at(variant, pieces, good_for, name);
    double theirs = feature_at(variant, pieces, other, name);
    if (mine != value || theirs != -value)
        fail_msg("%s %s [%s]: %g / %g, expected %g / %g", name, variant,
                 pieces, mine, theirs, value, -value);
}

static void test_material(void **state)
{
    (void)state;
    struct tafl_state st;
    double f[EVAL_MAX_FEATURES];
    /* The start: 16 attackers and 8 defenders besides the King, counted
     * for the side to move (good for it) or against it. */
    const char *start = "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3";
    char text[128];
    struct variant v;
    char err[256];
    variant_default(&tafl_game, &v);
    snprintf(text, sizeof text, "%s a", start);
    assert_int_equal(tafl_game.from_text(&st, &v, text, err, sizeof err), 0);
    tafl_ev()->features(&st, f);
    assert_true(f[feature("tafl_attackers")] == 16);
    assert_true(f[feature("tafl_defenders")] == -8);
    snprintf(text, sizeof text, "%s d", start);
    assert_int_equal(tafl_game.from_text(&st, &v, text, err, sizeof err), 0);
    tafl_ev()->features(&st, f);
    assert_true(f[feature("tafl_attackers")] == -16);
    assert_true(f[feature("tafl_defenders")] == 8);
}

/* Every weight as the interface asks, and positive, so that a feature
 * larger for a side is better for it. */
static void test_weights_table(void **state)
{
    (void)state;
    const struct game_eval *e = tafl_ev();
    assert_true(e->n_features >= 2 && e->n_features <= 10);
    for (int i = 0; i < e->n_features; i++) {
        const struct param_spec *w = &e->weights[i];
        assert_true(strncmp(w->name, "tafl_", 5) == 0);
        assert_int_equal(w->type, PARAM_REAL);
        assert_int_equal(w->since, 2);
        assert_true(w->min < 0 && w->def > 0 && w->def <= w->max);
        assert_true(strstr(w->doc, "hand-set") || strstr(w->doc, "measured"));
    }
}

static void test_king_distance(void **state)
{
    (void)state;
    /* Files plus ranks to the nearest corner: e5 is 4 + 4 from every
     * corner; c3 is 2 + 2 from a1; g2 is 2 + 1 from i1. With escape=edge,
     * the nearest edge: 4 from e5, 2 from c3, 1 from g2 (rank 1). Good for
     * the attackers. */
    assert_feature("tafl", "k:e5 a:b7 d:g3", "tafl_king_distance", 'a', 8);
    assert_feature("tafl", "k:c3 a:b7 d:g3", "tafl_king_distance", 'a', 4);
    assert_feature("tafl", "k:g2 a:b7 d:g3", "tafl_king_distance", 'a', 3);
    assert_feature("tafl(escape=edge)", "k:e5 a:b7 d:g3",
                   "tafl_king_distance", 'a', 4);
    assert_feature("tafl(escape=edge)", "k:c3 a:b7 d:g3",
                   "tafl_king_distance", 'a', 2);
    assert_feature("tafl(escape=edge)", "k:g2 a:b7 d:g3",
                   "tafl_king_distance", 'a', 1);
}

static void test_king_lines(void **state)
{
    (void)state;
    /* On a5 the King sees a1 and a9 down the empty a-file (rank 5 ends on
     * i5, no corner): 2; an attacker on a3 closes the line to a1: 1. On e5
     * it sees no corner; with escape=edge all four rays reach the edge,
     * and a defender on e3 closes one. Good for the defenders. */
    assert_feature("tafl", "k:a5 a:e7 d:g3", "tafl_king_lines", 'd', 2);
    assert_feature("tafl", "k:a5 a:a3 a:e7 d:g3", "tafl_king_lines", 'd', 1);
    assert_feature("tafl", "k:e5 a:b7 d:g3", "tafl_king_lines", 'd', 0);
    assert_feature("tafl(escape=edge)", "k:e5 a:b7 d:g3", "tafl_king_lines",
                   'd', 4);
    assert_feature("tafl(escape=edge)", "k:e5 a:b7 d:e3", "tafl_king_lines",
                   'd', 3);
}

static void test_king_pressure(void **state)
{
    (void)state;
    const char *name = "tafl_king_pressure";
    /* docs/rules.md#tafl-the-king: 4 sides of attackers, the throne or
     * (edge_captures_king) the edge. On the throne with d5 f5 e6: 3. On
     * e6 with d6 f6 and the throne below: 3; a defender instead of f6: 2.
     * On e1 with d1 f1 and the edge: 3, or 0 where the edge does not count
     * (no capture there). Beside a corner (b1, a1 never counts): 0. Good
     * for the attackers. */
    assert_feature("tafl", "k:e5 a:d5 a:f5 a:e6 d:g3", name, 'a', 3);
    assert_feature("tafl", "k:e6 a:d6 a:f6 d:g3", name, 'a', 3);
    assert_feature("tafl", "k:e6 a:d6 d:f6 d:g3", name, 'a', 2);
    assert_feature("tafl", "k:e1 a:d1 a:f1 d:g3", name, 'a', 3);
    assert_feature("tafl(edge_captures_king=0)", "k:e1 a:d1 a:f1 d:g3", name,
                   'a', 0);
    assert_feature("tafl", "k:b1 a:c1 a:b2 d:g3", name, 'a', 0);
    assert_feature("tafl", "k:c3 a:h8 d:g3", name, 'a', 0);
    /* Custodial off the throne: 2 per attacker on the better line, one on
     * c4 (or one on each line) being half the capture; on the throne the
     * surround rule stays: d5 f5 are 2 of 4. On a2 neither line can
     * close (the corner a1, the edge): 0 with a3 there. */
    const char *cust = "tafl(king_capture=custodial)";
    assert_feature(cust, "k:c3 a:c4 d:g3", name, 'a', 2);
    assert_feature(cust, "k:c3 a:c4 a:b3 d:g3", name, 'a', 2);
    assert_feature(cust, "k:c3 a:h8 d:g3", name, 'a', 0);
    assert_feature(cust, "k:e5 a:d5 a:f5 d:g3", name, 'a', 2);
    assert_feature(cust, "k:a2 a:a3 d:g3", name, 'a', 0);
}

static void test_corner_guards(void **state)
{
    (void)state;
    /* b1 and a2 guard a1, h9 guards i9; e7 guards nothing: 3. With
     * escape=edge corners are plain squares: 0. Good for the attackers. */
    const char *pieces = "k:e5 a:b1 a:a2 a:h9 a:e7 d:g3";
    assert_feature("tafl", pieces, "tafl_corner_guards", 'a', 3);
    assert_feature("tafl(escape=edge)", pieces, "tafl_corner_guards", 'a', 0);
}

static void test_mobility(void **state)
{
    (void)state;
    /* K e5, d e3, a b2. The attacker: a2 c2-i2 (8), b1 b3-b9 (8) = 16.
     * The defender: a3-d3 f3-i3 (8), e1 e2 e4 (3) = 11. The King: a5-d5
     * f5-i5 (8), e6-e9 (4), e4 (1) = 13. */
    const char *pieces = "k:e5 d:e3 a:b2";
    assert_feature("tafl", pieces, "tafl_attacker_mobility", 'a', 16);
    assert_feature("tafl", pieces, "tafl_defender_mobility", 'd', 11);
    assert_feature("tafl", pieces, "tafl_king_mobility", 'd', 13);
    /* The same counts from the move generator. */
    struct tafl_state st;
    tafl_setup(&st, "tafl", pieces, 'a');
    assert_int_equal(count_moves(&st), 16);
    tafl_setup(&st, "tafl", pieces, 'd');
    assert_int_equal(count_moves(&st), 11 + 13);
    /* An attacker on a5: a2-a4 a6-a8 (corners barred, 6), b5-d5 and over
     * the empty throne f5-i5 (7) = 13; 6 + 3 with throne_passable=0; with
     * escape=edge a1 and a9 are open too: 8 + 7. */
    const char *a5 = "k:c7 a:a5 d:g3";
    assert_feature("tafl", a5, "tafl_attacker_mobility", 'a', 13);
    assert_feature("tafl(throne_passable=0)", a5, "tafl_attacker_mobility",
                   'a', 9);
    assert_feature("tafl(escape=edge)", a5, "tafl_attacker_mobility", 'a',
                   15);
}

static double win_next_at(const char *variant, const char *pieces, char side)
{
    return feature_at(variant, pieces, side, "tafl_win_next");
}

static void test_win_next(void **state)
{
    (void)state;
    /* The King on a5 with the a-file open: the defenders to move escape
     * (1); the attackers to move cannot close both lines (-1); with a3
     * closed they can (0), while the defenders still escape to a9. */
    assert_true(win_next_at("tafl", "k:a5 a:e7 d:g3", 'd') == 1);
    assert_true(win_next_at("tafl", "k:a5 a:e7 d:g3", 'a') == -1);
    assert_true(win_next_at("tafl", "k:a5 a:a3 a:e7 d:g3", 'a') == 0);
    assert_true(win_next_at("tafl", "k:a5 a:a3 a:e7 d:g3", 'd') == 1);
    /* The King on the throne with d5 f5 e6: e1-e4 captures it (1 for the
     * attackers); the defenders have no line (0). A defender on e3 blocks
     * e1; an attacker on a4 then comes along rank 4 instead. */
    const char *open = "k:e5 a:d5 a:f5 a:e6 a:e1 d:g3";
    assert_true(win_next_at("tafl", open, 'a') == 1);
    assert_true(win_next_at("tafl", open, 'd') == 0);
    assert_true(win_next_at("tafl", "k:e5 a:d5 a:f5 a:e6 a:e1 d:e3", 'a')
                == 0);
    assert_true(win_next_at("tafl", "k:e5 a:d5 a:f5 a:e6 a:a4 d:e3", 'a')
                == 1);
    /* On c6 with b6 d6 c7, g5 reaches c5 over the empty throne, unless
     * throne_passable=0. On b1 with c1 b2 and the edge, a1 is left, but no
     * attacker may stop on a corner (a5 would slide there). */
    const char *c6 = "k:c6 a:b6 a:d6 a:c7 a:g5 d:h2";
    assert_true(win_next_at("tafl", c6, 'a') == 1);
    assert_true(win_next_at("tafl(throne_passable=0)", c6, 'a') == 0);
    assert_true(win_next_at("tafl", "k:b1 a:c1 a:b2 a:a5 d:g3", 'a') == 0);
    /* Custodially: c4 is there, a2 comes to c2; not under surround. On b2
     * with b3, e1 comes to b1; on a2 with a3, the corner a1 is barred. */
    assert_true(win_next_at("tafl(king_capture=custodial)",
                            "k:c3 a:c4 a:a2 d:g7", 'a') == 1);
    assert_true(win_next_at("tafl", "k:c3 a:c4 a:a2 d:g7", 'a') == 0);
    assert_true(win_next_at("tafl(king_capture=custodial)",
                            "k:b2 a:b3 a:e1 d:g7", 'a') == 1);
    assert_true(win_next_at("tafl(king_capture=custodial)",
                            "k:a2 a:a3 a:e1 d:g7", 'a') == 0);
}

/* The shuttle rule can forbid the one move that would capture the King.
 * The attacker e8-e7, the King steps into e6 (the throne, d6, f6 and e7
 * around it: no capture, it moved in), the attacker e7-e8 back. With
 * repetition_limit=1 that is a full shuttle: e8-e7 is now forbidden, so
 * e7-e8 threatens nothing, and after a defender's move the attackers
 * cannot capture. With the default 3, both are there. */
static void test_shuttle(void **state)
{
    (void)state;
    const char *pieces = "k:e5 a:d6 a:f6 a:e8 d:b2";
    for (int limit = 1; limit <= 3; limit += 2) {
        char variant[64];
        snprintf(variant, sizeof variant, "tafl(repetition_limit=%d)", limit);
        struct tafl_state st;
        move_t m;
        double f[EVAL_MAX_FEATURES];
        tafl_setup(&st, variant, pieces, 'a');
        play(&st, "e8e7 e5e6");
        assert_int_equal(game_parse_move(&tafl_game, &st, "e7e8", &m, NULL, 0),
                         0);
        assert_int_equal(tafl_ev()->is_forcing(&st, m), limit == 3);
        play(&st, "e7e8 b2b3");
        assert_int_equal(is_legal(&st, "e8e7"), limit == 3);
        tafl_ev()->features(&st, f);
        assert_true(f[feature("tafl_win_next")] == (limit == 3));
    }
}

/* capture_value or is_forcing of the move `text` in the position. */
static int move_answer(const char *variant, const char *pieces, char side,
                       const char *text, int forcing)
{
    struct tafl_state st;
    move_t m;
    char err[256];
    tafl_setup(&st, variant, pieces, side);
    if (game_parse_move(&tafl_game, &st, text, &m, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    return forcing ? tafl_ev()->is_forcing(&st, m)
                   : tafl_ev()->capture_value(&st, m);
}

static int capture_of(const char *variant, const char *pieces, char side,
                      const char *text)
{
    return move_answer(variant, pieces, side, text, 0);
}

static int forcing_of(const char *variant, const char *pieces, char side,
                      const char *text)
{
    return move_answer(variant, pieces, side, text, 1);
}

static void test_capture_value(void **state)
{
    (void)state;
    /* Values are the default material weights: a defender 100, an
     * attacker 50. e1-e4 encloses d4 against c4. */
    assert_int_equal(capture_of("tafl", "k:g7 d:d4 a:c4 a:e1", 'a', "e1e4"),
                     100);
    assert_int_equal(capture_of("tafl", "k:g7 d:d4 a:c4 a:e1", 'a', "e1e2"),
                     0);
    assert_int_equal(capture_of("tafl", "k:g7 a:d4 d:c4 d:e1", 'd', "e1e4"),
                     50);
    /* Against the empty corner a1, not with escape=edge. */
    assert_int_equal(capture_of("tafl", "k:g7 a:b1 d:c3", 'd', "c3c1"), 50);
    assert_int_equal(capture_of("tafl(escape=edge)", "k:g7 a:b1 d:c3", 'd',
                                "c3c1"), 0);
    /* Against the empty throne only with throne_hostile=1. */
    assert_int_equal(capture_of("tafl(throne_hostile=1)", "k:g7 d:d5 a:c8",
                                'a', "c8c5"), 100);
    assert_int_equal(capture_of("tafl", "k:g7 d:d5 a:c8", 'a', "c8c5"), 0);
    /* Moving between two enemies takes nothing; taking two men at once
     * is worth the larger, one defender. */
    assert_int_equal(capture_of("tafl", "k:g7 d:d4 d:f4 a:e1", 'a', "e1e4"),
                     0);
    assert_int_equal(capture_of("tafl", "k:g7 d:d4 a:c4 d:f4 a:g4 a:e1", 'a',
                                "e1e4"), 100);
    /* The King takes part only with king_armed=1. */
    assert_int_equal(capture_of("tafl", "k:d6 a:e3 d:f3 a:a8", 'd', "d6d3"),
                     0);
    assert_int_equal(capture_of("tafl(king_armed=1)", "k:d6 a:e3 d:f3 a:a8",
                                'd', "d6d3"), 50);
    /* The King's capture outweighs all the men together (16 x 50 and
     * 8 x 100): surrounded on the throne by e1-e4; custodially by a2-c2,
     * which under the surround rule takes nothing. */
    assert_true(capture_of("tafl", "k:e5 a:d5 a:f5 a:e6 a:e1 d:g3", 'a',
                           "e1e4") > 1600);
    assert_true(capture_of("tafl(king_capture=custodial)",
                           "k:c3 a:c4 a:a2 d:g7", 'a', "a2c2") > 1600);
    assert_int_equal(capture_of("tafl", "k:c3 a:c4 a:a2 d:g7", 'a', "a2c2"),
                     0);
}

static void test_is_forcing_defenders(void **state)
{
    (void)state;
    /* The King on a5, a3 (defender) and a7 (attacker) closing the a-file:
     * a3-b3 opens the line to a1; a3-a2 and g3-g4 do not; nor does the
     * King's step to b5 (the b-file has no corner). */
    const char *closed = "k:a5 d:a3 a:a7 d:g3 a:e8";
    assert_true(forcing_of("tafl", closed, 'd', "a3b3"));
    assert_false(forcing_of("tafl", closed, 'd', "a3a2"));
    assert_false(forcing_of("tafl", closed, 'd', "g3g4"));
    assert_false(forcing_of("tafl", closed, 'd', "a5b5"));
    /* The King onto rank 1 sees a1 and i1; onto rank 4 nothing. */
    assert_true(forcing_of("tafl", "k:d3 a:h8 d:g6", 'd', "d3d1"));
    assert_false(forcing_of("tafl", "k:d3 a:h8 d:g6", 'd', "d3d4"));
    /* With a line open already: the escape itself wins (forcing); any
     * other move only wastes the win. */
    assert_true(forcing_of("tafl", "k:a5 a:e7 d:g3", 'd', "a5a1"));
    assert_false(forcing_of("tafl", "k:a5 a:e7 d:g3", 'd', "g3g4"));
    /* A capture that opens a line: with king_armed=1 the King's c4-c1
     * takes b1 against the corner and sees a1 (f1 closes the way to i1);
     * unarmed, b1 stays. With escape=edge, f8-f3 takes e3 against d3 and
     * opens the King's way down the e-file (e7 c5 g5 close the others). */
    const char *armed = "k:c4 a:b1 a:f1 a:h8 d:g6";
    assert_true(forcing_of("tafl(king_armed=1)", armed, 'd', "c4c1"));
    assert_false(forcing_of("tafl", armed, 'd', "c4c1"));
    const char *edge = "tafl(escape=edge)";
    assert_true(forcing_of(edge, "k:e5 a:e3 d:d3 d:f8 a:e7 a:c5 a:g5", 'd',
                           "f8f3"));
    assert_false(forcing_of(edge, "k:e5 a:e3 d:f8 a:e7 a:c5 a:g5", 'd',
                            "f8f3"));
}

static void test_is_forcing_attackers(void **state)
{
    (void)state;
    /* h6-e6 makes d5 f5 e6 around the King on the throne, and e1 can come
     * to e4: forcing. Without e1 (a8 instead), or with e3 blocked, not. */
    assert_true(forcing_of("tafl", "k:e5 a:d5 a:f5 a:h6 a:e1 d:g3", 'a',
                           "h6e6"));
    assert_false(forcing_of("tafl", "k:e5 a:d5 a:f5 a:h6 a:a8 d:g3", 'a',
                            "h6e6"));
    assert_false(forcing_of("tafl", "k:e5 a:d5 a:f5 a:h6 a:e1 d:e3", 'a',
                            "h6e6"));
    /* Custodially, h4-c4 against the King on c3 with a2 ready for c2;
     * under the surround rule one attacker is far from enough. */
    assert_true(forcing_of("tafl(king_capture=custodial)",
                           "k:c3 a:h4 a:a2 d:g7", 'a', "h4c4"));
    assert_false(forcing_of("tafl", "k:c3 a:h4 a:a2 d:g7", 'a', "h4c4"));
    /* With the capture there already, e1-e4 is a capture (not a threat)
     * and a8-a7 leaves the threat as it was. */
    const char *ready = "k:e5 a:d5 a:f5 a:e6 a:e1 a:a8 d:g3";
    assert_false(forcing_of("tafl", ready, 'a', "e1e4"));
    assert_false(forcing_of("tafl", ready, 'a', "a8a7"));
}

/* ---- differential checks on random positions ---------------------------- */

/* st's board with `side` to move under variant v, read back from text:
 * the move generator then answers for that side (no shuttle history). */
static void with_side(const struct variant *v, const struct tafl_state *st,
                      char side, struct tafl_state *out)
{
    char text[160], err[256];
    assert_true(tafl_game.to_text(st, text, sizeof text) > 0);
    *strchr(text, ' ') = '\0';
    snprintf(text + strlen(text), sizeof text - strlen(text), " %c", side);
    if (tafl_game.from_text(out, v, text, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
}

/* How many of st's legal moves end the game with `reason`. */
static int moves_ending(const struct tafl_state *st, enum end_reason reason)
{
    move_t moves[GAME_MAX_MOVES];
    int n = tafl_game.legal_moves(st, moves), hits = 0;
    for (int i = 0; i < n; i++) {
        struct tafl_state after = *st;
        tafl_game.apply(&after, moves[i]);
        hits += after.head.reason == reason;
    }
    return hits;
}

/* How many of st's legal moves start on square from. */
static int moves_from(const struct tafl_state *st, int from)
{
    move_t moves[GAME_MAX_MOVES];
    int n = tafl_game.legal_moves(st, moves), hits = 0;
    for (int i = 0; i < n; i++)
        hits += TAFL_FROM(moves[i]) == from;
    return hits;
}

/* The features with a naive reference: mobility by the move generator of
 * each side, the open lines by the King's escaping moves, win_next by the
 * winning moves of the side to move. (A side without moves reads back as
 * a lost game, and the generator gives 0, as the features do.) */
static void check_features(const struct variant *v,
                           const struct tafl_state *st)
{
    struct tafl_state as_a, as_d;
    double f[EVAL_MAX_FEATURES];
    with_side(v, st, 'a', &as_a);
    with_side(v, st, 'd', &as_d);
    tafl_ev()->features(st, f);
    double sign = st->head.side == TAFL_SIDE_ATTACKERS ? 1 : -1;
    int king_moves = moves_from(&as_d, st->king_sq);
    int escapes = moves_ending(&as_d, REASON_KING_ESCAPED);
    assert_true(f[feature("tafl_attacker_mobility")]
                == sign * count_moves(&as_a));
    assert_true(f[feature("tafl_defender_mobility")]
                == -sign * (count_moves(&as_d) - king_moves));
    assert_true(f[feature("tafl_king_mobility")] == -sign * king_moves);
    assert_true(f[feature("tafl_king_lines")] == -sign * escapes);
    double win = f[feature("tafl_win_next")];
    if (st->head.side == TAFL_SIDE_DEFENDERS)
        assert_true(win == (escapes > 0));
    else if (moves_ending(st, REASON_KING_CAPTURED) > 0)
        assert_true(win == 1);
    else
        assert_true(win == (escapes >= 2 ? -1 : 0));
}

/* capture_value against apply(), is_forcing against the winning moves of
 * the mover before and after the move, for every legal move of st. */
static void check_moves(const struct variant *v, const struct tafl_state *st)
{
    move_t moves[GAME_MAX_MOVES];
    int n = tafl_game.legal_moves(st, moves);
    int side = st->head.side, enemy = side ^ 1;
    enum end_reason win = side == TAFL_SIDE_DEFENDERS ? REASON_KING_ESCAPED
                                                      : REASON_KING_CAPTURED;
    int wins_before = moves_ending(st, win);
    for (int i = 0; i < n; i++) {
        struct tafl_state after = *st, again;
        tafl_game.apply(&after, moves[i]);
        int taken = st->pieces[enemy].count - after.pieces[enemy].count;
        int expected = after.head.reason == REASON_KING_CAPTURED ? -1
                       : taken == 0 ? 0
                       : enemy == TAFL_SIDE_ATTACKERS ? 50 : 100;
        int value = tafl_ev()->capture_value(st, moves[i]);
        if (expected < 0)
            assert_true(value > 1600);
        else
            assert_int_equal(value, expected);
        int forcing;
        if (after.head.reason == REASON_KING_ESCAPED) {
            forcing = 1;
        } else if (after.head.reason == REASON_KING_CAPTURED) {
            forcing = 0;
        } else {
            with_side(v, &after, side ? 'd' : 'a', &again);
            forcing = wins_before == 0 && moves_ending(&again, win) > 0;
        }
        assert_int_equal(tafl_ev()->is_forcing(st, moves[i]), forcing);
    }
}

/* Checks the features and moves at every fourth ply of 40 seeded random
 * games (120 plies at most) in each of the n variants. */
static void check_random_games(const char *const *variants, int n_variants,
                               uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    for (int v = 0; v < n_variants; v++) {
        struct variant var;
        char err[256];
        assert_int_equal(variant_parse(variants[v], &var, err, sizeof err), 0);
        for (int game = 0; game < 40; game++) {
            struct tafl_state st;
            tafl_game.init(&st, &var);
            for (int ply = 0; ply < 120 && st.head.outcome == GAME_ONGOING;
                 ply++) {
                if (ply % 4 == 0) {
                    check_features(&var, &st);
                    check_moves(&var, &st);
                }
                move_t moves[GAME_MAX_MOVES];
                int n = tafl_game.legal_moves(&st, moves);
                tafl_game.apply(&st, moves[rng_below(&rng, (uint32_t)n)]);
            }
        }
    }
}

static void test_random_positions(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "tafl", "tafl(escape=edge)",
        "tafl(king_capture=custodial,edge_captures_king=0)",
        "tafl(king_armed=1,throne_hostile=1,throne_passable=0,first=defenders)",
    };
    check_random_games(variants, 4, 20261201);
}

/* The same under the rules Ludii's Tablut brought: king_throne=barred and
 * throne_hostile=2, in the exact preset
 * (docs/rules.md#tafl-ludiis-tablut-preset) and with the corners and the
 * surround rule of the defaults. */
static void test_random_positions_ludii_rules(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "tafl(escape=edge,king_armed=1,king_capture=custodial,"
        "king_throne=barred,throne_hostile=2,throne_passable=0,"
        "repetition_limit=0,repetition_draw=0,no_capture_limit=0,"
        "max_plies=2500)",
        "tafl(king_throne=barred,throne_hostile=2)",
    };
    check_random_games(variants, 2, 20261216);
}

/* ---- replies to a threat ------------------------------------------------ */

/* Sets st up from pieces, side and the position text's counters. */
static void setup_counters(struct tafl_state *st, const char *variant,
                           const char *pieces, char side,
                           const char *counters)
{
    struct variant v;
    char text[160], err[256] = "";
    fen_from_pieces(pieces, side, text);
    snprintf(text + strlen(text), sizeof text - strlen(text), " %s",
             counters);
    if (variant_parse(variant, &v, err, sizeof err) != 0
        || tafl_game.from_text(st, &v, text, err, sizeof err) != 0)
        fail_msg("setup %s [%s]: %s", variant, text, err);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* threat_replies on st: its answer, the legal moves' count in *n and the
 * kept ones, as text in alphabetical order separated by spaces, in kept. */
static int replies_kept(const struct tafl_state *st, int *n, char *kept,
                        size_t size)
{
    move_t moves[GAME_MAX_MOVES];
    unsigned char keep[GAME_MAX_MOVES];
    *n = tafl_game.legal_moves(st, moves);
    kept[0] = '\0';
    if (!tafl_ev()->threat_replies(st, moves, *n, keep))
        return 0;
    char texts[GAME_MAX_MOVES][16];
    const char *sorted[GAME_MAX_MOVES];
    int k = 0;
    for (int i = 0; i < *n; i++)
        if (keep[i]) {
            tafl_game.move_to_text(st, moves[i], texts[k], sizeof texts[k]);
            sorted[k] = texts[k];
            k++;
        }
    qsort(sorted, (size_t)k, sizeof sorted[0], by_text);
    for (int i = 0; i < k; i++)
        snprintf(kept + strlen(kept), size - strlen(kept), "%s%s",
                 i ? " " : "", sorted[i]);
    return 1;
}

/* The King on c1 has one open line, to a1 by b1 (f1 closes the rank to
 * the right, and c9 is no corner). The attackers' 26 moves (b5: 4 down,
 * 4 up, a5 and c5 d5 f5 g5 h5 i5, the throne passed over; h7: h8 h9, h6
 * to h1, i7, g7 f7) take nothing, and only b5-b1 lands on the line. With
 * 99 quiet plies behind, every quiet move meets the no-capture rule
 * (100 plies, 50 a side) and ends the game: all are kept.
 * The King on c3 has attackers on b3, c4 and c2, and h3 can come to d3
 * along the empty rank. The defenders' 35 moves: the King's 4 (d3 to g3),
 * e7's 15 (e8 e9, e6 e4 e3 e2 e1 past the throne, a7-d7, f7-i7) and
 * g8's 16 (g9, g7-g1, a8-f8, h8 i8). Only the King's moves and e7-e3 and
 * g8-g3, which cut h3's way, are kept; e7-e4, beside the rank, is not.
 * The start position holds no threat. */
static void test_threat_replies(void **state)
{
    (void)state;
    struct tafl_state st;
    char kept[1024];
    int n;
    const char *line = "k:c1 d:f1 a:b5 a:h7 d:e7";
    tafl_setup(&st, "tafl", line, 'a');
    assert_int_equal(replies_kept(&st, &n, kept, sizeof kept), 1);
    assert_int_equal(n, 26);
    assert_string_equal(kept, "b5b1");
    setup_counters(&st, "tafl", line, 'a', "99");
    assert_int_equal(replies_kept(&st, &n, kept, sizeof kept), 1);
    assert_int_equal((int)(strlen(kept) + 1) / 5, 26);

    tafl_setup(&st, "tafl", "k:c3 a:b3 a:c4 a:c2 a:h3 d:e7 d:g8", 'd');
    assert_int_equal(replies_kept(&st, &n, kept, sizeof kept), 1);
    assert_int_equal(n, 35);
    assert_string_equal(kept, "c3d3 c3e3 c3f3 c3g3 e7e3 g8g3");

    struct variant v;
    assert_int_equal(variant_parse("tafl", &v, NULL, 0), 0);
    tafl_game.init(&st, &v);
    assert_int_equal(replies_kept(&st, &n, kept, sizeof kept), 0);
}

/* A move of st: one of its forcing moves half the time where it has
 * some (so that threats arise), else any. */
static move_t threat_seeking_move(const struct tafl_state *st, struct rng *r)
{
    move_t moves[GAME_MAX_MOVES], forcing[GAME_MAX_MOVES];
    int n = tafl_game.legal_moves(st, moves), k = 0;
    for (int i = 0; i < n; i++)
        if (tafl_ev()->is_forcing(st, moves[i]))
            forcing[k++] = moves[i];
    if (k && rng_below(r, 2))
        return forcing[rng_below(r, (uint32_t)k)];
    return moves[rng_below(r, (uint32_t)n)];
}

static void test_threat_replies_random(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "tafl", "tafl(escape=edge)",
        "tafl(king_capture=custodial,edge_captures_king=0)",
        "tafl(repetition_limit=1,no_capture_limit=10,max_plies=120)",
        "tafl(king_throne=barred,throne_hostile=2,king_armed=1)",
        "tafl(escape=edge,king_armed=1,king_capture=custodial,"
        "king_throne=barred,throne_hostile=2,throne_passable=0,"
        "repetition_limit=0,repetition_draw=0,no_capture_limit=0,"
        "max_plies=2500)",
    };
    struct threat_tally tally = {0, 0};
    int threats[2] = {0, 0}; /* by the side to move */
    struct rng rng;
    rng_seed(&rng, 20261205);
    for (int vi = 0; vi < 6; vi++) {
        struct variant v;
        assert_int_equal(variant_parse(variants[vi], &v, NULL, 0), 0);
        for (int game = 0; game < 40; game++) {
            struct tafl_state st;
            tafl_game.init(&st, &v);
            for (int ply = 0; ply < 200 && st.head.outcome == GAME_ONGOING;
                 ply++) {
                threats[st.head.side] +=
                    check_threat_replies(&tafl_game, &st, &tally);
                tafl_game.apply(&st, threat_seeking_move(&st, &rng));
            }
        }
    }
    print_message("threat_replies: %d threats with the attackers to move, "
                  "%d with the defenders, %d moves ruled out, %d saving\n",
                  threats[0], threats[1], tally.ruled_out, tally.saving);
    assert_true(threats[0] >= 100);
    assert_true(threats[1] >= 100);
    assert_true(tally.ruled_out >= 5000);
    assert_true(tally.saving >= 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_material),
        cmocka_unit_test(test_weights_table),
        cmocka_unit_test(test_king_distance),
        cmocka_unit_test(test_king_lines),
        cmocka_unit_test(test_king_pressure),
        cmocka_unit_test(test_corner_guards),
        cmocka_unit_test(test_mobility),
        cmocka_unit_test(test_win_next),
        cmocka_unit_test(test_shuttle),
        cmocka_unit_test(test_capture_value),
        cmocka_unit_test(test_is_forcing_defenders),
        cmocka_unit_test(test_is_forcing_attackers),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_random_positions_ludii_rules),
        cmocka_unit_test(test_threat_replies),
        cmocka_unit_test(test_threat_replies_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
