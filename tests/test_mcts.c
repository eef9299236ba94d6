/*
 * test_mcts.c -- MCTS's knowledge parameters (agents/mcts.c, playout.c):
 * the greedy playout policy takes a win in one, avoids a capture that
 * allows one, and is uniform at epsilon=1; playouts cut by eval_cut are
 * scored through the logistic; progressive bias and widening change where
 * the visits go; every option on is still deterministic. And what must not
 * change: the identities of the specs before these parameters, and the
 * moves that default MCTS plays (recorded from the code before them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agent.h"
#include "eval.h"
#include "game.h"
#include "playout.h"
#include "agent_helpers.h"
#include "serbest.h"

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

static const struct playout_policy *policy(const char *name)
{
    for (int i = 0; playout_policies[i]; i++)
        if (strcmp(playout_policies[i]->name, name) == 0)
            return playout_policies[i];
    fail_msg("no playout policy %s", name);
    return NULL;
}

/* greedy's pick of one of the n moves of st, as at the start of a
 * playout (nothing known of st). */
static move_t greedy_pick(double epsilon, const struct game *g, const void *st,
                          const move_t *moves, int n, struct rng *r)
{
    struct playout_context ctx = {eval_of(g), epsilon, 0};
    return policy("greedy")->pick(&ctx, g, st, moves, n, r);
}

/* What move m from st leads to, for the side that plays it. */
static enum game_outcome outcome_after(const struct game *g, const void *st,
                                       move_t m)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE];
    memcpy(after, st, g->state_size);
    g->apply(after, m);
    return g->status(after).outcome;
}

static int wins(const struct game *g, const void *st, move_t m)
{
    return outcome_after(g, st, m)
           == (g->to_move(st) == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1);
}

/* ---- the greedy policy ------------------------------------------------ */

/* The side to move wins in one ply (the positions of test_agents.c). */
static const struct position win_in_one[] = {
    {"serbest", "10/4K5/10/10/10/10/10/10/k9/10[] w"}, /* Khan: e9 to rank 10 */
    {"tafl", "9/9/9/a8/a8/9/9/9/1k5a1 d"}, /* the king to a1 */
    /* the Orange Flier on c4 jumps d3 and e2 onto the Princess on f1 */
    {"jetan", "4pc4/10/10/10/10/10/2f7/3N6/4N5/4CP4 o -"},
};

static void test_greedy_takes_win_in_one(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(win_in_one); i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        setup(&win_in_one[i], &v, st);
        const struct game *g = v.game;
        move_t moves[GAME_MAX_MOVES];
        int n = g->legal_moves(st, moves), winning = 0;
        for (int k = 0; k < n; k++)
            winning += wins(g, st, moves[k]);
        assert_true(winning > 0 && winning < n); /* not every move wins */
        for (uint64_t seed = 1; seed <= 20; seed++) {
            struct rng r;
            rng_seed(&r, seed);
            move_t m = greedy_pick(1.0, g, st, moves, n, &r);
            if (!wins(g, st, m))
                fail_msg("%s seed %llu: did not win at once",
                         win_in_one[i].text, (unsigned long long)seed);
        }
    }
}

/* White's rook on a1 keeps the black king on e2 off rank 1 (Khan,
 * docs/rules.md#serbest-end-of-the-game); taking the pawn on a5 leaves
 * rank 1, and the king steps onto it and wins. The rook's 13 moves:
 * a2-a4, axa5, b1-j1; no white king, so no check. The same with the black
 * king on e9, far from rank 1: then no move allows a win. */
static const struct position poisoned = {
    "serbest", "10/10/10/10/10/p9/10/10/4k5/R9[] w"};
static const struct position safe = {
    "serbest", "10/4k5/10/10/10/p9/10/10/10/R9[] w"};

/* The index of the only capture among moves. */
static int only_capture(const struct game *g, const void *st,
                        const move_t *moves, int n)
{
    int capture = -1;
    for (int k = 0; k < n; k++)
        if (eval_of(g)->capture_value(st, moves[k]) > 0) {
            assert_int_equal(capture, -1);
            capture = k;
        }
    assert_true(capture >= 0);
    return capture;
}

