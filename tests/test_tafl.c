/*
 * test_tafl.c -- Hnefatafl 9x9: perft tables, and one test per rule
 * sentence and parameter value of docs/rules.md#hnefatafl-9x9-tafl, each
 * on a small hand-built position whose answer was worked out by hand. The
 * rules Ludii's Tablut brought (king_throne, throne_hostile=2,
 * repetition_draw) are test_tafl_ludii_rules.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "game.h"
#include "tafl_helpers.h"
#include "tafl_ref.h"

/* ---- perft ----------------------------------------------------------- */

static void test_perft_start(void **state)
{
    (void)state;
    /* The independent data of docs/rules.md#check-data for first=defenders
     * (depths 1-3); depth 4 and the attackers-first table are recomputed
     * here by the independent reference (tests/ref/tafl_ref.c, written from
     * docs/rules.md#hnefatafl-9x9-tafl alone). */
    const uint64_t defenders[] = {56, 3968, 225224, 16171000};
    const uint64_t attackers[] = {72, 3944, 285728, 15951824};
    for (int d = 1; d <= 4; d++) {
        assert_int_equal(perft_of("tafl(first=defenders)", NULL, d),
                         defenders[d - 1]);
        assert_int_equal(perft_of("tafl", NULL, d), attackers[d - 1]);
    }
}

/* The same table from the naive reference: depths 1-3 of first=defenders
 * reproduce docs/rules.md#check-data, which checks the reference; depth 4
 * and the attackers-first rows are then the reference's own counts. */
static void test_perft_reference(void **state)
{
    (void)state;
    const char *board = "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3";
    const long long defenders[] = {56, 3968, 225224, 16171000};
    const long long attackers[] = {72, 3944, 285728, 15951824};
    tafl_ref_params p;
    tafl_ref_defaults(&p);
    char fen[128];
    for (int d = 1; d <= 4; d++) {
        snprintf(fen, sizeof fen, "%s d", board);
        assert_int_equal(tafl_ref_perft(fen, &p, d), defenders[d - 1]);
        snprintf(fen, sizeof fen, "%s a", board);
        assert_int_equal(tafl_ref_perft(fen, &p, d), attackers[d - 1]);
    }
}

