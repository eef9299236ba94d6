/*
 * test_jetan_end.c -- Jetan's Princess's escape and the ends of the game,
 * one test per rule sentence and parameter value of docs/rules.md#jetan
 * (the escape once per side, princess_escape and princess_safe; a
 * Princess or Chief captured, the countdown and endgame_equal_value, no
 * moves, max_plies), each on a small hand-built position whose answer
 * was worked out by hand, as in test_jetan.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "game.h"
#include "jetan_helpers.h"

/* ---- escape ------------------------------------------------------------- */

static int count_escapes(const struct jetan_state *st, const char *from)
{
    char buf[2048];
    return destinations(st, from, 1, buf);
}

static void test_escape_once_per_side(void **state)
{
    (void)state;
    struct variant v;
    struct jetan_state st;
    variant_parse("jetan", &v, NULL, 0);
    jetan_game.init(&st, &v);
    /* any empty square: 60 at the start; a square she also reaches
     * normally gives two moves */
    assert_int_equal(count_escapes(&st, "f1"), 60);
    assert_true(is_legal(&st, "f1e4"));
    assert_true(is_legal(&st, "f1^e4"));
    assert_true(is_legal(&st, "f1^e8"));
    assert_false(is_legal(&st, "f1^f1"));
    assert_false(is_legal(&st, "f1^e2")); /* occupied */
    play(&st, "f1^e5");
    assert_int_equal(at(&st, "e5"), 'P');
    assert_int_equal(st.escape[JETAN_BLACK], 0);
    assert_int_equal(st.escape[JETAN_ORANGE], 1);
    char text[160];
    jetan_game.to_text(&st, text, sizeof text);
    assert_non_null(strstr(text, " o p - 1"));
    assert_int_equal(count_escapes(&st, "e10"), 60);
    play(&st, "e10^e6");
    assert_int_equal(count_escapes(&st, "e5"), 0);
    assert_true(is_legal(&st, "e5e2") == 0); /* e2 is taken */
    play(&st, "e5f3");
    assert_int_equal(count_escapes(&st, "e6"), 0);
    jetan_game.to_text(&st, text, sizeof text);
    assert_non_null(strstr(text, " o - - 3"));
    /* a normal Princess move keeps the escape */
    jetan_game.init(&st, &v);
    play(&st, "f1f4 e10e7");
    assert_int_equal(count_escapes(&st, "f4"), 60);
}

static void test_escape_off_and_safe(void **state)
{
    (void)state;
    struct jetan_state st;
    /* 95 empty squares; Orange's Chief attacks the 15 of g7-j10, the Dwar
     * on e5 its 16: 64 are safe */
    const char *pieces = "P:a1 C:j1 c:j10 p:a10 d:e5";
    jetan_setup(&st, "jetan", pieces, "b P");
    assert_int_equal(count_escapes(&st, "a1"), 95);
    jetan_setup(&st, "jetan(princess_escape=off)", pieces, "b P");
    assert_int_equal(count_escapes(&st, "a1"), 0);
    jetan_setup(&st, "jetan(princess_escape=safe)", pieces, "b P");
    assert_int_equal(count_escapes(&st, "a1"), 64);
    assert_false(is_legal(&st, "a1^e8"));
    assert_false(is_legal(&st, "a1^h8"));
    assert_true(is_legal(&st, "a1^e9"));
    /* the escape flag still decides */
    jetan_setup(&st, "jetan(princess_escape=safe)", pieces, "b p");
    assert_int_equal(count_escapes(&st, "a1"), 0);
    /* judged with the Princess gone: on e6 she blocks the Dwar's way to
     * e8, but e8 is attacked once she leaves */
    jetan_setup(&st, "jetan(princess_escape=safe)",
                "P:e6 C:j1 c:j10 p:a10 d:e5", "b P");
    assert_false(is_legal(&st, "e6^e8"));
    assert_true(is_legal(&st, "e6^e9"));
    jetan_setup(&st, "jetan", "P:e6 C:j1 c:j10 p:a10 d:e5", "b P");
    assert_true(is_legal(&st, "e6^e8"));
    /* the enemy Princess attacks nothing */
    jetan_setup(&st, "jetan(princess_escape=safe)",
                "P:a1 C:j1 c:j10 p:e5", "b P");
    assert_true(is_legal(&st, "a1^e6"));
}