static void test_greedy_avoids_capture_that_allows_win(void **state)
{
    (void)state;
    const struct position *cases[] = {&safe, &poisoned};
    for (int c = 0; c < 2; c++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        setup(cases[c], &v, st);
        const struct game *g = v.game;
        move_t moves[GAME_MAX_MOVES];
        int n = g->legal_moves(st, moves);
        assert_int_equal(n, 13);
        int capture = only_capture(g, st, moves, n);
        /* epsilon 0: the capture is always the first draw */
        for (uint64_t seed = 1; seed <= 30; seed++) {
            struct rng r;
            rng_seed(&r, seed);
            move_t m = greedy_pick(0.0, g, st, moves, n, &r);
            if (cases[c] == &safe)
                assert_true(m == moves[capture]);
            else
                assert_true(m != moves[capture]);
        }
    }
}

/* With epsilon=1 every draw is from all moves, and in `safe` no move wins
 * or allows a win, so greedy is uniform over the 13 moves; with epsilon
 * 0.5 the capture comes half the time plus a 13th of the other half. */
static void test_greedy_epsilon(void **state)
{
    (void)state;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    setup(&safe, &v, st);
    const struct game *g = v.game;
    move_t moves[GAME_MAX_MOVES];
    int n = g->legal_moves(st, moves);
    int capture = only_capture(g, st, moves, n);
    enum { DRAWS = 13000 };
    int counts[13] = {0};
    struct rng r;
    rng_seed(&r, 42);
    for (int k = 0; k < DRAWS; k++) {
        move_t m = greedy_pick(1.0, g, st, moves, n, &r);
        for (int i = 0; i < n; i++)
            counts[i] += moves[i] == m;
    }
    /* chi-square with 12 degrees of freedom: P(X > 40) is about 7e-5 */
    double chi2 = 0, expected = DRAWS / 13.0;
    for (int i = 0; i < n; i++)
        chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
    if (chi2 > 40)
        fail_msg("epsilon=1 is not uniform: chi-square %.1f", chi2);
    int captures = 0;
    for (int k = 0; k < DRAWS; k++)
        captures += greedy_pick(0.5, g, st, moves, n, &r) == moves[capture];
    /* p = 0.5 + 0.5 / 13 = 0.5385; sd of the share sqrt(p(1-p)/13000)
     * = 0.0044; five of them either side */
    double share = (double)captures / DRAWS;
    if (share < 0.5385 - 0.022 || share > 0.5385 + 0.022)
        fail_msg("epsilon=0.5: the capture in %.4f of the draws", share);
}

/* ---- eval_cut --------------------------------------------------------- */

/* White is a rook up, kings far apart (no capture, Khan or mate within a
 * few plies); a rook is about 500 points to any material evaluation
 * (eval.h: about 100 to a pawn-like piece). */
static const struct position rook_up[] = {
    {"serbest", "9k/10/10/10/R9/10/10/10/10/1K8[] w"},
    {"serbest", "9k/10/10/10/R9/10/10/10/10/1K8[] b"},
};

/* The chosen move's mean reward for the mover after a short search. */
static double searched_value(const struct position *p, const char *spec)
{
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    setup(p, &v, st);
    struct agent *a = make_agent(spec, 5);
    agent_choose(a, v.game, st);
    double value = a->stats.value;
    agent_free(a);
    return value;
}

static void test_eval_cut_scores_through_logistic(void **state)
{
    (void)state;
    /* Every playout is cut 2 plies in, mostly before anything can be
     * taken (a rook that strays next to the black king can be, in a few
     * lines): with scale 200 a rook up is 1 / (1 + e^-2.5) = 0.92 for
     * white, 0.08 for black (if the evaluation sees more than material,
     * still far from 0.5); with scale 10^5 every cut is within 0.0013 of
     * a draw (1 / (1 + e^-0.005) = 0.50125). */
    double white = searched_value(&rook_up[0],
                                  "mcts(iterations=100,eval_cut=2)");
    double black = searched_value(&rook_up[1],
                                  "mcts(iterations=100,eval_cut=2)");
    double flat = searched_value(&rook_up[0],
                                 "mcts(iterations=100,eval_cut=2,"
                                 "eval_scale=100000)");
    print_message("rook up, eval_cut=2: white %.3f, black %.3f, scale 1e5 "
                  "%.4f\n", white, black, flat);
    assert_true(white > 0.75);
    assert_true(black < 0.25);
    assert_true(flat > 0.498 && flat < 0.502);
}

