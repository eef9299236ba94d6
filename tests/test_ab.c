/*
 * test_ab.c -- the alpha-beta agent (agents/ab.h), checked against the
 * df-pn solver (agents/solve/solver.h), which shares no code with it.
 *
 * Known wins in 1, 3 and 5 plies in every game (test_solver's positions,
 * each with its derivation there and here in a line; the solver confirms
 * here that each is a win in exactly that many plies) are found at that
 * depth with the fastest-win score and a winning first move, and not at
 * two plies less; lost positions are proven lost from either seat; on
 * random small positions ab with quiescence off proves a win at depth d
 * exactly when the solver proves one within d plies (and a loss in 2
 * exactly when every move allows a win in one); the transposition table
 * never changes the move or score of a fixed-depth search; the memory
 * allocated is the table (at most tt_mb MiB) and the per-ply buffers, at
 * create only; the same spec and seed give the same moves at a node
 * budget, and two seeds can give different games; late move reductions
 * (lmr) leave depth 2 alone, save nodes at depth 4 and keep the known wins.
 *
 * No test reads a clock: every search here runs at a depth or a node
 * budget (the one ms test asserts only what any budget guarantees).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ab.h"
#include "agent.h"
#include "game.h"
#include "rng.h"
#include "agent_helpers.h"
#include "random_positions.h"
#include "solver.h"

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

/* ---- allocation counting (the link wraps malloc, calloc, realloc) ----- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static int counting;
static size_t counted_bytes, counted_calls;

void *__wrap_malloc(size_t size)
{
    if (counting)
        counted_bytes += size, counted_calls++;
    return __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    if (counting)
        counted_bytes += n * size, counted_calls++;
    return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    if (counting)
        counted_bytes += size, counted_calls++;
    return __real_realloc(p, size);
}

/* ---- helpers ---------------------------------------------------------- */

/* A position with a known forced win (or loss) in `plies`. */
struct known_position {
    const char *variant, *text;
    int plies;
};

static void setup_text(const char *variant, const char *text,
                       struct variant *v, void *st)
{
    char err[512];
    if (variant_parse(variant, v, err, sizeof err) != 0
        || game_setup(v, st, text, NULL, err, sizeof err) != 0)
        fail_msg("%s %s: %s", variant, text, err);
}

static enum game_outcome win_of(int seat)
{
    return seat == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1;
}

/* Whether the solver proves a win for the side to move within plies. */
static int solver_wins(const struct game *g, const void *st, int plies)
{
    struct solver_options o = {.plies = plies,
                               .max_nodes = 20000000u,
                               .max_mb = 2};
    struct solver_result r;
    char err[256];
    if (g->status(st).outcome != GAME_ONGOING)
        return 0;
    if (solver_solve(g, st, &o, &r, err, sizeof err) != 0)
        fail_msg("solver: %s", err);
    if (r.answer == SOLVER_UNKNOWN)
        fail_msg("solver gave up at %d plies", plies);
    return r.answer == SOLVER_WIN;
}

/* Whether move m from st wins within plies (m counted), by the solver:
 * the game is won at once, or every reply leaves a win within plies - 2. */
static int move_wins(const struct game *g, const void *st, move_t m, int plies)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char reply[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    int seat = g->to_move(st);
    memcpy(after, st, g->state_size);
    g->apply(after, m);
    if (g->status(after).outcome != GAME_ONGOING)
        return g->status(after).outcome == win_of(seat);
    if (plies < 3)
        return 0;
    int n = g->legal_moves(after, moves);
    for (int i = 0; i < n; i++) {
        memcpy(reply, after, g->state_size);
        g->apply(reply, moves[i]);
        struct game_status s = g->status(reply);
        if (s.outcome != GAME_ONGOING ? s.outcome != win_of(seat)
                                      : !solver_wins(g, reply, plies - 2))
            return 0;
    }
    return n > 0;
}

/* Whether the side to move at st can win at once (plain scan). */
static int has_win_in_one(const struct game *g, const void *st)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    int seat = g->to_move(st), n = g->legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->state_size);
        g->apply(child, moves[i]);
        if (g->status(child).outcome == win_of(seat))
            return 1;
    }
    return 0;
}

