/*
 * test_jetan.c -- Jetan: perft tables, and one test per rule sentence and
 * parameter value of docs/rules.md#jetan, each on a small hand-built
 * position whose answer was worked out by hand.
 *
 * Positions are built from piece lists ("C:e1 p:e10 ..."); every one has
 * both Chiefs and both Princesses unless the test is about their absence.
 * Royal pieces not under test stand in the corners, more than 3 squares
 * from the squares a test looks at. The Princess's escape and the ends
 * of the game are test_jetan_end.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "game.h"
#include "jetan_helpers.h"
#include "jetan_ref.h"


static uint64_t perft_of(const char *variant, const char *fen, int depth)
{
    struct variant v;
    struct jetan_state st;
    char err[256] = "";
    if (variant_parse(variant, &v, err, sizeof err) != 0
        || game_setup(&v, &st, fen, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    uint64_t count;
    if (game_perft(&jetan_game, &st, depth, &count) != 0)
        fail_msg("perft: out of memory");
    return count;
}

/* ---- perft and setup ------------------------------------------------ */

static void test_perft_start(void **state)
{
    (void)state;
    /* Depths 1-2 agree with the reference author's 112 / 12,526. At depth 3
     * the author reported 1,132,018, 38 more than here: exactly the 38
     * games that end at ply 2 (Black's escaped Princess taken, e.g.
     * f1^i8 i9i8), which the author counted once each as leaves. Under
     * game_perft's rule (a game that ended earlier adds nothing) the
     * reference's own move lists give 1,131,980 too (test_perft_reference
     * recomputes every row of this test with the reference). */
    const uint64_t start[] = {112, 12526, 1131980};
    for (int d = 1; d <= 3; d++) {
        assert_int_equal(perft_of("jetan", NULL, d), start[d - 1]);
        /* the setup is point-symmetric: Orange first sees the same tree */
        assert_int_equal(perft_of("jetan(first=orange)", NULL, d),
                         start[d - 1]);
    }
    /* without escapes: 8 x 3 Panthan, 2 x 3 Thoat, 2 x 4 Flier, 14 Princess;
     * the other settings' tables are the reference's counts */
    const struct { const char *variant; uint64_t n[3]; } tables[] = {
        {"jetan(princess_escape=off)", {52, 2704, 161795}},
        {"jetan(thoat_jumps=1)", {112, 12530, 1133755}},
        {"jetan(princess_escape=safe)", {92, 8460, 720454}},
        {"jetan(princess_safe=1)", {92, 8439, 686112}},
    };
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        for (int d = 1; d <= 3; d++)
            if (perft_of(tables[i].variant, NULL, d) != tables[i].n[d - 1])
                fail_msg("%s depth %d: %llu, expected %llu", tables[i].variant,
                         d, (unsigned long long)perft_of(tables[i].variant,
                                                         NULL, d),
                         (unsigned long long)tables[i].n[d - 1]);
}

/* The same tables from the naive reference (tests/ref/jetan_ref.c,
 * written from docs/rules.md#jetan alone, every step path enumerated
 * literally). */
static void test_perft_reference(void **state)
{
    (void)state;
    const char *start = "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/"
                        "WADFCPFDAW";
    const struct {
        char side;
        jetan_ref_params p; /* thoat_jumps, princess_safe, princess_escape */
        long long n[3];
    } tables[] = {
        {'b', {0, 0, 0}, {112, 12526, 1131980}},
        {'o', {0, 0, 0}, {112, 12526, 1131980}}, /* first=orange */
        {'b', {0, 0, 2}, {52, 2704, 161795}},    /* princess_escape=off */
        {'b', {1, 0, 0}, {112, 12530, 1133755}}, /* thoat_jumps=1 */
        {'b', {0, 0, 1}, {92, 8460, 720454}},    /* princess_escape=safe */
        {'b', {0, 1, 0}, {92, 8439, 686112}},    /* princess_safe=1 */
    };
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        char fen[128];
        snprintf(fen, sizeof fen, "%s %c Pp", start, tables[i].side);
        for (int d = 1; d <= 3; d++) {
            long long n = jetan_ref_perft(fen, &tables[i].p, d);
            if (n != tables[i].n[d - 1])
                fail_msg("table %zu depth %d: reference %lld, expected %lld",
                         i, d, n, tables[i].n[d - 1]);
        }
    }
}

