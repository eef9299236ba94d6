/*
 * test_serbest_games.c -- Serbest over many seeded random games:
 *  - differential: at every position of random games under kings_landing
 *    7, 8, 9, both values of adjacent_drop_check and the three stalemate
 *    values, the fast generator's moves, the board after a random move and
 *    the result of that move (winner and reason: khan, checkmate,
 *    stalemate) equal those of the naive reference in
 *    tests/ref/serbest_ref.c (written apart, from docs/rules.md#serbest
 *    alone, which plays every candidate and tests its own king), and so
 *    does the result of each game's final position; the test
 *    also counts how many positions had the king in check, in double check,
 *    a pinned piece and a king in hand, and requires each kind to occur;
 *  - after every move the incremental hash and piece lists equal a
 *    recomputation, the text round-trips, and every game ends with a reason
 *    (10,000 games).
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
#include "serbest.h"
#include "serbest_ref.h"

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Whether two sorted lists of move texts are the same. */
static int same_moves(char (*a)[8], int na, char (*b)[8], int nb)
{
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return 0;
    return 1;
}

struct kinds_seen {
    long positions, in_check, double_check, pinned, king_in_hand, mates;
    long results[REASON_COUNT]; /* endings the reference confirmed */
};

/* The winner the fast engine reports, as the reference writes it: 'w',
 * 'b', 'd' for a draw, 0 while the game goes on. */
static char fast_winner(const struct serbest_state *st)
{
    enum game_outcome o = serbest_game.status(st).outcome;
    if (o == GAME_ONGOING)
        return 0;
    if (o == GAME_DRAW)
        return 'd';
    return serbest_game.seat_side(st, o == GAME_WIN_SEAT0 ? 0 : 1)[0];
}

/* The fast engine's result for st equals the reference's for text (the
 * same position): same reason (by its name in docs/rules.md#conventions)
 * and winner; where the reference sees no end, the engine may only have
 * ended the game by a rule that needs history (repetition, no-capture
 * limit, ply cap). */
static void compare_result(const struct serbest_state *st, const char *text,
                           const serbest_ref_params *p, const char *what,
                           struct kinds_seen *seen)
{
    serbest_ref_result want;
    if (serbest_ref_result_of(text, p, &want) != 0)
        fail_msg("%s: the reference cannot read %s", what, text);
    enum end_reason why = serbest_game.status(st).reason;
    char winner = fast_winner(st);
    if (want.over) {
        if (strcmp(end_reason_name(why), want.reason) != 0
            || winner != want.winner)
            fail_msg("%s: fast ends with %s (winner %c), reference %s "
                     "(winner %c)", what, end_reason_name(why),
                     winner ? winner : '-', want.reason, want.winner);
        seen->results[why]++;
    } else if (why != REASON_NONE && why != REASON_REPETITION
               && why != REASON_NO_CAPTURE && why != REASON_PLY_CAP) {
        fail_msg("%s: fast ends with %s, the reference sees no end", what,
                 end_reason_name(why));
    }
}

/* Counts the enemy pieces giving check: each is tested alone, the others
 * replaced by blockers of the king's own colour (which attack nothing). */
static int count_checkers(const struct serbest_state *s)
{
    int us = s->head.side, them = us ^ 1, ksq = s->king_sq[us], count = 0;
    if (!ksq)
        return 0;
    for (int i = 0; i < s->pieces[them].count; i++) {
        struct serbest_state copy = *s;
        for (int j = 0; j < s->pieces[them].count; j++)
            if (j != i)
                copy.board[s->pieces[them].sq[j]] =
                    SERBEST_PIECE(SERBEST_PAWN, us);
        count += serbest_attacked(&copy, ksq, them, 0);
    }
    return count;
}

/* Whether some piece of the side to move is pinned: lifting it off the
 * board would expose the king. */