/* ---- progressive bias and widening ------------------------------------ */

/* White's rook on a5 takes the black queen on e5 (undefended: the black
 * king is on j10); white has its king on b1 and about 20 moves. */
static const struct position free_queen = {
    "serbest", "9k/10/10/10/R3q5/10/10/10/10/1K8[] w"};

static void test_bias_visits_the_capture(void **state)
{
    (void)state;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    setup(&free_queen, &v, st);
    const struct game *g = v.game;
    move_t moves[GAME_MAX_MOVES];
    int n = g->legal_moves(st, moves);
    move_t capture = moves[only_capture(g, st, moves, n)];
    /* playout_cap=1: every playout is a draw, so without bias all means
     * tie at 0.5 and UCT's ties go to the first child of the shuffle; the
     * capture's prior (900 / (900 + 100)) gives it bias * 0.9 / (v + 1)
     * more, so it takes the visits after the first round. */
    char spec[128];
    int with_bias = 0, without = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        for (int bias = 0; bias <= 1; bias++) {
            snprintf(spec, sizeof spec, "mcts(iterations=%d,playout_cap=1,"
                     "bias=%d)", 3 * n, bias ? 10 : 0);
            struct agent *a = make_agent(spec, seed);
            move_t m = agent_choose(a, g, st);
            if (bias)
                with_bias += m == capture;
            else
                without += m == capture;
            agent_free(a);
        }
    }
    print_message("free queen: taken in %d of 8 seeds with bias, %d "
                  "without\n", with_bias, without);
    assert_int_equal(with_bias, 8);
    assert_true(without < 8);
}

/* The bias term itself, apart from the order by prior (widen=1000 orders
 * the children and holds back none of them here): in free_queen with
 * playout_cap=1 all rewards tie, so without the term UCT goes round the
 * n children, 3 visits each in 3n iterations: the second visit of a child
 * expands it and the third goes to a second grandchild, depth 2. With the
 * term the capture gets more: after Rxe5 black has only its king's 3
 * steps, so its 5th visit is the second of a grandchild, which is then
 * expanded, and the search reaches depth 3. */
static void test_bias_term_deepens_the_capture(void **state)
{
    (void)state;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    setup(&free_queen, &v, st);
    move_t moves[GAME_MAX_MOVES];
    int n = v.game->legal_moves(st, moves);
    char spec[128];
    for (int bias = 0; bias <= 1; bias++) {
        snprintf(spec, sizeof spec, "mcts(iterations=%d,playout_cap=1,"
                 "widen=1000,bias=%d)", 3 * n, bias ? 10 : 0);
        struct agent *a = make_agent(spec, 4);
        agent_choose(a, v.game, st);
        if (bias)
            assert_true(a->stats.depth >= 3);
        else
            assert_int_equal(a->stats.depth, 2);
        agent_free(a);
    }
}

/* The Serbest start has over 600 moves (drops): below that many
 * iterations, plain UCT visits a new root child each time and never goes
 * below depth 1; widening to 1 + sqrt(visits) children revisits them, and
 * the second visit of a child expands it. */
static void test_widening_goes_deeper(void **state)
{
    (void)state;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    variant_parse("serbest", &v, NULL, 0);
    v.game->init(st, &v);
    move_t moves[GAME_MAX_MOVES];
    assert_true(v.game->legal_moves(st, moves) > 300);
    struct agent *plain = make_agent("mcts(iterations=300)", 1);
    struct agent *wide = make_agent("mcts(iterations=300,widen=1)", 1);
    agent_choose(plain, v.game, st);
    agent_choose(wide, v.game, st);
    assert_int_equal(plain->stats.depth, 1);
    assert_true(wide->stats.depth >= 2);
    agent_free(plain);
    agent_free(wide);
}

