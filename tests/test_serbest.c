/*
 * test_serbest.c -- Serbest: perft tables, and one test per rule sentence
 * of docs/rules.md#serbest (both colours where it matters), each on a small
 * hand-built position whose answer was worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"
#include "serbest.h"
#include "serbest_ref.h"

/* Builds a position from "K:e1 k:e8 ...", the hands ("NQ", "nq" or "") and
 * the side ('w'/'b') under the variant; fails the test on error. */
static void setup(struct serbest_state *st, const char *variant,
                  const char *pieces, const char *hands, char side)
{
    char board[10][10] = {{0}}, fen[256], err[256] = "";
    for (const char *p = pieces; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char piece = p[0];
        int file = p[2] - 'a', rank = p[3] - '0', len = 4;
        if (p[4] >= '0' && p[4] <= '9')
            rank = rank * 10 + p[4] - '0', len = 5;
        board[rank - 1][file] = piece;
        p += len;
    }
    int len = 0;
    for (int r = 9; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 10; f++) {
            if (!board[r][f]) {
                empty++;
                continue;
            }
            if (empty)
                len += sprintf(fen + len, "%d", empty), empty = 0;
            fen[len++] = board[r][f];
        }
        if (empty)
            len += sprintf(fen + len, "%d", empty);
        if (r)
            fen[len++] = '/';
    }
    sprintf(fen + len, "[%s] %c", hands, side);
    struct variant v;
    if (variant_parse(variant, &v, err, sizeof err) != 0
        || serbest_from_text_fragment(st, &v, fen, err, sizeof err) != 0)
        fail_msg("setup %s [%s]: %s", variant, fen, err);
}

static int is_legal(const struct serbest_state *st, const char *text)
{
    move_t m;
    return game_parse_move(&serbest_game, st, text, &m, NULL, 0) == 0;
}

static void play(struct serbest_state *st, const char *moves)
{
    char buf[256], err[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        move_t m;
        if (game_parse_move(&serbest_game, st, tok, &m, err, sizeof err) != 0)
            fail_msg("playing %s: %s", tok, err);
        serbest_game.apply(st, m);
        assert_true(serbest_game.state_ok(st));
    }
}

static int count_moves(const struct serbest_state *st)
{
    move_t buf[GAME_MAX_MOVES];
    return serbest_game.legal_moves(st, buf);
}

/* Counts the legal moves whose text starts with prefix ("N@", "e5"). */
static int count_prefixed(const struct serbest_state *st, const char *prefix)
{
    move_t buf[GAME_MAX_MOVES];
    int n = serbest_game.legal_moves(st, buf), count = 0;
    for (int i = 0; i < n; i++) {
        char text[16];
        serbest_game.move_to_text(st, buf[i], text, sizeof text);
        count += strncmp(text, prefix, strlen(prefix)) == 0;
    }
    return count;
}

static void expect_status(const struct serbest_state *st,
                          enum game_outcome outcome, enum end_reason reason)
{
    struct game_status s = serbest_game.status(st);
    if (s.outcome != outcome || s.reason != reason)
        fail_msg("status %s (%s), expected %s (%s)",
                 game_outcome_name(s.outcome), end_reason_name(s.reason),
                 game_outcome_name(outcome), end_reason_name(reason));
}