static void test_setup(void **state)
{
    (void)state;
    struct variant v;
    struct jetan_state st;
    char text[160];
    variant_parse("jetan", &v, NULL, 0);
    jetan_game.init(&st, &v);
    assert_true(jetan_game.state_ok(&st));
    jetan_game.to_text(&st, text, sizeof text);
    assert_string_equal(text, "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/"
                              "TNNNNNNNNT/WADFCPFDAW b Pp - 0");
    /* the squares of docs/rules.md#jetan-setup, and point symmetry */
    const char *black[] = {"a1W", "b1A", "c1D", "d1F", "e1C", "f1P", "g1F",
                           "h1D", "i1A", "j1W", "a2T", "j2T", "b2N", "i2N"};
    const char *orange[] = {"j10w", "i10a", "h10d", "g10f", "f10c", "e10p",
                            "d10f", "c10d", "b10a", "a10w", "j9t", "a9t",
                            "b9n", "i9n"};
    for (int i = 0; i < 14; i++) {
        char sq[4];
        size_t len = strlen(black[i]) - 1;
        memcpy(sq, black[i], len), sq[len] = '\0';
        assert_int_equal(at(&st, sq), black[i][len]);
        len = strlen(orange[i]) - 1;
        memcpy(sq, orange[i], len), sq[len] = '\0';
        assert_int_equal(at(&st, sq), orange[i][len]);
    }
    assert_int_equal(st.head.side, JETAN_BLACK);
    assert_int_equal(jetan_game.to_move(&st), 0);
    assert_string_equal(jetan_game.seat_side(&st, 0), "black");
    assert_string_equal(jetan_game.seat_side(&st, 1), "orange");
    variant_parse("jetan(first=orange)", &v, NULL, 0);
    jetan_game.init(&st, &v);
    assert_true(jetan_game.state_ok(&st));
    assert_int_equal(st.head.side, JETAN_ORANGE);
    assert_int_equal(jetan_game.to_move(&st), 0);
    assert_string_equal(jetan_game.seat_side(&st, 0), "orange");
    assert_string_equal(jetan_game.seat_side(&st, 1), "black");
    jetan_game.to_text(&st, text, sizeof text);
    assert_string_equal(text, "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/"
                              "TNNNNNNNNT/WADFCPFDAW o Pp - 0");
}

/* ---- each piece on an open board ------------------------------------ */

struct offset {
    int dx, dy;
};

/* The squares at the given offsets from (file, rank), as "d4 e6 ...". */
static void squares_at(int file, int rank, const struct offset *o, int n,
                       char *out)
{
    int len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        len += sprintf(out + len, "%s%c%d", i ? " " : "", 'a' + file + o[i].dx,
                       rank + 1 + o[i].dy);
}

/* Offsets of docs/rules.md#jetan-how-pieces-move; each list mirrored in x
 * and y. */
static int mirrored(const struct offset *base, int n, struct offset *out)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                struct offset o = {base[i].dx * sx, base[i].dy * sy};
                int dup = 0;
                for (int j = 0; j < count && !dup; j++)
                    dup = out[j].dx == o.dx && out[j].dy == o.dy;
                if (!dup)
                    out[count++] = o;
            }
        }
    }
    return count;
}

static void expect_open_board(char letter, const struct offset *base, int n,
                              int expected_count)
{
    struct offset all[64];
    int count = mirrored(base, n, all);
    assert_int_equal(count, expected_count);
    char pieces[128], expected[512];
    snprintf(pieces, sizeof pieces, "%c:e5 %s %s c:a10 p:j10", letter,
             letter == 'C' ? "" : "C:a1", letter == 'P' ? "" : "P:j1");
    struct jetan_state st;
    jetan_setup(&st, "jetan", pieces, "b -");
    squares_at(4, 4, all, count, expected);
    expect_destinations(&st, "e5", expected);
}

