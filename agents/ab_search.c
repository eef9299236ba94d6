/*
 * ab_search.c -- the alpha-beta agent's tree search below the root: the
 * transposition table, move ordering, the looks for a win at once,
 * quiescence and the full-width search (ab.c holds the agent and the
 * root).
 *
 * Negamax with principal-variation search (a null window after the first
 * move, re-searched when it fails high), fail-soft, over whole states kept
 * one per ply in buffers allocated at create (states have no undo, so a
 * child is a copy of its parent with the move applied). By default no
 * search-shaping tricks that depend on the window or the move order (no
 * reductions, no null move), so the value of a node at a depth is a
 * function of the position alone: that is why the transposition table
 * cannot change the result of a fixed-depth search, and why the tests can
 * compare it with the table off. The one such trick, late move
 * reductions (lmr, off by default), gives that up: a quiet move that is
 * neither the hash move nor a killer, fourth or later in a node with 3 or
 * more plies left, is first searched lmr plies shallower with a null
 * window, and in full only if that beats alpha. Which moves come late
 * depends on the history, the killers and the table, so with it on only
 * determinism at a node budget holds (tests/test_ab.c).
 *
 * Game-ending moves: a child whose game is over is valued at once from its
 * status (by seat: the mover's seat won, lost, or drew). Full-width nodes
 * with two or more plies left first look for a move that wins at once (the
 * move that won last at the same ply tried first); one found is the exact
 * value, as no win is faster. The game's wins_at_once hook answers first
 * where it can (one node instead of a position made per move); the moves
 * are played only where it cannot tell, or to find the winning move.
 * Quiescence stands pat except after a forcing move (the opponent
 * threatens to win at once): then every reply is searched, and after each
 * the threatening side looks for its winning move; where the evaluation
 * can tell which replies leave the threat standing (eval.h's
 * threat_replies: Jetan and tafl), those are scored as the loss they
 * are, unplayed. A quiet win that the opponent's quiet move allowed is
 * not seen past the horizon.
 */
#include <math.h>

#include "ab_internal.h"

#define EVAL_CAP 100000 /* static scores stay far from the wins */
#define LMR_FIRST 3 /* moves searched in full before any reduction */
/* Move ordering bands (score_moves): the hash move, captures (plus their
 * value), forcing moves, killers (the first one + 1); history below. */
#define ORDER_HASH (1 << 30)
#define ORDER_CAPTURE (1 << 24)
#define ORDER_FORCING (1 << 23)
#define ORDER_KILLER (1 << 22)