static void test_princess_safe(void **state)
{
    (void)state;
    struct jetan_state st;
    const char *pieces = "P:e6 C:j1 c:j10 p:a10 d:e5";
    /* e8 is attacked once she has left e6; e9 is not; d5 and e7? d5 is a
     * Dwar square, e7 is not (Dwar squares have odd |dx| + |dy|) */
    jetan_setup(&st, "jetan(princess_safe=1)", pieces, "b -");
    assert_false(is_legal(&st, "e6e8"));
    assert_false(is_legal(&st, "e6d5"));
    assert_true(is_legal(&st, "e6e9"));
    assert_true(is_legal(&st, "e6e7"));
    jetan_setup(&st, "jetan", pieces, "b -");
    assert_true(is_legal(&st, "e6e8"));
    assert_true(is_legal(&st, "e6d5"));
    /* it also limits the escape, even with princess_escape=any */
    jetan_setup(&st, "jetan(princess_safe=1)", pieces, "b P");
    assert_false(is_legal(&st, "e6^e8"));
    assert_true(is_legal(&st, "e6^e9"));
    /* a Panthan attacks the way it moves: Orange's n on d8 attacks
     * c7 d7 e7 c8 e8, not d9 */
    jetan_setup(&st, "jetan(princess_safe=1)",
                "P:e6 C:j1 c:j10 p:a10 n:d8", "b -");
    assert_false(is_legal(&st, "e6e7"));
    assert_false(is_legal(&st, "e6c7"));
    assert_true(is_legal(&st, "e6d9"));
    assert_true(is_legal(&st, "e6e9"));
}

/* ---- end of the game ---------------------------------------------------- */

static void test_princess_captured(void **state)
{
    (void)state;
    struct jetan_state st;
    /* any piece takes the Princess: the capturer wins, by seat */
    jetan_setup(&st, "jetan", "N:e5 p:e6 C:a1 P:j1 c:a10", "b -");
    play(&st, "e5e6");
    expect_status(&st, GAME_WIN_SEAT0, REASON_PRINCESS_CAPTURED);
    jetan_setup(&st, "jetan(first=orange)", "N:e5 p:e6 C:a1 P:j1 c:a10",
                "b -");
    play(&st, "e5e6");
    expect_status(&st, GAME_WIN_SEAT1, REASON_PRINCESS_CAPTURED);
    jetan_setup(&st, "jetan", "n:e7 P:e6 C:a1 c:a10 p:j10", "o -");
    play(&st, "e7e6");
    expect_status(&st, GAME_WIN_SEAT1, REASON_PRINCESS_CAPTURED);
    /* the Chief too */
    jetan_setup(&st, "jetan", "C:e5 p:e8 P:j1 c:a10", "b -");
    play(&st, "e5e8");
    expect_status(&st, GAME_WIN_SEAT0, REASON_PRINCESS_CAPTURED);
}

static void test_chief_captured(void **state)
{
    (void)state;
    struct jetan_state st;
    /* Chief takes Chief: a win */
    jetan_setup(&st, "jetan", "C:e5 c:e8 P:j1 p:a10", "b -");
    play(&st, "e5e8");
    expect_status(&st, GAME_WIN_SEAT0, REASON_CHIEF_CAPTURED);
    jetan_setup(&st, "jetan(first=orange)", "C:e5 c:e8 P:j1 p:a10", "o -");
    play(&st, "e8e5");
    expect_status(&st, GAME_WIN_SEAT0, REASON_CHIEF_CAPTURED);
    /* any other piece takes a Chief: a draw */
    jetan_setup(&st, "jetan", "D:e5 c:e8 C:a1 P:j1 p:a10", "b -");
    play(&st, "e5e8");
    expect_status(&st, GAME_DRAW, REASON_CHIEF_CAPTURED_BY_OTHER);
    jetan_setup(&st, "jetan", "n:f2 C:e1 P:j1 c:a10 p:j10", "o -");
    play(&st, "f2e1");
    expect_status(&st, GAME_DRAW, REASON_CHIEF_CAPTURED_BY_OTHER);
}

/* Black (C P N) and Orange (c p + two more) with room for quiet Chief
 * moves a1-a4 and a10-a7. */
