/*
 * test_tafl_games.c -- tafl over many seeded random games:
 *  - after every move the incremental hash and piece lists equal the ones
 *    recomputed from scratch, the position text round-trips, and every game
 *    ends with a reason (10,000 games);
 *  - differential: the fast generator and apply agree with the naive
 *    reference in tests/ref/tafl_ref.c (written apart, from
 *    docs/rules.md#hnefatafl-9x9-tafl alone) on every position of random
 *    games under all 64 combinations of the capture and movement
 *    parameters, and again with king_throne=barred and throne_hostile=2
 *    (Ludii's Tablut), and under the exact preset;
 *  - tafl_quiet_move_draws against apply() on every move that takes
 *    nothing, in games whose sides often undo their last move, so that
 *    positions repeat.
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
#include "tafl.h"
#include "tafl_ref.h"

static void check_round_trip(const struct variant *v,
                             const struct tafl_state *st)
{
    char text[128], again[128], err[256];
    struct tafl_state copy;
    tafl_game.to_text(st, text, sizeof text);
    if (tafl_game.from_text(&copy, v, text, err, sizeof err) != 0)
        fail_msg("'%s' does not read back: %s", text, err);
    tafl_game.to_text(&copy, again, sizeof again);
    assert_string_equal(text, again);
    assert_int_equal(tafl_game.hash(&copy), tafl_game.hash(st));
}

static void test_random_games_consistent(void **state)
{
    (void)state;
    const char *variants[] = {"tafl", "tafl(first=defenders)",
                              "tafl(repetition_limit=1,no_capture_limit=10)",
                              "tafl(king_armed=1,throne_hostile=1)",
                              "tafl(escape=edge,king_capture=custodial)"};
    int reasons[REASON_COUNT] = {0};
    for (int game = 0; game < 10000; game++) {
        struct variant v;
        variant_parse(variants[game % 5], &v, NULL, 0);
        struct tafl_state st;
        struct rng r;
        rng_seed(&r, (uint64_t)game);
        tafl_game.init(&st, &v);
        move_t moves[GAME_MAX_MOVES];
        int n;
        while ((n = tafl_game.legal_moves(&st, moves)) > 0) {
            assert_true(n <= tafl_game.max_moves);
            tafl_game.apply(&st, moves[rng_below(&r, (uint32_t)n)]);
            if (!tafl_game.state_ok(&st))
                fail_msg("game %d ply %u: state inconsistent", game, st.ply);
            if (game % 10 == 0)
                check_round_trip(&v, &st);
        }
        struct game_status s = tafl_game.status(&st);
        assert_int_not_equal(s.outcome, GAME_ONGOING);
        assert_int_not_equal(s.reason, REASON_NONE);
        reasons[s.reason]++;
    }
    /* Random play reaches the endings; threefold repetition is too rare in
     * random play, and test_tafl.c plays one by hand. */
    assert_true(reasons[REASON_KING_ESCAPED] > 0);
    assert_true(reasons[REASON_KING_CAPTURED] > 0);
    assert_true(reasons[REASON_NO_CAPTURE] > 0);
    assert_true(reasons[REASON_PLY_CAP] > 0);
}

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

/* The fast engine's moves for text (read fresh, so no shuttle history),
 * as sorted text. */
