/*
 * test_search_hooks.c -- the two game hooks the searches lean on
 * (core/game.h): search_key, the transposition tables' key, and
 * wins_at_once, the solver's shortcut at the last ply of its bound and
 * ab's win-at-once check.
 *
 * search_key must be shared by states that play alike even where their
 * bytes differ, and must differ where a rule can tell them apart: the
 * tests reach one Serbest position by two drop orders (so the piece lists
 * differ), then make pairs that differ only in the repetition stretch,
 * the no-capture count or the ply. A key that left any of these out would
 * let the solver reuse a value across states the rules score apart.
 *
 * Jetan's wins_at_once is exact: over random games of three variants it
 * must agree at every ply with the reference of tests/ref, which plays
 * every legal move, and with playing every move of the engine.
 *
 * wins_at_once (Serbest's) is compared, wherever it answers, with the
 * naive reference of tests/ref, which plays every legal move and judges
 * the result itself: over random positions of three Kings Landing
 * variants, a third of them started by a White king dropped on rank 9 so
 * that a Khan is often one step away. Both answers must occur, and the
 * shortcut must answer in a good share of them (else the solver gains
 * nothing). And over random nets of White pieces round the Black king
 * (on the board, so that only a mate wins), under both drop-check rules:
 * some with a mate at once, most without.
 *
 * tafl's wins_at_once answers 1 or 0 wherever it can tell, and -1 only
 * where a win by leaving the opponent no move cannot be ruled out: over
 * random games of six variants it must agree, where it answers, with
 * playing every move of the engine and (in the variants without the
 * shuttle rule, which the reference leaves out) with the reference of
 * tests/ref; it must answer in nearly every position. A hand-built
 * position where the only win leaves the defenders no move gets -1.
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
#include "jetan_ref.h"
#include "rng.h"
#include "serbest.h"
#include "serbest_helpers.h"
#include "serbest_ref.h"
#include "tafl.h"
#include "tafl_ref.h"
#include "variant.h"

static void start(const char *spec, struct variant *v, void *st)
{
    char err[256];
    if (variant_parse(spec, v, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
    v->game->init(st, v);
}

/* Plays the moves of `line` (space-separated move texts) on st. */
static void play(const struct game *g, void *st, const char *line)
{
    char buf[512], err[256];
    snprintf(buf, sizeof buf, "%s", line);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        move_t m;
        if (game_parse_move(g, st, tok, &m, err, sizeof err) != 0)
            fail_msg("%s: %s", tok, err);
        g->apply(st, m);
    }
}

/* Serbest from the start after the moves of line, into st. */
static void serbest_after(const char *line, void *st)
{
    struct variant v;
    start("serbest", &v, st);
    play(&serbest_game, st, line);
}

/* One position by two drop orders: equal keys, unequal bytes (the piece
 * lists keep the order of the drops). */
