/*
 * playout.c -- the playout loop and its policies (only `random` so far).
 * With RULELAB_CHECK_INVARIANTS on, every applied move is followed by the
 * game's state_ok check (game_check_invariants in core/game.h).
 */
#include "playout.h"

static move_t pick_random(const struct game *g, const void *st,
                          const move_t *moves, int n, struct rng *r)
{
    (void)g;
    (void)st;
    return moves[rng_below(r, (uint32_t)n)];
}

static const struct playout_policy random_policy = {"random", pick_random};

const struct playout_policy *const playout_policies[] = {&random_policy, NULL};
const char *const playout_policy_names[] = {"random", NULL};

int playout_run(const struct playout_policy *p, const struct game *g,
                void *st, struct rng *r, int cap)
{
    move_t moves[GAME_MAX_MOVES];
    int plies = 0;
    while (cap <= 0 || plies < cap) {
        int n = g->legal_moves(st, moves);
        if (n == 0)
            break;
        move_t m = p->pick(g, st, moves, n, r);
        g->apply(st, m);
        game_check_invariants(g, st, m);
        plies++;
    }
    return plies;
}