/* Depth-1 counts of hand-built positions, counted square by square. */
static void test_perft_hand_positions(void **state)
{
    (void)state;
    struct { const char *variant, *pieces; char side; uint64_t moves; } cases[] = {
        /* king on the throne, open lines: 4 x 4 */
        {"tafl", "k:e5 a:a2", 'd', 16},
        /* e6 passes the empty throne (15) + king b2 (16) */
        {"tafl", "d:e6 k:b2 a:h8", 'd', 31},
        /* ... and cannot pass it when throne_passable=0 */
        {"tafl(throne_passable=0)", "d:e6 k:b2 a:h8", 'd', 27},
        /* a man next to a corner: not a1, not a9: 6 up + 8 right */
        {"tafl", "a:a2 k:e5", 'a', 14},
        /* corners are plain squares with escape=edge */
        {"tafl(escape=edge)", "a:a2 k:e5", 'a', 16},
        /* c3 is boxed in; h8 has 1 + 7 + 7 + 1 */
        {"tafl", "a:c3 d:c4 d:b3 d:d3 d:c2 a:h8 k:e5", 'a', 16},
        /* king blocked on two sides */
        {"tafl", "k:e5 a:e6 a:d5", 'd', 8},
        /* the king may enter the corners */
        {"tafl", "k:b1 a:h8", 'd', 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char fen[128];
        fen_from_pieces(cases[i].pieces, cases[i].side, fen);
        uint64_t n = perft_of(cases[i].variant, fen, 1);
        if (n != cases[i].moves)
            fail_msg("%s %s: %llu moves, expected %llu", cases[i].variant,
                     fen, (unsigned long long)n,
                     (unsigned long long)cases[i].moves);
    }
}

/* ---- movement ------------------------------------------------------- */

static void test_throne_only_for_the_king(void **state)
{
    (void)state;
    struct tafl_state st;
    tafl_setup(&st, "tafl", "d:e6 k:b2 a:h8", 'd');
    assert_false(is_legal(&st, "e6e5"));
    assert_true(is_legal(&st, "e6e4")); /* passes over the empty throne */
    tafl_setup(&st, "tafl(throne_passable=0)", "d:e6 k:b2 a:h8", 'd');
    assert_false(is_legal(&st, "e6e4"));
    tafl_setup(&st, "tafl", "a:e6 k:b2", 'a');
    assert_false(is_legal(&st, "e6e5"));
    assert_true(is_legal(&st, "e6e4"));
    /* throne_passable=0 concerns the other pieces: the king passes and stops */
    tafl_setup(&st, "tafl(throne_passable=0)", "k:e4 a:h8", 'd');
    assert_true(is_legal(&st, "e4e5"));
    assert_true(is_legal(&st, "e4e6"));
    /* pieces slide over empty squares only */
    tafl_setup(&st, "tafl", "a:a5 d:c5 k:h2", 'a');
    assert_true(is_legal(&st, "a5b5"));
    assert_false(is_legal(&st, "a5d5"));
    assert_false(is_legal(&st, "a5b6"));
}

static void test_corners(void **state)
{
    (void)state;
    struct tafl_state st;
    tafl_setup(&st, "tafl", "a:a2 k:e5", 'a');
    assert_false(is_legal(&st, "a2a1"));
    tafl_setup(&st, "tafl(escape=edge)", "a:a2 k:e5", 'a');
    assert_true(is_legal(&st, "a2a1"));
    /* the king reaching a corner wins for the defenders */
    tafl_setup(&st, "tafl", "k:b1 a:h8", 'd');
    play(&st, "b1a1");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_WIN_SEAT1);
    assert_int_equal(tafl_game.status(&st).reason, REASON_KING_ESCAPED);
    /* an edge square is no escape with escape=corner ... */
    tafl_setup(&st, "tafl", "k:b2 a:h8", 'd');
    play(&st, "b2b1");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    /* ... and is one with escape=edge */
    tafl_setup(&st, "tafl(escape=edge)", "k:b2 a:h8", 'd');
    play(&st, "b2b1");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_WIN_SEAT1);
    assert_int_equal(tafl_game.status(&st).reason, REASON_KING_ESCAPED);
}

static void test_first_mover(void **state)
{
    (void)state;
    struct tafl_state st;
    struct variant v;
    variant_parse("tafl", &v, NULL, 0);
    tafl_game.init(&st, &v);
    assert_int_equal(st.head.side, TAFL_SIDE_ATTACKERS);
    assert_int_equal(tafl_game.to_move(&st), 0);
    assert_string_equal(tafl_game.seat_side(&st, 0), "attackers");
    variant_parse("tafl(first=defenders)", &v, NULL, 0);
    tafl_game.init(&st, &v);
    assert_int_equal(st.head.side, TAFL_SIDE_DEFENDERS);
    assert_int_equal(tafl_game.to_move(&st), 0);
    assert_string_equal(tafl_game.seat_side(&st, 0), "defenders");
    assert_string_equal(tafl_game.seat_side(&st, 1), "attackers");
    /* the defenders' win is seat 0's when they moved first */
    tafl_setup(&st, "tafl(first=defenders)", "k:b1 a:h8", 'd');
    play(&st, "b1a1");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_WIN_SEAT0);
}

/* ---- captures of men ------------------------------------------------ */

