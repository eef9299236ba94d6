/*
 * ab.c -- the alpha-beta agent; see ab.h for its parameters and budgets.
 * This file is the agent: its parameters, the root's iterative deepening
 * and move order, its statistics, create and destroy. The search below
 * the root is ab_search.c; what the two share, ab_internal.h.
 *
 * Why the root picks among equal scores by its order: with integer scores
 * and a null window (alpha, alpha + 1), a later root move replaces the best
 * only when it is strictly better, so the move played is the first in the
 * root order with the best value, whatever the table or the move ordering
 * below the root did. The root order is the seeded shuffle, captures first,
 * and each iteration moves the previous best to the front.
 */
#include <stdlib.h>
#include <string.h>

#include "ab_internal.h"

enum { P_DEPTH, P_NODES, P_MS, P_TT_MB, P_QUIESCENCE, P_QDEPTH, P_QFORCING,
       P_CONTEMPT, P_LMR, P_REPDRAW, P_COUNT };

static const struct param_spec ab_params[P_COUNT] = {
    [P_DEPTH] = {"depth", PARAM_INT, 60, 1, 60, NULL,
                 "deepest iteration of the iterative deepening", 1},
    [P_NODES] = {"nodes", PARAM_INT, 100000, 0, 1e12, NULL,
                 "node budget per move (reproducible); 0 = none", 1},
    [P_MS] = {"ms", PARAM_INT, 0, 0, 1e7, NULL,
              "wall-clock budget per move in ms; 0 = none", 1},
    [P_TT_MB] = {"tt_mb", PARAM_INT, 16, 0, 65536, NULL,
                 "transposition table MiB, allocated once; 0 = none", 1},
    [P_QUIESCENCE] = {"quiescence", PARAM_BOOL, 1, 0, 1, NULL,
                      "search captures and forcing moves past the horizon",
                      1},
    [P_QDEPTH] = {"qdepth", PARAM_INT, 8, 0, 32, NULL,
                  "most plies of quiescence", 1},
    [P_QFORCING] = {"qforcing", PARAM_BOOL, 1, 0, 1, NULL,
                    "quiescence also plays forcing moves and every reply",
                    1},
    [P_CONTEMPT] = {"contempt", PARAM_INT, 0, -100000, 100000, NULL,
                    "a draw by the rules is worth -contempt points to the "
                    "side the agent plays (+contempt to its opponent)", 2},
    [P_LMR] = {"lmr", PARAM_INT, 0, 0, 2, NULL,
               "late quiet moves searched this many plies shallower "
               "first (0 = off)", 3},
    [P_REPDRAW] = {"repdraw", PARAM_BOOL, 0, 0, 1, NULL,
                   "a position met before (in the game or the search "
                   "line) scores as a draw inside the search", 4},
};

/* ---- the root ---------------------------------------------------------- */

/* Orders the root moves: a seeded shuffle, then captures first by value
 * (stable), so equal moves keep the shuffled order. */
static void order_root(struct ab *a, const void *st, int n)
{
    move_t *mv = a->root_moves;
    int32_t *key = a->root_static;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(&a->rng, (uint32_t)i + 1);
        move_t t = mv[i];
        mv[i] = mv[j];
        mv[j] = t;
    }
    for (int i = 0; i < n; i++)
        key[i] = a->e->capture_value(st, mv[i]);
    for (int i = 1; i < n; i++) { /* insertion sort: stable */
        move_t m = mv[i];
        int32_t k = key[i];
        int j = i - 1;
        for (; j >= 0 && key[j] < k; j--) {
            mv[j + 1] = mv[j];
            key[j + 1] = key[j];
        }
        mv[j + 1] = m;
        key[j + 1] = k;
    }
}

/* Moves root move `best` to the front, the others keeping their order. */
static void best_first(struct ab *a, int best)
{
    move_t m = a->root_moves[best];
    memmove(a->root_moves + 1, a->root_moves, sizeof(move_t) * (size_t)best);
    a->root_moves[0] = m;
}

/* One iteration at depth: returns the index of the best root move with
 * its score in *score; with *complete 0 if a budget stopped it (the index
 * is then of the best move searched to the end, or -1). */
static int root_iteration(struct ab *a, const void *st, int n, int depth,
                          int *score, int *complete)
{
    int alpha = -INF, best = -1;
    *score = -INF;
    for (int i = 0; i < n; i++) {
        int v = ab_root_move_value(a, st, a->root_moves[i], depth, alpha,
                                   INF, i == 0);
        if (a->stopped)
            break;
        if (v > alpha) {
            alpha = v;
            best = i;
            *score = v;
        }
    }
    *complete = !a->stopped;
    return best;
}