/* Whether the side to move at st loses within two plies: every move loses
 * at once or leaves the opponent a win in one. */
static int lost_in_two(const struct game *g, const void *st)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    int seat = g->to_move(st), n = g->legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->state_size);
        g->apply(child, moves[i]);
        struct game_status s = g->status(child);
        if (s.outcome != GAME_ONGOING ? s.outcome != win_of(1 - seat)
                                      : !has_win_in_one(g, child))
            return 0;
    }
    return n > 0;
}

/* Runs spec on st and returns the move, with the search's result. */
static move_t search(const char *spec, uint64_t seed, const struct game *g,
                     const void *st, struct ab_info *info)
{
    struct agent *a = make_agent(spec, seed);
    move_t m = agent_choose(a, g, st);
    ab_last_search(a, info);
    assert_int_equal(info->move, m);
    agent_free(a);
    return m;
}

/* ---- forced wins ------------------------------------------------------ */

/* The side to move wins in exactly `plies` (test_solver.c derives each). */
static const struct known_position wins[] = {
    /* tafl: the king on b1 steps into the corner a1 */
    {"tafl", "9/9/9/a8/a8/9/9/9/1k5a1 d", 1},
    /* tafl: the king on e2 reaches rank 1 with two corners to run to */
    {"tafl", "4a4/9/9/a7a/9/9/9/4k4/9 d", 3},
    /* tafl, attackers: g7h7 boxes the king on i7, f6h6 boxes it again */
    {"tafl", "9/8a/6a1k/a4a3/8a/3a5/8d/9/9 a", 5},
    /* serbest: Khan, the king on e9 steps onto rank 10 */
    {"serbest", "10/4K5/10/10/10/10/10/10/k9/10[] w", 1},
    /* serbest, black (seat 1): the king on e2 steps onto rank 1 */
    {"serbest", "10/K9/10/10/10/10/10/10/4k5/10[] b", 1},
    /* serbest: the king on e8 reaches rank 9, then one of three squares */
    {"serbest", "10/10/4K4k/10/10/10/10/10/10/10[] w", 3},
    /* serbest: the same race from e7, black's king five files away */
    {"serbest", "10/10/10/4K4k/10/10/10/10/10/10[] w", 5},
    /* jetan, orange (seat 1): the Flier on c4 jumps onto the Princess */
    {"jetan", "4pc4/10/10/10/10/10/2f7/3N6/4N5/4CP4 o -", 1},
    /* jetan: the Chief on f6 hunts the cornered Princess on a1 */
    {"jetan", "c8p/10/10/10/5C4/10/10/10/10/P9 b -", 3},
    /* jetan: the same hunt from c3, one move further away */
    {"jetan", "c8p/10/10/10/10/10/10/2C7/10/P9 b -", 5},
};

static void test_forced_wins(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(wins); i++) {
        const struct known_position *p = &wins[i];
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        char spec[128];
        struct ab_info info;
        setup_text(p->variant, p->text, &v, st);
        const struct game *g = v.game;
        /* the reference: a win within plies and none within plies - 2 */
        assert_true(solver_wins(g, st, p->plies));
        if (p->plies > 2)
            assert_false(solver_wins(g, st, p->plies - 2));
        /* without quiescence, with it, and with late move reductions: a
         * reduced move that looks good for its mover is searched again in
         * full, so a defender's reduced reply cannot hide the win */
        for (int q = 0; q < 3; q++) {
            snprintf(spec, sizeof spec,
                     "ab(depth=%d,nodes=0,quiescence=%d,lmr=%d)", p->plies,
                     q > 0, q == 2);
            move_t m = search(spec, 1, g, st, &info);
            if (info.score != AB_WIN - p->plies)
                fail_msg("%s %s, %s: score %d, expected a win in %d",
                         p->variant, p->text, spec, info.score, p->plies);
            if (!move_wins(g, st, m, p->plies))
                fail_msg("%s %s: ab's move does not win", p->variant,
                         p->text);
        }
        if (p->plies > 2) {
            snprintf(spec, sizeof spec, "ab(depth=%d,nodes=0,quiescence=0)",
                     p->plies - 2);
            search(spec, 1, g, st, &info);
            assert_true(info.score < AB_WIN - AB_MATE_RANGE);
        }
        /* and plain ab, at its default budget, plays a winning move */
        struct agent *a = make_agent("ab", 7);
        move_t m = agent_choose(a, g, st);
        if (a->stats.proven != 1)
            fail_msg("%s %s: plain ab: proven %d", p->variant, p->text,
                     a->stats.proven);
        assert_true(a->stats.value == 1.0);
        assert_true(move_wins(g, st, m, p->plies));
        agent_free(a);
    }
}