static void test_custodial_capture(void **state)
{
    (void)state;
    struct tafl_state st;
    /* between the moved attacker and another attacker */
    tafl_setup(&st, "tafl", "a:c3 d:c4 a:a5 k:h2", 'a');
    play(&st, "a5c5");
    assert_int_equal(at(&st, "c4"), '.');
    assert_int_equal(st.history.quiet_plies, 0);
    /* against a corner, for both sides */
    tafl_setup(&st, "tafl", "d:b1 a:c5 k:h5", 'a');
    play(&st, "c5c1");
    assert_int_equal(at(&st, "b1"), '.');
    tafl_setup(&st, "tafl", "a:a2 d:d3 k:h5", 'd');
    play(&st, "d3a3");
    assert_int_equal(at(&st, "a2"), '.');
    /* three at once */
    tafl_setup(&st, "tafl", "a:e1 d:d2 d:f2 d:e3 a:c2 a:g2 a:e4 k:h7", 'a');
    play(&st, "e1e2");
    assert_int_equal(at(&st, "d2"), '.');
    assert_int_equal(at(&st, "f2"), '.');
    assert_int_equal(at(&st, "e3"), '.');
    assert_int_equal(st.pieces[TAFL_SIDE_DEFENDERS].count, 1);
    /* a piece that moves between two enemies is not captured */
    tafl_setup(&st, "tafl", "a:c3 a:c5 d:a4 k:h8", 'd');
    play(&st, "a4c4");
    assert_int_equal(at(&st, "c4"), 'd');
    /* the edge does not enclose men */
    tafl_setup(&st, "tafl", "d:a3 a:c3 k:h8", 'a');
    play(&st, "c3b3");
    assert_int_equal(at(&st, "a3"), 'd');
    /* diagonal enclosure does nothing */
    tafl_setup(&st, "tafl", "d:c4 a:b3 a:d6 k:h8", 'a');
    play(&st, "d6d5");
    assert_int_equal(at(&st, "c4"), 'd');
    /* with escape=edge the corners enclose nothing */
    tafl_setup(&st, "tafl(escape=edge)", "d:b1 a:c5 k:h5", 'a');
    play(&st, "c5c1");
    assert_int_equal(at(&st, "b1"), 'd');
}

static void test_king_armed(void **state)
{
    (void)state;
    struct tafl_state st;
    /* the unarmed king is no anvil ... */
    tafl_setup(&st, "tafl", "k:c2 a:c3 d:a4 a:h8", 'd');
    play(&st, "a4c4");
    assert_int_equal(at(&st, "c3"), 'a');
    /* ... and no hammer */
    tafl_setup(&st, "tafl", "k:a4 a:c3 d:c2 a:h8", 'd');
    play(&st, "a4c4");
    assert_int_equal(at(&st, "c3"), 'a');
    /* king_armed=1: both */
    tafl_setup(&st, "tafl(king_armed=1)", "k:c2 a:c3 d:a4 a:h8", 'd');
    play(&st, "a4c4");
    assert_int_equal(at(&st, "c3"), '.');
    tafl_setup(&st, "tafl(king_armed=1)", "k:a4 a:c3 d:c2 a:h8", 'd');
    play(&st, "a4c4");
    assert_int_equal(at(&st, "c3"), '.');
}

static void test_throne_hostile(void **state)
{
    (void)state;
    struct tafl_state st;
    /* default: the empty throne encloses nothing */
    tafl_setup(&st, "tafl", "d:e4 a:a3 k:h8", 'a');
    play(&st, "a3e3");
    assert_int_equal(at(&st, "e4"), 'd');
    /* throne_hostile=1: it encloses defenders ... */
    tafl_setup(&st, "tafl(throne_hostile=1)", "d:e4 a:a3 k:h8", 'a');
    play(&st, "a3e3");
    assert_int_equal(at(&st, "e4"), '.');
    /* ... and attackers */
    tafl_setup(&st, "tafl(throne_hostile=1)", "a:e4 d:a3 k:h8", 'd');
    play(&st, "a3e3");
    assert_int_equal(at(&st, "e4"), '.');
    /* an occupied throne is not hostile in itself */
    tafl_setup(&st, "tafl(throne_hostile=1)", "k:e5 a:e4 d:a3", 'd');
    play(&st, "a3e3");
    assert_int_equal(at(&st, "e4"), 'a');
}

/* ---- capture of the king -------------------------------------------- */

static void expect_king(const char *variant, const char *pieces,
                        const char *move, int captured)
{
    struct tafl_state st;
    tafl_setup(&st, variant, pieces, 'a');
    play(&st, move);
    struct game_status s = tafl_game.status(&st);
    if (captured) {
        assert_int_equal(st.king_sq, 0);
        assert_int_equal(s.outcome, GAME_WIN_SEAT0);
        assert_int_equal(s.reason, REASON_KING_CAPTURED);
    } else if (st.king_sq == 0 || s.reason == REASON_KING_CAPTURED) {
        fail_msg("%s [%s] %s: king captured, expected not", variant, pieces,
                 move);
    }
}

