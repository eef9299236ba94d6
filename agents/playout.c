/*
 * playout.c -- the playout loop and its policies, `random` and `greedy`
 * (playout.h). greedy's knowledge is what a playout can afford at every
 * ply: a win in one is the strongest signal there is and a move that lets
 * the opponent win in one the worst blunder, so those are checked, but
 * only on a bounded number of moves (GREEDY_CHECKS applies per check, and
 * at most GREEDY_SAFETY_CHECKS checks of the opponent), so that a Serbest
 * position with 600 drops costs a few hundred applies, not 600 squared.
 * A full safety check of the move played is the next ply's win check, so
 * that one is not repeated (next_checked). Captures come from the
 * evaluation's capture_value, whose cost is the game's (tafl's plays the
 * move on a copy).
 * Wins are judged by the game's status after the move, by seat. With
 * RULELAB_CHECK_INVARIANTS on, every applied move is followed by the
 * game's state_ok check (game_check_invariants in core/game.h).
 */
#include "playout.h"

#include <assert.h>
#include <string.h>

static move_t pick_random(struct playout_context *ctx,
                          const struct game *g, const void *st,
                          const move_t *moves, int n, struct rng *r)
{
    (void)ctx;
    (void)g;
    (void)st;
    return moves[rng_below(r, (uint32_t)n)];
}

/* Whether m (legal in st) ends the game with a win for the side to move. */
static int wins_at_once(const struct game *g, const void *st, move_t m)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char probe[GAME_MAX_STATE_SIZE];
    int seat = g->to_move(st);
    game_copy_state(g, probe, st);
    g->apply(probe, m);
    game_check_invariants(g, probe, m);
    return g->status(probe).outcome == (seat == 0 ? GAME_WIN_SEAT0
                                                  : GAME_WIN_SEAT1);
}

/* Writes the indices of the captures among the n > 0 moves into caps;
 * returns how many. */
static int find_captures(const struct playout_context *ctx, const void *st,
                         const move_t *moves, int n, int *caps)
{
    int count = 0;
    caps[0] = -1; /* (for the compiler, which cannot know that n > 0) */
    for (int i = 0; i < n; i++)
        if (ctx->eval->capture_value(st, moves[i]) > 0)
            caps[count++] = i;
    return count;
}

/* The bounded win check of the side to move in st: every one of the n > 0
 * moves when there are at most GREEDY_CHECKS (then *full is 1), else the
 * captures and then moves drawn at random, GREEDY_CHECKS in all. Returns
 * 1 with *win set when one wins at once. */
static int find_win(const struct playout_context *ctx, const struct game *g,
                    const void *st, const move_t *moves, int n,
                    struct rng *r, move_t *win, int *full)
{
    int caps[GAME_MAX_MOVES], n_caps = 0;
    *full = n <= GREEDY_CHECKS;
    if (!*full)
        n_caps = find_captures(ctx, st, moves, n, caps);
    for (int k = 0; k < GREEDY_CHECKS && k < n; k++) {
        move_t m = *full ? moves[k]
                   : k < n_caps ? moves[caps[k]]
                   : moves[rng_below(r, (uint32_t)n)];
        if (wins_at_once(g, st, m)) {
            *win = m;
            return 1;
        }
    }
    return 0;
}

/* Whether, after m from st, the bounded check finds the opponent a win at
 * once; *full says whether it checked every reply. */
static int allows_win(const struct playout_context *ctx, const struct game *g,
                      const void *st, move_t m, struct rng *r, int *full)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE];
    move_t replies[GAME_MAX_MOVES];
    game_copy_state(g, after, st);
    g->apply(after, m);
    game_check_invariants(g, after, m);
    int n = g->legal_moves(after, replies); /* 0 once the game is over */
    *full = 1;
    if (n == 0)
        return 0;
    move_t win;
    return find_win(ctx, g, after, replies, n, r, &win, full);
}