/* The side to move loses in two: the win in 3 positions after the
 * winner's first move (every reply allows a win in one). */
static const struct known_position lost[] = {
    {"tafl", "4a4/9/9/a7a/9/9/9/9/4k4 a", 2}, /* attackers, seat 0 */
    {"serbest", "10/4K4k/10/10/10/10/10/10/10/10[] b", 2}, /* seat 1 */
    {"jetan", "c8p/10/7C2/10/10/10/10/10/10/P9 o -", 2}, /* seat 1 */
    /* serbest, white (seat 0): black's king on e2 reaches rank 1 */
    {"serbest", "10/10/10/10/K9/10/10/10/4k5/10[] w", 2},
};

static void test_lost_positions(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(lost); i++) {
        const struct known_position *p = &lost[i];
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        struct ab_info info;
        setup_text(p->variant, p->text, &v, st);
        assert_true(lost_in_two(v.game, st));
        struct agent *a = make_agent("ab(depth=2,nodes=0)", 3);
        agent_choose(a, v.game, st);
        ab_last_search(a, &info);
        if (info.score != -(AB_WIN - 2))
            fail_msg("%s %s: score %d, expected a loss in 2", p->variant,
                     p->text, info.score);
        assert_int_equal(a->stats.proven, -1);
        assert_true(a->stats.value == 0.0);
        agent_free(a);
    }
}

/* The material sign from both seats: the side a Queen up scores above
 * 0.5, the side a Queen down below, whichever seat it plays (no capture
 * is possible in either position, so quiescence sees the same). */
static void test_material_sign(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "10/10/10/10/4k5/10/10/10/10/Q1K7[] w", /* white ahead, to move */
        "10/10/10/10/4k5/10/10/10/10/Q1K7[] b", /* black behind, to move */
        "4k5/q9/10/10/10/10/4K5/10/10/10[] b", /* black ahead, to move */
        "4k5/q9/10/10/10/10/4K5/10/10/10[] w", /* white behind, to move */
    };
    for (size_t i = 0; i < COUNT(texts); i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        setup_text("serbest", texts[i], &v, st);
        struct agent *a = make_agent("ab(depth=2,nodes=0)", 1);
        agent_choose(a, v.game, st);
        int ahead = i % 2 == 0;
        if (ahead ? !(a->stats.value > 0.9) : !(a->stats.value < 0.1))
            fail_msg("%s: value %.3f", texts[i], a->stats.value);
        agent_free(a);
    }
}

/* ---- random positions ------------------------------------------------- */

static const char *const game_names[3] = {"tafl", "serbest", "jetan"};

/* ab at depth d without quiescence proves a win iff the solver proves
 * one within d plies, with the fastest win's score; at depth 2 it proves
 * a loss iff every move allows a win in one. */
