/*
 * tafl_king.h -- the King's open lines and its capture in one move, on
 * any board (a state's, or a copy with a move played on it) under the
 * state's rules: what tafl's wins_at_once hook (tafl_wins.c) and its
 * evaluation (agents/eval_tafl.c) both ask. Header-only (static inline),
 * so that the evaluation's hot paths inline them.
 */
#ifndef RULELAB_TAFL_KING_H
#define RULELAB_TAFL_KING_H

#include "tafl.h"

#define TAFL_THRONE TAFL_SQ(4, 4)
/* From a1's border to itself: never a move. */
#define TAFL_NO_MOVE ((move_t)0)

/* Steps to the four orthogonal neighbours of a mailbox square. */
static const int tafl_directions[4] = {1, -1, 11, -11};

static inline int tafl_is_corner(int sq)
{
    return sq == TAFL_SQ(0, 0) || sq == TAFL_SQ(8, 0) || sq == TAFL_SQ(0, 8)
           || sq == TAFL_SQ(8, 8);
}

static inline int tafl_on_edge(int sq)
{
    int file = tafl_file(sq), rank = tafl_rank(sq);
    return file == 0 || file == 8 || rank == 0 || rank == 8;
}

static inline int tafl_is_escape(const struct tafl_state *s, int sq)
{
    return s->escape_edge ? tafl_on_edge(sq) : tafl_is_corner(sq);
}

/* Whether a man (not the King) may end a move on sq. */
static inline int tafl_man_may_stop(const struct tafl_state *s, int sq)
{
    return sq != TAFL_THRONE && (s->escape_edge || !tafl_is_corner(sq));
}

/* Whether the King on ks falls to two attackers, as tafl.c's captures_king
 * reads king_capture=custodial: only away from the throne and its
 * neighbours. */
static inline int tafl_custodial_applies(const struct tafl_state *s, int ks)
{
    if (!s->king_custodial || ks == TAFL_THRONE)
        return 0;
    for (int d = 0; d < 4; d++)
        if (ks + tafl_directions[d] == TAFL_THRONE)
            return 0;
    return 1;
}

/* The shuttle rule's one forbidden move for `side` once its last move was
 * from -> to with a shuttle of len moves (tafl.c's forbidden_move). */
static inline move_t tafl_shuttle_forbidden(const struct tafl_state *s,
                                            int from, int to, int len)
{
    if (s->repetition_limit == 0 || len < 2 * s->repetition_limit)
        return TAFL_NO_MOVE;
    return TAFL_MOVE(to, from);
}

static inline move_t tafl_forbidden_now(const struct tafl_state *s)
{
    int side = s->head.side;
    return tafl_shuttle_forbidden(s, s->last_from[side], s->last_to[side],
                                  s->shuttle_len[side]);
}

/* Where the King on ks stops sliding in direction d over empty squares
 * (ks itself if the first square is taken). king_throne=barred: the
 * throne stops a King off it (tafl.c's piece_moves). */
static inline int tafl_slide_end(const struct tafl_state *s,
                                 const uint8_t *board, int ks, int d)
{
    int sq = ks;
    while (board[sq + tafl_directions[d]] == TAFL_EMPTY
           && !(sq + tafl_directions[d] == TAFL_THRONE
                && s->king_throne_barred))
        sq += tafl_directions[d];
    return sq;
}

/* Whether the King on ks has an open line in direction d: it slides to
 * the board's edge there, onto an escape square. sq == ks (no step) is
 * never one: the game would be over; a slide the throne stops reaches no
 * edge. */
static inline int tafl_line_open(const struct tafl_state *s,
                                 const uint8_t *board, int ks, int d)
{
    const int end = tafl_slide_end(s, board, ks, d);
    return board[end + tafl_directions[d]] == TAFL_OFF
           && tafl_is_escape(s, end);
}

/* How many directions the King on ks slides in over empty squares to an
 * escape square. Rays in different directions end on different squares,
 * so two open lines cannot be closed by one move. */
static inline int tafl_open_lines(const struct tafl_state *s,
                                  const uint8_t *board, int ks)
{
    int lines = 0;
    for (int d = 0; d < 4; d++)
        lines += tafl_line_open(s, board, ks, d);
    return lines;
}

/* Whether an attacker slides to the empty square target in one move other
 * than `forbidden`: the first piece in each direction, if it is one. */
static inline int tafl_attacker_reaches(const struct tafl_state *s,
                                        const uint8_t *board, int target,
                                        move_t forbidden)
{
    for (int d = 0; d < 4; d++) {
        int sq = target + tafl_directions[d];
        while (board[sq] == TAFL_EMPTY
               && (sq != TAFL_THRONE || s->throne_passable))
            sq += tafl_directions[d];
        if (board[sq] == TAFL_ATTACKER && TAFL_MOVE(sq, target) != forbidden)
            return 1;
    }
    return 0;
}

/* Whether side square sq of the King counts as enclosing it under the
 * surround rule (tafl.c's king_surrounded). */
static inline int tafl_encloses_king(const struct tafl_state *s,
                                     const uint8_t *board, int sq)
{
    return board[sq] == TAFL_ATTACKER || sq == TAFL_THRONE
           || (board[sq] == TAFL_OFF && s->edge_captures_king);
}

/* Whether the attackers, to move on board, can capture the King on ks
 * with a move other than `forbidden`. An attacker already beside the King
 * cannot be the one that completes it: the King stands between it and the
 * square left. */
static inline int tafl_king_capturable(const struct tafl_state *s,
                                       const uint8_t *board, int ks,
                                       move_t forbidden)
{
    if (tafl_custodial_applies(s, ks)) {
        for (int d = 0; d < 4; d++) {
            int far = ks - tafl_directions[d];
            if (board[ks + tafl_directions[d]] == TAFL_ATTACKER
                && board[far] == TAFL_EMPTY && tafl_man_may_stop(s, far)
                && tafl_attacker_reaches(s, board, far, forbidden))
                return 1;
        }
        return 0;
    }
    int closed = 0, open = 0;
    for (int d = 0; d < 4; d++) {
        int sq = ks + tafl_directions[d];
        if (tafl_encloses_king(s, board, sq))
            closed++;
        else if (board[sq] == TAFL_EMPTY)
            open = sq;
    }
    return closed == 3 && open && tafl_man_may_stop(s, open)
           && tafl_attacker_reaches(s, board, open, forbidden);
}

#endif
