/*
 * test_shared.c -- the core modules the three games share, tested on their
 * own: notation (squares, the board field both ways, move text), the
 * piece lists against a naive set, the history ring against a naive count
 * of repetitions, and struct game_head's seat mapping, results and the
 * order of the draws by count, and the growable text against a naive
 * concatenation. The games' own suites test the same code
 * through each game's rules; this suite pins the contracts in the headers.
 * Expected values are derived by hand in the comments, or computed by the
 * naive versions here.
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
#include "notation.h"
#include "piece_list.h"
#include "rng.h"
#include "text_buffer.h"

/* tafl's mailbox: (rank + 1) * 11 + file + 1; a 10x10 board without one. */
static const struct board_geometry tafl_like = {9, 9, 11, 12};
static const struct board_geometry plain10 = {10, 10, 10, 0};

static int read_square(const char *text, const struct board_geometry *g,
                       const char **rest)
{
    const char *p = text;
    int sq = notation_read_square(&p, g);
    *rest = p;
    return sq;
}

static void test_squares(void **state)
{
    (void)state;
    const char *rest;
    /* e5 on tafl's mailbox: (4 + 1) * 11 + 4 + 1 = 60 */
    assert_int_equal(read_square("e5", &tafl_like, &rest), 60);
    assert_string_equal(rest, "");
    /* a1 = 12, i9 = 9 * 11 + 9 = 108: the corners of the mailbox board */
    assert_int_equal(read_square("a1", &tafl_like, &rest), 12);
    assert_int_equal(read_square("i9e5", &tafl_like, &rest), 108);
    assert_string_equal(rest, "e5");
    /* j10 on a plain 10x10 board: 9 * 10 + 9 = 99; a10 = 90 */
    assert_int_equal(read_square("j10", &plain10, &rest), 99);
    assert_int_equal(read_square("a10^b9", &plain10, &rest), 90);
    assert_string_equal(rest, "^b9");
    /* Not squares: off the board, a leading zero, a third digit, rank 0. */
    static const char *const bad9[] = {"j1", "e10", "e0", "e05", "E5", "e",
                                       ""};
    for (size_t i = 0; i < sizeof bad9 / sizeof bad9[0]; i++) {
        assert_int_equal(read_square(bad9[i], &tafl_like, &rest), -1);
        assert_ptr_equal(rest, bad9[i]);
    }
    static const char *const bad10[] = {"k1", "a11", "a100", "a01", "a0"};
    for (size_t i = 0; i < sizeof bad10 / sizeof bad10[0]; i++)
        assert_int_equal(read_square(bad10[i], &plain10, &rest), -1);
    /* Names back: every square of both boards reads as it is written. */
    const struct board_geometry *boards[2] = {&tafl_like, &plain10};
    for (int b = 0; b < 2; b++) {
        const struct board_geometry *g = boards[b];
        for (int rank = 0; rank < g->ranks; rank++)
            for (int file = 0; file < g->files; file++) {
                int sq = g->origin + rank * g->stride + file;
                char name[4];
                int len = notation_square_name(g, sq, name);
                assert_int_equal(len, rank == 9 ? 3 : 2);
                assert_int_equal(name[0], 'a' + file);
                assert_int_equal(read_square(name, g, &rest), sq);
            }
    }
}

static void test_move_text(void **state)
{
    (void)state;
    char buf[16];
    /* a1 -> e5 on tafl's board (squares 12 and 60, as above) */
    assert_int_equal(notation_move_text(&tafl_like, 12, "", 60, buf,
                                        sizeof buf), 4);
    assert_string_equal(buf, "a1e5");
    /* a drop: no from square; an escape: "^" between */
    assert_int_equal(notation_move_text(&plain10, -1, "K@", 99, buf,
                                        sizeof buf), 5);
    assert_string_equal(buf, "K@j10");
    assert_int_equal(notation_move_text(&plain10, 90, "^", 4, buf, sizeof buf),
                     6);
    assert_string_equal(buf, "a10^e1");
    /* "a10^e1" needs 7 bytes with its NUL */
    assert_int_equal(notation_move_text(&plain10, 90, "^", 4, buf, 6), -1);
    assert_int_equal(notation_move_text(&plain10, 90, "^", 4, buf, 7), 6);
}

/* A board for the board-field tests: letters in a files x ranks grid,
 * row 0 the top rank, '.' empty. */
struct grid {
    int files, ranks;
    char cell[10][11];
};

static char grid_piece_at(const void *st, int file, int rank)
{
    const struct grid *g = st;
    return g->cell[g->ranks - 1 - rank][file];
}

