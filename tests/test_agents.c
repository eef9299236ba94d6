/*
 * test_agents.c -- the random and MCTS agents on every game: wins in one
 * are taken and threats of one are parried (every seed), the solver proves
 * wins in three plies and lost positions, the same seed gives the same
 * game, the node pool cap holds, and MCTS beats random.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ab.h"
#include "agent.h"
#include "eval.h"
#include "game.h"
#include "mcts_node.h"
#include "agent_helpers.h"
#include "test_scale.h"
#include "serbest.h"

/* Whether the side to move in st can win at once. */
static int has_win_in_one(const struct game *g, const void *st)
{
    move_t moves[GAME_MAX_MOVES];
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    int seat = g->to_move(st), n = g->legal_moves(st, moves);
    enum game_outcome win = seat == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1;
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->state_size);
        g->apply(child, moves[i]);
        if (g->status(child).outcome == win)
            return 1;
    }
    return 0;
}

/* Whether every reply to the move m from st leaves the mover a win in one
 * (or m wins at once). */
static int forces_win(const struct game *g, const void *st, move_t m)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE], reply[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    int seat = g->to_move(st);
    memcpy(after, st, g->state_size);
    g->apply(after, m);
    if (g->status(after).outcome == (seat == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1))
        return 1;
    int n = g->legal_moves(after, moves);
    if (n == 0)
        return 0;
    for (int i = 0; i < n; i++) {
        memcpy(reply, after, g->state_size);
        g->apply(reply, moves[i]);
        if (g->status(reply).outcome != GAME_ONGOING || !has_win_in_one(g, reply))
            return 0;
    }
    return 1;
}

/* ---- positions, one set per game ------------------------------------- */

/* The side to move wins in one ply. */
static const struct position win_in_one[] = {
    {"serbest", "10/4K5/10/10/10/10/10/10/k9/10[] w"}, /* Khan: e9 to rank 10 */
    {"tafl", "9/9/9/a8/a8/9/9/9/1k5a1 d"}, /* the king to a1 */
    /* the Orange Flier on c4 jumps d3 and e2 onto the Princess on f1 */
    {"jetan", "4pc4/10/10/10/10/10/2f7/3N6/4N5/4CP4 o -"},
};

/* The opponent threatens to win in one; the side to move can stop it. */
static const struct position threat[] = {
    /* black's king on e2 threatens Khan on rank 1; a rook drop on rank 1
     * or a check that keeps it off stops it */
    {"serbest", "10/10/10/10/10/10/10/10/4k5/10[R] w"},
    /* the king on a3 threatens a1; the attacker on e2 can block a2 */
    {"tafl", "4a4/9/9/9/9/d8/k8/4a4/9 a"},
    /* the Chief on d4 takes a1 along c3-b2 and reaches every square the
     * Princess can flee to (her escape is used); the Warrior on c1 blocks
     * on b2 or c3 */
    {"jetan", "9p/10/10/10/10/10/3c6/10/10/P1W6C b -"},
};

/* The side to move has a forced win in three plies, none in one. */
static const struct position win_in_three[] = {
    /* the king steps to e9 and is Khan next move whatever black does */
    {"serbest", "10/10/4K4k/10/10/10/10/10/10/10[] w"},
    /* the king steps onto rank 1 and has two corners to run to */
    {"tafl", "4a4/9/9/a7a/9/9/9/4k4/9 d"},
    /* the Chief steps into g7-i9 and then reaches j10 and every square the
     * cornered Princess can move to (escapes used); the Chief on a10 is
     * too far to help */
    {"jetan", "c8p/10/10/10/5C4/10/10/10/10/P9 b -"},
};

/* The side to move has lost: every move allows a win in one (the
 * positions above after their first move). */
static const struct position lost[] = {
    {"serbest", "10/4K4k/10/10/10/10/10/10/10/10[] b"},
    {"tafl", "4a4/9/9/a7a/9/9/9/9/4k4 a"},
    {"jetan", "c8p/10/7C2/10/10/10/10/10/10/P9 o -"}, /* after f6h8 */
};

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

