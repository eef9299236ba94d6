/*
 * test_jetan_games.c -- Jetan over many seeded random games:
 *  - after every move the incremental hash, occupancy and counts equal the
 *    ones recomputed from scratch, the position text round-trips, and every
 *    game ends with a reason (10,000 games over seven settings, two of
 *    them from a sparse position where the endgame countdown runs);
 *  - differential: the fast generator, apply and the result of each move
 *    (winner and reason) agree with the naive reference in
 *    tests/ref/jetan_ref.c (written apart, from docs/rules.md#jetan alone,
 *    enumerating every step path literally) on at least 100,000 positions
 *    of random games under each parameter setting the reference knows:
 *    defaults, thoat_jumps=1, princess_escape=off, princess_escape=safe,
 *    princess_safe=1; random_move (which grows the walkers' reach as sets
 *    of squares, where legal_moves reads path tables) and has_move too;
 *  - the same on 4,000 crowded random boards, where walkers are blocked
 *    in every way.
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
#include "jetan.h"
#include "jetan_helpers.h"
#include "jetan_ref.h"
#include "rng.h"
#include "test_scale.h"

static void check_round_trip(const struct variant *v,
                             const struct jetan_state *st)
{
    char text[160], again[160], err[256];
    struct jetan_state copy;
    assert_true(jetan_game.to_text(st, text, sizeof text) > 0);
    if (jetan_game.from_text(&copy, v, text, err, sizeof err) != 0)
        fail_msg("'%s' does not read back: %s", text, err);
    jetan_game.to_text(&copy, again, sizeof again);
    assert_string_equal(text, again);
    assert_int_equal(jetan_game.hash(&copy), jetan_game.hash(st));
    assert_true(jetan_game.state_ok(&copy));
    /* an ongoing game reads back ongoing (a finished one may read back
     * with another reason: the text does not say who took a Chief) */
    if (jetan_game.status(st).outcome == GAME_ONGOING)
        assert_int_equal(jetan_game.status(&copy).outcome, GAME_ONGOING);
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void test_random_games_consistent(void **state)
{
    (void)state;
    /* the last two start from a sparse position, so that the endgame
     * countdown comes into play */
    const char *sparse = "3dpc4/4nn4/10/10/10/10/10/10/4NN4/3DCP4 b Pp";
    const struct { const char *variant, *position; } configs[] = {
        {"jetan", NULL},
        {"jetan(first=orange)", NULL},
        {"jetan(thoat_jumps=1,princess_escape=off)", NULL},
        {"jetan(princess_escape=safe,endgame_equal_value=1)", NULL},
        {"jetan(princess_safe=1,max_plies=60)", NULL},
        {"jetan", sparse},
        {"jetan(endgame_equal_value=1,princess_escape=off)", sparse},
    };
    const int n_configs = (int)(sizeof configs / sizeof *configs);
    int reasons[REASON_COUNT] = {0};
    long plies = 0;
    for (int game = 0; game < 10000; game++) {
        struct variant v;
        struct jetan_state st;
        char err[256];
        assert_int_equal(variant_parse(configs[game % n_configs].variant, &v,
                                       NULL, 0), 0);
        assert_int_equal(game_setup(&v, &st, configs[game % n_configs].position,
                                    NULL, err, sizeof err), 0);
        struct rng r;
        rng_seed(&r, (uint64_t)game);
        move_t moves[GAME_MAX_MOVES];
        int n;
        while ((n = jetan_game.legal_moves(&st, moves)) > 0) {
            assert_true(n <= jetan_game.max_moves);
            if (game % 50 == 0) { /* no move twice */
                char text[GAME_MAX_MOVES][8];
                for (int i = 0; i < n; i++)
                    jetan_game.move_to_text(&st, moves[i], text[i], 8);
                qsort(text, (size_t)n, 8, cmp_text);
                for (int i = 1; i < n; i++)
                    if (strcmp(text[i - 1], text[i]) == 0)
                        fail_msg("game %d: %s twice", game, text[i]);
            }
            jetan_game.apply(&st, moves[rng_below(&r, (uint32_t)n)]);
            plies++;
            if (!jetan_game.state_ok(&st))
                fail_msg("game %d ply %u: state inconsistent", game, st.ply);
            if (game % 10 == 0)
                check_round_trip(&v, &st);
        }
        struct game_status s = jetan_game.status(&st);
        assert_int_not_equal(s.outcome, GAME_ONGOING);
        assert_int_not_equal(s.reason, REASON_NONE);
        reasons[s.reason]++;
    }
    print_message("random games: 10000 games, %ld plies; princess_captured "
                  "%d, chief_captured %d, chief_captured_by_other %d, "
                  "endgame_countdown %d, no_moves %d, ply_cap %d\n", plies,
                  reasons[REASON_PRINCESS_CAPTURED],
                  reasons[REASON_CHIEF_CAPTURED],
                  reasons[REASON_CHIEF_CAPTURED_BY_OTHER],
                  reasons[REASON_ENDGAME_COUNTDOWN], reasons[REASON_NO_MOVES],
                  reasons[REASON_PLY_CAP]);
    assert_true(reasons[REASON_PRINCESS_CAPTURED] > 0);
    assert_true(reasons[REASON_CHIEF_CAPTURED] > 0);
    assert_true(reasons[REASON_CHIEF_CAPTURED_BY_OTHER] > 0);
    assert_true(reasons[REASON_PLY_CAP] > 0);
    assert_true(reasons[REASON_ENDGAME_COUNTDOWN] > 0);
}