static void fill_stats(const struct ab *a, struct agent_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    stats->iterations = a->nodes;
    stats->nodes = a->nodes > UINT32_MAX ? UINT32_MAX : (uint32_t)a->nodes;
    stats->depth = a->last.depth;
    stats->hit_cap = a->tt && a->overwrites * 8 > a->tt_mask + 1;
    int s = a->last.score;
    stats->proven = is_win_score(s) ? 1 : is_loss_score(s) ? -1 : 0;
    stats->value = stats->proven > 0 ? 1.0 : stats->proven < 0 ? 0.0
                   : eval_win_probability(s, AB_VALUE_SCALE);
}

static move_t ab_choose(void *self, const struct game *g, const void *st,
                        struct agent_stats *stats)
{
    struct ab *a = self;
    a->g = g;
    a->e = eval_of(g);
    a->w = a->weights + eval_weight_offset(a->e);
    a->nodes = a->next_clock = 0;
    a->stopped = a->can_stop = 0;
    a->overwrites = 0;
    a->deadline = a->ms ? now_ms() + a->ms : 0;
    a->generation++;
    const int root = g->to_move(st);
    a->draw_score[root] = -a->contempt;
    a->draw_score[root ^ 1] = a->contempt;
    /* with contempt a value depends on the root's seat as well */
    a->root_mix = a->contempt ? 0x6a09e667f3bcc909ULL * (uint64_t)(root + 1)
                              : 0;
    memset(a->history, 0, sizeof a->history);
    memset(a->killers, 0, sizeof *a->killers * (size_t)a->plies);
    memset(a->win_killer, 0, sizeof *a->win_killer * (size_t)a->plies);
    game_copy_state(g, state_at(a, 0), st);
    int n = g->legal_moves(st, a->root_moves);
    order_root(a, st, n);
    a->last.move = a->root_moves[0];
    a->last.score = 0;
    a->last.depth = 0;
    for (int depth = 1; depth <= a->max_depth && depth < a->plies; depth++) {
        int score, complete;
        int best = root_iteration(a, state_at(a, 0), n, depth, &score,
                                  &complete);
        a->can_stop = 1; /* depth 1 is always completed */
        if (best >= 0 && (complete || best > 0)) {
            a->last.move = a->root_moves[best];
            a->last.score = score;
            best_first(a, best);
        }
        if (!complete)
            break;
        a->last.depth = depth;
        if (is_win_score(score) || is_loss_score(score) || n == 1)
            break; /* proven: deeper iterations find nothing shorter */
        if (a->node_limit && a->nodes >= a->node_limit)
            break;
        if (a->ms && now_ms() >= a->deadline)
            break;
    }
    a->last.nodes = a->nodes;
    fill_stats(a, stats);
    return a->last.move;
}

/* ---- the game's positions, for repdraw --------------------------------- */

/* Adds hash to the seen set, doubling it past half full. Returns 0, or -1
 * when memory is short (the set then stays as it was: the search just
 * misses that repetition). */
static int seen_add(struct ab *a, uint64_t hash)
{
    hash = ab_seen_slot_hash(hash);
    if (ab_seen_has(a, hash))
        return 0;
    size_t slots = a->seen ? a->seen_mask + 1 : 0;
    if ((a->seen_count + 1) * 2 > slots) {
        size_t grown = slots ? slots * 2 : 256;
        uint64_t *set = calloc(grown, sizeof *set);
        if (!set)
            return -1;
        for (size_t i = 0; i < slots; i++) {
            if (!a->seen[i])
                continue;
            size_t j = a->seen[i] & (grown - 1);
            while (set[j])
                j = (j + 1) & (grown - 1);
            set[j] = a->seen[i];
        }
        free(a->seen);
        a->seen = set;
        a->seen_mask = grown - 1;
    }
    size_t j = hash & a->seen_mask;
    while (a->seen[j])
        j = (j + 1) & a->seen_mask;
    a->seen[j] = hash;
    a->seen_count++;
    return 0;
}

/* Move m was played from st: with repdraw, st joins the positions the
 * search treats as met before (an agent lives for one game). */
static void ab_observe(void *self, const struct game *g, const void *st,
                       move_t m)
{
    struct ab *a = self;
    (void)m;
    if (a->repdraw)
        (void)seen_add(a, g->hash(st));
}

/* ---- create and destroy ------------------------------------------------ */

/* The deepest depth accepted as a search's only budget: deeper, with no
 * node or time budget, no game's search would end (the default depth, 60,
 * is the iterative deepening's ceiling, not a budget). */
#define DEPTH_ONLY_MAX 20