static void test_solver_agreement(void **state)
{
    (void)state;
    static const int max_depth[3] = {4, 4, 3};
    for (int game = 0; game < 3; game++) {
        struct rng r;
        rng_seed(&r, 1000 + (uint64_t)game);
        int wins_seen = 0, losses_seen = 0, count = 100;
        for (int i = 0; i < count; i++) {
            struct variant v;
            _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
            char text[512];
            random_position(game, &r, &v, st);
            const struct game *g = v.game;
            g->to_text(st, text, sizeof text);
            int shortest = 0;
            for (int d = 1; d <= max_depth[game]; d++) {
                char spec[96];
                struct ab_info info;
                int expect = solver_wins(g, st, d);
                if (expect && !shortest)
                    shortest = d;
                snprintf(spec, sizeof spec,
                         "ab(depth=%d,nodes=0,quiescence=0)", d);
                move_t m = search(spec, (uint64_t)i, g, st, &info);
                int found = info.score >= AB_WIN - AB_MATE_RANGE;
                if (found != expect)
                    fail_msg("%s %s, depth %d: ab %s, solver %s",
                             game_names[game], text, d,
                             found ? "win" : "no win",
                             expect ? "win" : "no win");
                if (expect && info.score != AB_WIN - shortest)
                    fail_msg("%s %s, depth %d: score %d, fastest win %d",
                             game_names[game], text, d, info.score, shortest);
                if (expect && !move_wins(g, st, m, shortest))
                    fail_msg("%s %s, depth %d: the move does not win",
                             game_names[game], text, d);
                if (d == 2) {
                    int is_lost = lost_in_two(g, st);
                    int proven_lost = info.score <= -(AB_WIN - AB_MATE_RANGE);
                    if (is_lost != proven_lost)
                        fail_msg("%s %s: lost in two %d, ab %d",
                                 game_names[game], text, is_lost, proven_lost);
                    losses_seen += is_lost;
                }
            }
            wins_seen += shortest > 0;
        }
        print_message("%s: %d positions, %d wins within %d plies, %d lost "
                      "in two\n", game_names[game], count, wins_seen,
                      max_depth[game], losses_seen);
        assert_true(wins_seen >= count / 10);
        assert_true(wins_seen <= count - count / 10);
    }
}

/* A position some random plies into a game from its start. */
static void random_midgame(int game, struct rng *r, int plies,
                           struct variant *v, void *st)
{
    char err[256];
    for (;;) {
        if (variant_parse(game_names[game], v, err, sizeof err) != 0)
            fail_msg("%s", err);
        const struct game *g = v->game;
        g->init(st, v);
        for (int i = 0; i < plies && g->status(st).outcome == GAME_ONGOING;
             i++) {
            move_t moves[GAME_MAX_MOVES];
            int n = g->legal_moves(st, moves);
            g->apply(st, moves[rng_below(r, (uint32_t)n)]);
        }
        if (g->status(st).outcome == GAME_ONGOING)
            return;
    }
}

/* The same fixed-depth search with the table and without: same move,
 * same score, on small positions and positions from random games, with
 * and without contempt. */
static void test_table_changes_nothing(void **state)
{
    (void)state;
    static const int depth[3] = {3, 2, 3};
    for (int game = 0; game < 3; game++) {
        struct rng r;
        rng_seed(&r, 77 + (uint64_t)game);
        for (int i = 0; i < 24; i++) {
            struct variant v;
            _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
            if (i % 2)
                random_position(game, &r, &v, st);
            else
                random_midgame(game, &r, 20 + (int)rng_below(&r, 40), &v, st);
            char with[96], without[96], text[4096];
            struct ab_info a, b;
            int d = depth[game] + (i % 2);
            /* every third with contempt: draws then score by the root's
             * seat, which the table key must carry */
            const char *more = i % 3 == 2 ? ",contempt=150" : "";
            snprintf(with, sizeof with, "ab(depth=%d,nodes=0,tt_mb=4%s)", d,
                     more);
            snprintf(without, sizeof without,
                     "ab(depth=%d,nodes=0,tt_mb=0%s)", d, more);
            move_t ma = search(with, (uint64_t)i, v.game, st, &a);
            move_t mb = search(without, (uint64_t)i, v.game, st, &b);
            if (ma != mb || a.score != b.score) {
                v.game->to_text(st, text, sizeof text);
                fail_msg("%s %s depth %d: with the table %d (%#x), without "
                         "%d (%#x)", game_names[game], text, d, a.score,
                         (unsigned)ma, b.score, (unsigned)mb);
            }
        }
    }
}

