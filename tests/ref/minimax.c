/*
 * minimax.c -- see minimax.h. OR over the attacker's moves, AND over the
 * defender's; plain recursion, one state copy per child.
 */
#include "minimax.h"

#include <stdlib.h>
#include <string.h>

static int win_within(const struct game *g, const void *st, int attacker,
                      int plies)
{
    struct game_status s = g->status(st);
    if (s.outcome != GAME_ONGOING)
        return s.outcome == (attacker == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1);
    if (plies == 0)
        return 0;
    /* heap buffers: the recursion is shallow, but GAME_MAX_MOVES moves and
     * a GAME_MAX_STATE_SIZE state per level would crowd a small stack */
    move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    unsigned char *child = aligned_alloc(GAME_STATE_ALIGN, GAME_MAX_STATE_SIZE);
    if (!moves || !child)
        abort();
    int n = g->legal_moves(st, moves);
    int or_node = g->to_move(st) == attacker;
    /* OR node: a win if some move wins; AND node: if every move does. A
     * position with no moves but not over cannot occur (legal_moves
     * returns 0 only once the game is over); it counts as not a win. */
    int result = or_node ? 0 : n > 0;
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->state_size);
        g->apply(child, moves[i]);
        int w = win_within(g, child, attacker, plies - 1);
        if (or_node && w) {
            result = 1;
            break;
        }
        if (!or_node && !w) {
            result = 0;
            break;
        }
    }
    free(child);
    free(moves);
    return result;
}

int minimax_forced_win(const struct game *g, const void *st, int plies)
{
    return win_within(g, st, g->to_move(st), plies);
}