static void test_plays_win_in_one(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(win_in_one); i++) {
        for (uint64_t seed = 1; seed <= 10; seed++) {
            struct variant v;
            _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
            setup(&win_in_one[i], &v, st);
            const struct game *g = v.game;
            int seat = g->to_move(st);
            struct agent *a = make_agent("mcts(iterations=300)", seed);
            move_t m = agent_choose(a, g, st);
            g->apply(st, m);
            if (g->status(st).outcome != (seat ? GAME_WIN_SEAT1 : GAME_WIN_SEAT0))
                fail_msg("%s seed %llu: did not win at once",
                         win_in_one[i].text, (unsigned long long)seed);
            assert_int_equal(a->stats.proven, 1);
            agent_free(a);
        }
    }
}

static void test_stops_threat(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(threat); i++) {
        for (uint64_t seed = 1; seed <= 10; seed++) {
            struct variant v;
            _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
            setup(&threat[i], &v, st);
            const struct game *g = v.game;
            assert_false(has_win_in_one(g, st));
            struct agent *a = make_agent("mcts(iterations=1000)", seed);
            move_t m = agent_choose(a, g, st);
            g->apply(st, m);
            if (g->status(st).outcome == GAME_ONGOING && has_win_in_one(g, st))
                fail_msg("%s seed %llu: left the threat open",
                         threat[i].text, (unsigned long long)seed);
            agent_free(a);
        }
    }
}

static void test_solver_proves_win_in_three(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(win_in_three); i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        setup(&win_in_three[i], &v, st);
        const struct game *g = v.game;
        assert_false(has_win_in_one(g, st));
        struct agent *a = make_agent("mcts(iterations=100000)", 7);
        move_t m = agent_choose(a, g, st);
        if (a->stats.proven != 1)
            fail_msg("%s: not proven (%llu iterations)", win_in_three[i].text,
                     (unsigned long long)a->stats.iterations);
        assert_true(a->stats.iterations < 100000); /* stopped once proven */
        assert_true(forces_win(g, st, m));
        agent_free(a);
    }
}

static void test_solver_proves_loss(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(lost); i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        setup(&lost[i], &v, st);
        struct agent *a = make_agent("mcts(iterations=100000)", 7);
        agent_choose(a, v.game, st);
        if (a->stats.proven != -1)
            fail_msg("%s: not proven lost", lost[i].text);
        agent_free(a);
    }
}

/* Plays a whole game between two agents; writes the moves into out. */
static int play_out(const char *variant, const char *spec0, const char *spec1,
                    uint64_t seed, move_t *out, int max, enum game_outcome *result)
{
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    variant_parse(variant, &v, NULL, 0);
    const struct game *g = v.game;
    g->init(st, &v);
    struct agent *seats[2] = {make_agent(spec0, seed * 2),
                              make_agent(spec1, seed * 2 + 1)};
    int n = 0;
    while (g->status(st).outcome == GAME_ONGOING) {
        move_t m = agent_choose(seats[g->to_move(st)], g, st);
        if (n < max)
            out[n] = m;
        n++;
        for (int i = 0; i < 2; i++)
            agent_observe(seats[i], g, st, m);
        g->apply(st, m);
    }
    *result = g->status(st).outcome;
    agent_free(seats[0]);
    agent_free(seats[1]);
    return n;
}

static void test_same_seed_same_game(void **state)
{
    (void)state;
    const char *variants[] = {"tafl", "serbest(max_plies=60)"};
    for (int i = 0; i < 2; i++) {
        move_t a[600], b[600], c[600];
        enum game_outcome ra, rb, rc;
        const char *spec = "mcts(iterations=150)";
        int na = play_out(variants[i], spec, "random", 5, a, 600, &ra);
        int nb = play_out(variants[i], spec, "random", 5, b, 600, &rb);
        int nc = play_out(variants[i], spec, "random", 6, c, 600, &rc);
        assert_int_equal(na, nb);
        assert_int_equal(ra, rb);
        assert_memory_equal(a, b, sizeof a[0] * (size_t)(na < 600 ? na : 600));
        /* and another seed gives another game */
        assert_true(nc != na || memcmp(a, c, sizeof a[0] * (size_t)(na < 600 ? na : 600)));
    }
}

