/*
 * eval_serbest.c -- Serbest's evaluation (eval.h), docs/rules.md#serbest.
 *
 * Serbest is won by mate or by the Khan race: a king that steps onto its
 * far rank wins at once. So besides material (board and hand apart, as a
 * piece in hand can go anywhere) the features follow the kings: whether a
 * king has landed, how far it has come, how open the two ranks in front of
 * it are, whether it can step onto its far rank now (a win in one for the
 * side to move, a threat to meet for the other), and how exposed it is to
 * attacks and to checking drops. Mobility counts pseudo-legal moves of the
 * pieces on the board (not the king's, not drops: ~600 drops a position
 * would say little and cost much).
 *
 * features() runs at every leaf of the alpha-beta search, so it never
 * generates legal moves: one pass over each side's pieces marks the
 * squares they attack and counts their moves, and the king terms read
 * those maps; only the Khan step (a king on the rank before its far rank)
 * asks the core's exact attack test, with the king lifted off the board.
 * is_forcing likewise reads the board as it would be after the move
 * without making it.
 *
 * The weights are hand-set but for one: a piece in hand counts 0.9 of one
 * on the board (a drop gains a little), measured in 1-ply + capture-
 * quiescence self-play, 200 games per pair, default variant. In the same
 * play, each of king_advance, king_attacks, drop_checks, khan_threatened
 * and mobility at its default beat itself at 0 (119 to 133 of the 200);
 * king_path and king_landed at 0 were within noise. A weak player's
 * verdict: the weights are meant to be fitted with the real searches.
 */
#include "eval.h"
#include "serbest.h"

#include <stdlib.h>
#include <string.h>

/* Points per piece kind (K Q R B N P S): hand-set from the usual chess
 * values, the Subedei a little above a pawn for its backward capture. */
static const int piece_points[SERBEST_KINDS] = {0, 0, 900, 500, 320, 300,
                                                100, 120};

enum {
    F_MATERIAL_BOARD,
    F_MATERIAL_HAND,
    F_KING_LANDED,
    F_KING_ADVANCE,
    F_KING_PATH,
    F_KHAN_NOW,
    F_KHAN_THREATENED,
    F_KING_ATTACKS,
    F_DROP_CHECKS,
    F_MOBILITY,
    F_COUNT
};

static const struct param_spec serbest_weights[F_COUNT] = {
    [F_MATERIAL_BOARD] = {"serbest_material_board", PARAM_REAL, 1, -10, 10,
                          NULL, "Serbest: board material, points (hand-set)",
                          2},
    [F_MATERIAL_HAND] = {"serbest_material_hand", PARAM_REAL, 0.9, -10, 10,
                         NULL, "Serbest: material in hand, points (measured: "
                               "0.9 beat 1 by 170-28-2 in 200 games of 1-ply "
                               "+ capture-quiescence self-play)", 2},
    [F_KING_LANDED] = {"serbest_king_landed", PARAM_REAL, -40, -1000, 1000,
                       NULL, "Serbest: own king on the board minus the "
                             "opponent's (-1..1), points per king; below 0 "
                             "as a king in hand cannot be checked "
                             "(hand-set)", 2},
    [F_KING_ADVANCE] = {"serbest_king_advance", PARAM_REAL, 4, -100, 100,
                        NULL, "Serbest: ranks the king has come from its "
                              "first rank (9 minus its distance to the far "
                              "rank), squared, own minus the opponent's; "
                              "points per squared rank (hand-set)", 2},
    [F_KING_PATH] = {"serbest_king_path", PARAM_REAL, 12, -200, 200, NULL,
                     "Serbest: squares of the two ranks ahead of the king "
                     "(3 + 5) the opponent neither attacks nor occupies, "
                     "times the king's advance / 8, own minus the "
                     "opponent's; points per square (hand-set)", 2},
    [F_KHAN_NOW] = {"serbest_khan_now", PARAM_REAL, 3000, 0, 100000, NULL,
                    "Serbest: 1 if the side to move has a legal king step "
                    "onto its far rank (a win in one), points (hand-set)",
                    2},
    [F_KHAN_THREATENED] = {"serbest_khan_threatened", PARAM_REAL, 250, 0,
                           10000, NULL, "Serbest: minus the far-rank squares "
                           "the opponent's king could step onto legally "
                           "(a threat to meet now), points per square "
                           "(hand-set)", 2},
    [F_KING_ATTACKS] = {"serbest_king_attacks", PARAM_REAL, 10, -200, 200,
                        NULL, "Serbest: squares beside the opponent's king "
                              "we attack minus those beside ours it "
                              "attacks; points per square (hand-set)", 2},
    [F_DROP_CHECKS] = {"serbest_drop_checks", PARAM_REAL, 8, -200, 200, NULL,
                       "Serbest: empty squares within 2 of the opponent's "
                       "king where a piece in our hand could be dropped "
                       "with check, minus the same for ours; points per "
                       "square (hand-set)", 2},
    [F_MOBILITY] = {"serbest_mobility", PARAM_REAL, 2, -50, 50, NULL,
                    "Serbest: pseudo-legal moves of the board pieces but "
                    "the king (no drops), own minus the opponent's; points "
                    "per move (hand-set)", 2},
};