static int grid_put(void *ctx, char c, int file, int rank, char *err,
                    size_t errsz)
{
    struct grid *g = ctx;
    if (c == 'x')
        return game_error(err, errsz, "test position: no x on %c%d",
                          'a' + file, rank + 1);
    g->cell[g->ranks - 1 - rank][file] = c;
    return 0;
}

static void test_board_field(void **state)
{
    (void)state;
    struct grid g = {10, 3, {"K........k", "..........", ".Q.......x"}};
    char text[128], err[128];
    /* By hand: "K8k" on top, "10" in the middle, "1Q7x" at the bottom. */
    int len = notation_write_board(text, &g, grid_piece_at, 10, 3);
    assert_string_equal(text, "K8k/10/1Q7x");
    assert_int_equal(len, (int)strlen("K8k/10/1Q7x"));

    static const struct board_format format = {
        "test", 10, 3, "KQkqx", "pieces are K Q k q", " ["};
    struct grid back = {10, 3, {"..........", "..........", ".........."}};
    const char *rest = notation_read_board("K8k/10/1Q7q [", &format, grid_put,
                                           &back, err, sizeof err);
    assert_non_null(rest);
    assert_string_equal(rest, " [");
    assert_string_equal(back.cell[0], "K........k");
    assert_string_equal(back.cell[2], ".Q.......q");

    static const struct {
        const char *text, *error;
    } bad[] = {
        {"K8k/10/1Q7x", "test position: no x on j1"},
        {"K8k/9/10", "test position: rank 2 does not have 10 squares"},
        {"K8k/10/10/10", "test position: more than 3 ranks"},
        {"K9k/10/10", "test position: rank 3 has more than 10 squares"},
        {"K8k/10/1R8", "test position: unexpected 'R' (pieces are K Q k q)"},
        {"K8k/10/0", "test position: unexpected '0' (pieces are K Q k q)"},
        {"K8k/10", "test position: the board needs 3 ranks of 10 squares, "
                   "separated by '/'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_null(notation_read_board(bad[i].text, &format, grid_put, &back,
                                        err, sizeof err));
        assert_string_equal(err, bad[i].error);
    }
}

static void test_letters_and_copy(void **state)
{
    (void)state;
    assert_int_equal(notation_letter_index("CPFDAWTN", 'w'), 5);
    assert_int_equal(notation_letter_index("CPFDAWTN", 'W'), 5);
    assert_int_equal(notation_letter_index("CPFDAWTN", 'x'), -1);
    assert_int_equal(notation_letter_index("CPFDAWTN", '\0'), -1);
    char buf[4];
    assert_int_equal(notation_copy_out("abc", 3, buf, sizeof buf), 3);
    assert_string_equal(buf, "abc");
    assert_int_equal(notation_copy_out("abcd", 4, buf, sizeof buf), -1);
}

/* Random puts, removes and moves on 40 squares, checked after each step
 * against a naive set: the list holds exactly the occupied squares, each
 * at its recorded slot. */
static void test_piece_list(void **state)
{
    (void)state;
    struct piece_list list = {0};
    uint8_t slot[40];
    int occupied[40] = {0};
    struct rng r;
    rng_seed(&r, 7);
    for (int step = 0; step < 20000; step++) {
        int sq = (int)rng_below(&r, 40), to = (int)rng_below(&r, 40);
        if (!occupied[sq] && list.count < PIECE_LIST_MAX) {
            piece_list_add(&list, slot, sq);
            occupied[sq] = 1;
        } else if (occupied[sq] && !occupied[to] && rng_below(&r, 2)) {
            piece_list_move(&list, slot, sq, to);
            occupied[sq] = 0, occupied[to] = 1;
        } else if (occupied[sq]) {
            piece_list_remove(&list, slot, sq);
            occupied[sq] = 0;
        }
        int count = 0;
        for (int s = 0; s < 40; s++) {
            count += occupied[s];
            assert_int_equal(occupied[s] ? piece_list_holds(&list, slot, s)
                                         : 0, occupied[s]);
        }
        assert_int_equal(list.count, count);
    }
}

/* The history ring against a naive count over every position since the
 * last irreversible move, the side to move the same (even distance), over
 * a random walk among 6 positions with an occasional capture, and over a
 * stretch longer than the ring (where positions beyond 256 plies back are
 * no longer compared). In the first walk the positions' hashes are small
 * numbers, which share one filter bit, so the ring is read at every ply;
 * in the second they are random 64-bit numbers, most of them new, so the
 * filter answers most plies, and must not miss a repetition. */