static void test_king_capture_surround(void **state)
{
    (void)state;
    /* four attackers */
    expect_king("tafl", "k:c4 a:c5 a:b4 a:d4 a:h3", "h3c3", 1);
    /* three and the empty throne */
    expect_king("tafl", "k:e4 a:d4 a:f4 a:a3", "a3e3", 1);
    /* three and the edge: edge_captures_king decides */
    expect_king("tafl", "k:c1 a:b1 a:d1 a:c6", "c6c2", 1);
    expect_king("tafl(edge_captures_king=0)", "k:c1 a:b1 a:d1 a:c6", "c6c2", 0);
    /* two is not enough under the surround rule */
    expect_king("tafl", "k:c4 a:c3 a:a5", "a5c5", 0);
    /* a corner never counts against the king */
    expect_king("tafl", "k:a2 a:b2 a:a5", "a5a3", 0);
    /* the moved attacker must be one of the enclosing pieces */
    expect_king("tafl", "k:c4 a:c5 a:b4 a:d4 a:c3 a:h8", "h8h7", 0);
    /* on the throne: four attackers */
    expect_king("tafl", "k:e5 a:e6 a:d5 a:f5 a:a4", "a4e4", 1);
    expect_king("tafl", "k:e5 a:e6 a:d5 a:a4", "a4e4", 0);
}

static void test_king_steps_into_enclosure(void **state)
{
    (void)state;
    struct tafl_state st;
    tafl_setup(&st, "tafl", "k:c3 a:c5 a:b4 a:d4 a:h8", 'd');
    play(&st, "c3c4");
    assert_int_equal(at(&st, "c4"), 'k');
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
}

static void test_king_capture_custodial(void **state)
{
    (void)state;
    /* away from the throne: between two attackers */
    expect_king("tafl(king_capture=custodial)", "k:c4 a:c3 a:a5", "a5c5", 1);
    /* the edge takes no part */
    expect_king("tafl(king_capture=custodial)", "k:c1 a:b1 a:c6", "c6c2", 0);
    /* next to the throne the surround rule applies, throne as 4th side */
    expect_king("tafl(king_capture=custodial)", "k:e4 a:d4 a:f8", "f8f4", 0);
    expect_king("tafl(king_capture=custodial)", "k:e4 a:d4 a:e3 a:f8", "f8f4",
                1);
    /* on the throne: all four */
    expect_king("tafl(king_capture=custodial)", "k:e5 a:e6 a:d5 a:a4", "a4e4",
                0);
}

/* ---- repetition rules ------------------------------------------------ */

/* Attacker c3 shuttles c3-c4 while a defender walks up the i file (so no
 * position repeats); after 2 x limit moves the next c3c4 is illegal. */
static void test_shuttle_limit(void **state)
{
    (void)state;
    const char *walk[] = {"i2i3", "i3i4", "i4i5", "i5i6", "i6i7", "i7i8"};
    for (int limit = 1; limit <= 3; limit++) {
        char variant[64];
        snprintf(variant, sizeof variant, "tafl(repetition_limit=%d)", limit);
        struct tafl_state st;
        tafl_setup(&st, variant, "a:c3 d:i2 k:e5", 'a');
        for (int k = 0; k < 2 * limit; k++) {
            const char *shuttle = k % 2 == 0 ? "c3c4" : "c4c3";
            assert_true(is_legal(&st, shuttle));
            play(&st, shuttle);
            play(&st, walk[k]);
        }
        assert_false(is_legal(&st, "c3c4"));
        assert_true(is_legal(&st, "c3c5")); /* another move is fine ... */
        assert_true(is_legal(&st, "c3c2"));
        play(&st, "c3c2"); /* ... and starts a new shuttle */
        char sideways[8];
        snprintf(sideways, sizeof sideways, "i%dh%d", 2 + 2 * limit,
                 2 + 2 * limit);
        play(&st, sideways);
        assert_true(is_legal(&st, "c2c3"));
    }
    /* repetition_limit=0: no limit */
    struct tafl_state st;
    tafl_setup(&st, "tafl(repetition_limit=0)", "a:c3 d:i2 k:e5", 'a');
    for (int k = 0; k < 6; k++) {
        play(&st, k % 2 == 0 ? "c3c4" : "c4c3");
        play(&st, (const char *[]){"i2i3", "i3i4", "i4i5", "i5i6", "i6i7",
                                   "i7i8"}[k]);
    }
    assert_true(is_legal(&st, "c3c4"));
}