static void test_key_transposition(void **state)
{
    (void)state;
    _Alignas(GAME_STATE_ALIGN) unsigned char a[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char b[GAME_MAX_STATE_SIZE];
    const struct game *g = &serbest_game;
    serbest_after("N@a1 n@a10 B@b1 b@b10", a);
    serbest_after("B@b1 b@b10 N@a1 n@a10", b);
    assert_int_equal(g->hash(a), g->hash(b));
    assert_true(memcmp(a, b, g->state_size) != 0);
    assert_true(g->search_key(a) == g->search_key(b));
}

/* The same board at the same ply by two routes: the knights step out and
 * back through different squares, so the stretch since the last drop
 * holds other positions (a later repetition counts differently); the
 * same route again gives the same key. */
static void test_key_history(void **state)
{
    (void)state;
    _Alignas(GAME_STATE_ALIGN) unsigned char a[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char b[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char c[GAME_MAX_STATE_SIZE];
    const struct game *g = &serbest_game;
    serbest_after("N@a1 n@a10 a1b3 a10b8 b3a1 b8a10", a);
    serbest_after("N@a1 n@a10 a1c2 a10c9 c2a1 c9a10", b);
    serbest_after("N@a1 n@a10 a1b3 a10b8 b3a1 b8a10", c);
    assert_int_equal(g->hash(a), g->hash(b));
    assert_true(g->search_key(a) != g->search_key(b));
    assert_true(g->search_key(a) == g->search_key(c));
}

/* Texts that differ only in the no-capture count, or only in the ply
 * (the ply cap reads it), give different keys; tafl likewise. */
static void test_key_counters(void **state)
{
    (void)state;
    static const char *const cases[][4] = {
        {"serbest", "10/10/10/10/10/10/10/10/10/N9[KQRRBBNPPPPPPSSkqrrbbnnppppppss] b",
         " 0 1", " 7 1"},
        {"serbest", "10/10/10/10/10/10/10/10/10/N9[KQRRBBNPPPPPPSSkqrrbbnnppppppss] b",
         " 0 1", " 0 3"},
        {"tafl", "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a",
         " 0 0", " 4 0"},
        {"tafl", "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a",
         " 0 0", " 0 6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char a[GAME_MAX_STATE_SIZE];
        _Alignas(GAME_STATE_ALIGN) unsigned char b[GAME_MAX_STATE_SIZE];
        _Alignas(GAME_STATE_ALIGN) unsigned char c[GAME_MAX_STATE_SIZE];
        struct variant v;
        char ta[256], tb[256], err[256];
        start(cases[i][0], &v, a);
        const struct game *g = v.game;
        snprintf(ta, sizeof ta, "%s%s", cases[i][1], cases[i][2]);
        snprintf(tb, sizeof tb, "%s%s", cases[i][1], cases[i][3]);
        if (g->from_text(a, &v, ta, err, sizeof err) != 0
            || g->from_text(b, &v, tb, err, sizeof err) != 0
            || g->from_text(c, &v, ta, err, sizeof err) != 0)
            fail_msg("%s: %s", cases[i][0], err);
        assert_true(g->search_key(a) != g->search_key(b));
        assert_true(g->search_key(a) == g->search_key(c));
    }
}

/* ---- wins_at_once against the reference ------------------------------ */

/* 1 if some legal move of the reference wins at once for the side to move
 * in text (a Khan, a mate or a stalemate that loses for the other side);
 * with `reason` (its name in docs/rules.md#conventions, e.g. "checkmate"),
 * only a win so. */
static int ref_wins_at_once(const char *text, const serbest_ref_params *p,
                            const char *reason)
{
    static char moves[SERBEST_REF_MAX_MOVES][8];
    char after[256];
    char mover = strstr(text, "] w") ? 'w' : 'b';
    int n = serbest_ref_moves(text, p, moves, SERBEST_REF_MAX_MOVES);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++) {
        serbest_ref_result r;
        if (serbest_ref_make_move(text, moves[i], after, sizeof after) != 0
            || serbest_ref_result_of(after, p, &r) != 0)
            fail_msg("%s: the reference cannot play %s", text, moves[i]);
        if (r.over && r.winner == mover
            && (!reason || strcmp(r.reason, reason) == 0))
            return 1;
    }
    return 0;
}

static void test_wins_at_once(void **state)
{
    (void)state;
    static const char *const specs[] = {"serbest(kings_landing=9)",
                                        "serbest(kings_landing=8)",
                                        "serbest(kings_landing=9,stalemate=win)"};
    const struct game *g = &serbest_game;
    struct rng r;
    rng_seed(&r, 20261201);
    int answered = 0, unsure = 0, wins = 0, positions = 0;
    for (int game = 0; game < 60; game++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        struct variant v;
        int k = game % 3;
        serbest_ref_params p = {k == 1 ? 8 : 9, 0, k == 2 ? 2 : 0};
        start(specs[k], &v, st);
        if (game % 3 == 0) {
            char drop[8];
            snprintf(drop, sizeof drop, "K@%c9", 'a' + (int)rng_below(&r, 10));
            play(g, st, drop);
        }
        int plies = 1 + (int)rng_below(&r, 16);
        for (int ply = 0; ply < plies && g->status(st).outcome == GAME_ONGOING;
             ply++) {
            move_t moves[GAME_MAX_MOVES];
            int n = g->legal_moves(st, moves);
            int fast = g->wins_at_once(st);
            if (fast >= 0) {
                char text[1024];
                assert_true(g->to_text(st, text, sizeof text) > 0);
                if (fast != ref_wins_at_once(text, &p, NULL))
                    fail_msg("%s at %s: wins_at_once says %d", specs[k], text,
                             fast);
                answered++;
                wins += fast;
            } else {
                unsure++;
            }
            positions++;
            g->apply(st, moves[rng_below(&r, (uint32_t)n)]);
        }
    }
    print_message("wins_at_once: %d of %d positions answered (%d wins), %d "
                  "left to the solver\n", answered, positions, wins, unsure);
    assert_true(wins >= 10);
    assert_true(answered - wins >= 10);
    assert_true(answered * 3 >= positions);
}

/* A random position built round the Black king, White to move: the
 * Black king and 2-4 White pieces within three squares of it, 0-2 Black
 * pieces within two, the White king anywhere not beside it and off rank
 * 9 (so a win is a mate, not a Khan); White holds 0-3 pieces and Black
 * 1-2 besides (so wins_at_once answers). Its text into text. */
static void random_mating_net(struct rng *r, char *text, size_t n)
{
    static const char white[] = "QRBNPS", black[] = "qrbnps";
    char board[10][10];
    memset(board, 0, sizeof board);
    int bf = (int)rng_below(r, 10), br = (int)rng_below(r, 10), wf, wr;
    board[br][bf] = 'k';
    do {
        wf = (int)rng_below(r, 10);
        wr = (int)rng_below(r, 10);
    } while (wr == 8 || (abs(wf - bf) <= 1 && abs(wr - br) <= 1));
    board[wr][wf] = 'K';
    int whites = 2 + (int)rng_below(r, 3), blacks = (int)rng_below(r, 3);
    for (int i = 0; i < whites + blacks; i++) {
        int reach = i < whites ? 3 : 2, f, rk;
        f = bf - reach + (int)rng_below(r, (uint32_t)(2 * reach + 1));
        rk = br - reach + (int)rng_below(r, (uint32_t)(2 * reach + 1));
        if (f >= 0 && f < 10 && rk >= 0 && rk < 10 && !board[rk][f])
            board[rk][f] = i < whites ? white[rng_below(r, 6)]
                                      : black[rng_below(r, 6)];
    }
    char hands[8];
    size_t nh = 0;
    for (int i = (int)rng_below(r, 4); i > 0; i--)
        hands[nh++] = white[rng_below(r, 4)];
    for (int i = 1 + (int)rng_below(r, 2); i > 0; i--)
        hands[nh++] = black[rng_below(r, 6)];
    hands[nh] = 0;
    serbest_grid_text(board, hands, "w 0 0", text, n);
}

/* wins_at_once where the other side's king is on the board, so that only
 * a mate can win (random_mating_net): wherever the rules accept the
 * position and Black is not in check, it answers, and agrees with the
 * reference, which plays every move. Under both drop-check rules (with
 * adjacent_drop_check=1 a pawn or a Subedei dropped beside the king may
 * mate). Mates must occur, and so must nets without one; and a mate by a
 * king's move (uncovering a check) is found. */
static void test_wins_at_once_mates(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "serbest(kings_landing=9)",
        "serbest(kings_landing=9,adjacent_drop_check=1)"};
    const struct game *g = &serbest_game;
    /* The one mate here is a8b8, uncovering the queen's check on the
     * a-file: Black's q may not be dropped on a8 or a9, beside the White
     * king and attacking it, and the bishop holds b10. */
    static const char discovered[] = "k9/10/K2B6/Q9/10/10/10/10/10/10[q] w";
    {
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        struct variant v;
        char err[256];
        serbest_ref_params p = {9, 0, 0};
        start(specs[0], &v, st);
        if (g->from_text(st, &v, discovered, err, sizeof err) != 0)
            fail_msg("%s: %s", discovered, err);
        assert_int_equal(ref_wins_at_once(discovered, &p, "checkmate"), 1);
        assert_int_equal(g->wins_at_once(st), 1);
    }
    struct rng r;
    rng_seed(&r, 20261202);
    int positions = 0, mates = 0;
    for (int i = 0; i < 2400; i++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        struct variant v;
        char text[256], err[256];
        int k = i % 2;
        serbest_ref_params p = {9, k, 0};
        start(specs[k], &v, st);
        random_mating_net(&r, text, sizeof text);
        if (g->from_text(st, &v, text, err, sizeof err) != 0
            || serbest_in_check((const struct serbest_state *)st,
                                SERBEST_BLACK)
            || g->status(st).outcome != GAME_ONGOING)
            continue;
        int fast = g->wins_at_once(st);
        int ref = ref_wins_at_once(text, &p, "checkmate");
        if (fast != ref)
            fail_msg("%s at %s: wins_at_once says %d, the reference %d",
                     specs[k], text, fast, ref);
        positions++;
        mates += ref;
    }
    print_message("wins_at_once: %d mating nets, %d with a mate at once\n",
                  positions, mates);
    assert_true(positions >= 600);
    assert_true(mates >= 15);
    assert_true(positions - mates >= 100);
}

/* ---- Jetan's wins_at_once -------------------------------------------- */

/* Whether the Jetan move text (e.g. "e1e4", "a10^j10") ends on a square
 * that holds a piece in the position text (ranks 10 to 1, '/' between). */
static int lands_on_a_piece(const char *text, const char *move)
{
    const char *to = move + 1;
    while (*to >= '0' && *to <= '9')
        to++;
    if (*to == '^')
        to++;
    int file = to[0] - 'a', rank = atoi(to + 1), r = 10, f = 0;
    for (const char *c = text; *c && *c != ' '; c++) {
        if (*c == '/') {
            r--, f = 0;
        } else if (*c >= '0' && *c <= '9') {
            f += c[1] == '0' ? 10 : *c - '0';
            c += c[1] == '0';
        } else {
            if (r == rank && f == file)
                return 1;
            f++;
        }
    }
    return 0;
}

/* 1 if some legal move of the Jetan reference wins at once for the side to
 * move in text: it takes the Princess, or the Chief with the Chief. */
static int jetan_ref_wins_at_once(const char *text, const jetan_ref_params *p)
{
    static char moves[JETAN_REF_MAX_MOVES][8];
    char after[128];
    const char mover = strstr(text, " b ") ? 'b' : 'o';
    int n = jetan_ref_moves(text, p, moves, JETAN_REF_MAX_MOVES);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++) {
        jetan_ref_result r;
        /* docs/rules.md#jetan-end-of-the-game: only a capture ends a game
         * with a winner; the reference judges each capture (what the move
         * lands on) */
        if (!lands_on_a_piece(text, moves[i]))
            continue;
        if (jetan_ref_play_listed(text, p, moves[i], after, sizeof after, &r))
            fail_msg("%s: the reference cannot play %s", text, moves[i]);
        if (r.over && r.winner == mover)
            return 1;
    }
    return 0;
}

/* Random games of three variants, every ply compared with the reference
 * and with game_mover_wins_at_once (the engine playing every move): from
 * the start, and (every fourth game) from small armies, where the
 * countdown runs from the first ply. Wins by the Chief alone must occur,
 * and positions with and without a win in good numbers. */
static void test_jetan_wins_at_once(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "jetan", "jetan(thoat_jumps=1)",
        "jetan(princess_safe=1,princess_escape=off)"};
    static const jetan_ref_params params[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 2}};
    const struct game *g = &jetan_game;
    struct rng r;
    rng_seed(&r, 20261203);
    int positions = 0, wins = 0, chief_wins = 0, countdown = 0;
    /* three pieces a side (so the countdown starts at once), the armies
     * 1 to 5 ranks apart */
    static const char *const small[] = {
        "10/10/10/10/3fpc4/10/W3CP4/10/10/10 b Pp",
        "10/10/3fpc4/10/10/10/W3CP4/10/10/10 o Pp",
        "10/10/10/10/3fpc4/W3CP4/10/10/10/10 b -",
        "10/3fpc4/10/10/10/10/W3CP4/10/10/10 o Pp"};
    for (int game = 0; game < 96; game++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        struct variant v;
        char err[256];
        int k = game % 3;
        start(specs[k], &v, st);
        if (game % 4 == 3
            && g->from_text(st, &v, small[game / 4 % 4], err, sizeof err))
            fail_msg("%s: %s", small[game / 4 % 4], err);
        while (g->status(st).outcome == GAME_ONGOING) {
            const struct jetan_state *s = (const void *)st;
            char text[256];
            assert_true(g->to_text(st, text, sizeof text) > 0);
            int fast = g->wins_at_once(st);
            int ref = jetan_ref_wins_at_once(text, &params[k]);
            if (fast != ref || fast != game_mover_wins_at_once(g, st))
                fail_msg("%s at %s: wins_at_once says %d, the reference %d",
                         specs[k], text, fast, ref);
            positions++;
            wins += fast;
            countdown += s->countdown == JETAN_CD_RUNNING;
            /* a win by the Chief alone: no other piece reaches the Princess */
            uint64_t at[2];
            jetan_attacks(s, s->head.side, JETAN_NO_SQUARE, at);
            int p = s->princess_sq[s->head.side ^ 1];
            if (fast && (p == JETAN_NO_SQUARE || !((at[p / 64] >> p % 64) & 1)))
                chief_wins++;
            move_t m;
            assert_true(game_random_move(g, st, &r, &m) > 0);
            g->apply(st, m);
        }
    }
    print_message("jetan wins_at_once: %d positions, %d with a win (%d by the "
                  "Chief alone), %d in the countdown\n", positions, wins,
                  chief_wins, countdown);
    assert_true(wins >= 100 && positions - wins >= 1000);
    assert_true(chief_wins >= 1);
    assert_true(countdown >= 1);
}