static const int orthogonal[4] = {12, -12, 1, -1};
static const int diagonal[4] = {13, 11, -11, -13};
static const int knight_jumps[8] = {25, 23, 14, 10, -10, -14, -23, -25};
/* Orthogonal steps first, then diagonal ones (drop_check_squares). */
static const int king_steps[8] = {12, -12, 1, -1, 13, 11, -11, -13};
/* The diagonal steps on which a pawn of colour c captures: forward first,
 * then (Subedei only) backward; as in serbest_moves.c. */
static const int pawn_captures[2][4] = {{13, 11, -11, -13},
                                        {-11, -13, 13, 11}};

static int forward_step(int colour)
{
    return colour == SERBEST_WHITE ? 12 : -12;
}

/* Ranks a king of colour on sq has come from its own first rank: 0..8 on
 * a board in play (9 is its far rank, which ends the game). */
static int advance_of(int colour, int sq)
{
    int rank = SERBEST_RANK(sq);
    return colour == SERBEST_WHITE ? rank : 9 - rank;
}

static int colour_at(const uint8_t *b, int sq, int colour)
{
    return b[sq] != SERBEST_EMPTY && b[sq] != SERBEST_OFF
           && SERBEST_COLOUR(b[sq]) == colour;
}

/* ---- one pass over a side's pieces ------------------------------------ */

/* The attack maps are written without bounds tests: every step from a
 * board square lands inside the mailbox (its border is two ranks deep),
 * and what is written on border squares is never read. */
struct side_scan {
    uint8_t attacked[SERBEST_SQUARES]; /* 1 where the side attacks */
    int mobility; /* pseudo-legal board moves, the king's left out */
    int points; /* the pieces' points (piece_points) */
};

/* Whether the square's content p (a piece, empty or the border) is a
 * piece of colour's enemy, in one comparison as it runs for every step of
 * every piece: the enemy's pieces are 1..7 (white) or 9..15 (black). */
static int is_enemy(int p, int colour)
{
    return (unsigned)(p - SERBEST_PIECE(1, colour ^ 1)) < 7u;
}

/* Marks what a slider on from attacks along steps and counts its moves. */
static int scan_slider(const uint8_t *b, int from, const int *steps,
                       int nsteps, int colour, uint8_t *attacked)
{
    int moves = 0;
    for (int d = 0; d < nsteps; d++) {
        int t = from + steps[d];
        for (; b[t] == SERBEST_EMPTY; t += steps[d], moves++)
            attacked[t] = 1;
        attacked[t] = 1;
        moves += is_enemy(b[t], colour);
    }
    return moves;
}

/* Pawns: the diagonal captures attack; the 1- and 2-square steps move. */
static int scan_pawn(const uint8_t *b, int from, int kind, int colour,
                     uint8_t *attacked)
{
    int moves = 0, ncaptures = kind == SERBEST_SUBEDEI ? 4 : 2;
    for (int i = 0; i < ncaptures; i++) {
        int t = from + pawn_captures[colour][i];
        attacked[t] = 1;
        moves += is_enemy(b[t], colour);
    }
    for (int i = 0; i < 4; i++) {
        int one = from + orthogonal[i];
        moves += (b[one] == SERBEST_EMPTY)
                 * (1 + (b[one + orthogonal[i]] == SERBEST_EMPTY));
    }
    return moves;
}

/* Knight and king: one step each way; only the knight's are counted. */
static int scan_leaper(const uint8_t *b, int from, const int *steps,
                       int colour, uint8_t *attacked)
{
    int moves = 0;
    for (int i = 0; i < 8; i++) {
        int t = from + steps[i];
        attacked[t] = 1;
        moves += b[t] == SERBEST_EMPTY || is_enemy(b[t], colour);
    }
    return moves;
}