enum bound { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

/* Quiescence modes: what the last moves into a node were. */
enum qmode { Q_NORMAL, Q_EVADE, Q_CASH };

/* ---- helpers ------------------------------------------------------------ */

static move_t *moves_at(struct ab *a, int ply)
{
    return a->moves + (size_t)ply * GAME_MAX_MOVES;
}

static int32_t *order_at(struct ab *a, int ply)
{
    return a->order + (size_t)ply * GAME_MAX_MOVES;
}

/* The value for the mover (seat) of a game that just ended, ply plies
 * from the root: a draw is draw_score[mover] (the contempt). */
static int terminal_score(const struct ab *a, enum game_outcome o, int mover,
                          int ply)
{
    if (o == GAME_DRAW)
        return a->draw_score[mover];
    int mover_won = (o == GAME_WIN_SEAT0) == (mover == 0);
    return mover_won ? AB_WIN - ply : -(AB_WIN - ply);
}

static int static_score(const struct ab *a, const void *st)
{
    double s = eval_score(a->e, a->w, st);
    if (s > EVAL_CAP)
        s = EVAL_CAP;
    if (s < -EVAL_CAP)
        s = -EVAL_CAP;
    return (int)floor(s + 0.5);
}

/* Counts a node; sets stopped once a budget is spent (never in depth 1). */
static int out_of_budget(struct ab *a)
{
    a->nodes++;
    if (!a->can_stop)
        return 0;
    if (a->node_limit && a->nodes >= a->node_limit)
        a->stopped = 1;
    if (a->ms && a->nodes >= a->next_clock) {
        a->next_clock = a->nodes + 256;
        if (now_ms() >= a->deadline)
            a->stopped = 1;
    }
    return a->stopped;
}

/* ---- transposition table ---------------------------------------------- */

static struct tt_entry *tt_probe(struct ab *a, uint64_t key, uint64_t check)
{
    if (!a->tt)
        return NULL;
    struct tt_entry *b = &a->tt[key & a->tt_mask & ~(size_t)(TT_WAYS - 1)];
    for (int w = 0; w < TT_WAYS; w++)
        if (b[w].bound != BOUND_NONE && b[w].key == key && b[w].check == check)
            return &b[w];
    return NULL;
}

static int score_to_tt(int s, int ply)
{
    return is_win_score(s) ? s + ply : is_loss_score(s) ? s - ply : s;
}

static int score_from_tt(int s, int ply)
{
    return is_win_score(s) ? s - ply : is_loss_score(s) ? s + ply : s;
}

static void tt_store(struct ab *a, uint64_t key, uint64_t check, int depth,
                     int ply, int score, enum bound bound, move_t move)
{
    if (!a->tt)
        return;
    struct tt_entry *b = &a->tt[key & a->tt_mask & ~(size_t)(TT_WAYS - 1)];
    struct tt_entry *victim = NULL;
    for (int w = 0; w < TT_WAYS && !victim; w++)
        if (b[w].bound != BOUND_NONE && b[w].key == key && b[w].check == check)
            victim = &b[w];
    if (!victim) {
        /* the oldest search first (empty entries are oldest), then the
         * shallowest */
        for (int w = 0; w < TT_WAYS; w++) {
            struct tt_entry *e = &b[w];
            int e_old = e->bound == BOUND_NONE || e->generation != a->generation;
            int v_old = victim && (victim->bound == BOUND_NONE
                                   || victim->generation != a->generation);
            if (!victim || (e_old && !v_old)
                || (e_old == v_old && e->depth < victim->depth))
                victim = e;
        }
        if (victim->bound != BOUND_NONE && victim->generation == a->generation)
            a->overwrites++;
    }
    victim->key = key;
    victim->check = check;
    victim->move = move;
    victim->score = score_to_tt(score, ply);
    victim->depth = (int16_t)depth;
    victim->bound = (uint8_t)bound;
    victim->generation = a->generation;
}

/* ---- move ordering ------------------------------------------------------ */

static int history_index(move_t m)
{
    return (int)((m * 0x9e3779b1u) >> 20) & (HISTORY_SIZE - 1);
}

/* Ordering scores for the n moves at ply: the hash move, captures by
 * value, forcing moves, the killers, then history. The forcing moves are
 * ranked apart, by rank_forcing, once the search has played the hash
 * move and the captures: a node those cut off never asks which of its
 * quiet moves are forcing (in Jetan a quarter of ab's work). The order is
 * the same as ranking all at once: whether a move is forcing depends on
 * the position alone, every quiet move ranks below every capture, and the
 * killers and history are read here, at the node's start, as before. */
static void score_moves(struct ab *a, const void *st, int ply, int n,
                        int has_hash, move_t hash_move)
{
    const move_t *mv = moves_at(a, ply);
    int32_t *ord = order_at(a, ply);
    const int seat = a->g->to_move(st);
    for (int i = 0; i < n; i++) {
        move_t m = mv[i];
        int cap = a->e->capture_value(st, m);
        if (has_hash && m == hash_move)
            ord[i] = ORDER_HASH;
        else if (cap > 0)
            ord[i] = ORDER_CAPTURE + cap;
        else if (m == a->killers[ply][0])
            ord[i] = ORDER_KILLER + 1;
        else if (m == a->killers[ply][1])
            ord[i] = ORDER_KILLER;
        else
            ord[i] = a->history[seat][history_index(m)];
    }
}

/* Ranks the forcing ones among moves i.. at ply, all of them quiet (the
 * hash move and the captures played), at ORDER_FORCING. */
static void rank_forcing(struct ab *a, const void *st, int ply, int i, int n)
{
    const move_t *mv = moves_at(a, ply);
    int32_t *ord = order_at(a, ply);
    for (int j = i; j < n; j++)
        if (a->e->is_forcing(st, mv[j]))
            ord[j] = ORDER_FORCING;
}

/* The index of the best-scored of moves i.. at ply (the first, of equals). */
static int best_scored(struct ab *a, int ply, int i, int n)
{
    const int32_t *ord = order_at(a, ply);
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (ord[j] > ord[best])
            best = j;
    return best;
}

/* Swaps move `best` at ply into place i. */
static void pick_next(struct ab *a, int ply, int i, int best)
{
    move_t *mv = moves_at(a, ply);
    int32_t *ord = order_at(a, ply);
    move_t tm = mv[i];
    mv[i] = mv[best];
    mv[best] = tm;
    int32_t to = ord[i];
    ord[i] = ord[best];
    ord[best] = to;
}

static void note_cutoff(struct ab *a, const void *st, int ply, move_t m,
                        int depth)
{
    if (a->e->capture_value(st, m) > 0)
        return;
    if (a->killers[ply][0] != m) {
        a->killers[ply][1] = a->killers[ply][0];
        a->killers[ply][0] = m;
    }
    int32_t *h = &a->history[a->g->to_move(st)][history_index(m)];
    *h += depth * depth;
    if (*h >= ORDER_KILLER / 2) /* stays below the killers */
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < HISTORY_SIZE; k++)
                a->history[s][k] /= 2;
}