/* Move text (at most 7 characters) packed into an integer whose order
 * is strcmp's, so sorting and comparing move lists is cheap. */
static uint64_t text_key(const char *text)
{
    uint64_t k = 0;
    size_t len = strlen(text);
    for (size_t i = 0; i < 8; i++)
        k = k << 8 | (i < len ? (unsigned char)text[i] : 0u);
    return k;
}

static void key_text(uint64_t k, char *out)
{
    for (int i = 0; i < 8; i++)
        out[i] = (char)(k >> (56 - 8 * i));
}

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The legal moves of st as text keys, sorted; returns how many. */
static int sorted_move_keys(const struct jetan_state *st, uint64_t *keys)
{
    move_t moves[GAME_MAX_MOVES];
    int n = jetan_game.legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        char mt[8];
        jetan_game.move_to_text(st, moves[i], mt, sizeof mt);
        keys[i] = text_key(mt);
    }
    qsort(keys, (size_t)n, sizeof *keys, cmp_key);
    return n;
}

/* Whether key is in the sorted keys[0..n). */
static int has_key(const uint64_t *keys, int n, uint64_t key)
{
    return bsearch(&key, keys, (size_t)n, sizeof *keys, cmp_key) != NULL;
}

/* random_move and has_move of st (read from text) against the
 * reference's sorted moves ref_keys[0..nr): random_move counts nr moves
 * and, over `draws` draws from seed, draws only moves of the list (it
 * counts walkers' moves by growing sets of squares, legal_moves by
 * tables: two ways); has_move says whether nr > 0. */
static void check_random_move(const struct jetan_state *st,
                              const uint64_t *ref_keys, int nr,
                              const char *text, uint64_t seed, int draws)
{
    if (jetan_has_move(st) != (nr > 0))
        fail_msg("%s: has_move %d, the reference has %d moves", text,
                 jetan_has_move(st), nr);
    struct rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < draws; i++) {
        move_t m = 0;
        int n = jetan_game.random_move(st, &r, &m);
        if (n != (st->head.outcome == GAME_ONGOING ? nr : 0))
            fail_msg("%s: random_move counts %d moves, the reference %d",
                     text, n, nr);
        if (n == 0)
            return;
        char mt[8];
        jetan_game.move_to_text(st, m, mt, sizeof mt);
        if (!has_key(ref_keys, nr, text_key(mt)))
            fail_msg("%s: random_move drew %s, not in the reference's list",
                     text, mt);
    }
}

/* The first three fields (board, side, escapes) of a position text. */
static void three_fields(const char *text, char *out, size_t n)
{
    size_t len = 0;
    for (int spaces = 0; text[len]; len++)
        if (text[len] == ' ' && ++spaces == 3)
            break;
    snprintf(out, n, "%.*s", (int)len, text);
}

/* The winner the fast engine reports, as the reference writes it: 'b',
 * 'o', 'd' for a draw, 0 while the game goes on. */