static void scan_side(const struct serbest_state *s, int colour,
                      struct side_scan *out)
{
    const uint8_t *b = s->board;
    memset(out->attacked, 0, sizeof out->attacked);
    out->mobility = 0;
    out->points = 0;
    for (int i = 0; i < s->pieces[colour].count; i++) {
        const int from = s->pieces[colour].sq[i];
        const int kind = SERBEST_KIND(b[from]);
        uint8_t *a = out->attacked;
        out->points += piece_points[kind];
        switch (kind) {
        case SERBEST_KING: scan_leaper(b, from, king_steps, colour, a); break;
        case SERBEST_QUEEN:
            out->mobility += scan_slider(b, from, king_steps, 8, colour, a);
            break;
        case SERBEST_ROOK:
            out->mobility += scan_slider(b, from, orthogonal, 4, colour, a);
            break;
        case SERBEST_BISHOP:
            out->mobility += scan_slider(b, from, diagonal, 4, colour, a);
            break;
        case SERBEST_KNIGHT:
            out->mobility += scan_leaper(b, from, knight_jumps, colour, a);
            break;
        default: out->mobility += scan_pawn(b, from, kind, colour, a); break;
        }
    }
}

/* ---- the kings ---------------------------------------------------------- */

/* Squares of the two ranks ahead of colour's king on k (3 on the next,
 * 5 on the one after, fewer at the edges) that the enemy neither attacks
 * (enemy_attacks) nor occupies. The mailbox border is a file wide and two
 * ranks deep, so two files or ranks beyond the board read as off it. */
static int open_path(const struct serbest_state *s, int colour, int k,
                     const uint8_t *enemy_attacks)
{
    const uint8_t *b = s->board;
    int open = 0;
    for (int ahead = 1; ahead <= 2; ahead++) {
        const int centre = k + ahead * forward_step(colour);
        for (int t = centre - ahead; t <= centre + ahead; t++)
            open += b[t] != SERBEST_OFF && !enemy_attacks[t]
                    && !colour_at(b, t, colour ^ 1);
    }
    return open;
}

/* Far-rank squares colour's king can step onto legally: not its own
 * piece's, not attacked once the king has left its square. */
static int khan_steps(const struct serbest_state *s, int colour)
{
    const int k = s->king_sq[colour];
    if (!k || advance_of(colour, k) != 8)
        return 0;
    const int ahead = k + forward_step(colour);
    int n = 0;
    for (int t = ahead - 1; t <= ahead + 1; t++)
        n += s->board[t] != SERBEST_OFF && !colour_at(s->board, t, colour)
             && !serbest_attacked(s, t, colour ^ 1, k);
    return n;
}

static int attacked_neighbours(const uint8_t *b, int k,
                               const uint8_t *enemy_attacks)
{
    int n = 0;
    for (int i = 0; i < 8; i++) {
        const int t = k + king_steps[i];
        n += b[t] != SERBEST_OFF && enemy_attacks[t];
    }
    return n;
}

/* Whether a pawn of `dropper` in its hand, dropped on the square `step`
 * from the king, would attack the king. */
static int pawn_checks_from(const uint8_t *hand, int dropper, int step)
{
    return hand[SERBEST_SUBEDEI]
           || (hand[SERBEST_PAWN] && (step == -pawn_captures[dropper][0]
                                      || step == -pawn_captures[dropper][1]));
}

/* Empty squares within two of the king on k where dropper could drop a
 * piece from its hand with check (docs/rules.md#serbest-check-and-drops:
 * from beside the king only if adjacent_drop_check). Each square counts
 * once. The distance-2 squares of a line check need the square between
 * empty; knights jump. */
static int drop_check_squares(const struct serbest_state *s, int k,
                              int dropper)
{
    const uint8_t *b = s->board, *hand = s->hand[dropper];
    const int orth = hand[SERBEST_QUEEN] || hand[SERBEST_ROOK];
    const int diag = hand[SERBEST_QUEEN] || hand[SERBEST_BISHOP];
    int n = 0;
    for (int i = 0; i < 8; i++) {
        const int step = king_steps[i], next = k + step;
        const int line = i < 4 ? orth : diag;
        if (b[next] != SERBEST_EMPTY)
            continue;
        if (s->adjacent_drop_check
            && (line || (i >= 4 && pawn_checks_from(hand, dropper, step))))
            n++;
        n += line && b[next + step] == SERBEST_EMPTY;
    }
    for (int i = 0; hand[SERBEST_KNIGHT] && i < 8; i++)
        n += b[k + knight_jumps[i]] == SERBEST_EMPTY;
    return n;
}

