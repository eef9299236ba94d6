/*
 * test_eval_jetan.c -- Jetan's evaluation (agents/eval_jetan.c): for each
 * feature a hand-built position, or a pair that differs in just that
 * respect, read from both sides to move; capture_value and is_forcing on
 * hand-built positions; and the features that ask which piece attacks a
 * square checked against the core's legal moves on random positions.
 *
 * Positions are piece lists ("C:e1 p:e10 ..."; Black uppercase). Reaches
 * quoted in the comments are those of docs/rules.md#jetan-how-pieces-move:
 * on an open board a Flier reaches (+-1,+-1), (+-1,+-3), (+-3,+-1),
 * (+-3,+-3); a Chief every square within 3; a Panthan forward, diagonally
 * forward and sideways (Black's forward is up a rank, Orange's down).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "eval.h"
#include "eval_helpers.h"
#include "jetan_helpers.h"
#include "rng.h"

/* The text of the start position, whose fields follow. */
#define START_BOARD \
    "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW"

static const struct game_eval *jetan(void)
{
    return eval_of(&jetan_game);
}

/* The index of the feature whose weight is jetan_<name>. */
static int feature_index(const char *name)
{
    char full[64];
    snprintf(full, sizeof full, "jetan_%s", name);
    for (int i = 0; i < jetan()->n_features; i++)
        if (strcmp(jetan()->weights[i].name, full) == 0)
            return i;
    fail_msg("no feature %s", full);
    return -1;
}

static double feature_of_state(const struct jetan_state *st, const char *name)
{
    double f[EVAL_MAX_FEATURES];
    jetan()->features(st, f);
    return f[feature_index(name)];
}

/* Feature `name` of the pieces with `fields` ("b -") under `variant`. */
static double feature(const char *variant, const char *pieces,
                      const char *fields, const char *name)
{
    struct jetan_state st;
    jetan_setup(&st, variant, pieces, fields);
    return feature_of_state(&st, name);
}

/* The same with the side to move `side` and no escapes left. */
static double feature_to_move(const char *pieces, char side, const char *name)
{
    const char fields[] = {side, ' ', '-', '\0'};
    return feature("jetan", pieces, fields, name);
}