static char fast_winner(const struct jetan_state *st)
{
    enum game_outcome o = jetan_game.status(st).outcome;
    if (o == GAME_ONGOING)
        return 0;
    if (o == GAME_DRAW)
        return 'd';
    return jetan_game.seat_side(st, o == GAME_WIN_SEAT0 ? 0 : 1)[0];
}

/* The fast engine's result after a move equals the reference's: same
 * reason (by its name in docs/rules.md#conventions) and winner. Where the
 * reference sees no end, the engine may only have ended the game by a rule
 * that needs history: the ply cap, or the endgame countdown when both
 * sides have at most 3 pieces. */
static void check_result(const struct jetan_state *st,
                         const jetan_ref_result *want, const char *what,
                         long results[REASON_COUNT])
{
    enum end_reason why = jetan_game.status(st).reason;
    char winner = fast_winner(st);
    if (want->over) {
        if (strcmp(end_reason_name(why), want->reason) != 0
            || winner != want->winner)
            fail_msg("%s: fast ends with %s (winner %c), reference %s "
                     "(winner %c)", what, end_reason_name(why),
                     winner ? winner : '-', want->reason, want->winner);
        results[why]++;
    } else if (why != REASON_NONE && why != REASON_PLY_CAP
               && !(why == REASON_ENDGAME_COUNTDOWN && want->small_armies)) {
        fail_msg("%s: fast ends with %s, the reference sees no end", what,
                 end_reason_name(why));
    }
}

/* Plays one random game under v, comparing with the reference at every
 * position: the moves (as text, sorted), the position after a random move
 * and that move's result (jetan_ref_play_listed). Results are counted by
 * reason in results. Returns the number of positions compared. */
static int differential_game(const struct variant *v,
                             const jetan_ref_params *p, uint64_t seed,
                             long results[REASON_COUNT])
{
    static char ref[JETAN_REF_MAX_MOVES][8];
    uint64_t fast_keys[GAME_MAX_MOVES], ref_keys[JETAN_REF_MAX_MOVES];
    struct jetan_state st;
    struct rng r;
    rng_seed(&r, seed);
    jetan_game.init(&st, v);
    int positions = 0;
    while (jetan_game.status(&st).outcome == GAME_ONGOING) {
        char text[160], after[160], ref_after[160], err[256];
        jetan_game.to_text(&st, text, sizeof text);
        /* the engine's moves for the text read fresh */
        struct jetan_state fresh;
        if (jetan_game.from_text(&fresh, v, text, err, sizeof err) != 0)
            fail_msg("%s: %s", text, err);
        int nf = sorted_move_keys(&fresh, fast_keys);
        int nr = jetan_ref_moves(text, p, ref, JETAN_REF_MAX_MOVES);
        for (int i = 0; i < nr; i++)
            ref_keys[i] = text_key(ref[i]);
        int i = 0;
        while (i < nf && i < nr && fast_keys[i] == ref_keys[i])
            i++;
        if (nf != nr || i != nf) {
            char a[9] = "-", b[9] = "-";
            if (i < nf)
                key_text(fast_keys[i], a);
            if (i < nr)
                key_text(ref_keys[i], b);
            a[8] = b[8] = '\0';
            fail_msg("%s: fast has %d moves, reference %d; first "
                     "difference: fast %s, reference %s", text, nf, nr, a, b);
        }
        check_random_move(&fresh, ref_keys, nr, text, seed + positions, 1);
        positions++;
        /* Play a random move on the fresh copy and compare the results. */
        char mt[9];
        key_text(fast_keys[rng_below(&r, (uint32_t)nf)], mt);
        mt[8] = '\0';
        move_t m;
        assert_int_equal(jetan_game.move_from_text(&fresh, mt, &m), 0);
        jetan_game.apply(&fresh, m);
        char ours[160], theirs[160];
        jetan_game.to_text(&fresh, after, sizeof after);
        jetan_ref_result result;
        /* mt is in the reference's list (the lists are equal) */
        assert_int_equal(jetan_ref_play_listed(text, p, mt, ref_after,
                                               sizeof ref_after, &result), 0);
        three_fields(after, ours, sizeof ours);
        three_fields(ref_after, theirs, sizeof theirs);
        if (strcmp(ours, theirs) != 0)
            fail_msg("%s + %s: fast %s, reference %s", text, mt, ours,
                     theirs);
        char what[200];
        snprintf(what, sizeof what, "%s + %s", text, mt);
        check_result(&fresh, &result, what, results);
        /* Go on in the real game; it must agree with the fresh copy. */
        jetan_game.apply(&st, m);
        assert_int_equal(jetan_game.hash(&st), jetan_game.hash(&fresh));
    }
    return positions;
}