/* ---- the features ------------------------------------------------------- */

static int hand_points(const struct serbest_state *s, int colour)
{
    int points = 0;
    for (int k = SERBEST_QUEEN; k < SERBEST_KINDS; k++)
        points += s->hand[colour][k] * piece_points[k];
    return points;
}

static void serbest_features(const void *st, double *f)
{
    const struct serbest_state *s = st;
    const int us = s->head.side, them = us ^ 1;
    struct side_scan scan[2];
    scan_side(s, SERBEST_WHITE, &scan[SERBEST_WHITE]);
    scan_side(s, SERBEST_BLACK, &scan[SERBEST_BLACK]);
    f[F_MATERIAL_BOARD] = scan[us].points - scan[them].points;
    f[F_MATERIAL_HAND] = hand_points(s, us) - hand_points(s, them);
    double advance = 0, path = 0, attacks = 0, drops = 0;
    for (int c = 0; c < 2; c++) {
        const int k = s->king_sq[c], sign = c == us ? 1 : -1;
        if (!k)
            continue;
        const int adv = advance_of(c, k);
        advance += sign * adv * adv;
        path += sign * open_path(s, c, k, scan[c ^ 1].attacked) * adv / 8.0;
        attacks -= sign * attacked_neighbours(s->board, k,
                                              scan[c ^ 1].attacked);
        drops -= sign * drop_check_squares(s, k, c ^ 1);
    }
    f[F_KING_LANDED] = (s->king_sq[us] != 0) - (s->king_sq[them] != 0);
    f[F_KING_ADVANCE] = advance;
    f[F_KING_PATH] = path;
    f[F_KHAN_NOW] = khan_steps(s, us) > 0;
    f[F_KHAN_THREATENED] = -khan_steps(s, them);
    f[F_KING_ATTACKS] = attacks;
    f[F_DROP_CHECKS] = drops;
    f[F_MOBILITY] = scan[us].mobility - scan[them].mobility;
}

static int serbest_capture_value(const void *st, move_t m)
{
    const struct serbest_state *s = st;
    if (SERBEST_DROP_KIND(m))
        return 0;
    return piece_points[SERBEST_KIND(s->board[SERBEST_TO(m)])];
}

/* ---- forcing moves: the board after a move, without making it ----------- */

/* st's board with `vacated` empty (-1 for a drop) and `filled` holding
 * `piece`. */
struct after_move {
    const uint8_t *board;
    int vacated, filled, piece;
};

static int after_at(const struct after_move *a, int sq)
{
    if (sq == a->filled)
        return a->piece;
    return sq == a->vacated ? SERBEST_EMPTY : a->board[sq];
}

/* The first square from `from` along step that is not empty (or is the
 * square `ignore`, seen through). */
static int first_along(const struct after_move *a, int from, int step,
                       int ignore)
{
    int t = from + step;
    while (after_at(a, t) == SERBEST_EMPTY || t == ignore)
        t += step;
    return t;
}

static int sign_of(int x)
{
    return (x > 0) - (x < 0);
}

/* Whether piece, standing on from after the move, attacks target. */
static int piece_attacks(const struct after_move *a, int piece, int from,
                         int target)
{
    const int kind = SERBEST_KIND(piece), colour = SERBEST_COLOUR(piece);
    const int df = SERBEST_FILE(target) - SERBEST_FILE(from);
    const int dr = SERBEST_RANK(target) - SERBEST_RANK(from);
    const int forward = colour == SERBEST_WHITE ? 1 : -1;
    switch (kind) {
    case SERBEST_KING: return abs(df) <= 1 && abs(dr) <= 1;
    case SERBEST_KNIGHT: return abs(df) * abs(dr) == 2;
    case SERBEST_PAWN: return abs(df) == 1 && dr == forward;
    case SERBEST_SUBEDEI: return abs(df) == 1 && abs(dr) == 1;
    default: break;
    }
    const int straight = df == 0 || dr == 0, slant = abs(df) == abs(dr);
    if (!(straight && kind != SERBEST_BISHOP)
        && !(slant && kind != SERBEST_ROOK))
        return 0;
    return first_along(a, from, sign_of(dr) * 12 + sign_of(df), -1) == target;
}