/* Whether the side to move in the position text wins with one of its
 * legal moves, by the reference: the King escapes or is captured by the
 * mover, or the opponent is left without a move. */
static int tafl_ref_wins(const char *text, const tafl_ref_params *p)
{
    char moves[TAFL_REF_MAX_MOVES][8], after[128];
    const int n = tafl_ref_moves(text, p, moves, TAFL_REF_MAX_MOVES);
    const int defenders = strchr(text, ' ')[1] == 'd';
    assert_true(n >= 0);
    for (int i = 0; i < n; i++) {
        int result;
        assert_int_equal(tafl_ref_apply(text, p, moves[i], after,
                                        sizeof after, &result), 0);
        if (result == 3 || result == (defenders ? 1 : 2))
            return 1;
    }
    return 0;
}

/* tafl_ref_params of a variant spec's rules (tafl_ref.h's fields). */
static void tafl_ref_from(const struct variant *v, tafl_ref_params *p)
{
    struct tafl_state st;
    tafl_game.init(&st, v);
    tafl_ref_defaults(p);
    p->throne_passable = st.throne_passable;
    p->throne_hostile = st.throne_hostile;
    p->king_armed = st.king_armed;
    p->edge_captures_king = st.edge_captures_king;
    p->king_custodial = st.king_custodial;
    p->escape_edge = st.escape_edge;
    p->king_throne_barred = st.king_throne_barred;
}