/* agent_kind.check: a search needs nodes, ms or a depth it can finish. */
static int ab_check(const double *values, const struct spec_texts *texts,
                    char *err, size_t errsz)
{
    (void)texts;
    if (values[P_NODES] > 0 || values[P_MS] > 0
        || values[P_DEPTH] <= DEPTH_ONLY_MAX)
        return 0;
    return game_error(err, errsz, "ab: nodes=0 and ms=0 leave the search "
                      "no budget but depth=%d, which it never finishes; "
                      "give nodes=N, ms=N or depth=N (at most %d)",
                      (int)values[P_DEPTH], DEPTH_ONLY_MAX);
}

/* Entries of the table for tt_mb MiB: a power of two, at least TT_WAYS. */
static size_t tt_entries(int tt_mb)
{
    if (tt_mb <= 0)
        return 0;
    size_t want = (size_t)tt_mb * 1024 * 1024 / sizeof(struct tt_entry);
    size_t size = TT_WAYS;
    while (size * 2 <= want)
        size *= 2;
    return size;
}

/* Plies of buffers for a search of depth plus qdepth quiescence plies. */
static int plies_for(int depth, int qdepth)
{
    return depth + qdepth + 2;
}

size_t ab_memory_bytes(int depth, int qdepth, int tt_mb)
{
    size_t plies = (size_t)plies_for(depth, qdepth);
    return sizeof(struct ab) + tt_entries(tt_mb) * sizeof(struct tt_entry)
           + plies * (GAME_MAX_STATE_SIZE + GAME_MAX_MOVES * sizeof(move_t)
                      + GAME_MAX_MOVES * sizeof(int32_t) + 3 * sizeof(move_t))
           + (size_t)eval_weight_count() * sizeof(double);
}

static void ab_destroy(void *self)
{
    struct ab *a = self;
    if (!a)
        return;
    free(a->tt);
    free(a->states);
    free(a->moves);
    free(a->order);
    free(a->killers);
    free(a->win_killer);
    free(a->weights);
    free(a->seen);
    free(a);
}

static void *ab_create(const double *values,
                        const struct spec_texts *texts, uint64_t seed,
                        char *err, size_t errsz)
{
    (void)texts, (void)err, (void)errsz;
    struct ab *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->max_depth = (int)values[P_DEPTH];
    a->node_limit = (uint64_t)values[P_NODES];
    a->ms = (int)values[P_MS];
    a->quiescence = (int)values[P_QUIESCENCE];
    a->qdepth = (int)values[P_QDEPTH];
    a->qforcing = (int)values[P_QFORCING];
    a->contempt = (int)values[P_CONTEMPT];
    a->lmr = (int)values[P_LMR];
    a->repdraw = (int)values[P_REPDRAW];
    a->plies = plies_for(a->max_depth, a->qdepth);
    size_t plies = (size_t)a->plies, entries = tt_entries((int)values[P_TT_MB]);
    int nw = eval_weight_count();
    a->states = malloc(plies * GAME_MAX_STATE_SIZE);
    a->moves = malloc(plies * GAME_MAX_MOVES * sizeof *a->moves);
    a->order = malloc(plies * GAME_MAX_MOVES * sizeof *a->order);
    a->killers = calloc(plies, sizeof *a->killers);
    a->win_killer = calloc(plies, sizeof *a->win_killer);
    a->weights = malloc(sizeof *a->weights * (size_t)(nw > 0 ? nw : 1));
    if (entries) {
        a->tt = calloc(entries, sizeof *a->tt);
        a->tt_mask = entries - 1;
    }
    if (!a->states || !a->moves || !a->order || !a->killers || !a->win_killer
        || !a->weights || (entries && !a->tt)) {
        ab_destroy(a);
        return NULL;
    }
    for (int i = 0; i < nw; i++)
        a->weights[i] = values[P_COUNT + i];
    rng_seed(&a->rng, seed);
    return a;
}

void ab_last_search(const struct agent *ag, struct ab_info *out)
{
    const struct ab *a = ag->self;
    *out = a->last;
}

/* Behaviour version 3: the win-at-once checks ask the game's hook first
 * and count one node for it, where version 2 played every move (a node
 * each), so a `nodes` budget buys a deeper search in Jetan and Serbest
 * and the same spec and seed may choose other moves. Version 4: replies
 * to a threat that threat_replies rules out are not played (Jetan).
 * Version 5: tafl's threat_replies and wins_at_once hook too. */
const struct agent_kind ab_kind = {
    .name = "ab",
    .doc = "iterative-deepening alpha-beta (PVS, table, quiescence)",
    .params = ab_params,
    .n_params = P_COUNT,
    .create = ab_create,
    .choose = ab_choose,
    .observe = ab_observe,
    .destroy = ab_destroy,
    .behaviour_version = 5,
    .uses_eval = 1,
    .check = ab_check,
};
