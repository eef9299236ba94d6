/*
 * mcts.c -- UCT with MCTS-Solver over a preallocated node pool; see mcts.h.
 *
 * Values are stored from the point of view of the player who made the move
 * into a node (its "mover"): `half_points` sums that player's rewards in
 * half-points (2 win, 1 draw, 0 loss; see mcts_node.h), and `proven` is +1
 * if that player wins with best play, -1 if they lose. A node is expanded
 * (all its children allocated at once, in an order shuffled by the agent's
 * generator) the first time a search reaches it.
 */
#include "mcts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcts_node.h"
#include "playout.h"
#include "rng.h"

#define MAX_PATH 4096

struct mcts {
    /* parameters */
    uint64_t iterations;
    int ms, playout_cap, solver, decisive, reuse;
    double c;
    const struct playout_policy *policy;

    struct rng rng;
    struct node *pool;
    uint32_t used, cap;
    int hit_cap;

    /* the position at the root of the tree (index 0), if any */
    const struct game *game;
    int have_root;
    _Alignas(GAME_STATE_ALIGN) unsigned char root_state[GAME_MAX_STATE_SIZE];

    /* scratch for one iteration */
    _Alignas(GAME_STATE_ALIGN) unsigned char state[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char probe[GAME_MAX_STATE_SIZE]; /* for decisive moves */
    move_t moves[GAME_MAX_MOVES];
    uint32_t path[MAX_PATH];
    int mover[MAX_PATH]; /* seat that made the move into path[k] */
    int max_depth;
};

enum { P_ITERATIONS, P_MS, P_C, P_PLAYOUT, P_PLAYOUT_CAP, P_SOLVER,
       P_DECISIVE, P_REUSE, P_MAX_NODES, P_MAX_MB, P_COUNT };

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
};

static void *mcts_create(const double *values, uint64_t seed)
{
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
    m->have_root = 1;
    memcpy(m->root_state, st, g->state_size);
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

/* Allocates and shuffles the children of node `n` for the position st.
 * Returns 0, or -1 if the pool has no room (the node stays a leaf). */
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
    node->n_children = (uint16_t)count;
    node->expanded = 1;
    const int seat = g->to_move(st);
    int any_proven = 0;
    for (int i = 0; i < count; i++) {
        struct node *child = &m->pool[m->used + (uint32_t)i];
        memset(child, 0, sizeof *child);
        child->move = m->moves[i];
        if (m->decisive) {
            /* Decisive moves: a move that ends the game is proven now,
             * not when a playout happens to try it. */
            memcpy(m->probe, st, g->state_size);
            g->apply(m->probe, child->move);
            enum game_outcome o = g->status(m->probe).outcome;
            if (o == GAME_WIN_SEAT0 || o == GAME_WIN_SEAT1) {
                child->proven = (o == GAME_WIN_SEAT0) == (seat == 0) ? 1 : -1;
                any_proven = 1;
            }
        }
    }
    m->used += (uint32_t)count;
    if (any_proven)
        settle_proven(m, n);
    return 0;
}

/* UCT choice among the children of n, skipping children proven lost for
 * the player to move (n is not proven, so one is not). */
static uint32_t select_child(const struct mcts *m, uint32_t n)
{
    const struct node *node = &m->pool[n];
    const double log_n = log((double)node->visits + 1.0);
    uint32_t best = node->first_child;
    double best_score = -1.0;
    for (uint32_t i = 0; i < node->n_children; i++) {
        const struct node *child = &m->pool[node->first_child + i];
        if (child->proven < 0)
            continue;
        if (child->visits == 0)
            return node->first_child + i;
        double score = node_mean(child)
                       + m->c * sqrt(log_n / child->visits);
        if (score > best_score) {
            best_score = score;
            best = node->first_child + i;
        }
    }
    return best;
}

/* The reward of seat `seat` for an outcome. */
static double reward(enum game_outcome o, int seat)
{
    if (o == GAME_DRAW || o == GAME_ONGOING)
        return 0.5;
    return (o == GAME_WIN_SEAT0) == (seat == 0) ? 1.0 : 0.0;
}

/* One iteration: select, expand, play out, back up. */
static void iterate(struct mcts *m)
{
    const struct game *g = m->game;
    void *st = m->state;
    memcpy(st, m->root_state, g->state_size);
    uint32_t n = 0;
    int depth = 0;
    m->path[0] = 0;
    m->mover[0] = 1 - g->to_move(st);
    enum game_outcome outcome;
    for (;;) {
        struct node *node = &m->pool[n];
        if (node->proven) {
            /* Known result: the mover of n wins (+1) or loses (-1). */
            int winner = node->proven > 0 ? m->mover[depth] : 1 - m->mover[depth];
            outcome = winner == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1;
            break;
        }
        struct game_status s = g->status(st);
        if (s.outcome != GAME_ONGOING) {
            outcome = s.outcome;
            if (m->solver && outcome != GAME_DRAW)
                node->proven = reward(outcome, m->mover[depth]) > 0.5 ? 1 : -1;
            break;
        }
        if (!node->expanded) {
            /* A leaf's first visit is a playout; its second expands it. */
            if ((n != 0 && node->visits == 0) || expand(m, n, st) != 0) {
                playout_run(m->policy, g, st, &m->rng, m->playout_cap);
                outcome = g->status(st).outcome;
                break;
            }
            if (node->proven)
                continue; /* a decisive move settled it */
        }
        if (depth + 1 >= MAX_PATH) {
            outcome = GAME_DRAW;
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
        node_add_reward(node, reward(outcome, m->mover[k]));
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

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static move_t mcts_choose(void *self, const struct game *g, const void *st,
                          struct agent_stats *stats)
{
    struct mcts *m = self;
    if (!m->have_root || m->game != g
        || memcmp(m->root_state, st, g->state_size) != 0)
        reset_tree(m, g, st);
    m->hit_cap = 0;
    m->max_depth = 0;
    uint64_t done = 0;
    double deadline = m->ms ? now_ms() + m->ms : 0;
    while (!m->pool[0].proven && m->pool[0].visits < MCTS_MAX_VISITS) {
        iterate(m);
        done++;
        if (m->ms ? (done % 16 == 0 && now_ms() >= deadline)
                  : done >= m->iterations)
            break;
    }
    if (!m->pool[0].expanded) {
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
        || memcmp(m->root_state, st, g->state_size) != 0) {
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
 * float, so a near-tie between children could be broken otherwise. */
const struct agent_kind mcts_kind = {
    "mcts", "UCT Monte Carlo tree search with MCTS-Solver", mcts_params,
    P_COUNT, mcts_create, mcts_choose, mcts_observe, mcts_destroy, 2, 0};