static void test_node_cap(void **state)
{
    (void)state;
    const char *variants[] = {"tafl", "serbest"};
    for (int i = 0; i < 2; i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        variant_parse(variants[i], &v, NULL, 0);
        const struct game *g = v.game;
        g->init(st, &v);
        /* room for the root's children and a few more: the tree stops
         * growing and the search still answers with a legal move */
        struct agent *a = make_agent("mcts(iterations=1000,max_nodes=1000)", 3);
        int hit_cap = 0;
        for (int ply = 0; ply < 6 && g->status(st).outcome == GAME_ONGOING; ply++) {
            move_t m = agent_choose(a, g, st), moves[GAME_MAX_MOVES];
            assert_true(a->stats.nodes <= 1000);
            hit_cap |= a->stats.hit_cap;
            int n = g->legal_moves(st, moves), legal = 0;
            for (int k = 0; k < n; k++)
                legal |= moves[k] == m;
            assert_true(legal);
            agent_observe(a, g, st, m);
            g->apply(st, m);
        }
        assert_true(hit_cap);
        agent_free(a);
        /* no room even for the root's children */
        a = make_agent("mcts(iterations=50,max_nodes=2)", 3);
        g->init(st, &v);
        move_t m = agent_choose(a, g, st);
        char err[128], text[32];
        g->move_to_text(st, m, text, sizeof text);
        assert_int_equal(game_parse_move(g, st, text, &m, err, sizeof err), 0);
        assert_true(a->stats.hit_cap);
        agent_free(a);
    }
}