static void test_open_board(void **state)
{
    (void)state;
    const struct offset thoat[] = {{1, 2}, {2, 1}, {1, 0}, {0, 1}};
    const struct offset warrior[] = {{2, 0}, {0, 2}, {1, 1}};
    const struct offset padwar[] = {{2, 2}, {2, 0}, {0, 2}};
    const struct offset dwar[] = {{1, 0}, {0, 1}, {2, 1}, {1, 2},
                                  {3, 0}, {0, 3}};
    const struct offset flier[] = {{1, 1}, {1, 3}, {3, 1}, {3, 3}};
    struct offset royal[48];
    int n = 0;
    for (int dx = 0; dx <= 3; dx++)
        for (int dy = 0; dy <= 3; dy++)
            if (dx || dy)
                royal[n++] = (struct offset){dx, dy};
    expect_open_board('T', thoat, 4, 12);
    expect_open_board('W', warrior, 3, 8);
    expect_open_board('A', padwar, 3, 8);
    expect_open_board('D', dwar, 6, 16);
    expect_open_board('F', flier, 4, 16);
    expect_open_board('C', royal, n, 48);
    expect_open_board('P', royal, n, 48);
}

/* ---- Panthan ---------------------------------------------------------- */

static void test_panthan(void **state)
{
    (void)state;
    struct jetan_state st;
    /* Black: forward, diagonally forward, sideways; never back */
    jetan_setup(&st, "jetan", "N:e5 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "e6 d6 f6 d5 f5");
    /* Orange's forward is down the board */
    jetan_setup(&st, "jetan", "n:e5 " CORNERS_BLACK_FIRST, "o -");
    expect_destinations(&st, "e5", "e4 d4 f4 d5 f5");
    /* blocked by its own piece, captures an enemy one the same way it
     * moves, not backward */
    jetan_setup(&st, "jetan", "N:e5 N:e6 t:f5 t:f4 " CORNERS_BLACK_FIRST,
                "b -");
    expect_destinations(&st, "e5", "d6 f6 d5 f5");
    /* at the edge, and on the far rank only sideways (no promotion) */
    jetan_setup(&st, "jetan", "N:a5 N:e10 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "a5", "a6 b6 b5");
    expect_destinations(&st, "e10", "d10 f10");
    play(&st, "e10f10 a10a7");
    assert_int_equal(at(&st, "f10"), 'N');
}

/* ---- Thoat ------------------------------------------------------------- */

static void test_thoat(void **state)
{
    (void)state;
    struct jetan_state st;
    /* e6 and f6 blocked: f7 has no open path (via e6 or f6); d7 is reached
     * via d6, g6 via f5, and f5 itself by the turn through e4 */
    jetan_setup(&st, "jetan", "T:e5 N:e6 N:f6 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "d7 g6 g4 f3 d3 c6 c4 f5 d5 e4");
    /* e6 e4 f6 f4 blocked: f5 (orthogonal neighbour) has all four paths
     * closed, so has f3 */
    jetan_setup(&st, "jetan", "T:e5 N:e6 N:e4 N:f6 N:f4 "
                CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "d7 g6 g4 d3 c6 c4 d5");
    /* enemy pieces block too, and the Thoat captures on the last step:
     * e6 and e4 by a turn through f5 or d5 */
    jetan_setup(&st, "jetan", "T:e5 n:e6 n:e4 n:f6 n:f4 "
                CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "d7 g6 g4 d3 c6 c4 d5 e6 e4");
    jetan_setup(&st, "jetan", "T:e5 n:e6 n:f6 w:d7 " CORNERS_BLACK_FIRST,
                "b -");
    assert_true(is_legal(&st, "e5d7"));
    play(&st, "e5d7");
    assert_int_equal(at(&st, "d7"), 'T');
}

static void test_thoat_jumps(void **state)
{
    (void)state;
    struct jetan_state st;
    /* thoat_jumps=1: every path is open; only its own pieces stop it */
    jetan_setup(&st, "jetan(thoat_jumps=1)", "T:e5 N:e6 n:e4 N:f6 n:f4 "
                CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "d7 f7 g6 g4 f3 d3 c6 c4 f5 d5 e4");
    /* surrounded on all 8 squares it still reaches the 8 knight squares */
    jetan_setup(&st, "jetan(thoat_jumps=1)", "T:e5 N:d4 N:d5 N:d6 N:e4 "
                "N:e6 N:f4 N:f5 N:f6 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "d7 f7 g6 g4 f3 d3 c6 c4");
    jetan_setup(&st, "jetan", "T:e5 N:d4 N:d5 N:d6 N:e4 N:e6 N:f4 N:f5 "
                "N:f6 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "");
}

/* ---- Warrior, Padwar, Dwar ------------------------------------------- */

static void test_warrior(void **state)
{
    (void)state;
    struct jetan_state st;
    /* e6 blocks e7 only; f6 and d6 stay open through f5 and d5 */
    jetan_setup(&st, "jetan", "W:e5 N:e6 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "e3 c5 g5 d6 f6 d4 f4");
    /* e6 and f5 close e7, g5 and f6 */
    jetan_setup(&st, "jetan", "W:e5 N:e6 N:f5 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "e3 c5 d6 d4 f4");
    /* captures on the last step, through an open path */
    jetan_setup(&st, "jetan", "W:e5 N:e6 t:f6 t:e7 " CORNERS_BLACK_FIRST,
                "b -");
    assert_true(is_legal(&st, "e5f6"));
    assert_false(is_legal(&st, "e5e7"));
}

static void test_padwar(void **state)
{
    (void)state;
    struct jetan_state st;
    /* f6 closes g7; g5 and e7 stay open through f4 and d6 */
    jetan_setup(&st, "jetan", "A:e5 N:f6 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "c7 c3 g3 e7 e3 c5 g5");
    jetan_setup(&st, "jetan", "A:e5 n:f6 n:f4 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "c7 c3 e7 e3 c5");
}

static void test_dwar(void **state)
{
    (void)state;
    struct jetan_state st;
    /* f5 and e6 blocked: every path to h5, g6, f7, e8 passes one of them;
     * g4 is reached by e4-f4, d7 by d5-d6, f3 by e4-e3 */
    jetan_setup(&st, "jetan", "D:e5 N:f5 N:e6 " CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "b5 c4 c6 d3 d5 d7 e2 e4 f3 g4");
    /* its orthogonal neighbour by a turn: e5-f5-f6-e6; captures there */
    jetan_setup(&st, "jetan", "D:e5 t:e6 N:d5 N:e4 " CORNERS_BLACK_FIRST,
                "b -");
    assert_true(is_legal(&st, "e5e6"));
    jetan_setup(&st, "jetan", "D:e5 t:e6 N:d5 N:e4 N:f5 " CORNERS_BLACK_FIRST,
                "b -");
    expect_destinations(&st, "e5", "");
}

/* ---- Flier -------------------------------------------------------------- */

static void test_flier(void **state)
{
    (void)state;
    struct jetan_state st;
    /* jumps: surrounded, it reaches all but its own neighbours */
    jetan_setup(&st, "jetan", "F:e5 N:d4 N:d5 N:d6 N:e4 n:e6 N:f4 n:f5 N:f6 "
                CORNERS_BLACK_FIRST, "b -");
    expect_destinations(&st, "e5", "b2 b4 b6 b8 d2 d8 f2 f8 h2 h4 h6 h8");
    /* no square twice and the board's edge: from the corner b2 needs a
     * path through c1 or a3 and back onto b2 (or off the board), so only
     * b4, d2 and d4 remain */
    jetan_setup(&st, "jetan", "F:a1 C:e1 P:j1 c:a10 p:j10", "b -");
    expect_destinations(&st, "a1", "b4 d2 d4");
}

/* ---- Chief ------------------------------------------------------------- */

static void test_chief(void **state)
{
    (void)state;
    struct jetan_state st;
    /* a2 and b1 blocked: every path starts on b2, so b2 itself (entered
     * first) and a1 (the start) are never destinations */
    jetan_setup(&st, "jetan", "C:a1 N:a2 N:b1 P:j1 c:a10 p:j10", "b -");
    expect_destinations(&st, "a1", "a3 a4 b3 b4 c1 c2 c3 c4 d1 d2 d3 d4");
    /* no open first step: no move, not even a capture of a neighbour */
    jetan_setup(&st, "jetan", "C:a1 n:a2 n:b1 n:b2 P:j1 c:a10 p:j10", "b -");
    expect_destinations(&st, "a1", "");
    /* captures a neighbour by a 3-step path ending there */
    jetan_setup(&st, "jetan", "C:a1 n:a2 N:b1 P:j1 c:a10 p:j10", "b -");
    assert_true(is_legal(&st, "a1a2"));
    /* blocked on its way: with d6 e6 f6 taken, e8 (three steps up) and
     * e7 (two up and one sideways, the first up step blocked or the
     * sideways step leading under d6 or f6) are out of reach; g7 and c7
     * are reached through f5-g6 and d5-c6 */
    jetan_setup(&st, "jetan", "C:e5 N:d6 N:e6 N:f6 P:j1 c:a10 p:j10", "b -");
    assert_false(is_legal(&st, "e5e8"));
    assert_false(is_legal(&st, "e5e7"));
    assert_true(is_legal(&st, "e5g7"));
    assert_true(is_legal(&st, "e5c7"));
}

/* ---- Princess ----------------------------------------------------------- */

static void test_princess(void **state)
{
    (void)state;
    struct jetan_state st;
    /* jumps over anything, but never lands on a piece: 15 squares within
     * 3 of a1, less her 3 own neighbours and the enemy on c3 */
    jetan_setup(&st, "jetan", "P:a1 N:a2 N:b1 N:b2 n:c3 C:j1 c:a10 p:j10",
                "b -");
    expect_destinations(&st, "a1", "a3 a4 b3 b4 c1 c2 c4 d1 d2 d3 d4");
    /* never captures: not the enemy Princess, not by an escape either */
    jetan_setup(&st, "jetan", "P:e5 p:e6 C:a1 c:a10", "b Pp");
    assert_false(is_legal(&st, "e5e6"));
    assert_false(is_legal(&st, "e5^e6"));
    assert_true(is_legal(&st, "e5e7"));
}


/* ---- text ------------------------------------------------------------- */

static void test_position_text(void **state)
{
    (void)state;
    struct variant v;
    struct jetan_state st, init;
    char err[256], out[160];
    variant_parse("jetan", &v, NULL, 0);
    const char *start = "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/"
                        "TNNNNNNNNT/WADFCPFDAW b Pp";
    assert_int_equal(jetan_game.from_text(&st, &v, start, err, sizeof err), 0);
    jetan_game.init(&init, &v);
    assert_int_equal(jetan_game.hash(&init), jetan_game.hash(&st));
    /* all fields read back; the hash covers escapes and the countdown */
    const char *full = "4c5/10/10/10/3N6/4w5/10/1p8/10/C4P4 o P 7 123";
    assert_int_equal(jetan_game.from_text(&st, &v, full, err, sizeof err), 0);
    jetan_game.to_text(&st, out, sizeof out);
    assert_string_equal(out, full);
    assert_int_equal(st.ply, 123);
    uint64_t h = jetan_game.hash(&st);
    jetan_game.from_text(&st, &v, "4c5/10/10/10/3N6/4w5/10/1p8/10/C4P4 o Pp 7",
                         err, sizeof err);
    assert_true(jetan_game.hash(&st) != h);
    jetan_game.from_text(&st, &v, "4c5/10/10/10/3N6/4w5/10/1p8/10/C4P4 o P 6",
                         err, sizeof err);
    assert_true(jetan_game.hash(&st) != h);
    /* games already over in the text */
    assert_int_equal(jetan_game.from_text(&st, &v, "4cp4/10/10/10/10/10/10/"
                                          "10/10/C9 b -", err, sizeof err), 0);
    expect_status(&st, GAME_WIN_SEAT1, REASON_PRINCESS_CAPTURED);
    assert_int_equal(jetan_game.from_text(&st, &v, "4p5/10/10/10/10/10/10/10/"
                                          "10/C4P4 b -", err, sizeof err), 0);
    expect_status(&st, GAME_DRAW, REASON_CHIEF_CAPTURED_BY_OTHER);
    assert_int_equal(jetan_game.from_text(&st, &v, "4pc4/10/10/10/10/10/10/"
                                          "10/10/C4P4 b - 0", err, sizeof err),
                     0);
    expect_status(&st, GAME_DRAW, REASON_ENDGAME_COUNTDOWN);
    struct { const char *text, *msg; } bad[] = {
        {"10/10/10/10/10/10/10/10/10 b -", "10 ranks"},
        {"10/10/10/10/10/10/10/10/10/10/10 b -", "more than 10 ranks"},
        {"9/10/10/10/10/10/10/10/10/10 b -", "10 squares"},
        {"55C/10/10/10/10/10/10/10/10/10 b -", "more than 10 squares"},
        {"10C/10/10/10/10/10/10/10/10/10 b -", "more than 10 squares"},
        {"pc8/10/10/10/10/10/10/10/10/CPX7 b -", "unexpected 'X'"},
        {"pc8/10/10/10/10/10/10/10/10/CP07 b -", "unexpected '0'"},
        {"pc8/10/10/10/10/10/10/10/10/CPC7 b -", "too many"},
        {"pc8/10/10/NNNNNNNNNN/NNNNNNNNNN/10/10/10/10/CP8 b -", "too many"},
        {"c9/10/10/10/10/10/10/10/10/C9 b -", "neither side"},
        {"pc8/10/10/10/10/10/10/10/10/CP8 x -", "side to move"},
        {"pc8/10/10/10/10/10/10/10/10/CP8", "side to move"},
        {"pc8/10/10/10/10/10/10/10/10/CP8 b", "escapes"},
        {"pc8/10/10/10/10/10/10/10/10/CP8 b PP", "escapes"},
        {"pc8/10/10/10/10/10/10/10/10/CP8 b - 11", "bad countdown"},
        {"pc8/10/10/10/10/10/10/10/10/CP8 b - y", "bad countdown"},
        {"pc8/10/10/10/10/10/10/10/10/CP8 b - - 1x", "bad ply"},
        {"pc8/10/10/10/10/10/10/10/10/CP8 b - - 1 2", "unexpected text"},
        {start, NULL},
    };
    for (size_t i = 0; bad[i].msg; i++) {
        err[0] = '\0';
        assert_int_equal(jetan_game.from_text(&st, &v, bad[i].text, err,
                                              sizeof err), -1);
        if (!strstr(err, bad[i].msg))
            fail_msg("'%s': error '%s', expected '%s'", bad[i].text, err,
                     bad[i].msg);
    }
    /* a countdown needs both sides at 3 or fewer */
    char fen[160];
    strcpy(fen, start);
    strcat(fen, " 5");
    assert_int_equal(jetan_game.from_text(&st, &v, fen, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than 3 pieces"));
}

static void test_move_text(void **state)
{
    (void)state;
    struct jetan_state st;
    struct variant v;
    char buf[16], err[128];
    variant_parse("jetan", &v, NULL, 0);
    jetan_game.init(&st, &v);
    move_t m;
    const char *good[] = {"e1e4", "a10a9", "f1^e5", "j10^a1", "a1j10"};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(jetan_game.move_from_text(&st, good[i], &m), 0);
        assert_int_equal(jetan_game.move_to_text(&st, m, buf, sizeof buf),
                         (int)strlen(good[i]));
        assert_string_equal(buf, good[i]);
    }
    assert_int_equal(jetan_game.move_from_text(&st, "f1^e5", &m), 0);
    assert_int_equal(JETAN_IS_ESCAPE(m), 1);
    assert_int_equal(JETAN_FROM(m), JETAN_SQ(5, 0));
    assert_int_equal(JETAN_TO(m), JETAN_SQ(4, 4));
    const char *bad[] = {"k1k2", "a11a1", "a0a1", "f1^^e5", "f1e5x", "f1",
                         "f1^", "a100a1", "F1E5", ""};
    for (int i = 0; i < 10; i++)
        if (jetan_game.move_from_text(&st, bad[i], &m) != -1)
            fail_msg("'%s' read as a move", bad[i]);
    assert_int_equal(jetan_game.move_to_text(&st, m, buf, 4), -1);
    assert_int_equal(game_parse_move(&jetan_game, &st, "e1e4", &m, err,
                                     sizeof err), -1);
    assert_non_null(strstr(err, "not legal"));
    assert_int_equal(game_parse_move(&jetan_game, &st, "zz", &m, err,
                                     sizeof err), -1);
    assert_non_null(strstr(err, "not a jetan move"));
}

static void test_limits(void **state)
{
    (void)state;
    assert_true(jetan_game.state_size <= GAME_MAX_STATE_SIZE);
    assert_true(jetan_game.max_moves <= GAME_MAX_MOVES);
    /* the most crowded legal moves we can build stay within max_moves:
     * two Chiefs, two Princesses (escape too), 16 Dwars and Fliers */
    struct jetan_state st;
    jetan_setup(&st, "jetan", "C:e5 P:f5 F:b2 F:b9 F:i2 F:i9 D:c3 D:c8 D:h3 "
                "D:h8 c:a1 p:j10", "b Pp");
    assert_true(count_moves(&st) <= jetan_game.max_moves);
}

/* Jetan's counters (docs/rules.md#notation-jetan: countdown 0..10, ply)
 * take digits only: a sign, junk or a value past the field's range is an
 * error. */
static void test_position_counters(void **state)
{
    (void)state;
    struct variant v;
    struct jetan_state st;
    char err[256];
    assert_int_equal(variant_parse("jetan", &v, err, sizeof err), 0);
    const char *bad[] = {
        "pc8/10/10/10/10/10/10/10/10/CP8 b - - -1",
        "pc8/10/10/10/10/10/10/10/10/CP8 b - - 4294967296",
        "pc8/10/10/10/10/10/10/10/10/CP8 b - - +5",
        "pc8/10/10/10/10/10/10/10/10/CP8 b - -1",
        "pc8/10/10/10/10/10/10/10/10/CP8 b - 11",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (jetan_game.from_text(&st, &v, bad[i], err, sizeof err) != -1)
            fail_msg("'%s' was accepted", bad[i]);
    assert_int_equal(jetan_game.from_text(&st, &v, "pc8/10/10/10/10/10/10/10/"
                                          "10/CP8 b - 10 4294967295", err,
                                          sizeof err), 0);
    assert_int_equal(st.ply, 4294967295u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_perft_reference),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_position_counters),
        cmocka_unit_test(test_open_board),
        cmocka_unit_test(test_panthan),
        cmocka_unit_test(test_thoat),
        cmocka_unit_test(test_thoat_jumps),
        cmocka_unit_test(test_warrior),
        cmocka_unit_test(test_padwar),
        cmocka_unit_test(test_dwar),
        cmocka_unit_test(test_flier),
        cmocka_unit_test(test_chief),
        cmocka_unit_test(test_princess),
        cmocka_unit_test(test_position_text),
        cmocka_unit_test(test_move_text),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests_name("jetan", tests, NULL, NULL);
}