/* The index of a capture with probability 1 - epsilon when there is one,
 * else of any move. */
static int draw_index(const struct playout_context *ctx, const void *st,
                      const move_t *moves, int n, struct rng *r)
{
    if (ctx->epsilon <= 0.0 || rng_double(r) >= ctx->epsilon) {
        int caps[GAME_MAX_MOVES];
        int n_caps = find_captures(ctx, st, moves, n, caps);
        if (n_caps > 0)
            return caps[rng_below(r, (uint32_t)n_caps)];
    }
    return (int)rng_below(r, (uint32_t)n);
}

/* After the drawn move `first` was found to allow a win: draws uniformly
 * among the moves not yet rejected (so a poisoned capture is not drawn
 * again), checking each, and plays the last draw unchecked. */
static move_t redraw(struct playout_context *ctx, const struct game *g,
                     const void *st, const move_t *moves, int n, int first,
                     struct rng *r)
{
    int left[GAME_MAX_MOVES];
    for (int i = 0; i < n; i++)
        left[i] = i;
    int n_left = n - 1, full;
    left[first] = left[n_left];
    for (int checks = 1; n_left > 0; checks++) {
        int pos = (int)rng_below(r, (uint32_t)n_left);
        move_t m = moves[left[pos]];
        if (checks == GREEDY_SAFETY_CHECKS)
            return m;
        if (!allows_win(ctx, g, st, m, r, &full)) {
            ctx->next_checked = full;
            return m;
        }
        left[pos] = left[--n_left];
    }
    return moves[first]; /* every move allows a win */
}

static move_t pick_greedy(struct playout_context *ctx, const struct game *g,
                          const void *st, const move_t *moves, int n,
                          struct rng *r)
{
    assert(ctx && ctx->eval && ctx->eval->game == g);
    int full, checked = ctx->next_checked;
    ctx->next_checked = 0;
    move_t win;
    /* The previous ply's full safety check was this very win check. */
    if (!checked && find_win(ctx, g, st, moves, n, r, &win, &full))
        return win;
    int first = draw_index(ctx, st, moves, n, r);
    if (!allows_win(ctx, g, st, moves[first], r, &full)) {
        ctx->next_checked = full;
        return moves[first];
    }
    return redraw(ctx, g, st, moves, n, first, r);
}

static const struct playout_policy random_policy = {"random", pick_random};
static const struct playout_policy greedy_policy = {"greedy", pick_greedy};

const struct playout_policy *const playout_policies[] = {&random_policy,
                                                         &greedy_policy, NULL};
const char *const playout_policy_names[] = {"random", "greedy", NULL};

/* playout_run_with for the random policy: game_random_move draws the
 * move pick_random would from the same generator. */
static int random_playout(const struct game *g, void *st, struct rng *r,
                          int cap)
{
    int plies = 0;
    move_t m;
    while ((cap <= 0 || plies < cap) && game_random_move(g, st, r, &m) > 0) {
        g->apply(st, m);
        game_check_invariants(g, st, m);
        plies++;
    }
    return plies;
}

int playout_run_with(const struct playout_policy *p,
                     struct playout_context *ctx, const struct game *g,
                     void *st, struct rng *r, int cap)
{
    move_t moves[GAME_MAX_MOVES];
    int plies = 0;
    if (p == &random_policy) /* the same games, drawn without a move list */
        return random_playout(g, st, r, cap);
    if (ctx)
        ctx->next_checked = 0;
    while (cap <= 0 || plies < cap) {
        int n = g->legal_moves(st, moves);
        if (n == 0)
            break;
        move_t m = p->pick(ctx, g, st, moves, n, r);
        g->apply(st, m);
        game_check_invariants(g, st, m);
        plies++;
    }
    return plies;
}

int playout_run(const struct playout_policy *p, const struct game *g,
                void *st, struct rng *r, int cap)
{
    return playout_run_with(p, NULL, g, st, r, cap);
}