static void test_tafl_wins_at_once(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "tafl", "tafl(escape=edge,repetition_limit=0)",
        "tafl(king_capture=custodial,edge_captures_king=0,"
        "repetition_limit=0)",
        "tafl(repetition_limit=1,king_armed=1,throne_hostile=1)",
        "tafl(king_throne=barred,throne_hostile=2,throne_passable=0,"
        "repetition_limit=0)",
        "tafl(escape=edge,king_armed=1,king_capture=custodial,"
        "king_throne=barred,throne_hostile=2,throne_passable=0,"
        "repetition_limit=0,repetition_draw=0,no_capture_limit=0,"
        "max_plies=2500)"};
    const struct game *g = &tafl_game;
    struct rng r;
    rng_seed(&r, 20261206);
    int positions = 0, wins = 0, unknown = 0, by_ref = 0;
    for (int game = 0; game < 120; game++) {
        struct variant v;
        struct tafl_state st;
        tafl_ref_params p;
        const int k = game % 6;
        start(specs[k], &v, &st);
        tafl_ref_from(&v, &p);
        while (st.head.outcome == GAME_ONGOING) {
            char text[160];
            assert_true(g->to_text(&st, text, sizeof text) > 0);
            const int fast = g->wins_at_once(&st);
            const int engine = game_mover_wins_at_once(g, &st);
            if (fast >= 0 && fast != engine)
                fail_msg("%s at %s: wins_at_once says %d, the engine %d",
                         specs[k], text, fast, engine);
            if (st.repetition_limit == 0) {
                if (engine != tafl_ref_wins(text, &p))
                    fail_msg("%s at %s: the engine says %d, the reference "
                             "not", specs[k], text, engine);
                by_ref++;
            }
            positions++;
            wins += fast == 1;
            unknown += fast < 0;
            move_t m;
            assert_true(game_random_move(g, &st, &r, &m) > 0);
            g->apply(&st, m);
        }
    }
    print_message("tafl wins_at_once: %d positions (%d also by the "
                  "reference), %d with a win, %d it cannot tell\n",
                  positions, by_ref, wins, unknown);
    assert_true(wins >= 100 && positions - wins >= 1000);
    assert_true(unknown * 100 <= positions);
}