static void test_countdown(void **state)
{
    (void)state;
    struct jetan_state st;
    const char *shuffle[] = {"a10a7", "a1a4", "a7a10", "a4a1"};
    /* 3 v 4 -> Black takes the Warrior: 3 v 3, the countdown starts */
    jetan_setup(&st, "jetan", "C:a1 P:j1 N:e4 c:a10 p:j10 w:f5 n:h8", "b -");
    assert_int_equal(st.countdown, JETAN_CD_NONE);
    play(&st, "e4f5");
    assert_int_equal(st.countdown, JETAN_CD_RUNNING);
    assert_int_equal(st.countdown_left, 10);
    for (int k = 0; k < 9; k++) {
        play(&st, shuffle[k % 4]);
        expect_status(&st, GAME_ONGOING, REASON_NONE);
        assert_int_equal(st.countdown_left, 9 - k);
    }
    play(&st, shuffle[9 % 4]); /* the 10th move after the start */
    expect_status(&st, GAME_DRAW, REASON_ENDGAME_COUNTDOWN);
    char text[160];
    jetan_game.to_text(&st, text, sizeof text);
    assert_non_null(strstr(text, " o - 0 11"));

    /* a win on the 10th move counts: the Panthan takes the Princess */
    jetan_setup(&st, "jetan", "C:a1 P:j1 N:e4 c:a10 p:g6 w:f5 n:h8", "b -");
    play(&st, "e4f5 a10a7 a1a4 a7a10 a4a1 a10a7 a1a4 a7a10 a4a1 a10a7");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    assert_int_equal(st.countdown_left, 1);
    play(&st, "f5g6");
    expect_status(&st, GAME_WIN_SEAT0, REASON_PRINCESS_CAPTURED);

    /* later captures neither stop nor restart it */
    jetan_setup(&st, "jetan", "C:a1 P:j1 N:e4 c:a10 p:j10 w:f5 n:g7", "b -");
    play(&st, "e4f5 a10a7 f5f6 a7a10");
    assert_int_equal(st.count[JETAN_ORANGE], 3);
    play(&st, "f6g7"); /* takes the Panthan: 3 v 2 */
    assert_int_equal(st.count[JETAN_ORANGE], 2);
    assert_int_equal(st.countdown_left, 6);
    play(&st, "a10a7 a1a4 a7a10 a4a1 a10a7");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    play(&st, "a1a4");
    expect_status(&st, GAME_DRAW, REASON_ENDGAME_COUNTDOWN);

    /* a position given with both sides at 3 or fewer starts it at once */
    jetan_setup(&st, "jetan", "C:a1 P:j1 N:e4 c:a10 p:j10 w:f5", "b -");
    assert_int_equal(st.countdown, JETAN_CD_RUNNING);
    assert_int_equal(st.countdown_left, 10);
    /* ... unless the text says where it stands */
    jetan_setup(&st, "jetan", "C:a1 P:j1 N:e4 c:a10 p:j10 w:f5", "b - 3 40");
    assert_int_equal(st.countdown_left, 3);
    play(&st, "a1a4 a10a7");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    play(&st, "a4a1");
    expect_status(&st, GAME_DRAW, REASON_ENDGAME_COUNTDOWN);
    /* 3 v 4 is no countdown */
    jetan_setup(&st, "jetan", "C:a1 P:j1 N:e4 c:a10 p:j10 w:f5 n:h8", "b -");
    play(&st, "a1a4 a10a7 a4a1 a7a10 a1a4 a10a7 a4a1 a7a10 a1a4 a10a7 a4a1");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    assert_int_equal(st.countdown, JETAN_CD_NONE);
}

static void test_countdown_equal_value(void **state)
{
    (void)state;
    struct jetan_state st;
    const char *pieces = "C:d2 P:j1 N:e4 c:a10 p:j10 w:f5 n:d5";
    /* C P N v c p n: equal, it starts */
    jetan_setup(&st, "jetan(endgame_equal_value=1)", pieces, "b -");
    play(&st, "e4f5");
    assert_int_equal(st.countdown, JETAN_CD_RUNNING);
    /* C P N v c p w: unequal, it never starts, even when a later capture
     * makes the sides equal (checked only when it would start) */
    jetan_setup(&st, "jetan(endgame_equal_value=1)", pieces, "b -");
    play(&st, "e4d5");
    assert_int_equal(st.countdown, JETAN_CD_DECLINED);
    char text[160];
    jetan_game.to_text(&st, text, sizeof text);
    assert_non_null(strstr(text, " o - x 1"));
    play(&st, "f5d5 d2d5"); /* Warrior takes Panthan, Chief takes Warrior */
    assert_int_equal(st.count[JETAN_BLACK], 2);
    assert_int_equal(st.count[JETAN_ORANGE], 2);
    for (int k = 0; k < 12; k++)
        play(&st, (const char *[]){"a10a7", "d5d2", "a7a10", "d2d5"}[k % 4]);
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    assert_int_equal(st.countdown, JETAN_CD_DECLINED);
    /* with the default the same capture starts it */
    jetan_setup(&st, "jetan", pieces, "b -");
    play(&st, "e4d5");
    assert_int_equal(st.countdown, JETAN_CD_RUNNING);
    /* a position given that way decides at once */
    jetan_setup(&st, "jetan(endgame_equal_value=1)",
                "C:a1 P:j1 N:e4 c:a10 p:j10 w:f5", "b -");
    assert_int_equal(st.countdown, JETAN_CD_DECLINED);
    jetan_setup(&st, "jetan(endgame_equal_value=1)",
                "C:a1 P:j1 N:e4 c:a10 p:j10 n:f5", "b -");
    assert_int_equal(st.countdown, JETAN_CD_RUNNING);
}