/* ---- determinism and compatibility ------------------------------------ */

/* What the mover's search said of each move. */
struct searched {
    double value;
    uint32_t nodes;
};

/* Plays `plies` moves from the start of variant with spec in both seats
 * (seeds seed, seed + 1); writes the moves into out and what the searches
 * said into said. */
static int play(const char *variant, const char *spec, uint64_t seed,
                int plies, move_t *out, struct searched *said)
{
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    variant_parse(variant, &v, NULL, 0);
    const struct game *g = v.game;
    g->init(st, &v);
    struct agent *a[2] = {make_agent(spec, seed), make_agent(spec, seed + 1)};
    int n = 0;
    for (; n < plies && g->status(st).outcome == GAME_ONGOING; n++) {
        struct agent *mover = a[g->to_move(st)];
        out[n] = agent_choose(mover, g, st);
        said[n].value = mover->stats.value;
        said[n].nodes = mover->stats.nodes;
        for (int k = 0; k < 2; k++)
            agent_observe(a[k], g, st, out[n]);
        g->apply(st, out[n]);
    }
    agent_free(a[0]);
    agent_free(a[1]);
    return n;
}

static void test_every_option_deterministic(void **state)
{
    (void)state;
    const char *variants[] = {"serbest", "jetan", "tafl"};
    const char *specs[] = {
        "mcts(iterations=60,playout=greedy,epsilon=0.2,eval_cut=12,bias=2,"
        "widen=1)",
        "mcts(iterations=60,playout=greedy,eval_cut=12,bias=2,widen=1,"
        "prior=eval)",
    };
    for (size_t i = 0; i < COUNT(variants); i++)
        for (size_t k = 0; k < COUNT(specs); k++) {
            move_t a[4], b[4];
            struct searched sa[4], sb[4];
            int na = play(variants[i], specs[k], 3, 4, a, sa);
            int nb = play(variants[i], specs[k], 3, 4, b, sb);
            assert_int_equal(na, nb);
            assert_memory_equal(a, b, sizeof a[0] * (size_t)na);
            for (int p = 0; p < na; p++) {
                assert_true(sa[p].value == sb[p].value);
                assert_int_equal(sa[p].nodes, sb[p].nodes);
            }
        }
}

/* The identities of specs written before the knowledge parameters: by
 * variant.h's rules every parameter of identity version 1, sorted, with
 * its value, and none of the version-2 ones at their defaults (the weights
 * included); these are the strings the code before them wrote (checked on
 * fea01fe). A version-2 parameter off its default joins the identity. */
static void test_identities_unchanged(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"mcts", "mcts(c=1.4,decisive=1,iterations=1000,max_mb=64,"
                 "max_nodes=0,ms=0,playout=random,playout_cap=0,reuse=1,"
                 "solver=1)"},
        {"mcts(iterations=200)", "mcts(c=1.4,decisive=1,iterations=200,"
                                 "max_mb=64,max_nodes=0,ms=0,playout=random,"
                                 "playout_cap=0,reuse=1,solver=1)"},
        {"mcts(c=0.9,playout_cap=40,iterations=150,solver=0)",
         "mcts(c=0.9,decisive=1,iterations=150,max_mb=64,max_nodes=0,ms=0,"
         "playout=random,playout_cap=40,reuse=1,solver=0)"},
        {"mcts(reuse=0,decisive=0,max_nodes=5000)",
         "mcts(c=1.4,decisive=0,iterations=1000,max_mb=64,max_nodes=5000,"
         "ms=0,playout=random,playout_cap=0,reuse=0,solver=1)"},
        /* the new parameters written at their defaults change nothing */
        {"mcts(bias=0,widen=0,eval_cut=0,epsilon=0.1,eval_scale=200,"
         "prior=capture)",
         "mcts(c=1.4,decisive=1,iterations=1000,max_mb=64,max_nodes=0,ms=0,"
         "playout=random,playout_cap=0,reuse=1,solver=1)"},
        {"mcts(bias=1.5,playout=greedy)",
         "mcts(bias=1.5,c=1.4,decisive=1,iterations=1000,max_mb=64,"
         "max_nodes=0,ms=0,playout=greedy,playout_cap=0,reuse=1,"
         "solver=1)"},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        char id[VARIANT_TEXT_MAX], err[512];
        if (agent_identity(cases[i][0], id, sizeof id, err, sizeof err) < 0)
            fail_msg("%s: %s", cases[i][0], err);
        assert_string_equal(id, cases[i][1]);
    }
}