static int has_pinned_piece(const struct serbest_state *s)
{
    int us = s->head.side, ksq = s->king_sq[us];
    if (!ksq || serbest_in_check(s, us))
        return 0;
    for (int i = 0; i < s->pieces[us].count; i++) {
        int sq = s->pieces[us].sq[i];
        if (sq == ksq)
            continue;
        struct serbest_state copy = *s;
        copy.board[sq] = SERBEST_EMPTY;
        if (serbest_in_check(&copy, us))
            return 1;
    }
    return 0;
}

static void note_kinds(const struct serbest_state *s, struct kinds_seen *seen)
{
    int checkers = count_checkers(s);
    seen->positions++;
    seen->in_check += checkers > 0;
    seen->double_check += checkers > 1;
    seen->pinned += has_pinned_piece(s);
    seen->king_in_hand += s->hand[s->head.side][SERBEST_KING] > 0;
}

/* Compares board, hands and side (the first two fields). */
static int same_position(const char *a, const char *b)
{
    size_t la = strcspn(a, " "), lb = strcspn(b, " ");
    return la == lb && strncmp(a, b, la + 2) == 0;
}

static void compare_position(const struct variant *v,
                             const serbest_ref_params *p,
                             const struct serbest_state *st, struct rng *r,
                             struct kinds_seen *seen)
{
    static char fast[GAME_MAX_MOVES][8], ref[SERBEST_REF_MAX_MOVES][8];
    char text[256], err[256], after[256], ref_after[256];
    serbest_game.to_text(st, text, sizeof text);
    struct serbest_state fresh;
    if (serbest_game.from_text(&fresh, v, text, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    move_t moves[GAME_MAX_MOVES];
    /* The generator alone, whatever the status (as the reference lists). */
    game_set_ongoing(&fresh.head);
    int nf = serbest_legal_moves(&fresh, moves);
    for (int i = 0; i < nf; i++)
        serbest_game.move_to_text(&fresh, moves[i], fast[i], 8);
    qsort(fast, (size_t)nf, 8, cmp_text);
    int nr = serbest_ref_moves(text, p, ref, SERBEST_REF_MAX_MOVES);
    if (!same_moves(fast, nf, ref, nr)) {
        for (int i = 0, j = 0; i < nf || j < nr;) {
            int c = i == nf ? 1 : j == nr ? -1 : strcmp(fast[i], ref[j]);
            if (c < 0)
                print_message("  only fast: %s\n", fast[i++]);
            else if (c > 0)
                print_message("  only reference: %s\n", ref[j++]);
            else
                i++, j++;
        }
        fail_msg("%s: fast has %d moves, reference %d", text, nf, nr);
    }
    /* The early-exit test that settles mate and stalemate agrees too. */
    assert_int_equal(serbest_has_legal_move(&fresh), nf > 0);
    if (nf == 0)
        return;
    int pick = (int)rng_below(r, (uint32_t)nf);
    move_t m;
    serbest_game.move_from_text(&fresh, fast[pick], &m);
    serbest_game.apply(&fresh, m);
    serbest_game.to_text(&fresh, after, sizeof after);
    /* the move is in the reference's list (the lists are equal), so the
     * reference may play it without generating the list again */
    assert_int_equal(serbest_ref_make_move(text, fast[pick], ref_after,
                                           sizeof ref_after), 0);
    if (!same_position(after, ref_after))
        fail_msg("%s + %s: fast %s, reference %s", text, fast[pick], after,
                 ref_after);
    char what[300];
    snprintf(what, sizeof what, "%s + %s", text, fast[pick]);
    compare_result(&fresh, ref_after, p, what, seen);
}

/* A game that ended in mate or stalemate has no moves for the reference
 * either; one that ended otherwise had some; and the reference judges the
 * final position (reached with the game's history) as the engine did. */
static void check_final_position(const struct serbest_state *st,
                                 const serbest_ref_params *p,
                                 struct kinds_seen *seen)
{
    static char ref[SERBEST_REF_MAX_MOVES][8];
    char text[256];
    serbest_game.to_text(st, text, sizeof text);
    compare_result(st, text, p, "final position", seen);
    enum end_reason why = serbest_game.status(st).reason;
    int nr = serbest_ref_moves(text, p, ref, SERBEST_REF_MAX_MOVES);
    int no_moves = why == REASON_CHECKMATE || why == REASON_STALEMATE;
    if (no_moves != (nr == 0) && why != REASON_KHAN)
        fail_msg("%s ended by %s, reference has %d moves", text,
                 end_reason_name(why), nr);
    if (no_moves) {
        assert_int_equal(serbest_ref_in_check(text), why == REASON_CHECKMATE);
        assert_int_equal(serbest_has_legal_move(st), 0);
        seen->mates += why == REASON_CHECKMATE;
    }
}

static void test_differential_against_reference(void **state)
{
    (void)state;
    struct kinds_seen seen = {0};
    /* stalemate: 0 loss, 1 draw, 2 win (each twice over the settings) */
    const char *stalemate_names[] = {"loss", "draw", "win"};
    for (int setting = 0; setting < 6; setting++) {
        int kl = 7 + setting / 2, adjacent = setting % 2;
        int stalemate = setting % 3;
        char text[128];
        snprintf(text, sizeof text,
                 "serbest(kings_landing=%d,adjacent_drop_check=%d,"
                 "stalemate=%s)", kl, adjacent, stalemate_names[stalemate]);
        struct variant v;
        variant_parse(text, &v, NULL, 0);
        serbest_ref_params p = {kl, adjacent, stalemate};
        long before = seen.positions;
        for (uint64_t game = 0; seen.positions - before < 17000; game++) {
            struct serbest_state st;
            struct rng r;
            rng_seed(&r, game * 6 + (uint64_t)setting);
            serbest_game.init(&st, &v);
            move_t moves[GAME_MAX_MOVES];
            int n;
            while ((n = serbest_game.legal_moves(&st, moves)) > 0) {
                note_kinds(&st, &seen);
                compare_position(&v, &p, &st, &r, &seen);
                serbest_game.apply(&st, moves[rng_below(&r, (uint32_t)n)]);
            }
            check_final_position(&st, &p, &seen);
        }
    }
    print_message("differential: %ld positions agree (%ld in check, %ld in "
                  "double check, %ld with a pinned piece, %ld with the king "
                  "in hand; %ld games ended in mate); endings confirmed by "
                  "the reference: khan %ld, checkmate %ld, stalemate %ld\n",
                  seen.positions, seen.in_check, seen.double_check,
                  seen.pinned, seen.king_in_hand, seen.mates,
                  seen.results[REASON_KHAN], seen.results[REASON_CHECKMATE],
                  seen.results[REASON_STALEMATE]);
    assert_true(seen.positions >= 100000);
    assert_true(seen.in_check > 1000);
    assert_true(seen.double_check > 10);
    assert_true(seen.pinned > 1000);
    assert_true(seen.king_in_hand > 1000);
    assert_true(seen.mates > 10);
    assert_true(seen.results[REASON_KHAN] > 0);
    assert_true(seen.results[REASON_CHECKMATE] > 0);
}

/* Endings random play rarely reaches (a stalemate under each value of
 * the parameter), and one of each other kind, judged by both: the hand
 * positions of test_serbest.c, where the fast engine's results were worked
 * out by hand. */
static void test_reference_endings(void **state)
{
    (void)state;
    const char *stalemate_names[] = {"loss", "draw", "win"};
    const struct { const char *fen, *move; } cases[] = {
        /* the queen leaves the black king on a10 no move: stalemate */
        {"k9/10/3Q6/10/10/10/10/10/10/10[] w", "d8c9"},
        /* black, no king on the board, nothing to move or drop */
        {"pP8/P9/10/10/10/10/10/10/10/9K[] b", NULL},
        /* mate by a knight drop */
        {"kn8/rb8/10/10/10/10/10/10/10/10[N] w", "N@c9"},
        /* Khan */
        {"10/4K5/10/10/10/k9/10/10/10/10[] w", "e9e10"},
        /* a check that a drop can block is no mate */
        {"k9/pp8/10/10/10/10/10/10/10/10[Rn] w", "R@j10"},
    };
    struct kinds_seen seen = {0};
    for (int stalemate = 0; stalemate < 3; stalemate++) {
        char text[128];
        snprintf(text, sizeof text, "serbest(stalemate=%s)",
                 stalemate_names[stalemate]);
        struct variant v;
        variant_parse(text, &v, NULL, 0);
        serbest_ref_params p = {7, 0, stalemate};
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            struct serbest_state st;
            char err[256], after[256];
            /* fragments: some of these positions lack a king */
            if (serbest_from_text_fragment(&st, &v, cases[i].fen, err,
                                           sizeof err) != 0)
                fail_msg("%s: %s", cases[i].fen, err);
            if (cases[i].move) {
                move_t m;
                assert_int_equal(
                    serbest_game.move_from_text(&st, cases[i].move, &m), 0);
                serbest_game.apply(&st, m);
                assert_int_equal(serbest_ref_apply(cases[i].fen, &p,
                                                   cases[i].move, after,
                                                   sizeof after), 0);
            } else {
                snprintf(after, sizeof after, "%s", cases[i].fen);
            }
            compare_result(&st, after, &p, cases[i].fen, &seen);
        }
    }
    assert_int_equal(seen.results[REASON_STALEMATE], 6);
    assert_int_equal(seen.results[REASON_CHECKMATE], 3);
    assert_int_equal(seen.results[REASON_KHAN], 3);
}

static void check_round_trip(const struct variant *v,
                             const struct serbest_state *st)
{
    char text[256], again[256], err[256];
    struct serbest_state copy;
    serbest_game.to_text(st, text, sizeof text);
    if (serbest_game.from_text(&copy, v, text, err, sizeof err) != 0)
        fail_msg("'%s' does not read back: %s", text, err);
    serbest_game.to_text(&copy, again, sizeof again);
    assert_string_equal(text, again);
    assert_int_equal(serbest_game.hash(&copy), serbest_game.hash(st));
}

static void test_random_games_consistent(void **state)
{
    (void)state;
    const char *variants[] = {"serbest", "serbest(kings_landing=9)",
                              "serbest(stalemate=draw,no_capture_limit=5)",
                              "serbest(adjacent_drop_check=1)"};
    int reasons[REASON_COUNT] = {0};
    for (int game = 0; game < 10000; game++) {
        struct variant v;
        variant_parse(variants[game % 4], &v, NULL, 0);
        struct serbest_state st;
        struct rng r;
        rng_seed(&r, (uint64_t)game + 1000000);
        serbest_game.init(&st, &v);
        move_t moves[GAME_MAX_MOVES];
        int n;
        while ((n = serbest_game.legal_moves(&st, moves)) > 0) {
            assert_true(n <= serbest_game.max_moves);
            serbest_game.apply(&st, moves[rng_below(&r, (uint32_t)n)]);
            if (!serbest_game.state_ok(&st))
                fail_msg("game %d ply %u: state inconsistent", game, st.ply);
            if (game % 10 == 0)
                check_round_trip(&v, &st);
        }
        struct game_status s = serbest_game.status(&st);
        assert_int_not_equal(s.outcome, GAME_ONGOING);
        assert_int_not_equal(s.reason, REASON_NONE);
        reasons[s.reason]++;
    }
    assert_true(reasons[REASON_KHAN] > 0);
    assert_true(reasons[REASON_CHECKMATE] > 0);
    assert_true(reasons[REASON_NO_CAPTURE] > 0);
    assert_true(reasons[REASON_PLY_CAP] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_endings),
        cmocka_unit_test(test_differential_against_reference),
        cmocka_unit_test(test_random_games_consistent),
    };
    return cmocka_run_group_tests_name("serbest_games", tests, NULL, NULL);
}