static void test_history(void **state)
{
    (void)state;
    static struct history h;
    static uint64_t seen[2000];
    for (int walk = 0; walk < 2; walk++) {
        struct rng r;
        rng_seed(&r, 11 + (uint64_t)walk);
        uint64_t pool[6];
        for (int i = 0; i < 6; i++)
            pool[i] = walk ? rng_next(&r) : 100 + (uint64_t)i;
        int start = 0, repeated = 0;
        seen[0] = pool[0];
        h.quiet_plies = 3;
        history_start(&h, seen[0]);
        for (int i = 1; i < 2000; i++) {
            int capture = i < 1000 && rng_below(&r, 20) == 0;
            seen[i] = capture ? 1000 + (uint64_t)i
                      : walk && rng_below(&r, 2) ? rng_next(&r)
                                                 : pool[rng_below(&r, 6)];
            history_push(&h, seen[i], capture);
            if (capture)
                start = i;
            int naive = 1;
            for (int j = i - 2; j >= start && i - j < HISTORY_PLIES; j -= 2)
                naive += seen[j] == seen[i];
            assert_int_equal(history_repetitions(&h, seen[i]), naive);
            repeated += naive > 1;
            int quiet = i - start + (start == 0 ? 3 : 0);
            assert_int_equal(h.quiet_plies, quiet > UINT16_MAX ? UINT16_MAX
                                                               : quiet);
        }
        assert_true(repeated > 500);
    }
}

static void test_game_head(void **state)
{
    (void)state;
    struct game_head h = {0};
    h.first = 1; /* side 1 moves first, so it plays seat 0 */
    h.side = 1;
    assert_int_equal(game_head_to_move(&h), 0);
    h.side = 0;
    assert_int_equal(game_head_to_move(&h), 1);
    game_set_result(&h, 1, REASON_KING_ESCAPED);
    assert_int_equal(game_head_status(&h).outcome, GAME_WIN_SEAT0);
    assert_int_equal(game_head_status(&h).reason, REASON_KING_ESCAPED);
    game_set_result(&h, 0, REASON_KING_CAPTURED);
    assert_int_equal(game_head_status(&h).outcome, GAME_WIN_SEAT1);
    game_set_result(&h, -1, REASON_REPETITION);
    assert_int_equal(game_head_status(&h).outcome, GAME_DRAW);
    game_set_ongoing(&h);
    assert_int_equal(game_head_status(&h).outcome, GAME_ONGOING);
    assert_int_equal(game_head_status(&h).reason, REASON_NONE);
    static const char *const names[2] = {"attackers", "defenders"};
    assert_string_equal(game_head_side_name(&h, 0, names), "defenders");
    h.hash = 0x1234;
    assert_int_equal(game_head_hash(&h), 0x1234);

    /* The draws by count, in the order of
     * docs/rules.md#tafl-end-of-the-game: repetition before the no-capture
     * limit (50 moves a player: 100 plies) before the ply cap; a limit of 0
     * is no limit. */
    assert_int_equal(game_count_draw(3, 100, 50, 500, 500), REASON_REPETITION);
    assert_int_equal(game_count_draw(2, 100, 50, 500, 500), REASON_NO_CAPTURE);
    assert_int_equal(game_count_draw(2, 99, 50, 500, 500), REASON_PLY_CAP);
    assert_int_equal(game_count_draw(2, 100, 0, 499, 500), REASON_NONE);
    assert_int_equal(game_count_draw(0, 0, 0, 100000, 0), REASON_NONE);
}

/* text_buffer: 1,000 appends of pieces 0 to 12 bytes long (past the first
 * 256 bytes, so the storage grows several times), each checked against
 * the same text concatenated into a fixed array, with cuts back to an
 * earlier length every 97th step, as ext.c does after each turn. */
static void test_text_buffer(void **state)
{
    (void)state;
    struct text_buffer b = {0};
    text_buffer_truncate(&b, 0); /* no storage yet: nothing to cut */
    assert_null(b.s);
    static char naive[16384];
    size_t len = 0;
    uint64_t r = 5;
    for (int i = 0; i < 1000; i++) {
        char piece[16];
        size_t n = (size_t)(rng_splitmix64(&r) % 13);
        for (size_t k = 0; k < n; k++)
            piece[k] = (char)('a' + (i + (int)k) % 26);
        piece[n] = '\0';
        assert_int_equal(text_buffer_append(&b, piece), 0);
        memcpy(naive + len, piece, n + 1);
        len += n;
        if (i % 97 == 96) {
            len /= 2;
            naive[len] = '\0';
            text_buffer_truncate(&b, len);
        }
        assert_int_equal(b.len, len);
        assert_string_equal(b.s, naive);
        assert_true(b.cap > b.len);
    }
    free(b.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_squares),
        cmocka_unit_test(test_move_text),
        cmocka_unit_test(test_board_field),
        cmocka_unit_test(test_letters_and_copy),
        cmocka_unit_test(test_piece_list),
        cmocka_unit_test(test_history),
        cmocka_unit_test(test_game_head),
        cmocka_unit_test(test_text_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
