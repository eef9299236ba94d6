/*
 * mcts.c -- UCT with MCTS-Solver over a preallocated node pool; see mcts.h.
 *
 * Values are stored from the point of view of the player who made the move
 * into a node (its "mover"): its reward units sum that player's rewards
 * (1024 a win, 512 a draw, 0 a loss, between for a playout cut and scored
 * by the evaluation; see mcts_node.h), and `proven` is +1 if that player
 * wins with best play, -1 if they lose. A node is expanded (all its
 * children allocated at once, in an order shuffled by the agent's
 * generator) the first time a search reaches it.
 *
 * Knowledge, all of it off at the defaults (parameters since 2, so the
 * identities and the moves of the specs before them are unchanged): the
 * greedy playout policy (playout.h); playouts cut after eval_cut plies and
 * scored by the evaluation through a logistic; and a prior per child, from
 * its capture value and forcing flag or from the evaluation after it,
 * which orders the children (best first, the shuffle breaking ties) and
 * enters UCT as progressive bias, bias * prior / (visits + 1), and
 * progressive widening, only the first 1 + widen * sqrt(parent visits)
 * children (not proven lost) being considered.
 */
#include "mcts.h"
#include "clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "mcts_node.h"
#include "playout.h"
#include "rng.h"

#define MAX_PATH 4096

/* Where the priors come from (parameter `prior`). */
enum prior_source { PRIOR_CAPTURE, PRIOR_EVAL };

/* A capture of this many points gets prior 1/2 (a pawn-like piece). */
#define PRIOR_HALF_POINTS 100.0
/* The prior of a forcing move that captures nothing. */
#define PRIOR_FORCING 0.5

struct mcts {
    /* parameters */
    uint64_t iterations;
    int ms, playout_cap, solver, decisive, reuse;
    double c;
    const struct playout_policy *policy;
    int eval_cut, prior_source;
    double eval_scale, bias, widen;
    double weights[VARIANT_MAX_PARAMS]; /* every evaluation weight */

    struct rng rng;
    struct node *pool;
    uint32_t used, cap;
    int hit_cap;

    /* the position at the root of the tree (index 0), if any */
    const struct game *game;
    const struct game_eval *eval; /* the game's, and its weights: */
    const double *game_weights;
    struct playout_context playout_ctx;
    int have_root;
    _Alignas(GAME_STATE_ALIGN) unsigned char root_state[GAME_MAX_STATE_SIZE];