/* Endings random play rarely or never reaches (no_moves), and one of each
 * other kind, judged by both: the hand positions of test_jetan.c, whose
 * results there were worked out by hand. */
static void test_reference_endings(void **state)
{
    (void)state;
    const struct {
        const char *variant, *pieces, *fields, *move;
    } cases[] = {
        {"jetan", "N:e5 p:e6 C:a1 P:j1 c:a10", "b -", "e5e6"},
        /* the same with Orange in seat 0: the winner is still Black */
        {"jetan(first=orange)", "N:e5 p:e6 C:a1 P:j1 c:a10", "b -", "e5e6"},
        {"jetan", "n:e7 P:e6 C:a1 c:a10 p:j10", "o -", "e7e6"},
        {"jetan", "C:e5 c:e8 P:j1 p:a10", "b -", "e5e8"},
        {"jetan", "D:e5 c:e8 C:a1 P:j1 p:a10", "b -", "e5e8"},
        {"jetan", "n:f2 C:e1 P:j1 c:a10 p:j10", "o -", "f2e1"},
        /* Black's Chief boxed in by Orange Panthans: after f7g7 Black has
         * no move at all */
        {"jetan", "C:a1 n:a2 n:b1 n:b2 P:j10 n:f7 n:g8 n:g9 n:g10 n:h7 "
                  "n:h8 c:h9 n:h10 n:i7 p:i8 n:i9 t:i10 t:j7 d:j8 d:j9",
         "o p", "f7g7"},
        /* a move that ends nothing */
        {"jetan", "N:e5 p:e8 C:a1 P:j1 c:a10", "b -", "e5e6"},
    };
    const jetan_ref_params p = {0, 0, 0};
    long results[REASON_COUNT] = {0};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct variant v;
        struct jetan_state st;
        char fen[160], after[160], err[256];
        jetan_fen(cases[i].pieces, cases[i].fields, fen);
        assert_int_equal(variant_parse(cases[i].variant, &v, NULL, 0), 0);
        if (jetan_game.from_text(&st, &v, fen, err, sizeof err) != 0)
            fail_msg("%s: %s", fen, err);
        move_t m;
        assert_int_equal(jetan_game.move_from_text(&st, cases[i].move, &m), 0);
        jetan_game.apply(&st, m);
        jetan_ref_result result;
        assert_int_equal(jetan_ref_play(fen, &p, cases[i].move, after,
                                        sizeof after, &result), 0);
        check_result(&st, &result, fen, results);
        if (i == sizeof cases / sizeof *cases - 1)
            assert_false(result.over);
    }
    assert_int_equal(results[REASON_PRINCESS_CAPTURED], 3);
    assert_int_equal(results[REASON_CHIEF_CAPTURED], 1);
    assert_int_equal(results[REASON_CHIEF_CAPTURED_BY_OTHER], 2);
    assert_int_equal(results[REASON_NO_MOVES], 1);
}

/* Random crowded boards: up to 20 pieces a side of random kinds (one
 * Chief and one Princess each) packed into a random box of 4x4 to 10x10
 * squares, where walkers are blocked in every way: legal_moves,
 * random_move and has_move against the reference. (A side with no move
 * at all is test_reference_endings' case.) */