static uint64_t perft_of(const char *variant, const char *fen, int depth)
{
    struct variant v;
    struct serbest_state st;
    char err[256] = "";
    if (variant_parse(variant, &v, err, sizeof err) != 0
        || game_setup(&v, &st, fen, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    uint64_t count;
    if (game_perft(&serbest_game, &st, depth, &count) != 0)
        fail_msg("perft: out of memory");
    return count;
}

/* ---- perft ------------------------------------------------------------ */

static void test_perft(void **state)
{
    (void)state;
    /* From the start: 6 kinds x 100 squares + 10 x KL king drops; depth 2
     * is the independent reference's count (test_perft_reference). */
    assert_int_equal(perft_of("serbest", NULL, 1), 670);
    assert_int_equal(perft_of("serbest(kings_landing=8)", NULL, 1), 680);
    assert_int_equal(perft_of("serbest(kings_landing=9)", NULL, 1), 690);
    assert_int_equal(perft_of("serbest", NULL, 2), 437828);
    assert_int_equal(perft_of("serbest(kings_landing=8)", NULL, 2), 450120);
    assert_int_equal(perft_of("serbest(kings_landing=9)", NULL, 2), 462654);
    /* Mid-game positions: depths 1-3, each count recomputed by the naive
     * reference in test_perft_reference. */
    const struct { const char *fen; uint64_t counts[3]; } mid[] = {
        {"10/3k6/10/10/4N5/10/10/10/2Q7/4K5[r] b", {97, 3560, 73948}},
        {"k9/rb8/n9/10/10/10/10/10/10/4K5[N] w", {100, 1345, 20177}},
        {"10/10/2k7/10/4b5/10/10/2K7/3P6/10[QRn] w", {192, 19462, 2272745}},
    };
    for (size_t i = 0; i < sizeof mid / sizeof *mid; i++)
        for (int d = 1; d <= 3; d++)
            assert_int_equal(perft_of("serbest", mid[i].fen, d),
                             mid[i].counts[d - 1]);
}

/* The same tables from the naive reference (tests/ref/serbest_ref.c,
 * written from docs/rules.md#serbest alone: every candidate is played on a
 * copy and the mover's king tested by scanning every enemy piece). */
static void test_perft_reference(void **state)
{
    (void)state;
    const char *start = "10/10/10/10/10/10/10/10/10/10"
                        "[KQRRBBNNPPPPPPSSkqrrbbnnppppppss] w";
    const struct { int kl, depth; long long n; } from_start[] = {
        {7, 1, 670}, {8, 1, 680}, {9, 1, 690},
        {7, 2, 437828}, {8, 2, 450120}, {9, 2, 462654},
    };
    for (size_t i = 0; i < sizeof from_start / sizeof *from_start; i++) {
        serbest_ref_params p = {from_start[i].kl, 0, 0};
        assert_int_equal(serbest_ref_perft(start, &p, from_start[i].depth),
                         from_start[i].n);
    }
    const struct { const char *fen; long long counts[3]; } mid[] = {
        {"10/3k6/10/10/4N5/10/10/10/2Q7/4K5[r] b", {97, 3560, 73948}},
        {"k9/rb8/n9/10/10/10/10/10/10/4K5[N] w", {100, 1345, 20177}},
        {"10/10/2k7/10/4b5/10/10/2K7/3P6/10[QRn] w", {192, 19462, 2272745}},
    };
    serbest_ref_params defaults = {7, 0, 0};
    for (size_t i = 0; i < sizeof mid / sizeof *mid; i++)
        for (int d = 1; d <= 3; d++) {
            long long n = serbest_ref_perft(mid[i].fen, &defaults, d);
            if (n != mid[i].counts[d - 1])
                fail_msg("%s depth %d: reference %lld, expected %lld",
                         mid[i].fen, d, n, mid[i].counts[d - 1]);
        }
}

/* ---- piece moves ----------------------------------------------------- */

static void test_fide_moves_on_10x10(void **state)
{
    (void)state;
    struct serbest_state st;
    /* White to move with its king in hand: no check, no pins. */
    setup(&st, "serbest", "Q:e5", "", 'w');
    assert_int_equal(count_moves(&st), 35); /* 18 + 5 + 4 + 4 + 4 */
    setup(&st, "serbest", "R:e5", "", 'w');
    assert_int_equal(count_moves(&st), 18);
    setup(&st, "serbest", "B:e5", "", 'w');
    assert_int_equal(count_moves(&st), 17);
    setup(&st, "serbest", "N:e5", "", 'w');
    assert_int_equal(count_moves(&st), 8);
    setup(&st, "serbest", "N:a1", "", 'w');
    assert_int_equal(count_moves(&st), 2);
    setup(&st, "serbest", "K:e5", "", 'w');
    assert_int_equal(count_moves(&st), 8);
    setup(&st, "serbest", "R:a10", "", 'w');
    assert_true(is_legal(&st, "a10a1"));
    assert_true(is_legal(&st, "a10j10"));
    /* no castling: a king and rook on their start squares move as usual */
    setup(&st, "serbest", "K:e1 R:h1", "", 'w');
    assert_false(is_legal(&st, "e1g1"));
    assert_false(is_legal(&st, "e1c1"));
}

static void test_pawns(void **state)
{
    (void)state;
    struct serbest_state st;
    /* 1 or 2 squares in any orthogonal direction, never capturing so */
    setup(&st, "serbest", "P:e5", "", 'w');
    assert_int_equal(count_moves(&st), 8);
    assert_true(is_legal(&st, "e5e3"));
    assert_true(is_legal(&st, "e5c5"));
    /* the middle square must be empty for the 2-square move */
    setup(&st, "serbest", "P:e5 p:e6 p:d5", "", 'w');
    assert_false(is_legal(&st, "e5e6"));
    assert_false(is_legal(&st, "e5e7"));
    assert_false(is_legal(&st, "e5c5"));
    assert_int_equal(count_moves(&st), 4); /* e4 e3 f5 g5 */
    /* captures diagonally forward only; Subedei also backward */
    const char *targets = "p:d6 p:f6 p:d4 p:f4";
    char pieces[64];
    snprintf(pieces, sizeof pieces, "P:e5 %s", targets);
    setup(&st, "serbest", pieces, "", 'w');
    assert_true(is_legal(&st, "e5d6"));
    assert_true(is_legal(&st, "e5f6"));
    assert_false(is_legal(&st, "e5d4"));
    assert_false(is_legal(&st, "e5f4"));
    snprintf(pieces, sizeof pieces, "S:e5 %s", targets);
    setup(&st, "serbest", pieces, "", 'w');
    assert_true(is_legal(&st, "e5d4"));
    assert_true(is_legal(&st, "e5f4"));
    /* black's forward is down */
    setup(&st, "serbest", "p:e5 P:d6 P:f6 P:d4 P:f4", "", 'b');
    assert_true(is_legal(&st, "e5d4"));
    assert_true(is_legal(&st, "e5f4"));
    assert_false(is_legal(&st, "e5d6"));
    setup(&st, "serbest", "s:e5 P:d6 P:f6 P:d4 P:f4", "", 'b');
    assert_true(is_legal(&st, "e5d6"));
    /* no promotion: a pawn on the far rank stays a pawn and moves back */
    setup(&st, "serbest", "P:e9", "", 'w');
    play(&st, "e9e10");
    assert_int_equal(serbest_game.piece_at(&st, 4, 9), 'P');
    setup(&st, "serbest", "P:e10", "", 'w');
    assert_true(is_legal(&st, "e10e8"));
}

/* ---- drops ------------------------------------------------------------ */

static void test_drops(void **state)
{
    (void)state;
    struct serbest_state st;
    /* a drop goes on any empty square, never captures */
    setup(&st, "serbest", "p:e5", "N", 'w');
    assert_int_equal(count_moves(&st), 99);
    assert_false(is_legal(&st, "N@e5"));
    assert_true(is_legal(&st, "n@e4")); /* lowercase accepted on input */
    /* pawns may be dropped on any rank, even the far one */
    setup(&st, "serbest", "", "P", 'w');
    assert_true(is_legal(&st, "P@a10"));
    assert_true(is_legal(&st, "P@a1"));
    /* only pieces in hand */
    assert_false(is_legal(&st, "Q@a1"));
    /* captured pieces leave the game: they do not go to a hand */
    setup(&st, "serbest", "R:a1 n:a5", "", 'w');
    play(&st, "a1a5");
    char text[256];
    serbest_game.to_text(&st, text, sizeof text);
    assert_non_null(strstr(text, "[]"));
}

static void test_kings_landing(void **state)
{
    (void)state;
    struct serbest_state st;
    for (int kl = 1; kl <= 9; kl++) {
        char variant[64], sq[16];
        snprintf(variant, sizeof variant, "serbest(kings_landing=%d)", kl);
        setup(&st, variant, "", "K", 'w');
        assert_int_equal(count_moves(&st), 10 * kl);
        snprintf(sq, sizeof sq, "K@c%d", kl);
        assert_true(is_legal(&st, sq));
        snprintf(sq, sizeof sq, "K@c%d", kl + 1);
        assert_false(is_legal(&st, sq));
        /* black counts from its own side: ranks 11-KL..10 */
        setup(&st, variant, "", "k", 'b');
        assert_int_equal(count_moves(&st), 10 * kl);
        snprintf(sq, sizeof sq, "K@c%d", 11 - kl);
        assert_true(is_legal(&st, sq));
        snprintf(sq, sizeof sq, "K@c%d", 10 - kl);
        assert_false(is_legal(&st, sq));
    }
    /* a king is never dropped into check */
    setup(&st, "serbest", "r:a5", "K", 'w');
    assert_false(is_legal(&st, "K@a1"));
    assert_true(is_legal(&st, "K@b1"));
    assert_int_equal(count_moves(&st), 70 - 1 - 6 - 9); /* not a1-a7, b5-j5 */
}

/* With the black king on e8 and adjacent_drop_check=0 a dropped piece may
 * give check only from at least one square away. */
static void test_adjacent_drop_check(void **state)
{
    (void)state;
    struct serbest_state st;
    const char *pos = "k:e8";
    setup(&st, "serbest", pos, "QRBNPS", 'w');
    assert_false(is_legal(&st, "Q@e7")); /* checks from beside */
    assert_false(is_legal(&st, "Q@d7"));
    assert_true(is_legal(&st, "Q@e6")); /* checks from two squares away */
    assert_false(is_legal(&st, "R@e7"));
    assert_false(is_legal(&st, "R@f8"));
    assert_true(is_legal(&st, "R@d7")); /* beside it, but no check */
    assert_true(is_legal(&st, "R@e2")); /* check from a distance */
    assert_false(is_legal(&st, "B@d7"));
    assert_true(is_legal(&st, "B@e7"));
    assert_true(is_legal(&st, "N@d6")); /* a knight drop may check */
    assert_true(is_legal(&st, "N@f7"));
    assert_false(is_legal(&st, "P@d7")); /* a white pawn below attacks */
    assert_true(is_legal(&st, "P@d9")); /* above, it does not */
    assert_true(is_legal(&st, "P@e7"));
    assert_false(is_legal(&st, "S@d9")); /* Subedei attacks backward too */
    assert_false(is_legal(&st, "S@f7"));
    /* for black against the white king on e3 */
    setup(&st, "serbest", "K:e3", "qrbnps", 'b');
    assert_false(is_legal(&st, "P@d4")); /* a black pawn above attacks */
    assert_true(is_legal(&st, "P@d2"));
    assert_false(is_legal(&st, "Q@f2"));
    assert_true(is_legal(&st, "Q@e5"));
    assert_true(is_legal(&st, "R@d2"));
    assert_false(is_legal(&st, "R@e2"));
    /* adjacent_drop_check=1 allows all of these */
    setup(&st, "serbest(adjacent_drop_check=1)", pos, "QRBNPS", 'w');
    assert_true(is_legal(&st, "Q@e7"));
    assert_true(is_legal(&st, "R@e7"));
    assert_true(is_legal(&st, "P@d7"));
    assert_true(is_legal(&st, "S@d9"));
    /* a piece already on the board may check from beside the king */
    setup(&st, "serbest", "k:e8 Q:a7", "", 'w');
    assert_true(is_legal(&st, "a7e7"));
}

/* ---- check ------------------------------------------------------------ */

static void test_check_rules(void **state)
{
    (void)state;
    struct serbest_state st;
    /* a king not on the board cannot be in check; its owner still checks */
    setup(&st, "serbest", "r:e5 k:a10", "KR", 'w');
    assert_true(is_legal(&st, "R@a2")); /* check from a distance */
    assert_false(is_legal(&st, "K@e1")); /* on the rook's file */
    /* answering a check: king moves and drops between (interposing) */
    setup(&st, "serbest", "K:e1 r:e10", "N", 'w');
    assert_int_equal(count_moves(&st), 4 + 8);
    assert_int_equal(count_prefixed(&st, "N@"), 8);
    assert_true(is_legal(&st, "N@e5"));
    assert_false(is_legal(&st, "N@d5"));
    /* a check by a knight cannot be blocked by a drop */
    setup(&st, "serbest", "K:e1 n:d3", "R", 'w');
    assert_int_equal(count_prefixed(&st, "R@"), 0);
    /* a pinned piece stays on its line */
    setup(&st, "serbest", "K:e1 B:e3 r:e10", "", 'w');
    assert_int_equal(count_prefixed(&st, "e3"), 0);
    setup(&st, "serbest", "K:e1 R:e3 r:e10", "", 'w');
    assert_int_equal(count_prefixed(&st, "e3"), 8); /* e2, e4..e10 */
    /* double check: only the king moves */
    setup(&st, "serbest", "K:e1 r:e10 b:a5 R:h8", "NQ", 'w');
    assert_int_equal(count_prefixed(&st, "e1"), count_moves(&st));
    /* no move may leave the own king in check */
    setup(&st, "serbest", "K:e1 N:e2 r:e10", "", 'w');
    assert_int_equal(count_prefixed(&st, "e2"), 0);
}

static void test_khan(void **state)
{
    (void)state;
    struct serbest_state st;
    setup(&st, "serbest", "K:e9 k:a2", "", 'w');
    play(&st, "e9e10");
    expect_status(&st, GAME_WIN_SEAT0, REASON_KHAN);
    setup(&st, "serbest", "K:j9 k:e2", "", 'b');
    play(&st, "e2d1");
    expect_status(&st, GAME_WIN_SEAT1, REASON_KHAN);
    /* a king move onto the far rank into check is not legal */
    setup(&st, "serbest", "K:e9 r:a10", "", 'w');
    assert_false(is_legal(&st, "e9e10"));
    assert_false(is_legal(&st, "e9d10"));
    /* another piece reaching the far rank is just a move */
    setup(&st, "serbest", "R:e9 k:a2", "", 'w');
    play(&st, "e9e10");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    /* a bare king can still become Khan: no insufficient-material draw */
    setup(&st, "serbest", "K:e8 k:a2 q:j2", "", 'w');
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    /* a position text with a king on its far rank is a game already won */
    setup(&st, "serbest", "K:e10 k:a5", "", 'b');
    expect_status(&st, GAME_WIN_SEAT0, REASON_KHAN);
    assert_int_equal(count_moves(&st), 0);
}

static void test_checkmate(void **state)
{
    (void)state;
    struct serbest_state st;
    /* by a knight drop: the king on a10 is boxed in by its own pieces */
    const char *box = "k:a10 r:a9 b:b9 n:b10";
    setup(&st, "serbest", box, "N", 'w');
    play(&st, "N@c9");
    expect_status(&st, GAME_WIN_SEAT0, REASON_CHECKMATE);
    /* by a move */
    char pieces[64];
    snprintf(pieces, sizeof pieces, "%s N:e8", box);
    setup(&st, "serbest", pieces, "", 'w');
    play(&st, "e8c9");
    expect_status(&st, GAME_WIN_SEAT0, REASON_CHECKMATE);
    /* black mates white the same way, turned around */
    setup(&st, "serbest", "K:j1 R:j2 B:i2 N:i1", "n", 'b');
    play(&st, "N@h2");
    expect_status(&st, GAME_WIN_SEAT1, REASON_CHECKMATE);
    /* a check only an interposing drop can answer is no mate ... */
    setup(&st, "serbest", "k:a10 R:j9", "Rn", 'w');
    play(&st, "R@j10");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    assert_int_equal(count_moves(&st), 8);
    assert_int_equal(count_prefixed(&st, "N@"), 8);
    /* ... and without the knight in hand it is */
    setup(&st, "serbest", "k:a10 R:j9", "R", 'w');
    play(&st, "R@j10");
    expect_status(&st, GAME_WIN_SEAT0, REASON_CHECKMATE);
    /* a check that a drop can block is no mate */
    setup(&st, "serbest", "k:a10 p:a9 p:b9", "Rn", 'w');
    play(&st, "R@j10");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    assert_true(is_legal(&st, "N@e10"));
}

static void test_stalemate(void **state)
{
    (void)state;
    const struct { const char *variant; enum game_outcome outcome; } cases[] = {
        {"serbest", GAME_WIN_SEAT0}, /* loss for the stalemated black */
        {"serbest(stalemate=draw)", GAME_DRAW},
        {"serbest(stalemate=win)", GAME_WIN_SEAT1},
    };
    for (int i = 0; i < 3; i++) {
        struct serbest_state st;
        setup(&st, cases[i].variant, "k:a10 Q:d8", "", 'w');
        play(&st, "d8c9");
        expect_status(&st, cases[i].outcome, REASON_STALEMATE);
    }
    /* a side with no king on the board that cannot move or drop */
    struct serbest_state st;
    setup(&st, "serbest(stalemate=draw)", "p:a10 P:a9 P:b10 K:j1", "", 'b');
    expect_status(&st, GAME_DRAW, REASON_STALEMATE);
}

static void test_repetition_and_limits(void **state)
{
    (void)state;
    struct serbest_state st;
    setup(&st, "serbest", "K:a1 k:j10", "", 'w');
    play(&st, "a1b1 j10i10 b1a1 i10j10 a1b1 j10i10 b1a1");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    play(&st, "i10j10");
    expect_status(&st, GAME_DRAW, REASON_REPETITION);
    /* no capture and no drop for 2 x limit plies */
    setup(&st, "serbest(no_capture_limit=2)", "K:a1 k:j10", "N", 'w');
    play(&st, "a1a2 j10j9 a2a3");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    play(&st, "j9j8");
    expect_status(&st, GAME_DRAW, REASON_NO_CAPTURE);
    /* a drop starts the count again */
    setup(&st, "serbest(no_capture_limit=2)", "K:a1 k:j10", "N", 'w');
    play(&st, "a1a2 j10j9 N@e5 j9j8 a2a3 j8j7");
    expect_status(&st, GAME_ONGOING, REASON_NONE);
    play(&st, "a3a4");
    expect_status(&st, GAME_DRAW, REASON_NO_CAPTURE);
    /* max_plies */
    setup(&st, "serbest(max_plies=2)", "K:a1 k:j10", "", 'w');
    play(&st, "a1a2 j10j9");
    expect_status(&st, GAME_DRAW, REASON_PLY_CAP);
}

/* ---- text ------------------------------------------------------------- */

static void test_text(void **state)
{
    (void)state;
    struct variant v;
    struct serbest_state st, start;
    char err[256], out[256];
    variant_parse("serbest", &v, NULL, 0);
    const char *text =
        "10/10/10/10/10/10/10/10/10/10[KQRRBBNNPPPPPPSSkqrrbbnnppppppss] w";
    assert_int_equal(serbest_game.from_text(&st, &v, text, err, sizeof err), 0);
    serbest_game.init(&start, &v);
    assert_int_equal(serbest_game.hash(&st), serbest_game.hash(&start));
    serbest_game.to_text(&start, out, sizeof out);
    assert_string_equal(out, "10/10/10/10/10/10/10/10/10/10[KQRRBBNNPPPPPPSS"
                             "kqrrbbnnppppppss] w 0 0");
    move_t m;
    assert_int_equal(serbest_game.move_from_text(&st, "a10a9", &m), 0);
    serbest_game.move_to_text(&st, m, out, sizeof out);
    assert_string_equal(out, "a10a9");
    assert_int_equal(serbest_game.move_from_text(&st, "s@c3", &m), 0);
    serbest_game.move_to_text(&st, m, out, sizeof out);
    assert_string_equal(out, "S@c3");
    assert_int_equal(serbest_game.move_from_text(&st, "a11a9", &m), -1);
    assert_int_equal(serbest_game.move_from_text(&st, "X@c3", &m), -1);
    assert_int_equal(serbest_game.move_from_text(&st, "k1a2", &m), -1);
    struct { const char *text, *msg; } bad[] = {
        {"10/10/10/10/10/10/10/10/10[] w", "10 ranks"},
        {"10/10/10/10/10/10/10/10/10/9[] w", "10 ranks"},
        {"10/10/10/10/10/10/10/10/10/55X[] w", "unexpected 'X'"},
        {"10/10/10/10/10/10/10/10/10/10 w", "hands"},
        {"10/10/10/10/10/10/10/10/10/10[KK] w", "too many K"},
        {"QQ8/10/10/10/10/10/10/10/10/10[] w", "too many Q"},
        {"10/10/10/10/10/10/10/10/10/10[] x", "side to move"},
        {"10/10/10/10/10/10/10/10/10/10[] w 1 2 3", "unexpected text"},
        {"4k5/10/10/10/10/10/10/10/10/4R5[] w", "not to move is in check"},
        {"4K5/10/10/10/10/10/10/10/10/4k5[] w", "both kings"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        assert_int_equal(serbest_game.from_text(&st, &v, bad[i].text, err,
                                                sizeof err), -1);
        if (!strstr(err, bad[i].msg))
            fail_msg("'%s': error '%s', expected '%s'", bad[i].text, err,
                     bad[i].msg);
    }
}

/* Each side has exactly one king, on the board or in hand
 * (docs/rules.md#serbest-end-of-the-game: a king that is not on the board
 * may be dropped; a game ends at checkmate, so none is captured). A side
 * with no king at all was read as a stalemate win. */
static void test_position_needs_kings(void **state)
{
    (void)state;
    struct variant v;
    struct serbest_state st;
    char err[256];
    assert_int_equal(variant_parse("serbest", &v, err, sizeof err), 0);
    struct { const char *text, *msg; } bad[] = {
        {"10/10/10/10/10/10/10/10/10/10[] w", "white has no king"},
        {"10/10/10/10/10/10/10/10/10/10[] b", "white has no king"},
        {"10/10/10/10/10/4Q5/10/10/10/10[k] w", "white has no king"},
        {"10/10/10/10/10/10/10/10/10/10[K] w", "black has no king"},
        {"4K5/10/10/10/10/10/10/10/10/10[q] b", "black has no king"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        assert_int_equal(serbest_game.from_text(&st, &v, bad[i].text, err,
                                                sizeof err), -1);
        if (!strstr(err, bad[i].msg))
            fail_msg("'%s': error '%s', expected '%s'", bad[i].text, err,
                     bad[i].msg);
    }
    /* kings in hand, on the board, or one of each are all legal */
    const char *good[] = {
        "10/10/10/10/10/10/10/10/10/10[Kk] w",
        "k9/10/10/10/10/10/10/10/10/9K[] w",
        "10/10/10/10/10/4k5/10/10/10/10[KQ] b",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        if (serbest_game.from_text(&st, &v, good[i], err, sizeof err) != 0)
            fail_msg("'%s': %s", good[i], err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_perft_reference),
        cmocka_unit_test(test_fide_moves_on_10x10),
        cmocka_unit_test(test_pawns),
        cmocka_unit_test(test_drops),
        cmocka_unit_test(test_kings_landing),
        cmocka_unit_test(test_adjacent_drop_check),
        cmocka_unit_test(test_check_rules),
        cmocka_unit_test(test_khan),
        cmocka_unit_test(test_checkmate),
        cmocka_unit_test(test_stalemate),
        cmocka_unit_test(test_repetition_and_limits),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_position_needs_kings),
    };
    return cmocka_run_group_tests_name("serbest", tests, NULL, NULL);
}