/* If the shuttle rule leaves a side no legal move, that side loses. */
static void test_shuttle_leaves_no_move(void **state)
{
    (void)state;
    struct tafl_state st;
    tafl_setup(&st, "tafl(repetition_limit=1)", "a:a2 d:a4 d:b2 d:b3 k:h5",
               'a');
    play(&st, "a2a3 h5h6 a3a2");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    play(&st, "h6h7");
    struct game_status s = tafl_game.status(&st);
    assert_int_equal(s.outcome, GAME_WIN_SEAT1);
    assert_int_equal(s.reason, REASON_NO_MOVES);
    assert_int_equal(count_moves(&st), 0);
}

static void test_threefold_repetition(void **state)
{
    (void)state;
    struct tafl_state st;
    tafl_setup(&st, "tafl", "a:c3 d:g7 k:e5", 'a');
    play(&st, "c3c4 g7g8 c4c3 g8g7 c3c4 g7g8 c4c3");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    play(&st, "g8g7"); /* the start position for the third time */
    struct game_status s = tafl_game.status(&st);
    assert_int_equal(s.outcome, GAME_DRAW);
    assert_int_equal(s.reason, REASON_REPETITION);
}

static void test_no_capture_limit(void **state)
{
    (void)state;
    struct tafl_state st;
    tafl_setup(&st, "tafl(no_capture_limit=2)", "a:c3 d:g7 k:e5", 'a');
    play(&st, "c3c2 g7g6 c2c1");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    play(&st, "g6g5");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_DRAW);
    assert_int_equal(tafl_game.status(&st).reason, REASON_NO_CAPTURE);
    /* a capture starts the count again */
    tafl_setup(&st, "tafl(no_capture_limit=2)", "a:c3 d:c4 a:a5 d:g7 k:e5",
               'a');
    play(&st, "c3b3 g7g6 a5c5"); /* c4 has no attacker behind it now */
    assert_int_equal(at(&st, "c4"), 'd');
    tafl_setup(&st, "tafl(no_capture_limit=2)", "a:c3 d:c4 a:a5 d:g7 k:e5",
               'a');
    play(&st, "a5b5 g7g6 b5c5"); /* captures c4 at ply 3 */
    assert_int_equal(at(&st, "c4"), '.');
    play(&st, "g6g5 c5c6 g5g4");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    play(&st, "c6c7");
    assert_int_equal(tafl_game.status(&st).reason, REASON_NO_CAPTURE);
    /* a win on the ply that reaches the limit counts */
    tafl_setup(&st, "tafl(no_capture_limit=1)", "a:c3 k:b1", 'a');
    play(&st, "c3c4 b1a1");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_WIN_SEAT1);
    assert_int_equal(tafl_game.status(&st).reason, REASON_KING_ESCAPED);
}

static void test_no_moves_loses(void **state)
{
    (void)state;
    struct tafl_state st;
    tafl_setup(&st, "tafl", "a:c3 d:c4 d:b3 d:d3 d:c2 k:e5", 'a');
    assert_int_equal(count_moves(&st), 0);
    assert_int_equal(tafl_game.status(&st).outcome, GAME_WIN_SEAT1);
    assert_int_equal(tafl_game.status(&st).reason, REASON_NO_MOVES);
    /* a move that blocks the last free piece wins */
    tafl_setup(&st, "tafl", "a:b1 d:c1 d:h2 k:e5", 'd');
    play(&st, "h2b2");
    assert_int_equal(at(&st, "b1"), 'a');
    assert_int_equal(tafl_game.status(&st).outcome, GAME_WIN_SEAT1);
    assert_int_equal(tafl_game.status(&st).reason, REASON_NO_MOVES);
}

