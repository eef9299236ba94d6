/*
 * tafl_wins.c -- tafl_game.wins_at_once (game.h), the searches' hook:
 * whether the side to move has a move that wins at once, told from the
 * board instead of by playing every move.
 *
 * tafl ends a game with a win in three ways
 * (docs/rules.md#tafl-end-of-the-game): the King reaches an escape square
 * (the defenders win), the King is captured (the attackers win), or the
 * side to move has no legal move (it loses). The first two are the King's
 * open lines and its capture in one move
 * (tafl_king.h). The third is ruled out where the opponent keeps a move
 * whatever we play. A move changes the board at its two squares and where
 * it takes men. It lands on one square, and of that square's neighbours
 * at most three hold the opponent's pieces (the fourth is the square the
 * mover came from or crossed), so at most three of its pieces lose
 * anything: a man taken, or a step onto the landing square. Four pieces
 * with a step each to an empty neighbour they may stop on (not the move
 * the opponent's shuttle forbids, which our move leaves as it was) thus
 * keep one; so does the opponent's King with two such steps, as the King
 * is not taken (a capture would have been found first, a win). Where
 * neither holds, the hook cannot tell (-1) and the searches play every
 * move.
 */
#include "tafl.h"
#include "tafl_king.h"

/* Whether `piece` may end a step on the empty square sq (tafl.c's rules
 * for where a move may stop). */
static int may_step_to(const struct tafl_state *s, int piece, int sq)
{
    if (piece != TAFL_KING)
        return tafl_man_may_stop(s, sq);
    return !(sq == TAFL_THRONE && s->king_throne_barred);
}

/* How many empty neighbours the piece on sq may step to with a move other
 * than `forbidden`. */
static int free_steps(const struct tafl_state *s, int sq, move_t forbidden)
{
    const int piece = s->board[sq];
    int steps = 0;
    for (int d = 0; d < 4; d++) {
        const int to = sq + tafl_directions[d];
        steps += s->board[to] == TAFL_EMPTY && may_step_to(s, piece, to)
                 && TAFL_MOVE(sq, to) != forbidden;
    }
    return steps;
}

/* Whether the side not to move surely has a legal move after any move of
 * the side to move, which cannot capture the King (the file comment says
 * why this count suffices). */
static int opponent_keeps_a_move(const struct tafl_state *s)
{
    const int them = s->head.side ^ 1;
    const move_t forbidden = tafl_shuttle_forbidden(
        s, s->last_from[them], s->last_to[them], s->shuttle_len[them]);
    const struct piece_list *pieces = &s->pieces[them];
    int mobile = 0;
    for (int i = 0; i < pieces->count; i++) {
        const int sq = pieces->sq[i], steps = free_steps(s, sq, forbidden);
        if (steps >= 2 && s->board[sq] == TAFL_KING)
            return 1;
        mobile += steps > 0;
        if (mobile >= 4)
            return 1;
    }
    return 0;
}

int tafl_wins_at_once(const void *st)
{
    const struct tafl_state *s = st;
    if (s->head.outcome != GAME_ONGOING)
        return -1;
    const int ks = s->king_sq;
    /* The defenders' escape is never the move their shuttle forbids: that
     * move goes back to where their last move started, and a King that
     * stood on an escape square had already won. */
    if (s->head.side == TAFL_SIDE_DEFENDERS
            ? tafl_open_lines(s, s->board, ks) > 0
            : tafl_king_capturable(s, s->board, ks, tafl_forbidden_now(s)))
        return 1;
    return opponent_keeps_a_move(s) ? 0 : -1;
}