    /* scratch for one iteration */
    _Alignas(GAME_STATE_ALIGN) unsigned char state[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char probe[GAME_MAX_STATE_SIZE]; /* for decisive moves */
    move_t moves[GAME_MAX_MOVES];
    struct node by_prior[GAME_MAX_MOVES]; /* expand's sorting space */
    uint32_t path[MAX_PATH];
    int mover[MAX_PATH]; /* seat that made the move into path[k] */
    int max_depth;
};

enum { P_ITERATIONS, P_MS, P_C, P_PLAYOUT, P_PLAYOUT_CAP, P_SOLVER,
       P_DECISIVE, P_REUSE, P_MAX_NODES, P_MAX_MB, P_EPSILON, P_EVAL_CUT,
       P_EVAL_SCALE, P_BIAS, P_WIDEN, P_PRIOR, P_COUNT };

static const char *const prior_names[] = {"capture", "eval", NULL};

static const struct param_spec mcts_params[P_COUNT] = {
    [P_ITERATIONS] = {"iterations", PARAM_INT, 1000, 1, 1e9, NULL,
                      "search iterations per move (reproducible budget)", 1},
    [P_MS] = {"ms", PARAM_INT, 0, 0, 1e7, NULL,
              "wall-clock budget per move in ms; 0 = use iterations", 1},
    [P_C] = {"c", PARAM_REAL, 1.4, 0, 100, NULL, "UCT exploration constant",
             1},
    [P_PLAYOUT] = {"playout", PARAM_ENUM, 0, 0, 0, playout_policy_names,
                   "playout policy", 1},
    [P_PLAYOUT_CAP] = {"playout_cap", PARAM_INT, 0, 0, 1e6, NULL,
                       "plies after which a playout counts as a draw; 0 = none",
                       1},
    [P_SOLVER] = {"solver", PARAM_BOOL, 1, 0, 1, NULL,
                  "back up proven wins and losses (MCTS-Solver)", 1},
    [P_DECISIVE] = {"decisive", PARAM_BOOL, 1, 0, 1, NULL,
                    "on expanding a node, mark the moves that end the game",
                    1},
    [P_REUSE] = {"reuse", PARAM_BOOL, 1, 0, 1, NULL,
                 "keep the subtree of the move played", 1},
    [P_MAX_NODES] = {"max_nodes", PARAM_INT, 0, 0, 2e9, NULL,
                     "node pool size; 0 = as many as max_mb holds", 1},
    [P_MAX_MB] = {"max_mb", PARAM_INT, 64, 1, 65536, NULL,
                  "node pool memory in MiB (when max_nodes is 0)", 1},
    [P_EPSILON] = {"epsilon", PARAM_REAL, 0.1, 0, 1, NULL,
                   "greedy playouts: chance of a move drawn from all moves, "
                   "not the captures", 2},
    [P_EVAL_CUT] = {"eval_cut", PARAM_INT, 0, 0, 1e6, NULL,
                    "plies after which a playout is scored by the evaluation;"
                    " 0 = none", 2},
    [P_EVAL_SCALE] = {"eval_scale", PARAM_REAL, 200, 1, 1e5, NULL,
                      "evaluation points of odds e:1 (cut playouts, eval "
                      "priors)", 2},
    [P_BIAS] = {"bias", PARAM_REAL, 0, 0, 1000, NULL,
                "progressive bias: UCT adds bias * prior / (visits + 1)", 2},
    [P_WIDEN] = {"widen", PARAM_REAL, 0, 0, 1000, NULL,
                 "progressive widening: the best 1 + widen * sqrt(visits) "
                 "children by prior; 0 = all", 2},
    [P_PRIOR] = {"prior", PARAM_ENUM, 0, 0, 0, prior_names,
                 "priors for bias and widen: capture value and forcing, or "
                 "the evaluation after the move", 2},
};

static void *mcts_create(const double *values,
                          const struct spec_texts *texts, uint64_t seed,
                          char *err, size_t errsz)
{
    (void)texts, (void)err, (void)errsz;
    struct mcts *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->iterations = (uint64_t)values[P_ITERATIONS];
    m->ms = (int)values[P_MS];
    m->c = values[P_C];
    m->policy = playout_policies[(int)values[P_PLAYOUT]];
    m->playout_cap = (int)values[P_PLAYOUT_CAP];
    m->solver = (int)values[P_SOLVER];
    m->decisive = (int)values[P_DECISIVE] && m->solver;
    m->reuse = (int)values[P_REUSE];
    m->playout_ctx.epsilon = values[P_EPSILON];
    m->eval_cut = (int)values[P_EVAL_CUT];
    m->eval_scale = values[P_EVAL_SCALE];
    m->bias = values[P_BIAS];
    m->widen = values[P_WIDEN];
    m->prior_source = (int)values[P_PRIOR];
    for (int i = 0; i < eval_weight_count(); i++)
        m->weights[i] = values[P_COUNT + i];
    uint64_t cap = (uint64_t)values[P_MAX_NODES];
    if (cap == 0)
        cap = (uint64_t)values[P_MAX_MB] * 1024 * 1024 / sizeof(struct node);
    if (cap < 2)
        cap = 2;
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    m->cap = (uint32_t)cap;
    m->pool = malloc(sizeof *m->pool * m->cap);
    if (!m->pool) {
        free(m);
        return NULL;
    }
    rng_seed(&m->rng, seed);
    return m;
}

static void mcts_destroy(void *self)
{
    struct mcts *m = self;
    free(m->pool);
    free(m);
}

static void reset_tree(struct mcts *m, const struct game *g, const void *st)
{
    m->game = g;
    m->eval = eval_of(g);
    m->game_weights = m->weights + eval_weight_offset(m->eval);
    m->playout_ctx.eval = m->eval;
    m->have_root = 1;
    game_copy_state(g, m->root_state, st);
    memset(&m->pool[0], 0, sizeof m->pool[0]);
    m->used = 1;
}

/* After a child of n became proven, settles n if it can be: a child won
 * for the player to move proves n lost for its mover; all children lost
 * proves n won. */
static void settle_proven(struct mcts *m, uint32_t n)
{
    struct node *node = &m->pool[n];
    int all_lost = node->n_children > 0;
    for (uint32_t i = 0; i < node->n_children; i++) {
        int p = m->pool[node->first_child + i].proven;
        if (p > 0) {
            node->proven = -1;
            return;
        }
        all_lost &= p < 0;
    }
    if (all_lost)
        node->proven = 1;
}

/* The reward units of seat `seat` for an outcome (a game not over counts
 * as a draw: a playout cut by playout_cap). */
static uint32_t outcome_units(enum game_outcome o, int seat)
{
    if (o == GAME_DRAW || o == GAME_ONGOING)
        return MCTS_WIN_UNITS / 2;
    return (o == GAME_WIN_SEAT0) == (seat == 0) ? MCTS_WIN_UNITS : 0;
}

/* Whether children get priors (which order them). */
static int uses_priors(const struct mcts *m)
{
    return m->bias > 0 || m->widen > 0;
}

static unsigned prior_of_probability(double p)
{
    return (unsigned)(p * MCTS_PRIOR_MAX + 0.5);
}

/* The cheap prior of mv from st: a capture's value v as v / (v + 100),
 * a forcing move at least PRIOR_FORCING, a quiet move 0. */
static unsigned capture_prior(const struct mcts *m, const void *st, move_t mv)
{
    int v = m->eval->capture_value(st, mv);
    double p = v > 0 ? v / (v + PRIOR_HALF_POINTS) : 0.0;
    if (p < PRIOR_FORCING && m->eval->is_forcing(st, mv))
        p = PRIOR_FORCING;
    return prior_of_probability(p);
}

/* The evaluation's prior of the position `after` a move by seat `seat`:
 * the mover's expected reward (the opponent is to move there). */
static unsigned eval_prior(const struct mcts *m, const void *after, int seat)
{
    enum game_outcome o = m->game->status(after).outcome;
    if (o != GAME_ONGOING)
        return prior_of_probability(outcome_units(o, seat)
                                    / (double)MCTS_WIN_UNITS);
    double score = eval_score(m->eval, m->game_weights, after);
    return prior_of_probability(eval_win_probability(-score, m->eval_scale));
}

/* Orders the count children from `first` by prior, highest first, keeping
 * the shuffled order among equal priors (a counting sort: priors are
 * small integers). */
static void sort_by_prior(struct mcts *m, uint32_t first, int count)
{
    uint32_t start[MCTS_PRIOR_MAX + 2] = {0};
    struct node *children = &m->pool[first];
    for (int i = 0; i < count; i++)
        start[MCTS_PRIOR_MAX - children[i].prior + 1]++;
    for (unsigned k = 1; k <= MCTS_PRIOR_MAX + 1; k++)
        start[k] += start[k - 1];
    for (int i = 0; i < count; i++)
        m->by_prior[start[MCTS_PRIOR_MAX - children[i].prior]++] = children[i];
    memcpy(children, m->by_prior, sizeof *children * (size_t)count);
}

/* Allocates and shuffles the children of node `n` for the position st
 * (then orders them by prior, if priors are on). Returns 0, or -1 if the
 * pool has no room (the node stays a leaf). */
static int expand(struct mcts *m, uint32_t n, const void *st)
{
    const struct game *g = m->game;
    int count = g->legal_moves(st, m->moves);
    if ((uint64_t)m->used + (uint64_t)count > m->cap) {
        m->hit_cap = 1;
        return -1;
    }
    for (int i = count - 1; i > 0; i--) {
        int j = (int)rng_below(&m->rng, (uint32_t)i + 1);
        move_t t = m->moves[i];
        m->moves[i] = m->moves[j];
        m->moves[j] = t;
    }
    struct node *node = &m->pool[n];
    node->first_child = m->used;
    node->n_children = (unsigned)count;
    const int seat = g->to_move(st);
    const int priors = uses_priors(m);
    const int probe = m->decisive || (priors && m->prior_source == PRIOR_EVAL);
    int any_proven = 0;
    for (int i = 0; i < count; i++) {
        struct node *child = &m->pool[m->used + (uint32_t)i];
        memset(child, 0, sizeof *child);
        child->move = m->moves[i];
        if (priors && m->prior_source == PRIOR_CAPTURE)
            child->prior = capture_prior(m, st, child->move);
        if (!probe)
            continue;
        game_copy_state(g, m->probe, st);
        g->apply(m->probe, child->move);
        if (priors && m->prior_source == PRIOR_EVAL)
            child->prior = eval_prior(m, m->probe, seat);
        enum game_outcome o = g->status(m->probe).outcome;
        if (m->decisive && (o == GAME_WIN_SEAT0 || o == GAME_WIN_SEAT1)) {
            /* Decisive moves: a move that ends the game is proven now,
             * not when a playout happens to try it. */
            child->proven = (o == GAME_WIN_SEAT0) == (seat == 0) ? 1 : -1;
            any_proven = 1;
        }
    }
    if (priors)
        sort_by_prior(m, m->used, count);
    m->used += (uint32_t)count;
    if (any_proven)
        settle_proven(m, n);
    return 0;
}

/* How many children of node (not proven lost) selection considers: all,
 * or with progressive widening the first 1 + widen * sqrt(visits). */
static uint32_t widened_room(const struct mcts *m, const struct node *node)
{
    if (m->widen <= 0)
        return node->n_children;
    double k = 1.0 + floor(m->widen * sqrt((double)node->visits));
    return k < node->n_children ? (uint32_t)k : node->n_children;
}

/* UCT choice among the children of n, skipping children proven lost for
 * the player to move (n is not proven, so one is not): the first one
 * unvisited, else the best mean + exploration (+ progressive bias). */
static uint32_t select_child(const struct mcts *m, uint32_t n)
{
    const struct node *node = &m->pool[n];
    const double log_n = log((double)node->visits + 1.0);
    uint32_t best = node->first_child, room = widened_room(m, node);
    double best_score = -1.0;
    for (uint32_t i = 0; i < node->n_children && room > 0; i++) {
        const struct node *child = &m->pool[node->first_child + i];
        if (child->proven < 0)
            continue;
        room--;
        if (child->visits == 0)
            return node->first_child + i;
        double score = node_mean(child)
                       + m->c * sqrt(log_n / child->visits);
        if (m->bias > 0)
            score += m->bias * child->prior
                     / ((double)MCTS_PRIOR_MAX * (child->visits + 1.0));
        if (score > best_score) {
            best_score = score;
            best = node->first_child + i;
        }
    }
    return best;
}

/* Plays out from st (a leaf's position) and returns seat 0's reward
 * units: the outcome's; a playout cut by playout_cap counts as a draw, one
 * cut by eval_cut (the earlier cut, when both are set) as the evaluation's
 * expected reward for the side to move at the cut. */
static uint32_t playout_units(struct mcts *m, void *st)
{
    const struct game *g = m->game;
    const int by_eval = m->eval_cut > 0
                        && (m->playout_cap <= 0 || m->eval_cut <= m->playout_cap);
    playout_run_with(m->policy, &m->playout_ctx, g, st, &m->rng,
                     by_eval ? m->eval_cut : m->playout_cap);
    enum game_outcome o = g->status(st).outcome;
    if (o != GAME_ONGOING || !by_eval)
        return outcome_units(o, 0);
    double p = eval_win_probability(eval_score(m->eval, m->game_weights, st),
                                    m->eval_scale);
    uint32_t units = (uint32_t)(p * MCTS_WIN_UNITS + 0.5);
    return g->to_move(st) == 0 ? units : MCTS_WIN_UNITS - units;
}

/* One iteration: select, expand, play out, back up. */
static void iterate(struct mcts *m)
{
    const struct game *g = m->game;
    void *st = m->state;
    game_copy_state(g, st, m->root_state);
    uint32_t n = 0;
    int depth = 0;
    m->path[0] = 0;
    m->mover[0] = 1 - g->to_move(st);
    uint32_t units0; /* seat 0's reward */
    for (;;) {
        struct node *node = &m->pool[n];
        if (node->proven) {
            /* Known result: the mover of n wins (+1) or loses (-1). */
            int winner = node->proven > 0 ? m->mover[depth] : 1 - m->mover[depth];
            units0 = winner == 0 ? MCTS_WIN_UNITS : 0;
            break;
        }
        struct game_status s = g->status(st);
        if (s.outcome != GAME_ONGOING) {
            units0 = outcome_units(s.outcome, 0);
            if (m->solver && s.outcome != GAME_DRAW)
                node->proven = outcome_units(s.outcome, m->mover[depth]) > 0
                               ? 1 : -1;
            break;
        }
        if (!node_expanded(node)) {
            /* A leaf's first visit is a playout; its second expands it. */
            if ((n != 0 && node->visits == 0) || expand(m, n, st) != 0) {
                units0 = playout_units(m, st);
                break;
            }
            if (node->proven)
                continue; /* a decisive move settled it */
        }
        if (depth + 1 >= MAX_PATH) {
            units0 = MCTS_WIN_UNITS / 2;
            break;
        }
        uint32_t child = select_child(m, n);
        m->mover[depth + 1] = g->to_move(st);
        g->apply(st, m->pool[child].move);
        game_check_invariants(g, st, m->pool[child].move);
        m->path[++depth] = n = child;
    }
    if (depth > m->max_depth)
        m->max_depth = depth;
    for (int k = depth; k >= 0; k--) {
        struct node *node = &m->pool[m->path[k]];
        node_add_units(node, m->mover[k] == 0 ? units0
                                              : MCTS_WIN_UNITS - units0);
        if (m->solver && k < depth && m->pool[m->path[k + 1]].proven
            && !node->proven)
            settle_proven(m, m->path[k]);
    }
}

/* The child to play: a proven win, else the most visited child not proven
 * lost, else the most visited. */
static uint32_t best_child(const struct mcts *m)
{
    const struct node *root = &m->pool[0];
    uint32_t best = root->first_child, best_safe = 0;
    for (uint32_t i = 0; i < root->n_children; i++) {
        uint32_t c = root->first_child + i;
        const struct node *child = &m->pool[c];
        if (child->proven > 0)
            return c;
        if (child->visits > m->pool[best].visits)
            best = c;
        if (child->proven >= 0
            && (!best_safe || child->visits > m->pool[best_safe].visits))
            best_safe = c;
    }
    return best_safe ? best_safe : best;
}

static move_t mcts_choose(void *self, const struct game *g, const void *st,
                          struct agent_stats *stats)
{
    struct mcts *m = self;
    if (!m->have_root || m->game != g
        || !game_same_state(g, m->root_state, st))
        reset_tree(m, g, st);
    m->hit_cap = 0;
    m->max_depth = 0;
    uint64_t done = 0;
    double deadline = m->ms ? (clock_seconds() * 1e3) + m->ms : 0;
    while (!m->pool[0].proven && m->pool[0].visits < MCTS_MAX_VISITS) {
        iterate(m);
        done++;
        if (m->ms ? (done % 16 == 0 && (clock_seconds() * 1e3) >= deadline)
                  : done >= m->iterations)
            break;
    }
    if (!node_expanded(&m->pool[0])) {
        /* The pool could not hold even the root's children. */
        int n = g->legal_moves(st, m->moves);
        memset(stats, 0, sizeof *stats);
        stats->iterations = done;
        stats->hit_cap = 1;
        return m->moves[rng_below(&m->rng, (uint32_t)n)];
    }
    uint32_t c = best_child(m);
    const struct node *child = &m->pool[c];
    stats->iterations = done;
    stats->nodes = m->used;
    stats->depth = m->max_depth;
    stats->value = child->visits ? node_mean(child)
                   : child->proven > 0 ? 1.0 : 0.5;
    stats->proven = -m->pool[0].proven;
    stats->hit_cap = m->hit_cap;
    return child->move;
}

/* Moves the subtree under `keep` to the front of the pool, BFS order. */
static int compact(struct mcts *m, uint32_t keep)
{
    uint32_t size = 0, stack_top = 0;
    uint32_t *stack = malloc(sizeof *stack * m->used);
    if (!stack)
        return -1;
    stack[stack_top++] = keep;
    while (stack_top) {
        const struct node *node = &m->pool[stack[--stack_top]];
        size++;
        for (uint32_t i = 0; i < node->n_children; i++)
            stack[stack_top++] = node->first_child + i;
    }
    struct node *fresh = malloc(sizeof *fresh * size);
    if (!fresh) {
        free(stack);
        return -1;
    }
    /* BFS: fresh[head] is copied from the old index stack[head]. */
    uint32_t head = 0, tail = 1;
    stack[0] = keep;
    fresh[0] = m->pool[keep];
    for (; head < tail; head++) {
        struct node *node = &fresh[head];
        uint32_t old_first = node->first_child;
        if (node->n_children)
            node->first_child = tail;
        for (uint32_t i = 0; i < node->n_children; i++) {
            fresh[tail] = m->pool[old_first + i];
            stack[tail++] = old_first + i;
        }
    }
    memcpy(m->pool, fresh, sizeof *fresh * size);
    m->used = size;
    free(fresh);
    free(stack);
    return 0;
}

static void mcts_observe(void *self, const struct game *g, const void *st,
                         move_t move)
{
    struct mcts *m = self;
    if (!m->reuse || !m->have_root || m->game != g
        || !game_same_state(g, m->root_state, st)) {
        m->have_root = 0;
        return;
    }
    const struct node *root = &m->pool[0];
    uint32_t keep = 0;
    for (uint32_t i = 0; i < root->n_children && !keep; i++)
        if (m->pool[root->first_child + i].move == move)
            keep = root->first_child + i;
    if (!keep || compact(m, keep) != 0) {
        m->have_root = 0;
        return;
    }
    g->apply(m->root_state, move);
}

/* Behaviour version 2: a node's mean reward is computed exactly in double
 * (half-points / 2 visits); version 1 divided a float sum of rewards in
 * float, so a near-tie between children could be broken otherwise. The
 * knowledge parameters (since 2) left it at 2: at their defaults the
 * same spec and seed play the same moves (tests/test_mcts.c checks moves
 * recorded before them). */
const struct agent_kind mcts_kind = {
    .name = "mcts",
    .doc = "UCT Monte Carlo tree search with MCTS-Solver",
    .params = mcts_params,
    .n_params = P_COUNT,
    .create = mcts_create,
    .choose = mcts_choose,
    .observe = mcts_observe,
    .destroy = mcts_destroy,
    .behaviour_version = 2,
    .uses_eval = 1,
};