/* Black's Chief on a1 is walled in by a2 b1 b2, and its Princess on j10
 * (escape used) by Orange pieces on every square within 3 but g7, which
 * Orange's Panthan on f7 fills sideways. */
static void test_no_moves(void **state)
{
    (void)state;
    struct jetan_state st;
    const char *pieces = "C:a1 n:a2 n:b1 n:b2 P:j10 n:f7 "
                         "n:g8 n:g9 n:g10 n:h7 n:h8 c:h9 n:h10 "
                         "n:i7 p:i8 n:i9 t:i10 t:j7 d:j8 d:j9";
    jetan_setup(&st, "jetan", pieces, "o p");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    play(&st, "f7g7");
    expect_status(&st, GAME_DRAW, REASON_NO_MOVES);
    /* with her escape still there, Black can move */
    jetan_setup(&st, "jetan", pieces, "o Pp");
    play(&st, "f7g7");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    assert_int_equal(count_moves(&st), 100 - 20);
    /* A Panthan whose only square is its own Princess's does not move
     * either (the no-moves check asks Panthans and Fliers first): Black's
     * Panthan on j10 can go sideways to i10 alone (nothing is ahead of
     * it on the last rank), its Chief on j9 is walled in, and its
     * Princess on i10 (escape used) has every square within 3 filled. */
    jetan_setup(&st, "jetan",
                "P:i10 N:j10 C:j9 c:f10 p:g10 f:h10 f:f9 d:g9 d:h9 a:i9 "
                "a:f8 w:g8 w:h8 t:i8 t:j8 n:f7 n:g7 n:h7 n:i7 n:j7",
                "b p");
    expect_status(&st, GAME_DRAW, REASON_NO_MOVES);
    /* The same with the colours and ranks swapped: Orange's Panthan on
     * j1 moves toward rank 1 (has_move steps all Panthans at once, each
     * side its own way). */
    jetan_setup(&st, "jetan",
                "p:i1 n:j1 c:j2 C:f1 P:g1 F:h1 F:f2 D:g2 D:h2 A:i2 "
                "A:f3 W:g3 W:h3 T:i3 T:j3 N:f4 N:g4 N:h4 N:i4 N:j4",
                "o P");
    expect_status(&st, GAME_DRAW, REASON_NO_MOVES);
}

static void test_max_plies(void **state)
{
    (void)state;
    struct jetan_state st;
    jetan_setup(&st, "jetan(max_plies=3)", CORNERS_BLACK_FIRST, "b -");
    play(&st, "a1a4 a10a7");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    play(&st, "a4a1");
    expect_status(&st, GAME_DRAW, REASON_PLY_CAP);
    /* the ply field counts */
    jetan_setup(&st, "jetan(max_plies=3)", CORNERS_BLACK_FIRST, "b - - 2");
    play(&st, "a1a4");
    expect_status(&st, GAME_DRAW, REASON_PLY_CAP);
    /* a win on the capped ply counts */
    jetan_setup(&st, "jetan(max_plies=1)", "N:e5 p:e6 C:a1 P:j1 c:a10", "b -");
    play(&st, "e5e6");
    expect_status(&st, GAME_WIN_SEAT0, REASON_PRINCESS_CAPTURED);
    /* max_plies=0: no cap */
    jetan_setup(&st, "jetan(max_plies=0)", CORNERS_BLACK_FIRST, "b - - 100000");
    play(&st, "a1a4 a10a7 a4a1");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
}
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_once_per_side),
        cmocka_unit_test(test_escape_off_and_safe),
        cmocka_unit_test(test_princess_safe),
        cmocka_unit_test(test_princess_captured),
        cmocka_unit_test(test_chief_captured),
        cmocka_unit_test(test_countdown),
        cmocka_unit_test(test_countdown_equal_value),
        cmocka_unit_test(test_no_moves),
        cmocka_unit_test(test_max_plies),
    };
    return cmocka_run_group_tests_name("jetan_end", tests, NULL, NULL);
}