/* The game's wins_at_once hook (game.h) on st: 1 or 0, or -1 where the
 * game has none or cannot tell. A call counts as one node, as a position
 * made does (budgets follow the work). */
static int hook_wins_at_once(struct ab *a, const void *st)
{
    if (!a->g->wins_at_once)
        return -1;
    a->nodes++;
    return a->g->wins_at_once(st);
}

/* Whether one of the n moves at ply wins at once for the side to move at
 * st, found by playing them: the move that last won at this ply is tried
 * first, and the one found is left in a->win_killer[ply]. Every position
 * made counts as a node. */
static int wins_at_once(struct ab *a, const void *st, int ply, int n)
{
    const struct game *g = a->g;
    const move_t *mv = moves_at(a, ply);
    void *child = state_at(a, ply + 1);
    const int seat = g->to_move(st);
    const enum game_outcome win = seat == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1;
    move_t k = a->win_killer[ply];
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            if ((pass == 0) != (mv[i] == k && k))
                continue;
            game_copy_state(g, child, st);
            g->apply(child, mv[i]);
            a->nodes++; /* a position made, so budgets follow the work */
            if (g->status(child).outcome == win) {
                a->win_killer[ply] = mv[i];
                return 1;
            }
        }
    return 0;
}

/* ---- quiescence --------------------------------------------------------- */

/* Whether quiescence plays move m (capturing cap points) at a node, and
 * how its child searches. */
static int q_child_mode(struct ab *a, const void *st, move_t m, int cap,
                        enum qmode mode, int qply, enum qmode *child)
{
    if (mode == Q_EVADE) {
        *child = Q_CASH;
        return 1;
    }
    *child = Q_NORMAL;
    if (cap > 0)
        return 1;
    if (a->qforcing && qply < 2 && a->e->is_forcing(st, m)) {
        *child = Q_EVADE;
        return 1;
    }
    return 0;
}