/* Whether colour attacks sq after the move, `ignore` seen through. */
static int attacked_after(const struct after_move *a, int sq, int colour,
                          int ignore)
{
    for (int i = 0; i < 8; i++) {
        if (after_at(a, sq + knight_jumps[i])
                == SERBEST_PIECE(SERBEST_KNIGHT, colour)
            || after_at(a, sq + king_steps[i])
                   == SERBEST_PIECE(SERBEST_KING, colour))
            return 1;
        int t = first_along(a, sq, king_steps[i], ignore);
        int p = after_at(a, t), kind = SERBEST_KIND(p);
        if (p != SERBEST_OFF && SERBEST_COLOUR(p) == colour
            && (kind == SERBEST_QUEEN
                || kind == (i < 4 ? SERBEST_ROOK : SERBEST_BISHOP)))
            return 1;
    }
    for (int i = 0; i < 4; i++) {
        int p = after_at(a, sq - pawn_captures[colour][i]);
        if (p == SERBEST_PIECE(SERBEST_SUBEDEI, colour)
            || (i < 2 && p == SERBEST_PIECE(SERBEST_PAWN, colour)))
            return 1;
    }
    return 0;
}

/* Whether the move gives check: the piece moved attacks the enemy king on
 * k, or it uncovers a slider of ours on the line from k through `from`. */
static int gives_check(const struct after_move *a, int us, int k)
{
    if (piece_attacks(a, a->piece, a->filled, k))
        return 1;
    if (a->vacated < 0)
        return 0; /* a drop uncovers nothing */
    const int df = SERBEST_FILE(a->vacated) - SERBEST_FILE(k);
    const int dr = SERBEST_RANK(a->vacated) - SERBEST_RANK(k);
    const int straight = df == 0 || dr == 0;
    if (!straight && abs(df) != abs(dr))
        return 0;
    int p = after_at(a, first_along(a, k, sign_of(dr) * 12 + sign_of(df), -1));
    int kind = SERBEST_KIND(p);
    return p != SERBEST_OFF && SERBEST_COLOUR(p) == us
           && (kind == SERBEST_QUEEN
               || kind == (straight ? SERBEST_ROOK : SERBEST_BISHOP));
}

/* Whether the move can change what the king on k (not moved) may step
 * onto: it leaves one of the far-rank squares beside k, or lands on a
 * line through one (blocking an enemy slider). A cheap filter only. */
static int touches_khan_squares(const struct after_move *a, int k, int fwd)
{
    for (int t = k + fwd - 1; t <= k + fwd + 1; t++) {
        const int df = SERBEST_FILE(a->filled) - SERBEST_FILE(t);
        const int dr = SERBEST_RANK(a->filled) - SERBEST_RANK(t);
        if (t == a->vacated || df == 0 || dr == 0 || abs(df) == abs(dr))
            return 1;
    }
    return 0;
}

/* Whether after the move the mover's king (on k) has a legal step onto
 * its far rank. */
static int khan_step_after(const struct after_move *a, int us, int k)
{
    const int fwd = forward_step(us);
    for (int t = k + fwd - 1; t <= k + fwd + 1; t++) {
        int p = after_at(a, t);
        if (p != SERBEST_OFF && (p == SERBEST_EMPTY || SERBEST_COLOUR(p) != us)
            && !attacked_after(a, t, us ^ 1, k))
            return 1;
    }
    return 0;
}

/* Forcing: a check, the Khan move itself, or a new Khan threat (a king
 * step onto the far rank the mover did not have before; with one before,
 * the mover could have won, and calling every other move forcing there
 * would only flood quiescence). Captures are not forcing here. */
static int serbest_is_forcing(const void *st, move_t m)
{
    const struct serbest_state *s = st;
    const int us = s->head.side, to = SERBEST_TO(m);
    const int drop = SERBEST_DROP_KIND(m);
    struct after_move a = {s->board, -1, to, SERBEST_PIECE(drop, us)};
    if (!drop) {
        if (s->board[to] != SERBEST_EMPTY)
            return 0;
        a.vacated = SERBEST_FROM(m);
        a.piece = s->board[a.vacated];
    }
    const int king_moved = SERBEST_KIND(a.piece) == SERBEST_KING;
    const int k = king_moved ? to : s->king_sq[us];
    if (king_moved && advance_of(us, to) == 9)
        return 1;
    if (s->king_sq[us ^ 1] && gives_check(&a, us, s->king_sq[us ^ 1]))
        return 1;
    if (!k || advance_of(us, k) != 8)
        return 0;
    if (!king_moved && !touches_khan_squares(&a, k, forward_step(us)))
        return 0;
    return khan_step_after(&a, us, k) && khan_steps(s, us) == 0;
}


const struct game_eval serbest_eval = {&serbest_game, serbest_weights, F_COUNT,
                                       serbest_features, serbest_capture_value,
                                       serbest_is_forcing, NULL};