static move_t parse(const struct jetan_state *st, const char *text)
{
    move_t m;
    char err[128];
    if (game_parse_move(&jetan_game, st, text, &m, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    return m;
}

static void test_table(void **state)
{
    (void)state;
    const struct game_eval *e = jetan();
    assert_true(e->n_features >= 1 && e->n_features <= 10);
    for (int i = 0; i < e->n_features; i++) {
        const struct param_spec *w = &e->weights[i];
        assert_true(strncmp(w->name, "jetan_", 6) == 0);
        assert_int_equal(w->type, PARAM_REAL);
        assert_int_equal(w->since, 2);
        assert_true(w->min <= w->def && w->def <= w->max);
        assert_non_null(w->doc);
    }
}

static void test_material(void **state)
{
    (void)state;
    /* The start is level; with Orange's j9 Thoat (250 points,
     * eval_jetan.c's table) gone, Black to move is 250 ahead. */
    struct jetan_state st;
    struct variant v;
    char err[256];
    variant_default(&jetan_game, &v);
    assert_int_equal(jetan_game.from_text(&st, &v, START_BOARD " b Pp", err,
                                          sizeof err), 0);
    assert_true(feature_of_state(&st, "material") == 0);
    const char *less = "wadfpcfdaw/tnnnnnnnn1/10/10/10/10/10/10/TNNNNNNNNT/"
                       "WADFCPFDAW";
    char text[128];
    snprintf(text, sizeof text, "%s b Pp", less);
    assert_int_equal(jetan_game.from_text(&st, &v, text, err, sizeof err), 0);
    assert_true(feature_of_state(&st, "material") == 250);
    snprintf(text, sizeof text, "%s o Pp", less);
    assert_int_equal(jetan_game.from_text(&st, &v, text, err, sizeof err), 0);
    assert_true(feature_of_state(&st, "material") == -250);
}

static void test_mobility(void **state)
{
    (void)state;
    /* Each Chief in a corner reaches the 15 other squares of its 4x4
     * corner; the Princesses reach nothing (she attacks nothing): level.
     * A Black Panthan on e5 adds e6 d6 f6 d5 f5, none in a corner: 20
     * squares to 15. */
    const char *bare = "C:a1 P:j1 c:j10 p:a10";
    const char *panthan = "C:a1 P:j1 c:j10 p:a10 N:e5";
    assert_true(feature_to_move(bare, 'b', "mobility") == 0);
    assert_true(feature_to_move(bare, 'o', "mobility") == 0);
    assert_true(feature_to_move(panthan, 'b', "mobility") == 5);
    assert_true(feature_to_move(panthan, 'o', "mobility") == -5);
}

static void test_win_now(void **state)
{
    (void)state;
    /* The Flier on d7 reaches e8 (+1,+1), where Orange's Princess is:
     * Black to move takes her; Orange to move has her attacked instead.
     * From d6 e8 is (+1,+2), no Flier square. */
    const char *flier = "C:a1 P:j1 c:j10 p:e8 F:d7";
    assert_true(feature_to_move(flier, 'b', "win_now") == 1);
    assert_true(feature_to_move(flier, 'o', "win_now") == 0);
    assert_true(feature_to_move(flier, 'o', "princess_attackers") == -1);
    const char *off = "C:a1 P:j1 c:j10 p:e8 F:d6";
    assert_true(feature_to_move(off, 'b', "win_now") == 0);
    assert_true(feature_to_move(off, 'o', "win_now") == 0);

    /* Chiefs two squares apart attack each other: whoever moves wins.
     * Four apart, neither reaches. */
    const char *meet = "C:e5 P:j1 c:e7 p:a10";
    assert_true(feature_to_move(meet, 'b', "win_now") == 1);
    assert_true(feature_to_move(meet, 'o', "win_now") == 1);
    const char *apart = "C:e3 P:j1 c:e7 p:a10";
    assert_true(feature_to_move(apart, 'b', "win_now") == 0);
    assert_true(feature_to_move(apart, 'o', "win_now") == 0);

    /* Black's Padwars on a2 b1 b2 wall in its Chief on a1: every path to
     * or from a1 runs through one of them, so the Chiefs (a1, c3) do not
     * meet. The Padwars reach (+-2,+-2), (+-2,0), (0,+-2): not c3. */
    const char *walled = "C:a1 A:a2 A:b1 A:b2 P:j1 c:c3 p:j10";
    assert_true(feature_to_move(walled, 'b', "win_now") == 0);
    assert_true(feature_to_move(walled, 'o', "win_now") == 0);
}

static void test_princess_attackers(void **state)
{
    (void)state;
    /* Orange's Fliers on d4 and f4 both reach e5, (+1,+1) and (-1,+1). */
    const char *two = "C:a1 P:e5 c:j10 p:a10 f:d4 f:f4";
    const char *one = "C:a1 P:e5 c:j10 p:a10 f:d4";
    assert_true(feature_to_move(two, 'b', "princess_attackers") == -2);
    assert_true(feature_to_move(one, 'b', "princess_attackers") == -1);
    /* Orange to move: its own Princess on a10 is not attacked (Black's
     * Chief on a1 reaches rank 4 at most); it can take Black's. */
    assert_true(feature_to_move(two, 'o', "princess_attackers") == 0);
    assert_true(feature_to_move(two, 'o', "win_now") == 1);

    /* The Warrior on e7 reaches e5 only through e6 (two orthogonal
     * steps): a piece on e6 blocks it. */
    const char *open_path = "C:a1 P:e5 c:j10 p:a10 w:e7";
    const char *blocked = "C:a1 P:e5 c:j10 p:a10 w:e7 N:e6";
    assert_true(feature_to_move(open_path, 'b', "princess_attackers") == -1);
    assert_true(feature_to_move(blocked, 'b', "princess_attackers") == 0);
}

static void test_princess_flight(void **state)
{
    (void)state;
    /* Black's Princess on a1 reaches the rest of a1-d4. Black's Panthans
     * fill ranks 2 and 3 of it, leaving b1 c1 d1 a4 b4 c4 d4 (7). Orange's
     * Flier on e5 attacks d4 (-1,-1) and b4 (-3,-1) of them: 5 safe.
     * Orange's Princess on a10 has a7-d10 free and unattacked (15), which
     * counts as the cap of 6. Without the Flier Black has 7, also 6. */
    const char *attacked = "P:a1 N:a2 N:b2 N:c2 N:d2 N:a3 N:b3 N:c3 N:d3 "
                           "C:j1 c:j10 p:a10 f:e5";
    const char *unattacked = "P:a1 N:a2 N:b2 N:c2 N:d2 N:a3 N:b3 N:c3 N:d3 "
                       "C:j1 c:j10 p:a10";
    assert_true(feature_to_move(attacked, 'b', "princess_flight") == 5 - 6);
    assert_true(feature_to_move(attacked, 'o', "princess_flight") == 6 - 5);
    assert_true(feature_to_move(unattacked, 'b', "princess_flight") == 0);
    assert_true(feature_to_move(unattacked, 'o', "princess_flight") == 0);
}

static void test_princess_trapped(void **state)
{
    (void)state;
    /* Orange's Chief on c3 reaches all of a1-d4 but its own square: it
     * attacks Black's Princess on a1 and every square she could go to.
     * Black's Chief on j1 cannot take it. With no escape she is trapped. */
    const char *trap = "P:a1 C:j1 c:c3 p:j10";
    assert_true(feature("jetan", trap, "b -", "princess_trapped") == -1);
    assert_true(feature("jetan", trap, "b -", "princess_flight") == 0 - 6);
    /* Orange to move: its Princess is safe; it takes Black's. */
    assert_true(feature("jetan", trap, "o -", "princess_trapped") == 0);
    assert_true(feature("jetan", trap, "o -", "win_now") == 1);
    /* With Black's escape left, she can jump to an unattacked square. */
    assert_true(feature("jetan", trap, "b P", "princess_trapped") == 0);
    /* A Panthan on b2 attacks c3 (diagonally forward), so the lone
     * attacker can be taken; c3 still reaches every square of a1-d4 but
     * b2 (around it: a1 by b3 a2, b1 by d2 c2), so flight stays 0. */
    const char *taker = "P:a1 N:b2 C:j1 c:c3 p:j10";
    assert_true(feature("jetan", taker, "b -", "princess_trapped") == 0);
    assert_true(feature("jetan", taker, "b -", "princess_flight") == 0 - 6);
}

static void test_princess_escape(void **state)
{
    (void)state;
    const char *start = "jetan";
    struct jetan_state st;
    struct variant v;
    char err[256];
    const struct {
        const char *variant, *fields;
        double expected;
    } cases[] = {
        {start, "b Pp", 0},  {start, "o Pp", 0},  {start, "b P", 1},
        {start, "o P", -1},  {start, "b p", -1},  {start, "o p", 1},
        {start, "b -", 0},
        /* escapes off: the flags in the text mean nothing */
        {"jetan(princess_escape=off)", "b P", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[128];
        snprintf(text, sizeof text, "%s %s", START_BOARD, cases[i].fields);
        if (variant_parse(cases[i].variant, &v, err, sizeof err) != 0
            || jetan_game.from_text(&st, &v, text, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_true(feature_of_state(&st, "princess_escape")
                    == cases[i].expected);
    }
}

static void test_chief_draw(void **state)
{
    (void)state;
    /* Black's Panthan on e5 attacks Orange's Chief on e6 (forward): taking
     * it draws. Black has 100 points (the Panthan), Orange 500 (Dwar 300,
     * Warrior 200): the draw is worth the 400 Black is behind. */
    const char *behind = "C:a1 P:j1 N:e5 c:e6 p:a10 d:j5 w:j7";
    assert_true(feature_to_move(behind, 'b', "chief_draw") == 400);
    assert_true(feature_to_move(behind, 'b', "win_now") == 0);
    /* Orange to move, 400 ahead: the same attack threatens its lead. */
    assert_true(feature_to_move(behind, 'o', "chief_exposed") == -400);
    assert_true(feature_to_move(behind, 'o', "chief_draw") == 0);
    /* Black 400 ahead (a Dwar more): a draw is worth nothing to it, and
     * Orange, behind, loses no lead by the threat. */
    const char *ahead = "C:a1 P:j1 N:e5 D:b5 c:e6 p:a10";
    assert_true(feature_to_move(ahead, 'b', "chief_draw") == 0);
    assert_true(feature_to_move(ahead, 'o', "chief_exposed") == 0);
    /* Black's Chief on e4 attacks the Chief on e6: that is a win, not a
     * draw, so chief_draw stays 0 though Black is 300 behind. */
    const char *chief = "C:e4 P:j1 c:e6 p:a10 d:j5";
    assert_true(feature_to_move(chief, 'b', "chief_draw") == 0);
    assert_true(feature_to_move(chief, 'b', "win_now") == 1);
}

static void test_chief_exposed(void **state)
{
    (void)state;
    /* Orange's Thoat on f7 reaches e5 (-1,-2) by f6 or by e6. Black has a
     * Dwar (300), Orange the Thoat (250): Black to move is 50 ahead and
     * its Chief can be taken for a draw; Orange to move can draw from 50
     * behind. */
    const char *open_path = "C:e5 P:j1 D:b3 c:j10 p:a10 t:f7";
    assert_true(feature_to_move(open_path, 'b', "chief_exposed") == -50);
    assert_true(feature_to_move(open_path, 'o', "chief_draw") == 50);
    /* Panthans on f6 and e6 close both paths (Black 250 ahead now), unless
     * the Thoat jumps. */
    const char *closed = "C:e5 P:j1 D:b3 N:f6 N:e6 c:j10 p:a10 t:f7";
    assert_true(feature("jetan", closed, "b -", "chief_exposed") == 0);
    assert_true(feature("jetan(thoat_jumps=1)", closed, "b -",
                        "chief_exposed") == -250);
}

static void test_capture_value(void **state)
{
    (void)state;
    struct jetan_state st;
    /* Black 400 (Flier, Panthan), Orange 500 (Dwar, Warrior). The Flier
     * on d7 reaches e8 (+1,+1), c6 (-1,-1), a8 (-3,+1) and e6 (+1,-1);
     * the Panthan on b5 takes the Chief on b6. The start has 6600 points
     * on the board: taking the Princess must be worth more. */
    jetan_setup(&st, "jetan", "C:a1 P:j1 F:d7 N:b5 c:b6 p:e8 d:c6 w:a8",
                "b P");
    assert_true(jetan()->capture_value(&st, parse(&st, "d7e8")) > 6600);
    assert_int_equal(jetan()->capture_value(&st, parse(&st, "d7c6")), 300);
    assert_int_equal(jetan()->capture_value(&st, parse(&st, "d7a8")), 200);
    assert_int_equal(jetan()->capture_value(&st, parse(&st, "d7e6")), 0);
    assert_int_equal(jetan()->capture_value(&st, parse(&st, "j1^e5")), 0);
    /* Taking the Chief with the Panthan draws: worth the 100 behind. */
    assert_int_equal(jetan()->capture_value(&st, parse(&st, "b5b6")), 100);
    /* Ahead (the Warrior gone), the same draw is worth nothing. */
    jetan_setup(&st, "jetan", "C:a1 P:j1 F:d7 N:b5 c:b6 p:e8 d:c6", "b -");
    assert_int_equal(jetan()->capture_value(&st, parse(&st, "b5b6")), 0);
    /* The Chief taking the Chief wins. */
    jetan_setup(&st, "jetan", "C:e4 P:j1 c:e6 p:a10", "b -");
    assert_true(jetan()->capture_value(&st, parse(&st, "e4e6")) > 6600);
}

static int forcing(const char *pieces, const char *move)
{
    struct jetan_state st;
    jetan_setup(&st, "jetan", pieces, "b -");
    return jetan()->is_forcing(&st, parse(&st, move));
}

static void test_is_forcing(void **state)
{
    (void)state;
    /* The Flier on a4 reaches b5 b3 b7 b1 d5 d3 d7 d1. From d7 (+1,+1),
     * b7 (+3,+1), d5 (+1,+3) and b5 (+3,+3) it reaches e8; from b3, d3,
     * d1, b1 it does not. */
    const char *flier = "C:a1 P:j1 F:a4 N:h3 c:j10 p:e8";
    assert_true(forcing(flier, "a4d7"));
    assert_true(forcing(flier, "a4b7"));
    assert_true(forcing(flier, "a4d5"));
    assert_true(forcing(flier, "a4b5"));
    assert_false(forcing(flier, "a4b3"));
    assert_false(forcing(flier, "a4d3"));
    assert_false(forcing(flier, "a4d1"));
    assert_false(forcing(flier, "h3h4"));
    /* A capture is not forcing, whatever it attacks after. */
    assert_false(forcing("C:a1 P:j1 F:a4 c:j10 p:e8 n:d7", "a4d7"));

    /* The Padwar from e4 to e6 comes to reach e8 (through d7 or f7). It
     * is forcing unless the Flier on d7 attacks her already. */
    assert_true(forcing("C:a1 P:j1 F:a4 A:e4 c:j10 p:e8", "e4e6"));
    assert_false(forcing("C:a1 P:j1 F:d7 A:e4 c:j10 p:e8", "e4e6"));

    /* Discovered: the Warrior on e6 reaches e8 only through e7, where
     * Black's Princess stands; when she leaves, it attacks. The Warrior
     * itself going to g6 reaches no e8. */
    const char *warrior = "C:a1 P:e7 W:e6 c:j10 p:e8";
    assert_true(forcing(warrior, "e7h4"));
    assert_false(forcing(warrior, "e6g6"));

    /* The Chief to e5 reaches e8 (3 squares): forcing on the Princess;
     * on the Chief it is not (that Chief would take it first). */
    assert_true(forcing("C:e3 P:j1 c:j10 p:e8", "e3e5"));
    assert_false(forcing("C:e3 P:j1 c:e8 p:a10", "e3e5"));
}

/* ---- against the core's legal moves ----------------------------------- */

/* How many pieces of the side to move have a legal move to target; *chief
 * set if its Chief is one of them. */
static int movers_to(const struct jetan_state *st, int target, int *chief)
{
    move_t moves[GAME_MAX_MOVES];
    int n = jetan_game.legal_moves(st, moves), count = 0;
    *chief = 0;
    for (int i = 0; i < n; i++) {
        if (JETAN_TO(moves[i]) != target || JETAN_IS_ESCAPE(moves[i]))
            continue;
        count++;
        *chief |= JETAN_FROM(moves[i]) == st->chief_sq[st->head.side];
    }
    return count;
}

/* st with the other side to move, through the position text. Returns 0
 * if that position is over (it has no move). */
static int flipped(const struct jetan_state *st, const struct variant *v,
                   struct jetan_state *out)
{
    char text[256], err[256];
    assert_true(jetan_game.to_text(st, text, sizeof text) > 0);
    char *side = strchr(text, ' ') + 1;
    *side = *side == 'b' ? 'o' : 'b';
    if (jetan_game.from_text(out, v, text, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    return out->head.outcome == GAME_ONGOING;
}

static int points_of(const struct jetan_state *st, int side)
{
    static const int points[JETAN_KINDS] = {0, 0, 300, 300, 200, 200, 250,
                                            100};
    int sum = 0;
    for (int k = 0; k < JETAN_KINDS; k++)
        sum += st->kind_count[side][k] * points[k];
    return sum;
}

struct seen {
    int attacked, draws, forcing;
};

/* The features that ask which piece attacks a square, and is_forcing,
 * against what the legal moves of st and of st with the other side to
 * move say. */
static void check_against_moves(const struct jetan_state *st,
                                const struct variant *v, struct seen *seen)
{
    const int us = st->head.side, them = us ^ 1;
    struct jetan_state other, after, back;
    int chief, ignored;
    if (!flipped(st, v, &other))
        return;
    const int material = points_of(st, us) - points_of(st, them);
    const int takers = movers_to(st, st->princess_sq[them], &ignored);
    const int on_chief = movers_to(st, st->chief_sq[them], &chief);
    const int attackers = movers_to(&other, st->princess_sq[us], &ignored);
    int their_chief;
    const int on_our_chief = movers_to(&other, st->chief_sq[us],
                                       &their_chief);
    const int we_draw = on_chief - chief > 0, they_draw
                                              = on_our_chief - their_chief > 0;
    assert_true(feature_of_state(st, "win_now") == (takers > 0 || chief));
    assert_true(feature_of_state(st, "princess_attackers") == -attackers);
    assert_true(feature_of_state(st, "chief_draw")
                == (we_draw && material < 0 ? -material : 0));
    assert_true(feature_of_state(st, "chief_exposed")
                == (they_draw && material > 0 ? -material : 0));
    seen->attacked += attackers > 0;
    seen->draws += we_draw + they_draw;

    move_t moves[GAME_MAX_MOVES];
    const int n = jetan_game.legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        if (st->board[JETAN_TO(moves[i])])
            continue;
        memcpy(&after, st, sizeof after);
        jetan_game.apply(&after, moves[i]);
        if (after.head.outcome != GAME_ONGOING || !flipped(&after, v, &back))
            continue;
        const int expected
            = movers_to(&back, st->princess_sq[them], &ignored) > 0
              && takers == 0;
        if (jetan()->is_forcing(st, moves[i]) != expected) {
            char text[256], move[16];
            jetan_game.to_text(st, text, sizeof text);
            jetan_game.move_to_text(st, moves[i], move, sizeof move);
            fail_msg("is_forcing(%s, %s) != %d", text, move, expected);
        }
        seen->forcing += expected;
    }
}

/* Random games (seeded) under the default rules and with jumping Thoats;
 * every position of them is checked. */
static void test_against_moves(void **state)
{
    (void)state;
    const char *variants[] = {"jetan", "jetan(thoat_jumps=1)"};
    struct seen seen = {0};
    struct rng rng;
    rng_seed(&rng, 20261201);
    for (int vi = 0; vi < 2; vi++) {
        struct variant v;
        char err[256];
        assert_int_equal(variant_parse(variants[vi], &v, err, sizeof err), 0);
        for (int game = 0; game < 24; game++) {
            struct jetan_state st;
            jetan_game.init(&st, &v);
            while (st.head.outcome == GAME_ONGOING && st.ply < 150) {
                check_against_moves(&st, &v, &seen);
                move_t moves[GAME_MAX_MOVES];
                int n = jetan_game.legal_moves(&st, moves);
                jetan_game.apply(&st, moves[rng_below(&rng, (uint32_t)n)]);
            }
        }
    }
    /* The checks above must have met the cases they are about. */
    assert_true(seen.attacked >= 50);
    assert_true(seen.draws >= 20);
    assert_true(seen.forcing >= 50);
}

/* A Dwar on e8 attacks the Princess on e5 down the file (e7, e6 empty),
 * with three pieces a side, so the countdown runs. On an open board a
 * Dwar reaches its 4 orthogonal neighbours, (+-2,+-1), (+-1,+-2),
 * (+-3,0) and (0,+-3): from e8 that is e5 and d6, not d5. The Panthan's
 * moves (j3, i3, i2) are ruled out; the Princess's move to d5 (which no
 * Orange piece reaches) is kept, hers to d6 is not; the Chief's move onto
 * e7 (by d5, d6) blocks the file and is kept. With the countdown's last
 * ply or the ply cap next, any move may end the game in a draw: it cannot
 * tell. Without the attack (the Dwar on j8): no threat. */
static void test_threat_replies(void **state)
{
    (void)state;
    static const char *const pieces = "P:e5 C:e4 N:j2 d:e8 c:j10 p:a10";
    struct jetan_state st;
    move_t moves[GAME_MAX_MOVES];
    unsigned char keep[GAME_MAX_MOVES];
    jetan_setup(&st, "jetan", pieces, "b - 5");
    int n = jetan_game.legal_moves(&st, moves);
    assert_int_equal(jetan()->threat_replies(&st, moves, n, keep), 1);
    static const struct {
        const char *move;
        int kept;
    } cases[] = {{"j2j3", 0}, {"j2i3", 0}, {"j2i2", 0}, {"e5d5", 1},
                 {"e5d6", 0}, {"e4e7", 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        move_t m;
        assert_int_equal(game_parse_move(&jetan_game, &st, cases[c].move, &m,
                                         NULL, 0), 0);
        int i = 0;
        while (moves[i] != m)
            i++;
        if (keep[i] != cases[c].kept)
            fail_msg("%s kept %d, not %d", cases[c].move, keep[i],
                     cases[c].kept);
    }
    jetan_setup(&st, "jetan", pieces, "b - 1");
    n = jetan_game.legal_moves(&st, moves);
    assert_int_equal(jetan()->threat_replies(&st, moves, n, keep), 0);
    jetan_setup(&st, "jetan(max_plies=30)", pieces, "b - 5 29");
    n = jetan_game.legal_moves(&st, moves);
    assert_int_equal(jetan()->threat_replies(&st, moves, n, keep), 0);
    jetan_setup(&st, "jetan", "P:e5 C:e4 N:j2 d:j8 c:j10 p:a10", "b - 5");
    n = jetan_game.legal_moves(&st, moves);
    assert_int_equal(jetan()->threat_replies(&st, moves, n, keep), 0);
}

/* threat_replies against the engine on random games of three variants:
 * threats must have been met, moves ruled out in good numbers, and moves
 * that save (so the check above has both sides to tell apart). */
static void test_threat_replies_random(void **state)
{
    (void)state;
    const char *variants[] = {"jetan", "jetan(thoat_jumps=1)",
                              "jetan(princess_escape=safe)"};
    struct threat_tally tally = {0, 0};
    int threats = 0;
    struct rng rng;
    rng_seed(&rng, 20261203);
    for (int vi = 0; vi < 3; vi++) {
        struct variant v;
        char err[256];
        assert_int_equal(variant_parse(variants[vi], &v, err, sizeof err), 0);
        for (int game = 0; game < 30; game++) {
            struct jetan_state st;
            jetan_game.init(&st, &v);
            while (st.head.outcome == GAME_ONGOING) {
                threats += check_threat_replies(&jetan_game, &st, &tally);
                move_t moves[GAME_MAX_MOVES];
                int n = jetan_game.legal_moves(&st, moves);
                jetan_game.apply(&st, moves[rng_below(&rng, (uint32_t)n)]);
            }
        }
    }
    print_message("threat_replies: %d threats, %d moves ruled out, %d "
                  "saving\n", threats, tally.ruled_out, tally.saving);
    assert_true(threats >= 100);
    assert_true(tally.ruled_out >= 2000);
    assert_true(tally.saving >= 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_material),
        cmocka_unit_test(test_mobility),
        cmocka_unit_test(test_win_now),
        cmocka_unit_test(test_princess_attackers),
        cmocka_unit_test(test_princess_flight),
        cmocka_unit_test(test_princess_trapped),
        cmocka_unit_test(test_princess_escape),
        cmocka_unit_test(test_chief_draw),
        cmocka_unit_test(test_chief_exposed),
        cmocka_unit_test(test_capture_value),
        cmocka_unit_test(test_is_forcing),
        cmocka_unit_test(test_against_moves),
        cmocka_unit_test(test_threat_replies),
        cmocka_unit_test(test_threat_replies_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