static int fast_moves(const struct variant *v, const char *text,
                      char out[][8])
{
    struct tafl_state st;
    char err[256];
    if (tafl_game.from_text(&st, v, text, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    move_t moves[GAME_MAX_MOVES];
    int n = tafl_game.legal_moves(&st, moves);
    for (int i = 0; i < n; i++)
        tafl_game.move_to_text(&st, moves[i], out[i], 8);
    qsort(out, (size_t)n, 8, cmp_text);
    return n;
}

/* Compares board and side (the first two fields) of two position texts. */
static int same_board(const char *a, const char *b)
{
    size_t la = strcspn(a, " "), lb = strcspn(b, " ");
    return la == lb && strncmp(a, b, la + 2) == 0;
}

/* Plays one random game under v, comparing with the reference at every
 * position. Returns the number of positions compared. */
static int differential_game(const struct variant *v, const tafl_ref_params *p,
                             uint64_t seed)
{
    static char fast[GAME_MAX_MOVES][8], ref[TAFL_REF_MAX_MOVES][8];
    struct tafl_state st;
    struct rng r;
    rng_seed(&r, seed);
    tafl_game.init(&st, v);
    int positions = 0;
    while (tafl_game.status(&st).outcome == GAME_ONGOING) {
        char text[128], after[128], ref_after[128], err[256];
        tafl_game.to_text(&st, text, sizeof text);
        int nf = fast_moves(v, text, fast);
        int nr = tafl_ref_moves(text, p, ref, TAFL_REF_MAX_MOVES);
        if (!same_moves(fast, nf, ref, nr))
            fail_msg("%s: fast has %d moves, reference %d", text, nf, nr);
        positions++;
        /* Play a random move from a fresh copy, so both sides know the same
         * history (none), and compare the results. */
        struct tafl_state fresh;
        tafl_game.from_text(&fresh, v, text, err, sizeof err);
        move_t m;
        const char *mt = fast[rng_below(&r, (uint32_t)nf)];
        tafl_game.move_from_text(&fresh, mt, &m);
        tafl_game.apply(&fresh, m);
        tafl_game.to_text(&fresh, after, sizeof after);
        int result = -1;
        assert_int_equal(tafl_ref_apply(text, p, mt, ref_after,
                                        sizeof ref_after, &result), 0);
        if (!same_board(after, ref_after))
            fail_msg("%s + %s: fast %s, reference %s", text, mt, after,
                     ref_after);
        enum end_reason why = tafl_game.status(&fresh).reason;
        enum end_reason expected[] = {REASON_NONE, REASON_KING_ESCAPED,
                                      REASON_KING_CAPTURED, REASON_NO_MOVES};
        if (result == 0 ? (why != REASON_NONE && why != REASON_NO_CAPTURE
                           && why != REASON_PLY_CAP)
                        : why != expected[result])
            fail_msg("%s + %s: fast ends with %s, reference result %d", text,
                     mt, end_reason_name(why), result);
        /* Go on in the real game (with its history). */
        tafl_game.apply(&st, m);
    }
    return positions;
}

static void test_differential_against_reference(void **state)
{
    (void)state;
    long positions = 0;
    for (int combo = 0; combo < 64; combo++) {
        char text[256];
        snprintf(text, sizeof text,
                 "tafl(throne_passable=%d,throne_hostile=%d,king_armed=%d,"
                 "edge_captures_king=%d,king_capture=%s,escape=%s,"
                 "first=%s)",
                 combo & 1, (combo >> 1) & 1, (combo >> 2) & 1,
                 (combo >> 3) & 1, (combo >> 4) & 1 ? "custodial" : "surround",
                 (combo >> 5) & 1 ? "edge" : "corner",
                 combo % 3 == 0 ? "defenders" : "attackers");
        struct variant v;
        char err[256];
        if (variant_parse(text, &v, err, sizeof err) != 0)
            fail_msg("%s", err);
        tafl_ref_params p;
        tafl_ref_defaults(&p);
        p.throne_passable = combo & 1;
        p.throne_hostile = (combo >> 1) & 1;
        p.king_armed = (combo >> 2) & 1;
        p.edge_captures_king = (combo >> 3) & 1;
        p.king_custodial = (combo >> 4) & 1;
        p.escape_edge = (combo >> 5) & 1;
        for (int game = 0; game < 12; game++)
            positions += differential_game(&v, &p, (uint64_t)(combo * 100 + game));
    }
    print_message("differential: %ld positions agree\n", positions);
    assert_true(positions > 130000); /* the README's figure */
}

/* The parameters of Ludii's Tablut: king_throne=barred and
 * throne_hostile=2, each pair of theirs not covered above ((free, 0) and
 * (free, 1) are) under all 32 combinations of the other movement and
 * capture parameters, repetition_draw alternating (the fast engine's
 * alone: the reference has no history rules, and each position is
 * compared from its text), then the exact Ludii preset
 * (docs/rules.md#tafl-ludiis-tablut-preset). */
static void test_differential_ludii_rules(void **state)
{
    (void)state;
    static const struct { const char *king_throne; int hostile; } pairs[] = {
        {"barred", 0}, {"barred", 1}, {"barred", 2}, {"free", 2}};
    long positions = 0;
    for (int pair = 0; pair < 4; pair++) {
        for (int combo = 0; combo < 32; combo++) {
            char text[320];
            snprintf(text, sizeof text,
                     "tafl(king_throne=%s,throne_hostile=%d,"
                     "throne_passable=%d,king_armed=%d,edge_captures_king=%d,"
                     "king_capture=%s,escape=%s,first=%s,repetition_draw=%d)",
                     pairs[pair].king_throne, pairs[pair].hostile, combo & 1,
                     (combo >> 1) & 1, (combo >> 2) & 1,
                     (combo >> 3) & 1 ? "custodial" : "surround",
                     (combo >> 4) & 1 ? "edge" : "corner",
                     combo % 3 == 0 ? "defenders" : "attackers",
                     (combo + pair) & 1);
            struct variant v;
            char err[256];
            if (variant_parse(text, &v, err, sizeof err) != 0)
                fail_msg("%s", err);
            tafl_ref_params p;
            tafl_ref_defaults(&p);
            p.king_throne_barred = pairs[pair].king_throne[0] == 'b';
            p.throne_hostile = pairs[pair].hostile;
            p.throne_passable = combo & 1;
            p.king_armed = (combo >> 1) & 1;
            p.edge_captures_king = (combo >> 2) & 1;
            p.king_custodial = (combo >> 3) & 1;
            p.escape_edge = (combo >> 4) & 1;
            for (int game = 0; game < 6; game++)
                positions += differential_game(
                    &v, &p, (uint64_t)(100000 + pair * 1000 + combo * 10
                                       + game));
        }
    }
    /* the preset */
    struct variant v;
    variant_parse("tafl(escape=edge,king_armed=1,king_capture=custodial,"
                  "king_throne=barred,throne_hostile=2,throne_passable=0,"
                  "repetition_limit=0,repetition_draw=0,no_capture_limit=0,"
                  "max_plies=2500)", &v, NULL, 0);
    tafl_ref_params p;
    tafl_ref_defaults(&p);
    p.escape_edge = p.king_armed = p.king_custodial = 1;
    p.king_throne_barred = 1;
    p.throne_hostile = 2;
    p.throne_passable = 0;
    long preset = 0;
    for (int game = 0; game < 100; game++)
        preset += differential_game(&v, &p, (uint64_t)(200000 + game));
    print_message("differential, Ludii's rules: %ld positions agree, %ld of "
                  "them under the exact preset\n", positions + preset,
                  preset);
    assert_true(positions > 120000);
    assert_true(preset > 10000);
}

/* A move of st that undoes the side's last one (its shuttle), if legal;
 * else 0. */
static move_t undo_move(const struct tafl_state *st, const move_t *moves,
                        int n)
{
    const int side = st->head.side;
    const move_t back = TAFL_MOVE(st->last_to[side], st->last_from[side]);
    for (int i = 0; i < n; i++)
        if (moves[i] == back && st->last_to[side])
            return back;
    return 0;
}

struct draw_counts {
    int repetition, no_capture, ply_cap, quiet;
};

/* tafl_quiet_move_draws on every legal move of st that takes nothing,
 * against the move played: 1 exactly where the game then ends in a draw
 * (a move after which the King has escaped or the side to move has no
 * move is not a question for it: a draw rule never decides those). */
static void check_quiet_draws(const struct tafl_state *st,
                              struct draw_counts *seen)
{
    move_t moves[GAME_MAX_MOVES];
    int n = tafl_game.legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        struct tafl_state after = *st;
        tafl_game.apply(&after, moves[i]);
        if (after.pieces[0].count + after.pieces[1].count
                != st->pieces[0].count + st->pieces[1].count
            || after.head.reason == REASON_KING_ESCAPED
            || after.head.reason == REASON_NO_MOVES)
            continue;
        int draws = after.head.outcome == GAME_DRAW;
        if (tafl_quiet_move_draws(st, moves[i]) != draws) {
            char text[160];
            tafl_game.to_text(st, text, sizeof text);
            fail_msg("tafl_quiet_move_draws(%s, move %d) is not %d", text,
                     i, draws);
        }
        seen->repetition += after.head.reason == REASON_REPETITION;
        seen->no_capture += after.head.reason == REASON_NO_CAPTURE;
        seen->ply_cap += after.head.reason == REASON_PLY_CAP;
        seen->quiet++;
    }
}

static void test_quiet_move_draws(void **state)
{
    (void)state;
    const char *variants[] = {
        "tafl", "tafl(no_capture_limit=12,max_plies=90)",
        "tafl(repetition_limit=0,escape=edge)",
        "tafl(repetition_draw=0,repetition_limit=0,no_capture_limit=30)",
        "tafl(king_throne=barred,throne_hostile=2,max_plies=61)"};
    struct draw_counts seen = {0};
    struct rng r;
    rng_seed(&r, 20261204);
    for (int game = 0; game < 1000; game++) {
        /* three games in four undo most moves, and soon repeat */
        const int undoing = game % 4 != 0;
        struct variant v;
        variant_parse(variants[game / 4 % 5], &v, NULL, 0);
        struct tafl_state st;
        tafl_game.init(&st, &v);
        move_t moves[GAME_MAX_MOVES];
        int n;
        while ((n = tafl_game.legal_moves(&st, moves)) > 0) {
            check_quiet_draws(&st, &seen);
            move_t m = undo_move(&st, moves, n);
            if (!m || !undoing || rng_below(&r, 4) == 0)
                m = moves[rng_below(&r, (uint32_t)n)];
            tafl_game.apply(&st, m);
        }
    }
    print_message("quiet moves: %d, of them drawing by repetition %d, the "
                  "no-capture rule %d, the ply cap %d\n", seen.quiet,
                  seen.repetition, seen.no_capture, seen.ply_cap);
    assert_true(seen.repetition >= 300);
    assert_true(seen.no_capture >= 300);
    assert_true(seen.ply_cap >= 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games_consistent),
        cmocka_unit_test(test_differential_against_reference),
        cmocka_unit_test(test_differential_ludii_rules),
        cmocka_unit_test(test_quiet_move_draws),
    };
    return cmocka_run_group_tests_name("tafl_games", tests, NULL, NULL);
}