static void test_max_plies(void **state)
{
    (void)state;
    struct tafl_state st;
    tafl_setup(&st, "tafl(max_plies=3)", "a:c3 d:g7 k:e5", 'a');
    play(&st, "c3c2 g7g6");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
    play(&st, "c2c1");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_DRAW);
    assert_int_equal(tafl_game.status(&st).reason, REASON_PLY_CAP);
    assert_int_equal(count_moves(&st), 0);
    /* max_plies=0: no cap */
    tafl_setup(&st, "tafl(max_plies=0)", "a:c3 d:g7 k:e5", 'a');
    play(&st, "c3c2 g7g6 c2c1");
    assert_int_equal(tafl_game.status(&st).outcome, GAME_ONGOING);
}

/* ---- text ------------------------------------------------------------ */

static void test_position_text(void **state)
{
    (void)state;
    struct variant v;
    struct tafl_state st;
    char err[256], out[128];
    variant_parse("tafl", &v, NULL, 0);
    const char *start = "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a";
    assert_int_equal(tafl_game.from_text(&st, &v, start, err, sizeof err), 0);
    tafl_game.to_text(&st, out, sizeof out);
    assert_string_equal(out, "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/"
                             "3aaa3 a 0 0");
    struct tafl_state init;
    tafl_game.init(&init, &v);
    assert_int_equal(tafl_game.hash(&init), tafl_game.hash(&st));
    /* a game already over in the text */
    assert_int_equal(tafl_game.from_text(&st, &v, "8k/9/9/9/9/9/9/9/1a7 a",
                                         err, sizeof err), 0);
    assert_int_equal(tafl_game.status(&st).reason, REASON_KING_ESCAPED);
    assert_int_equal(tafl_game.from_text(&st, &v, "9/9/9/9/9/9/9/9/1a7 d",
                                         err, sizeof err), 0);
    assert_int_equal(tafl_game.status(&st).reason, REASON_KING_CAPTURED);
    struct { const char *text, *msg; } bad[] = {
        {"9/9/9/9/9/9/9/9 a", "9 ranks"},
        {"9/9/9/9/9/9/9/9/9/9 a", "more than 9 ranks"},
        {"8/9/9/9/9/9/9/9/9 a", "9 squares"},
        {"9/9/9/9/4x4/9/9/9/9 a", "unexpected 'x'"},
        {"9/9/9/9/4a4/9/9/9/9 a", "only the king"},
        {"a8/9/9/9/4k4/9/9/9/9 a", "only the king"},
        {"9/9/9/9/4k4/9/9/9/8k a", "too many"},
        {"9/9/9/9/4k4/9/9/9/9 x", "side to move"},
        {"9/9/9/9/4k4/9/9/9/9", "side to move"},
        {"9/9/9/9/4k4/9/9/9/9 a 3 4 junk", "unexpected text"},
        {"9/9/9/9/4k4/9/9/9/9 a x", "unexpected text"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        assert_int_equal(tafl_game.from_text(&st, &v, bad[i].text, err,
                                             sizeof err), -1);
        if (!strstr(err, bad[i].msg))
            fail_msg("'%s': error '%s', expected '%s'", bad[i].text, err,
                     bad[i].msg);
    }
    /* counters are read back */
    assert_int_equal(tafl_game.from_text(&st, &v, "9/9/9/9/4k4/9/9/9/1a7 a 7 31",
                                         err, sizeof err), 0);
    assert_int_equal(st.history.quiet_plies, 7);
    assert_int_equal(st.ply, 31);
}

static void test_move_text(void **state)
{
    (void)state;
    struct tafl_state st;
    struct variant v;
    char buf[16], err[128];
    variant_parse("tafl", &v, NULL, 0);
    tafl_game.init(&st, &v);
    move_t m;
    assert_int_equal(tafl_game.move_from_text(&st, "d1d3", &m), 0);
    assert_int_equal(tafl_game.move_to_text(&st, m, buf, sizeof buf), 4);
    assert_string_equal(buf, "d1d3");
    assert_int_equal(tafl_game.move_from_text(&st, "j1j2", &m), -1);
    assert_int_equal(tafl_game.move_from_text(&st, "d1d10", &m), -1);
    assert_int_equal(tafl_game.move_from_text(&st, "d1", &m), -1);
    assert_int_equal(game_parse_move(&tafl_game, &st, "d1e1", &m, err,
                                     sizeof err), -1);
    assert_non_null(strstr(err, "not legal"));
    assert_int_equal(game_parse_move(&tafl_game, &st, "zz", &m, err,
                                     sizeof err), -1);
    assert_non_null(strstr(err, "not a tafl move"));
}

/* The counters after the side to move are whole numbers in their field's
 * range (no-capture plies a uint16_t, ply a uint32_t;
 * docs/rules.md#notation-tafl: optional counters); before, sscanf's %u read
 * "-1" as 4294967295. */
static void test_position_counters(void **state)
{
    (void)state;
    struct variant v;
    struct tafl_state st;
    char err[256];
    assert_int_equal(variant_parse("tafl", &v, err, sizeof err), 0);
    struct { const char *text, *msg; } bad[] = {
        {"9/9/9/9/4k4/9/9/9/1a7 a -1", "'-1' as the no-capture plies"},
        {"9/9/9/9/4k4/9/9/9/1a7 a 0 -1", "'-1' as the ply"},
        {"9/9/9/9/4k4/9/9/9/1a7 a +3", "'+3' as the no-capture plies"},
        {"9/9/9/9/4k4/9/9/9/1a7 a 3x", "'3x' as the no-capture plies"},
        {"9/9/9/9/4k4/9/9/9/1a7 a 0 12y", "'12y' as the ply"},
        {"9/9/9/9/4k4/9/9/9/1a7 a 65536", "no-capture plies '65536' is too large"},
        {"9/9/9/9/4k4/9/9/9/1a7 a 0 4294967296", "ply '4294967296' is too large"},
        {"9/9/9/9/4k4/9/9/9/1a7 a 0 99999999999999999999999", "too large"},
        {"9/9/9/9/4k4/9/9/9/1a7 a 0 1 2", "unexpected text '2'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        assert_int_equal(tafl_game.from_text(&st, &v, bad[i].text, err,
                                             sizeof err), -1);
        if (!strstr(err, bad[i].msg))
            fail_msg("'%s': error '%s', expected '%s'", bad[i].text, err,
                     bad[i].msg);
    }
    /* the largest values of each field are read back */
    assert_int_equal(tafl_game.from_text(&st, &v, "9/9/9/9/4k4/9/9/9/1a7 a "
                                         "65535 4294967295", err, sizeof err),
                     0);
    assert_int_equal(st.history.quiet_plies, 65535);
    assert_int_equal(st.ply, 4294967295u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_perft_reference),
        cmocka_unit_test(test_perft_hand_positions),
        cmocka_unit_test(test_throne_only_for_the_king),
        cmocka_unit_test(test_corners),
        cmocka_unit_test(test_first_mover),
        cmocka_unit_test(test_custodial_capture),
        cmocka_unit_test(test_king_armed),
        cmocka_unit_test(test_throne_hostile),
        cmocka_unit_test(test_king_capture_surround),
        cmocka_unit_test(test_king_steps_into_enclosure),
        cmocka_unit_test(test_king_capture_custodial),
        cmocka_unit_test(test_shuttle_limit),
        cmocka_unit_test(test_shuttle_leaves_no_move),
        cmocka_unit_test(test_threefold_repetition),
        cmocka_unit_test(test_no_capture_limit),
        cmocka_unit_test(test_no_moves_loses),
        cmocka_unit_test(test_max_plies),
        cmocka_unit_test(test_position_text),
        cmocka_unit_test(test_position_counters),
        cmocka_unit_test(test_move_text),
    };
    return cmocka_run_group_tests_name("tafl", tests, NULL, NULL);
}