static void test_bad_specs(void **state)
{
    (void)state;
    struct agent *a;
    char err[4096];
    assert_int_equal(agent_create("alphazero", 1, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown agent 'alphazero'"));
    assert_non_null(strstr(err, "iterations   default 1000"));
    assert_int_equal(agent_create("mcts(iters=5)", 1, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown key 'iters'"));
    assert_int_equal(agent_create("mcts(c=-1)", 1, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad value '-1' for c (allowed: 0..100)"));
    assert_int_equal(agent_create("mcts(c=1.5,iterations=20)", 1, &a, err,
                                  sizeof err), 0);
    assert_string_equal(a->spec, "mcts(bias=0,c=1.5,decisive=1,epsilon=0.1,"
                        "eval_cut=0,eval_scale=200,iterations=20,max_mb=64,"
                        "max_nodes=0,ms=0,playout=random,playout_cap=0,"
                        "prior=capture,reuse=1,solver=1,widen=0)");
    agent_free(a);
}

/* MCTS with a modest budget against random, both seat orders. */
static void test_mcts_beats_random(void **state)
{
    (void)state;
    const struct { const char *variant, *spec; } cases[] = {
        {"tafl", "mcts(iterations=150)"},
        {"serbest", "mcts(iterations=300,playout_cap=60)"},
        {"jetan", "mcts(iterations=150)"},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        double score = 0;
        int games = (int)test_scaled(24, 12);
        for (int k = 0; k < games; k++) {
            move_t moves[1];
            enum game_outcome r;
            int mcts_seat = k % 2;
            play_out(cases[i].variant, mcts_seat ? "random" : cases[i].spec,
                     mcts_seat ? cases[i].spec : "random", (uint64_t)k, moves,
                     0, &r);
            if (r == GAME_DRAW)
                score += 0.5;
            else if ((r == GAME_WIN_SEAT0) == (mcts_seat == 0))
                score += 1;
        }
        print_message("%s: %s scores %.1f of %d against random\n",
                      cases[i].variant, cases[i].spec, score, games);
        assert_true(score >= 0.9 * games);
    }
}

/* A node's rewards past 2^24: as a float sum, 2^24 + 1 rounds back to
 * 2^24, so a node at 2^25 visits with half its games won never counted
 * another win and its mean sank. The reward-unit count stays exact (the
 * expected values are the plain sums, 1024 units a win, 512 a draw:
 * mcts_node.h). */
static void test_node_counts_past_float_precision(void **state)
{
    (void)state;
    struct node n;
    memset(&n, 0, sizeof n);
    node_set_counts(&n, 1u << 25, 1024ull << 24); /* 2^24 wins in 2^25 */
    assert_true(node_mean(&n) == 0.5);
    for (int i = 0; i < 1000; i++)
        node_add_reward(&n, 1.0);
    assert_int_equal(n.visits, (1u << 25) + 1000);
    assert_true(node_units(&n) == (1024ull << 24) + 1024000);
    assert_true(node_mean(&n) == ((double)(1u << 24) + 1000.0)
                                 / ((double)(1u << 25) + 1000.0));
    node_add_reward(&n, 0.5);
    node_add_reward(&n, 0.0);
    assert_int_equal(n.visits, (1u << 25) + 1002);
    assert_true(node_units(&n) == (1024ull << 24) + 1024512);
    /* the largest counts the search allows (it stops at MCTS_MAX_VISITS
     * root visits) do not overflow */
    node_set_counts(&n, MCTS_MAX_VISITS - 1, 1024ull * (MCTS_MAX_VISITS - 1));
    node_add_reward(&n, 1.0);
    assert_true(node_units(&n) == 1024ull * MCTS_MAX_VISITS);
    assert_true(node_mean(&n) == 1.0);
}

/* agent_plays: a kind that evaluates positions is refused for a game with
 * no evaluation (here tafl's vtable under another name, which eval_of
 * does not know), with a message naming both; random plays anything. And
 * a kind whose parameters would pass VARIANT_MAX_PARAMS is refused at
 * parse time in every build, where an assert stood before. */
static void test_agent_needs_what_it_uses(void **state)
{
    (void)state;
    char err[512];
    struct game no_eval = tafl_game;
    no_eval.name = "tafl_without_eval";
    struct agent *ab, *rnd;
    assert_int_equal(agent_create("ab(nodes=100)", 1, &ab, err, sizeof err), 0);
    assert_int_equal(agent_create("random", 1, &rnd, err, sizeof err), 0);
    assert_int_equal(agent_plays(ab, &tafl_game, err, sizeof err), 0);
    assert_int_equal(agent_plays(ab, &no_eval, err, sizeof err), -1);
    assert_non_null(strstr(err, "agent ab evaluates positions, and "
                                "tafl_without_eval has no evaluation"));
    assert_int_equal(agent_plays(rnd, &no_eval, err, sizeof err), 0);
    assert_int_equal(agent_spec_plays("ab(nodes=100)", &no_eval, err,
                                      sizeof err), -1);
    assert_int_equal(agent_spec_plays("random", &no_eval, err, sizeof err),
                     0);
    agent_free(ab);
    agent_free(rnd);
    /* a kind with VARIANT_MAX_PARAMS parameters of its own: a spec naming
     * no weight fits exactly; one naming a weight as well does not, and is
     * refused with the limit named; one own parameter more never fits */
    static struct param_spec own[VARIANT_MAX_PARAMS + 1];
    for (int i = 0; i <= VARIANT_MAX_PARAMS; i++)
        own[i] = (struct param_spec){"p", PARAM_INT, 0, 0, 1, NULL, "", 1};
    struct agent_kind big = {.name = "big", .doc = "too many parameters",
                             .params = own, .n_params = VARIANT_MAX_PARAMS,
                             .behaviour_version = 1, .uses_eval = 1};
    struct param_spec table[VARIANT_MAX_PARAMS];
    char why[256];
    assert_int_equal(agent_spec_params(&big, NULL, NULL, table, NULL, why,
                                       sizeof why), VARIANT_MAX_PARAMS);
    const char *args = "tafl_attackers=5";
    assert_int_equal(agent_spec_params(&big, args, args + strlen(args), table,
                                       NULL, why, sizeof why), -1);
    assert_non_null(strstr(why, "a spec holds at most 64 parameters"));
    big.n_params = VARIANT_MAX_PARAMS + 1;
    assert_int_equal(agent_spec_params(&big, NULL, NULL, table, NULL, why,
                                       sizeof why), -1);
    /* a real kind's table holds its own parameters and the weights named,
     * whatever their game: ab's with one tafl and one Jetan weight */
    args = "nodes=5, tafl_attackers=5,jetan_material=2";
    int weights[VARIANT_MAX_PARAMS];
    int n = agent_spec_params(&ab_kind, args, args + strlen(args), table,
                              weights, why, sizeof why);
    assert_int_equal(n, ab_kind.n_params + 2);
    assert_string_equal(table[n - 2].name, "tafl_attackers");
    assert_string_equal(eval_weight(weights[n - 1])->name, "jetan_material");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_node_counts_past_float_precision),
        cmocka_unit_test(test_plays_win_in_one),
        cmocka_unit_test(test_stops_threat),
        cmocka_unit_test(test_solver_proves_win_in_three),
        cmocka_unit_test(test_solver_proves_loss),
        cmocka_unit_test(test_same_seed_same_game),
        cmocka_unit_test(test_node_cap),
        cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_agent_needs_what_it_uses),
        cmocka_unit_test(test_mcts_beats_random),
    };
    return cmocka_run_group_tests_name("agents", tests, NULL, NULL);
}