/* Late move reductions (lmr=1): a node reduces only with 3 or more
 * plies left, so a depth-2 search is the same as without them (move,
 * score and nodes); at depth 4 the reduced searches make fewer nodes
 * over random midgames of tafl and Jetan and random small positions of
 * Serbest (whose midgames take minutes there). test_forced_wins finds
 * the known wins with them too. */
static void test_late_move_reductions(void **state)
{
    (void)state;
    for (int game = 0; game < 3; game++) {
        struct rng r;
        rng_seed(&r, 31 + (uint64_t)game);
        uint64_t nodes_plain = 0, nodes_lmr = 0;
        for (int i = 0; i < 4; i++) {
            struct variant v;
            _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
            if (game == 1) /* Serbest's midgames take minutes there */
                random_position(game, &r, &v, st);
            else
                random_midgame(game, &r, 10 + (int)rng_below(&r, 30), &v,
                               st);
            struct ab_info a, b;
            move_t ma = search("ab(depth=2,nodes=0,lmr=1)", 3, v.game, st, &a);
            move_t mb = search("ab(depth=2,nodes=0)", 3, v.game, st, &b);
            assert_int_equal(ma, mb);
            assert_int_equal(a.score, b.score);
            assert_true(a.nodes == b.nodes);
            search("ab(depth=4,nodes=0,lmr=1)", 3, v.game, st, &a);
            search("ab(depth=4,nodes=0)", 3, v.game, st, &b);
            nodes_lmr += a.nodes;
            nodes_plain += b.nodes;
        }
        if (nodes_lmr >= nodes_plain)
            fail_msg("%s: depth 4 with lmr=1 %llu nodes, without %llu",
                     game_names[game], (unsigned long long)nodes_lmr,
                     (unsigned long long)nodes_plain);
    }
}

/* The table tells positions apart by their counters: an agent that has
 * just searched a small tafl or Serbest position searches the same board
 * 97 plies into the no-capture count (limit 100, so every line without a
 * capture is drawn on the third ply) and must score it as an agent with
 * no table does (the same score). A table keyed by the board alone would return the first
 * search's values. */
static void test_table_sees_counters(void **state)
{
    (void)state;
    const char *spec = "ab(depth=4,nodes=0,tt_mb=4,quiescence=0)";
    for (int game = 0; game < 2; game++) {
        struct rng r;
        rng_seed(&r, 500 + (uint64_t)game);
        int differ = 0; /* positions whose two counts score differently */
        for (int i = 0; i < 12; i++) {
            struct variant v;
            _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
            _Alignas(GAME_STATE_ALIGN) unsigned char late[GAME_MAX_STATE_SIZE];
            char text[512], err[256];
            do {
                if (game == 0)
                    random_tafl(&r, text);
                else
                    random_serbest(&r, text);
                if (variant_parse(game_names[game], &v, err, sizeof err) != 0)
                    fail_msg("%s", err);
            } while (game_setup(&v, st, text, NULL, err, sizeof err) != 0
                     || v.game->status(st).outcome != GAME_ONGOING);
            strcat(text, " 97");
            if (game_setup(&v, late, text, NULL, err, sizeof err) != 0)
                fail_msg("%s: %s", text, err);
            struct agent *a = make_agent(spec, 1);
            struct ab_info early, with, without;
            agent_choose(a, v.game, st);
            ab_last_search(a, &early);
            agent_choose(a, v.game, late);
            ab_last_search(a, &with);
            agent_free(a);
            /* (the move may differ: the agent shuffles its root again for
             * every move, so equal moves are ordered otherwise) */
            search("ab(depth=4,nodes=0,tt_mb=0,quiescence=0)", 1, v.game,
                   late, &without);
            if (with.score != without.score)
                fail_msg("%s %s: after the search at count 0 %d, alone %d",
                         game_names[game], text, with.score, without.score);
            differ += early.score != without.score;
        }
        /* the counters did change the answers */
        assert_true(differ >= 3);
    }
}