static void test_crowded_boards_against_reference(void **state)
{
    (void)state;
    static const char kinds[] = "CPFDAWTN";
    static char ref[JETAN_REF_MAX_MOVES][8];
    uint64_t fast_keys[GAME_MAX_MOVES], ref_keys[JETAN_REF_MAX_MOVES];
    const jetan_ref_params p = {0, 0, 0};
    struct variant v;
    assert_int_equal(variant_parse("jetan", &v, NULL, 0), 0);
    struct rng r;
    rng_seed(&r, 77);
    long moves_seen = 0;
    const int positions = 4000;
    for (int pos = 0; pos < positions; pos++) {
        char grid[100];
        memset(grid, '.', sizeof grid);
        const int box = 4 + (int)rng_below(&r, 7);
        const int f0 = (int)rng_below(&r, (uint32_t)(11 - box));
        const int r0 = (int)rng_below(&r, (uint32_t)(11 - box));
        for (int side = 0; side < 2; side++) {
            int n = 2 + (int)rng_below(&r, JETAN_MAX_PIECES - 1);
            for (int i = 0; i < n; i++) {
                int sq;
                do
                    sq = (r0 + (int)rng_below(&r, (uint32_t)box)) * 10 + f0
                         + (int)rng_below(&r, (uint32_t)box);
                while (grid[sq] != '.' && i < 2); /* the royals first */
                if (grid[sq] != '.')
                    continue;
                char c = i < 2 ? kinds[i] : kinds[2 + rng_below(&r, 6)];
                grid[sq] = side ? (char)(c - 'A' + 'a') : c;
            }
        }
        char pieces[600] = "", text[200], err[256];
        size_t len = 0;
        for (int sq = 0; sq < 100; sq++)
            if (grid[sq] != '.')
                len += (size_t)sprintf(pieces + len, "%c:%c%d ", grid[sq],
                                       'a' + sq % 10, sq / 10 + 1);
        jetan_fen(pieces, pos % 2 ? "o Pp" : "b -", text);
        struct jetan_state st;
        if (jetan_game.from_text(&st, &v, text, err, sizeof err) != 0)
            fail_msg("%s: %s", text, err);
        int nr = jetan_ref_moves(text, &p, ref, JETAN_REF_MAX_MOVES);
        for (int i = 0; i < nr; i++)
            ref_keys[i] = text_key(ref[i]);
        int nf = sorted_move_keys(&st, fast_keys);
        if (nf != nr || memcmp(fast_keys, ref_keys, sizeof *ref_keys
                                                    * (size_t)nr) != 0)
            fail_msg("%s: fast has %d moves, the reference %d", text, nf, nr);
        check_random_move(&st, ref_keys, nr, text, (uint64_t)pos, 20);
        moves_seen += nr;
    }
    print_message("crowded boards: %d positions agree (%.1f moves on "
                  "average)\n", positions, (double)moves_seen / positions);
}

static void test_differential_against_reference(void **state)
{
    (void)state;
    const struct {
        const char *variant;
        jetan_ref_params p; /* thoat_jumps, princess_safe, princess_escape */
    } settings[] = {
        {"jetan", {0, 0, 0}},
        {"jetan(thoat_jumps=1)", {1, 0, 0}},
        {"jetan(princess_escape=off)", {0, 0, 2}},
        {"jetan(princess_escape=safe)", {0, 0, 1}},
        {"jetan(princess_safe=1)", {0, 1, 0}},
    };
    const long per_setting = test_scaled(100000, 10000);
    for (size_t i = 0; i < sizeof settings / sizeof *settings; i++) {
        struct variant v;
        char err[256];
        if (variant_parse(settings[i].variant, &v, err, sizeof err) != 0)
            fail_msg("%s", err);
        long positions = 0, results[REASON_COUNT] = {0};
        int games = 0;
        while (positions < per_setting) {
            uint64_t seed = 1000003u * (i + 1) + (uint64_t)games;
            positions += differential_game(&v, &settings[i].p, seed, results);
            games++;
        }
        print_message("differential %s: %ld positions in %d games agree; "
                      "endings confirmed by the reference: princess_captured "
                      "%ld, chief_captured %ld, chief_captured_by_other %ld, "
                      "no_moves %ld\n", settings[i].variant, positions, games,
                      results[REASON_PRINCESS_CAPTURED],
                      results[REASON_CHIEF_CAPTURED],
                      results[REASON_CHIEF_CAPTURED_BY_OTHER],
                      results[REASON_NO_MOVES]);
        assert_true(results[REASON_PRINCESS_CAPTURED] > 0);
        assert_true(results[REASON_CHIEF_CAPTURED_BY_OTHER] > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games_consistent),
        cmocka_unit_test(test_reference_endings),
        cmocka_unit_test(test_differential_against_reference),
        cmocka_unit_test(test_crowded_boards_against_reference),
    };
    return cmocka_run_group_tests_name("jetan_games", tests, NULL, NULL);
}
