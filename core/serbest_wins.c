/*
 * serbest_wins.c -- serbest_game.wins_at_once (game.h), the searches' hook
 * that tells whether the side to move can win on the move: by a Khan, or
 * by a checkmate, found among the few moves that give check (drops that
 * attack the king from where they land, the moves of the pieces, and the
 * king's moves only where they can uncover a check), each played on a
 * copy and judged by the rules. The generator's parts it uses come from
 * serbest_moves.c (serbest_internal.h).
 */
#include <stdlib.h>

#include "serbest_internal.h"

/* Whether a piece of `kind` (not the king) and colour us dropped on the
 * empty square t attacks sq, as serbest_attacked would see it with the
 * piece there. A drop moves nothing else, so this is the only way it can
 * give check. */
static int drop_attacks(const uint8_t *b, int kind, int us, int t, int sq)
{
    const int d = sq - t;
    if (kind == SERBEST_KNIGHT || kind == SERBEST_PAWN
        || kind == SERBEST_SUBEDEI) {
        const int *steps = kind == SERBEST_KNIGHT ? serbest_knight_jumps
                                                  : serbest_pawn_captures[us];
        int n = kind == SERBEST_KNIGHT ? 8 : kind == SERBEST_SUBEDEI ? 4 : 2;
        for (int i = 0; i < n; i++)
            if (d == steps[i])
                return 1;
        return 0;
    }
    const int dx = SERBEST_FILE(sq) - SERBEST_FILE(t);
    const int dy = SERBEST_RANK(sq) - SERBEST_RANK(t);
    const int straight = dx == 0 || dy == 0, slant = abs(dx) == abs(dy);
    if (!(straight && (kind == SERBEST_ROOK || kind == SERBEST_QUEEN))
        && !(slant && (kind == SERBEST_BISHOP || kind == SERBEST_QUEEN)))
        return 0;
    const int step = ((dy > 0) - (dy < 0)) * 12 + (dx > 0) - (dx < 0);
    for (t += step; t != sq; t += step)
        if (b[t] != SERBEST_EMPTY)
            return 0;
    return 1;
}

/* Whether the side to move, its king one rank short of its far rank,
 * can step onto that rank legally (as serbest_king_moves tests): a Khan. */
static int khan_at_once(const struct serbest_state *s)
{
    const int us = s->head.side, them = us ^ 1, ksq = s->king_sq[us];
    if (!ksq || SERBEST_RANK(ksq) != (us == SERBEST_WHITE ? 8 : 1))
        return 0;
    const int forward = us == SERBEST_WHITE ? 12 : -12;
    for (int side = -1; side <= 1; side++) {
        int t = ksq + forward + side;
        if (serbest_enterable(s->board, t, us)
            && !serbest_attacked(s, t, them, ksq))
            return 1;
    }
    return 0;
}

/* Whether the move m, played on a copy of s, wins for the side to move. */
static int move_wins(const struct serbest_state *s, move_t m)
{
    const enum game_outcome win = s->head.side == SERBEST_WHITE
                                      ? GAME_WIN_SEAT0
                                      : GAME_WIN_SEAT1;
    _Alignas(GAME_STATE_ALIGN) struct serbest_state child;
    game_copy_state(&serbest_game, &child, s);
    serbest_game.apply(&child, m);
    return serbest_game.status(&child).outcome == win;
}

/* Whether sq and king share a rank, a file or a diagonal. */
static int on_a_line(int sq, int king)
{
    int dx = SERBEST_FILE(sq) - SERBEST_FILE(king);
    int dy = SERBEST_RANK(sq) - SERBEST_RANK(king);
    return dx == 0 || dy == 0 || abs(dx) == abs(dy);
}

/* Whether the side to move mates the other side's king (on the board)
 * at once. Only a move that gives check can; each is played and judged
 * by the rules. In check, every legal move is a candidate. Out of check,
 * the candidates are the legal drops whose piece attacks the king from
 * where it lands (drop_attacks: a drop moves nothing else, and the king
 * is never dropped beside the other), every legal move of the other
 * pieces, and the king's moves only where the king shares a line with
 * the other (a king gives check only by uncovering one). */
static int mates_at_once(const struct serbest_state *s)
{
    const int us = s->head.side, ksq = s->king_sq[us];
    const int their_king = s->king_sq[us ^ 1];
    move_t moves[GAME_MAX_MOVES];
    struct king_safety ks;
    serbest_find_checks_and_pins(s, us, ksq, &ks);
    if (ks.checkers) {
        int n = serbest_legal_moves(s, moves);
        for (int i = 0; i < n; i++)
            if (move_wins(s, moves[i]))
                return 1;
        return 0;
    }
    int kinds[SERBEST_KINDS];
    const int nkinds = serbest_hand_kinds(s, kinds);
    for (int sq = SERBEST_SQ(0, 0); nkinds && sq <= SERBEST_SQ(9, 9); sq++) {
        if (s->board[sq] != SERBEST_EMPTY)
            continue;
        int n = serbest_drops_on(s, sq, kinds, nkinds, their_king, moves);
        for (int i = 0; i < n; i++)
            if (drop_attacks(s->board, SERBEST_DROP_KIND(moves[i]), us, sq,
                             their_king)
                && move_wins(s, moves[i]))
                return 1;
    }
    for (int p = 0; p < s->pieces[us].count; p++) {
        int from = s->pieces[us].sq[p], n;
        if (from == ksq)
            n = on_a_line(ksq, their_king)
                    ? serbest_king_moves(s, &ks, ksq, us, moves) : 0;
        else
            n = serbest_legal_piece_moves(s, &ks, ksq, from, moves);
        for (int i = 0; i < n; i++)
            if (move_wins(s, moves[i]))
                return 1;
    }
    return 0;
}

/* serbest_game.wins_at_once. Only a Khan, a checkmate or a stalemate of
 * the opponent (a loss for it under stalemate=loss) wins on the move. The
 * last two need an opponent without a legal move after ours; an opponent
 * out of check that holds a piece other than its king can drop it on any
 * empty square but the 8 beside our king (the drop-check rule forbids no
 * other; its own king, in hand or on the board, cannot be left in check
 * by a drop), so with at least 10 empty squares before our move (a drop
 * fills one) it always has a move, and no stalemate wins. What can win
 * is a Khan (khan_at_once), or a checkmate, which needs the opponent's
 * king on the board (mates_at_once). Where the opponent holds nothing
 * but its king, or fewer than 10 squares are empty: -1. */
int serbest_wins_at_once(const void *st)
{
    const struct serbest_state *s = st;
    const int them = s->head.side ^ 1;
    if (s->head.outcome != GAME_ONGOING)
        return -1;
    int spare = 0;
    for (int k = SERBEST_QUEEN; k <= SERBEST_SUBEDEI; k++)
        spare += s->hand[them][k];
    if (!spare || 100 - s->pieces[0].count - s->pieces[1].count < 10)
        return -1;
    if (khan_at_once(s))
        return 1;
    return s->king_sq[them] ? mates_at_once(s) : 0;
}