/* The table is kept between moves, and a win stored there is read back
 * at another distance from the root: after the win in 5's first move and
 * any reply, the same agent scores the win left (1 or 3 plies, by the
 * solver) exactly. */
static void test_table_across_moves(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(wins); i++) {
        const struct known_position *p = &wins[i];
        if (p->plies != 5)
            continue;
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        _Alignas(GAME_STATE_ALIGN) unsigned char cur[GAME_MAX_STATE_SIZE];
        move_t replies[GAME_MAX_MOVES];
        struct ab_info info;
        setup_text(p->variant, p->text, &v, st);
        const struct game *g = v.game;
        struct agent *a = make_agent("ab(depth=5,nodes=0)", 1);
        move_t m = agent_choose(a, g, st);
        g->apply(st, m);
        int n = g->legal_moves(st, replies);
        for (int k = 0; k < n; k += 1 + n / 6) {
            memcpy(cur, st, g->state_size);
            g->apply(cur, replies[k]);
            if (g->status(cur).outcome != GAME_ONGOING)
                continue;
            int left = solver_wins(g, cur, 1) ? 1 : 3;
            assert_true(solver_wins(g, cur, left));
            agent_choose(a, g, cur);
            ab_last_search(a, &info);
            if (info.score != AB_WIN - left)
                fail_msg("%s %s, reply %d: score %d, expected a win in %d",
                         p->variant, p->text, k, info.score, left);
        }
        agent_free(a);
    }
}

/* ---- memory, budgets, determinism ------------------------------------ */

/* Bytes and calls allocated by agent_create(spec); the agent is freed. */
static size_t create_bytes(const char *spec, struct agent **keep)
{
    struct agent *a;
    char err[512];
    counted_bytes = counted_calls = 0;
    counting = 1;
    int rc = agent_create(spec, 1, &a, err, sizeof err);
    counting = 0;
    assert_int_equal(rc, 0);
    if (keep)
        *keep = a;
    else
        agent_free(a);
    return counted_bytes;
}

static void test_memory_cap(void **state)
{
    (void)state;
    size_t base = create_bytes("ab(tt_mb=0)", NULL);
    for (int mb = 1; mb <= 8; mb *= 2) {
        char spec[64];
        snprintf(spec, sizeof spec, "ab(tt_mb=%d)", mb);
        size_t table = create_bytes(spec, NULL) - base;
        /* a power of two of entries: at most mb MiB, more than half */
        assert_true(table <= (size_t)mb << 20);
        assert_true(table > (size_t)mb << 19);
    }
    /* the per-ply buffers are what ab.h says, and searching allocates
     * nothing: a whole game on each game with a small table */
    for (int game = 0; game < 3; game++) {
        struct agent *a;
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        size_t bytes = create_bytes("ab(tt_mb=1,nodes=4000)", &a);
        /* beside ab's own: the struct agent, and a few bytes of slack */
        if (bytes > ab_memory_bytes(60, 8, 1) + sizeof(struct agent) + 64)
            fail_msg("%zu bytes, ab.h: %zu", bytes, ab_memory_bytes(60, 8, 1));
        setup_text(game_names[game], NULL, &v, st);
        for (int ply = 0; ply < 30 && v.game->status(st).outcome == GAME_ONGOING;
             ply++) {
            counted_calls = 0;
            counting = 1;
            move_t m = agent_choose(a, v.game, st);
            counting = 0;
            assert_int_equal(counted_calls, 0);
            v.game->apply(st, m);
        }
        agent_free(a);
    }
}

/* Plays ab against itself (spec, seed) for up to `plies` plies from the
 * start of game, writing the moves; returns how many. */
static int self_play(const char *spec, uint64_t seed, int game, int plies,
                     move_t *moves, uint64_t *nodes)
{
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    setup_text(game_names[game], NULL, &v, st);
    struct agent *a = make_agent(spec, seed), *b = make_agent(spec, seed + 1);
    int n = 0;
    *nodes = 0;
    while (n < plies && v.game->status(st).outcome == GAME_ONGOING) {
        struct agent *mover = n % 2 ? b : a;
        move_t m = agent_choose(mover, v.game, st);
        *nodes += mover->stats.iterations;
        agent_observe(a, v.game, st, m);
        agent_observe(b, v.game, st, m);
        v.game->apply(st, m);
        moves[n++] = m;
    }
    agent_free(a);
    agent_free(b);
    return n;
}