/* The King on e1, attackers on d1 and f1, with edge_captures_king=0: no
 * capture there, and the King has no open line (d1, f1 close the rank;
 * e3 the file). e3-e2 leaves the defenders, who have the King alone, no
 * move: a win the hook cannot see from four mobile pieces, so it cannot
 * tell; playing every move finds it. With the King free to step to e2
 * (e3 away on h3, nothing to reach e2) there is no win: the hook cannot
 * tell either, and playing every move finds none. The defenders to move
 * with an open line (the King on c1, b1 and a1 empty) win at once. */
static void test_tafl_wins_at_once_positions(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *text;
        int hook, engine;
    } cases[] = {
        {"tafl(edge_captures_king=0)", "9/9/9/9/9/9/4a4/9/3aka3 a", -1, 1},
        {"tafl(edge_captures_king=0)", "9/9/9/9/9/9/7a1/9/3aka3 a", -1, 0},
        {"tafl", "9/9/4d2a1/9/1a7/9/9/9/2k2d3 d", 1, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct variant v;
        struct tafl_state st;
        char err[256];
        start(cases[c].spec, &v, &st);
        if (tafl_game.from_text(&st, &v, cases[c].text, err, sizeof err))
            fail_msg("%s: %s", cases[c].text, err);
        assert_int_equal(tafl_game.wins_at_once(&st), cases[c].hook);
        assert_int_equal(game_mover_wins_at_once(&tafl_game, &st),
                         cases[c].engine);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_transposition),
        cmocka_unit_test(test_key_history),
        cmocka_unit_test(test_key_counters),
        cmocka_unit_test(test_wins_at_once),
        cmocka_unit_test(test_wins_at_once_mates),
        cmocka_unit_test(test_jetan_wins_at_once),
        cmocka_unit_test(test_tafl_wins_at_once),
        cmocka_unit_test(test_tafl_wins_at_once_positions),
    };
    return cmocka_run_group_tests_name("search_hooks", tests, NULL, NULL);
}