static int qsearch(struct ab *a, int ply, int qply, int alpha, int beta,
                   enum qmode mode)
{
    const struct game *g = a->g;
    const void *st = state_at(a, ply);
    if (out_of_budget(a))
        return 0;
    move_t *mv = moves_at(a, ply);
    int32_t *ord = order_at(a, ply);
    int n = -1; /* the moves not listed yet */
    /* the threat is cashed even at the last quiescence ply */
    if (mode == Q_CASH && ply + 1 < a->plies) {
        int known = hook_wins_at_once(a, st);
        if (known < 0)
            known = wins_at_once(a, st, ply, n = g->legal_moves(st, mv));
        if (known)
            return AB_WIN - (ply + 1);
    }
    const int deep = ply + 1 >= a->plies || qply >= a->qdepth;
    if (!a->quiescence || deep)
        return static_score(a, st);
    if (n < 0)
        n = g->legal_moves(st, mv);
    if (n == 0)
        return a->draw_score[g->to_move(st)];
    int best = -INF;
    if (mode != Q_EVADE) {
        best = static_score(a, st);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }
    /* replies to a threat that leave it standing lose two plies on (as
     * the Q_CASH child would find, with a ply left to cash it) */
    unsigned char *parry = NULL, may_parry[GAME_MAX_MOVES];
    if (mode == Q_EVADE && ply + 2 < a->plies && a->e->threat_replies
        && a->e->threat_replies(st, mv, n, may_parry)) {
        parry = may_parry;
        for (int i = 0; i < n && best == -INF; i++)
            if (!parry[i])
                best = -(AB_WIN - (ply + 2));
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }
    /* keep the moves quiescence plays, captures by value first */
    int kept = 0;
    enum qmode child_mode[GAME_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        enum qmode cm;
        if (parry && !parry[i])
            continue;
        int cap = a->e->capture_value(st, mv[i]);
        if (!q_child_mode(a, st, mv[i], cap, mode, qply, &cm))
            continue;
        mv[kept] = mv[i];
        child_mode[kept] = cm;
        ord[kept++] = cap;
    }
    const int mover = g->to_move(st);
    void *child = state_at(a, ply + 1);
    for (int i = 0; i < kept; i++) {
        int bi = i;
        for (int j = i + 1; j < kept; j++)
            if (ord[j] > ord[bi])
                bi = j;
        move_t m = mv[bi];
        enum qmode cm = child_mode[bi];
        mv[bi] = mv[i], ord[bi] = ord[i], child_mode[bi] = child_mode[i];
        game_copy_state(g, child, st);
        g->apply(child, m);
        struct game_status s = g->status(child);
        int v = s.outcome != GAME_ONGOING
                ? terminal_score(a, s.outcome, mover, ply + 1)
                : -qsearch(a, ply + 1, qply + 1, -beta, -alpha, cm);
        if (a->stopped)
            return 0;
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* ---- the full-width search ---------------------------------------------- */

static int search(struct ab *a, int ply, int depth, int alpha, int beta,
                  enum qmode qmode);

/* The value of move m (at ply) for the mover: searched with the window
 * (alpha, beta), the child's game status first. */
static int child_value(struct ab *a, const void *st, int ply, move_t m,
                       int depth, int alpha, int beta)
{
    const struct game *g = a->g;
    void *child = state_at(a, ply + 1);
    enum qmode cm = Q_NORMAL;
    if (depth == 1 && a->quiescence && a->qforcing
        && a->e->is_forcing(st, m))
        cm = Q_EVADE;
    game_copy_state(g, child, st);
    g->apply(child, m);
    struct game_status s = g->status(child);
    if (s.outcome != GAME_ONGOING)
        return terminal_score(a, s.outcome, g->to_move(st), ply + 1);
    return -search(a, ply + 1, depth - 1, -beta, -alpha, cm);
}

/* PVS over the moves of a node: the first with the full window, the rest
 * with a null window, re-searched when they fail high inside it. */
static int pvs_value(struct ab *a, const void *st, int ply, move_t m,
                     int depth, int alpha, int beta, int first)
{
    if (first || beta - alpha <= 1)
        return child_value(a, st, ply, m, depth, alpha, beta);
    int v = child_value(a, st, ply, m, depth, alpha, alpha + 1);
    if (!a->stopped && v > alpha && v < beta)
        v = child_value(a, st, ply, m, depth, alpha, beta);
    return v;
}

/* With repdraw: whether the position at ply (> 0) occurred before, on the
 * search line since the root (the same side to move, so an even number
 * of plies back) or in the game before the root. */
static int repeats_earlier(struct ab *a, int ply)
{
    const struct game *g = a->g;
    uint64_t h = ab_seen_slot_hash(g->hash(state_at(a, ply)));
    for (int back = ply - 2; back >= 0; back -= 2)
        if (ab_seen_slot_hash(g->hash(state_at(a, back))) == h)
            return 1;
    return ab_seen_has(a, h);
}

static int search(struct ab *a, int ply, int depth, int alpha, int beta,
                  enum qmode qmode)
{
    const struct game *g = a->g;
    if (a->repdraw && ply > 0 && repeats_earlier(a, ply))
        return a->draw_score[g->to_move(state_at(a, ply))];
    if (depth <= 0 || ply + 1 >= a->plies)
        return qsearch(a, ply, 0, alpha, beta, qmode);
    const void *st = state_at(a, ply);
    if (out_of_budget(a))
        return 0;
    const int alpha0 = alpha;
    uint64_t key = 0, check = 0;
    move_t hash_move = 0;
    int has_hash = 0;
    if (a->tt) {
        /* a game without search_key: its Zobrist hash, which may tell
         * apart states that play alike (fewer hits, never a wrong one) */
        key = (g->search_key ? g->search_key(st) : g->hash(st)) ^ a->root_mix;
        check = g->hash(st);
        const struct tt_entry *e = tt_probe(a, key, check);
        if (e) {
            hash_move = e->move;
            has_hash = 1;
            int s = score_from_tt(e->score, ply);
            if (e->depth >= depth
                && (e->bound == BOUND_EXACT
                    || (e->bound == BOUND_LOWER && s >= beta)
                    || (e->bound == BOUND_UPPER && s <= alpha)))
                return s;
        }
    }
    int n = g->legal_moves(st, moves_at(a, ply));
    if (n == 0)
        return a->draw_score[g->to_move(st)];
    if (depth >= 2 && hook_wins_at_once(a, st) != 0
        && wins_at_once(a, st, ply, n)) {
        int s = AB_WIN - (ply + 1);
        tt_store(a, key, check, depth, ply, s, BOUND_EXACT,
                 a->win_killer[ply]);
        return s;
    }
    score_moves(a, st, ply, n, has_hash, hash_move);
    int best = -INF, quiet_ranked = 0;
    move_t best_move = 0;
    for (int i = 0; i < n; i++) {
        int next = best_scored(a, ply, i, n);
        if (!quiet_ranked && order_at(a, ply)[next] < ORDER_CAPTURE) {
            rank_forcing(a, st, ply, i, n);
            quiet_ranked = 1;
            next = best_scored(a, ply, i, n);
        }
        pick_next(a, ply, i, next);
        move_t m = moves_at(a, ply)[i];
        int v = alpha + 1;
        if (a->lmr && depth >= 3 && i >= LMR_FIRST
            && order_at(a, ply)[i] < ORDER_KILLER) /* quiet, not a killer */
            v = child_value(a, st, ply, m, depth - a->lmr, alpha, alpha + 1);
        if (!a->stopped && v > alpha)
            v = pvs_value(a, st, ply, m, depth, alpha, beta, i == 0);
        if (a->stopped)
            return 0;
        if (v > best) {
            best = v;
            best_move = m;
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta) {
            note_cutoff(a, st, ply, m, depth);
            break;
        }
    }
    enum bound b = best <= alpha0 ? BOUND_UPPER
                   : best >= beta ? BOUND_LOWER : BOUND_EXACT;
    tt_store(a, key, check, depth, ply, best, b, best_move);
    return best;
}

int ab_root_move_value(struct ab *a, const void *st, move_t m, int depth,
                       int alpha, int beta, int first)
{
    return pvs_value(a, st, 0, m, depth, alpha, beta, first);
}