static void test_determinism(void **state)
{
    (void)state;
    for (int game = 0; game < 3; game++) {
        move_t first[64], again[64];
        uint64_t nodes1, nodes2;
        int n1 = self_play("ab(nodes=1500)", 5, game, 40, first, &nodes1);
        int n2 = self_play("ab(nodes=1500)", 5, game, 40, again, &nodes2);
        assert_int_equal(n1, n2);
        assert_memory_equal(first, again, sizeof first[0] * (size_t)n1);
        assert_true(nodes1 == nodes2);
        /* reductions depend on the move order (history, killers, table),
         * which is itself reproducible */
        n1 = self_play("ab(nodes=3000,lmr=1)", 5, game, 40, first, &nodes1);
        n2 = self_play("ab(nodes=3000,lmr=1)", 5, game, 40, again, &nodes2);
        assert_int_equal(n1, n2);
        assert_memory_equal(first, again, sizeof first[0] * (size_t)n1);
        assert_true(nodes1 == nodes2);
        /* the budget holds: 1500 nodes a move, past depth 1 */
        assert_true(nodes1 > 0);
        /* and other seeds give other games (four tried) */
        int differ = 0;
        for (uint64_t seed = 6; seed < 10 && !differ; seed++) {
            int n3 = self_play("ab(nodes=1500)", seed, game, 40, again,
                               &nodes2);
            differ = n3 != n1 || memcmp(first, again,
                                        sizeof first[0] * (size_t)n1) != 0;
        }
        if (!differ)
            fail_msg("%s: seeds 5 to 9 all play the same game",
                     game_names[game]);
    }
}

/* A node budget stops the search past depth 1 near the budget, and a
 * wall-clock budget of 1 ms still completes depth 1 with a legal move. */
static void test_budgets(void **state)
{
    (void)state;
    for (int game = 0; game < 3; game++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        move_t moves[GAME_MAX_MOVES];
        setup_text(game_names[game], NULL, &v, st);
        int n = v.game->legal_moves(st, moves), legal = 0;
        struct agent *a = make_agent("ab(ms=1,nodes=0)", 2);
        move_t m = agent_choose(a, v.game, st);
        for (int i = 0; i < n; i++)
            legal |= moves[i] == m;
        assert_true(legal);
        assert_true(a->stats.depth >= 1);
        agent_free(a);
        a = make_agent("ab(depth=1,nodes=0)", 2);
        agent_choose(a, v.game, st);
        uint64_t depth1 = a->stats.iterations;
        agent_free(a);
        a = make_agent("ab(nodes=20000)", 2);
        agent_choose(a, v.game, st);
        /* depth 1 always completes; past it the budget stops the search
         * at the first node after it is spent, once a look for a win at
         * once (at most max_moves positions) in progress has finished */
        uint64_t spent = depth1 > 20000 ? depth1 : 20000;
        assert_true(a->stats.iterations
                    <= spent + 1 + (uint64_t)v.game->max_moves);
        assert_true(a->stats.depth >= 1);
        agent_free(a);
    }
}

/* The reverse of a tafl move "e1e3" is "e3e1": a man's step back. */
static void reverse_text(const char *text, char *out)
{
    snprintf(out, 8, "%.2s%.2s", text + 2, text);
}

/* repdraw: a position met before in the game scores as a draw inside the
 * search. Setup (tafl without its repetition and shuttle rules, so the
 * game itself draws nothing): the agent's choice X from the start, then
 * a four-ply shuttle X, Y, X back, Y back that returns to the start with
 * the position after X seen once. With a contempt so large that a draw is
 * worse than any evaluation, repdraw=1 must now avoid X; repdraw=0 (told
 * the same moves) keeps choosing it, as the game rules see no draw. */