/* Default MCTS against moves, node counts and values recorded from the
 * code before the knowledge parameters (fea01fe, built apart and run with
 * the same specs and seeds; both seats the same spec, seeds 11 and 12 or
 * 5 and 6). This is a regression check against the old code, so the
 * expected values are that code's output, not this code's. */
struct recorded_game {
    const char *variant, *spec;
    uint64_t seed;
    const char *moves[6];
    double values[6];
    uint32_t nodes[6];
};

static const struct recorded_game recorded[] = {
    {"serbest", "mcts(iterations=200)", 11,
     {"Q@j4", "P@i9", "S@b3", "P@g10", "S@h8", "R@i2"},
     {0.5, 0, 1, 0.5, 0.5, 0}, {671, 643, 587, 636, 583, 627}},
    {"jetan", "mcts(iterations=200)", 11,
     {"f1^i4", "b9a8", "b2c3", "g9g8", "i4h6", "e10c7"},
     {0.83333333333333337, 0.66666666666666663, 1, 1, 1, 0.75},
     {8834, 4612, 7128, 4565, 7873, 5713}},
    {"tafl", "mcts(iterations=200)", 11,
     {"h5h7", "f5f4", "b5b2", "d5d8", "e2i2", "g5g6"},
     {0.375, 1, 0.5, 0.875, 0.375, 0.875},
     {4017, 4171, 4198, 4393, 4497, 4952}},
    {"serbest", "mcts(c=0.9,playout_cap=40,iterations=150,solver=0)", 5,
     {"S@f6", "Q@j1", "R@i4", "B@j5", "P@i2", "N@i10"},
     {0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, {671, 660, 644, 562, 649, 543}},
    {"tafl", "mcts(reuse=0,decisive=0,iterations=150)", 5,
     {"f1h1", "f5f1", "a6c6", "g5g1", "f9f6", "e4h4"},
     {0.33333333333333331, 0.83333333333333337, 0.33333333333333331, 0.5,
      0.5, 1}, {4017, 4155, 4382, 4195, 3927, 3764}},
};

static void test_default_moves_unchanged(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(recorded); i++) {
        const struct recorded_game *r = &recorded[i];
        move_t moves[6];
        struct searched said[6];
        int n = play(r->variant, r->spec, r->seed, 6, moves, said);
        assert_int_equal(n, 6);
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        variant_parse(r->variant, &v, NULL, 0);
        v.game->init(st, &v);
        for (int k = 0; k < n; k++) {
            char text[32];
            v.game->move_to_text(st, moves[k], text, sizeof text);
            if (strcmp(text, r->moves[k]) != 0 || said[k].value != r->values[k]
                || said[k].nodes != r->nodes[k])
                fail_msg("%s %s ply %d: %s (value %.17g, %u nodes), before %s "
                         "(%.17g, %u)", r->variant, r->spec, k + 1, text,
                         said[k].value, said[k].nodes, r->moves[k],
                         r->values[k], r->nodes[k]);
            v.game->apply(st, moves[k]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identities_unchanged),
        cmocka_unit_test(test_default_moves_unchanged),
        cmocka_unit_test(test_greedy_takes_win_in_one),
        cmocka_unit_test(test_greedy_avoids_capture_that_allows_win),
        cmocka_unit_test(test_greedy_epsilon),
        cmocka_unit_test(test_eval_cut_scores_through_logistic),
        cmocka_unit_test(test_bias_visits_the_capture),
        cmocka_unit_test(test_bias_term_deepens_the_capture),
        cmocka_unit_test(test_widening_goes_deeper),
        cmocka_unit_test(test_every_option_deterministic),
    };
    return cmocka_run_group_tests_name("mcts", tests, NULL, NULL);
}