static void test_repetition_as_draw(void **state)
{
    (void)state;
    const char *variant = "tafl(repetition_draw=0,repetition_limit=0)";
    for (uint64_t seed = 1; seed <= 4; seed++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        setup_text(variant, NULL, &v, st);
        const struct game *g = v.game;
        struct ab_info info;
        move_t x = search("ab(depth=2,nodes=0)", seed, g, st, &info);
        char line[4][8], err[256];
        g->move_to_text(st, x, line[0], sizeof line[0]);
        reverse_text(line[0], line[2]);
        /* Y: the opponent's first move, after X, that can step back (the
         * board comes back; the move counters differ, so compare hashes) */
        _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE];
        game_copy_state(g, after, st);
        g->apply(after, x);
        move_t moves[GAME_MAX_MOVES];
        int n = g->legal_moves(after, moves), found = 0;
        for (int i = 0; i < n && !found; i++) {
            _Alignas(GAME_STATE_ALIGN) unsigned char t[GAME_MAX_STATE_SIZE];
            game_copy_state(g, t, after);
            g->move_to_text(t, moves[i], line[1], sizeof line[1]);
            reverse_text(line[1], line[3]);
            char text[64];
            snprintf(text, sizeof text, "%s %s %s %s", line[0], line[1],
                     line[2], line[3]);
            found = game_setup(&v, t, NULL, text, err, sizeof err) == 0
                    && g->hash(t) == g->hash(st);
        }
        assert_true(found);
        for (int repdraw = 0; repdraw <= 1; repdraw++) {
            char spec[96];
            snprintf(spec, sizeof spec,
                     "ab(depth=2,nodes=0,contempt=90000,repdraw=%d)",
                     repdraw);
            struct agent *a = make_agent(spec, seed);
            _Alignas(GAME_STATE_ALIGN) unsigned char p[GAME_MAX_STATE_SIZE];
            game_copy_state(g, p, st);
            for (int i = 0; i < 4; i++) {
                move_t m;
                if (game_parse_move(g, p, line[i], &m, err, sizeof err))
                    fail_msg("%s: %s", line[i], err);
                agent_observe(a, g, p, m);
                g->apply(p, m);
            }
            move_t chosen = agent_choose(a, g, p);
            if (repdraw)
                assert_true(chosen != x);
            else
                assert_int_equal(chosen, x);
            agent_free(a);
        }
    }
}

/* A search with no budget at all (nodes=0, ms=0 and depth at its
 * default of 60) is refused when the spec is read, naming the
 * parameters; a depth, node or time budget alone is accepted. */
static void test_no_budget_refused(void **state)
{
    (void)state;
    char err[512];
    struct agent *a = NULL;
    assert_int_equal(agent_create("ab(nodes=0,ms=0)", 1, &a, err,
                                  sizeof err), -1);
    assert_null(a);
    assert_non_null(strstr(err, "nodes=0"));
    assert_non_null(strstr(err, "depth"));
    char id[256];
    assert_int_equal(agent_identity("ab(nodes=0)", id, sizeof id, err,
                                    sizeof err), -1);
    const char *ok[] = {"ab(nodes=0,depth=3)", "ab(nodes=0,ms=5)", "ab",
                        "ab(nodes=1)"};
    for (size_t i = 0; i < COUNT(ok); i++) {
        if (agent_create(ok[i], 1, &a, err, sizeof err) != 0)
            fail_msg("%s: %s", ok[i], err);
        agent_free(a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forced_wins),
        cmocka_unit_test(test_lost_positions),
        cmocka_unit_test(test_material_sign),
        cmocka_unit_test(test_solver_agreement),
        cmocka_unit_test(test_table_changes_nothing),
        cmocka_unit_test(test_table_sees_counters),
        cmocka_unit_test(test_late_move_reductions),
        cmocka_unit_test(test_table_across_moves),
        cmocka_unit_test(test_memory_cap),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_budgets),
        cmocka_unit_test(test_repetition_as_draw),
        cmocka_unit_test(test_no_budget_refused),
    };
    return cmocka_run_group_tests_name("ab", tests, NULL, NULL);
}
