/*
 * eval_jetan.c -- Jetan's evaluation (eval.h): material, mobility, the
 * Princess's safety and the Chief's, from the side to move's view.
 *
 * Jetan is won by taking the Princess (or the Chief with the Chief), so
 * the features mostly measure how near each side is to that. Two facts of
 * the rules shape them:
 *  - Defending the Princess's square is worth nothing: her capture ends
 *    the game, there is no recapture. What keeps her alive is that no
 *    enemy piece attacks her, that she has safe squares to step to (she
 *    jumps anywhere within 3), and the once-per-game escape.
 *  - A Chief taken by anything but a Chief is a draw
 *    (docs/rules.md#jetan-end-of-the-game), so a non-Chief threat on a
 *    Chief is a threat to draw: worth to the side
 *    behind what it is behind, to the side ahead nothing. And a Chief that
 *    attacks the enemy Chief is attacked back along the same path, so the
 *    side to move wins: that is a win now, never a threat to make.
 *
 * The cost is two calls of jetan_attacks (the union of each side's attack
 * squares, core/jetan_moves.c's tables) per evaluation, and no move
 * generation. Where a feature needs to know which piece attacks a square
 * (the attackers of a Princess, the Chiefs), the pieces within 3 squares
 * of it are each asked (piece_reaches below: the step rule of
 * docs/rules.md#jetan-how-pieces-move restated as "a first step from the
 * piece meets a last step into the square";
 * tests/test_eval_jetan.c checks it against the legal moves of random
 * positions). That runs only when the square is attacked at all.
 */
#include "bits.h"
#include "eval.h"
#include "jetan.h"

#include <assert.h>
#include <string.h>

__extension__ typedef unsigned __int128 sqset; /* bit sq for square sq */

#define BOARD_SQUARES (((sqset)1 << JETAN_SQUARES) - 1)
/* Files a and j (bits 10 * rank and 10 * rank + 9). */
#define FILE_A (((sqset)0x4010040 << 64) | 0x1004010040100401ULL)
#define FILE_J (((sqset)0x802008020 << 64) | 0x802008020080200ULL)

/* Points per kind (Chief, Princess, Flier, Dwar, Padwar, Warrior, Thoat,
 * Panthan): hand-set, roughly by the squares each reaches on an open
 * board (docs/rules.md#jetan-how-pieces-move: 48, -, 16, 16, 8, 8, 12,
 * 5). The Chief and Princess are not traded: their loss ends the game. */
static const int piece_points[JETAN_KINDS] = {0, 0, 300, 300, 200, 200,
                                              250, 100};

/* capture_value of a capture that wins the game (the Princess, or the
 * Chief by the Chief): above any material swing, so it is ordered first. */
#define WIN_POINTS 10000
/* Safe squares beyond this many add nothing to the Princess's flight. */
#define FLIGHT_CAP 6

enum {
    F_MATERIAL,
    F_MOBILITY,
    F_WIN_NOW,
    F_PRINCESS_ATTACKERS,
    F_PRINCESS_FLIGHT,
    F_PRINCESS_TRAPPED,
    F_PRINCESS_ESCAPE,
    F_CHIEF_DRAW,
    F_CHIEF_EXPOSED,
    F_COUNT
};

static const struct param_spec jetan_weights[F_COUNT] = {
    [F_MATERIAL] = {"jetan_material", PARAM_REAL, 1, -100, 100, NULL,
                    "Jetan: material, points (hand-set)", 2},
    [F_MOBILITY] = {"jetan_mobility", PARAM_REAL, 2, -100, 100, NULL,
                    "Jetan: squares the side's pieces reach, each counted "
                    "once (not a move count), ours minus theirs, points "
                    "per square (hand-set)", 2},
    [F_WIN_NOW] = {"jetan_win_now", PARAM_REAL, 1000, -100000, 100000, NULL,
                   "Jetan: 1 if the side to move can take the Princess, or "
                   "the Chief with its Chief, points (hand-set)", 2},
    [F_PRINCESS_ATTACKERS] = {"jetan_princess_attackers", PARAM_REAL, 40,
                              -10000, 10000, NULL,
                              "Jetan: minus the enemy pieces attacking the "
                              "mover's Princess, points each (hand-set)", 2},
    [F_PRINCESS_FLIGHT] = {"jetan_princess_flight", PARAM_REAL, 10, -1000,
                           1000, NULL,
                           "Jetan: the Princess's empty unattacked squares "
                           "within reach (at most 6), ours minus theirs, "
                           "points per square (hand-set)", 2},
    [F_PRINCESS_TRAPPED] = {"jetan_princess_trapped", PARAM_REAL, 500,
                            -100000, 100000, NULL,
                            "Jetan: -1 if the mover's Princess is attacked "
                            "with no safe square, escape or lone attacker "
                            "to take, points (hand-set)", 2},
    [F_PRINCESS_ESCAPE] = {"jetan_princess_escape", PARAM_REAL, 50, -10000,
                           10000, NULL,
                           "Jetan: the Princess escape still available "
                           "(1/0), ours minus theirs, points (hand-set)", 2},
    [F_CHIEF_DRAW] = {"jetan_chief_draw", PARAM_REAL, 0.9, -10, 10, NULL,
                      "Jetan: the mover's material deficit if a non-Chief "
                      "of its can take the enemy Chief (a draw), share "
                      "(hand-set)", 2},
    [F_CHIEF_EXPOSED] = {"jetan_chief_exposed", PARAM_REAL, 0.3, -10, 10,
                         NULL,
                         "Jetan: minus the mover's material lead if an enemy "
                         "non-Chief attacks its Chief (a draw threat), share "
                         "(hand-set)", 2},
};

/* ---- squares ---------------------------------------------------------- */

static inline int sq_in(sqset set, int sq)
{
    return (int)((set >> sq) & 1);
}

static inline int sq_count(sqset set)
{
    return bits_count64((uint64_t)set) + bits_count64((uint64_t)(set >> 64));
}

static inline int lowest_sq(sqset set)
{
    const uint64_t lo = (uint64_t)set;
    return lo ? __builtin_ctzll(lo)
              : 64 + __builtin_ctzll((uint64_t)(set >> 64));
}

static inline int distance(int a, int b)
{
    int df = a % 10 - b % 10, dr = a / 10 - b / 10;
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    return df > dr ? df : dr;
}

/* The squares of the ranks below rank k (its first 10k bits). */
#define RANKS_BELOW(k) ((((sqset)1) << (10 * (k))) - 1)
static const sqset ranks_below[11] = {
    RANKS_BELOW(0), RANKS_BELOW(1), RANKS_BELOW(2), RANKS_BELOW(3),
    RANKS_BELOW(4), RANKS_BELOW(5), RANKS_BELOW(6), RANKS_BELOW(7),
    RANKS_BELOW(8), RANKS_BELOW(9), RANKS_BELOW(10)};

/* The squares within r (king steps) of sq, sq included: the files in
 * reach on every rank (a row of files times FILE_A, whose bits are the
 * first square of each rank; no carries, the row being under 10 bits
 * wide), cut to the ranks in reach. ab asks this for every Princess's
 * flight and every square's attackers; the loop over the ranks it
 * replaced took 127 instructions a call against 61 (callgrind, an ab
 * self-play game). */
static sqset box(int sq, int r)
{
    const int f = sq % 10, rank = sq / 10;
    const int flo = f - r < 0 ? 0 : f - r, fhi = f + r > 9 ? 9 : f + r;
    const int rlo = rank - r < 0 ? 0 : rank - r;
    const int rhi = rank + r > 9 ? 9 : rank + r;
    const uint64_t row = ((1ULL << (fhi - flo + 1)) - 1) << flo;
    return ((sqset)row * FILE_A) & ranks_below[rhi + 1] & ~ranks_below[rlo];
}

static sqset occupancy(const struct jetan_state *s, int side)
{
    return ((sqset)s->occ[side][1] << 64) | s->occ[side][0];
}

static sqset empty_squares(const struct jetan_state *s)
{
    return BOARD_SQUARES & ~(occupancy(s, 0) | occupancy(s, 1));
}

/* The squares side attacks, with `removed` taken as empty (jetan.h). */
static sqset attacks(const struct jetan_state *s, int side, int removed)
{
    uint64_t w[2];
    jetan_attacks(s, side, removed, w);
    return ((sqset)w[1] << 64) | w[0];
}

/* ---- which piece attacks a square ------------------------------------ */

enum { ORTH = 1, DIAG = 2 };

/* The squares one step of the kinds in `types` away from sq. A step east
 * that lands on file a, or west on file j, has wrapped round a rank. */
static sqset neighbours(int sq, int types)
{
    const sqset b = (sqset)1 << sq;
    sqset set = 0;
    if (types & ORTH)
        set |= ((b << 1) & ~FILE_A) | ((b >> 1) & ~FILE_J) | b << 10
               | b >> 10;
    if (types & DIAG)
        set |= ((b << 11 | b >> 9) & ~FILE_A) | ((b << 9 | b >> 11) & ~FILE_J);
    return set & BOARD_SQUARES;
}

/* Whether a piece on from reaches target (from != target) in two steps,
 * the first of the kinds `first`, the second of `second`, through a square
 * in `open`. The squares differ by construction. */
static int reaches_in_two(int from, int target, int first, int second,
                          sqset open)
{
    return (neighbours(from, first) & neighbours(target, second) & open) != 0;
}

/* The same in three steps of the kinds `types`: through s1 next to from
 * and s2 next to target, both in `open`, the four squares all different
 * (no square is entered twice, the start included). */
static int reaches_in_three(int from, int target, int types, sqset open)
{
    const sqset last = neighbours(target, types) & open
                       & ~((sqset)1 << from);
    for (sqset first = neighbours(from, types) & open
                       & ~((sqset)1 << target);
         first; first &= first - 1)
        if (neighbours(lowest_sq(first), types) & last)
            return 1;
    return 0;
}

/* Whether the piece on sq (of board, whose empty squares are `empty`)
 * could move to target, which holds a piece of the other side: the move
 * rules of docs/rules.md#jetan-how-pieces-move, meeting in the middle
 * instead of walking paths. */
static int piece_reaches(const struct jetan_state *s, const uint8_t *board,
                         sqset empty, int sq, int target)
{
    const sqset any = ~(sqset)0;
    const int piece = board[sq];
    switch (JETAN_KIND_OF(piece)) {
    case JETAN_CHIEF: return reaches_in_three(sq, target, ORTH | DIAG, empty);
    case JETAN_PRINCESS: return 0; /* she never captures */
    case JETAN_FLIER: return reaches_in_three(sq, target, DIAG, any);
    case JETAN_DWAR: return reaches_in_three(sq, target, ORTH, empty);
    case JETAN_PADWAR: return reaches_in_two(sq, target, DIAG, DIAG, empty);
    case JETAN_WARRIOR: return reaches_in_two(sq, target, ORTH, ORTH, empty);
    case JETAN_THOAT: {
        const sqset open = s->thoat_jumps ? any : empty;
        return reaches_in_two(sq, target, ORTH, DIAG, open)
               || reaches_in_two(sq, target, DIAG, ORTH, open);
    }
    default: {
        /* Panthan: one step forward, diagonally forward or sideways. */
        const int forward = JETAN_SIDE_OF(piece) == JETAN_BLACK ? 1 : -1;
        const int df = target % 10 - sq % 10, dr = target / 10 - sq / 10;
        return df >= -1 && df <= 1 && (dr == forward || (dr == 0 && df));
    }
    }
}

/* How many of `pieces` (squares of board holding one side's pieces;
 * `empty` its empty squares) attack target, counting up to `most`, the
 * Chief counted only if with_chief; *last is one of them (untouched if
 * none). */
static int attackers_of(const struct jetan_state *s, const uint8_t *board,
                        sqset empty, sqset pieces, int target, int with_chief,
                        int most, int *last)
{
    int n = 0;
    for (sqset near = pieces & box(target, 3); near && n < most;
         near &= near - 1) {
        const int sq = lowest_sq(near);
        if (!with_chief && JETAN_KIND_OF(board[sq]) == JETAN_CHIEF)
            continue;
        if (piece_reaches(s, board, empty, sq, target))
            n++, *last = sq;
    }
    return n;
}

/* ---- the features ------------------------------------------------------ */

static int material_of(const struct jetan_state *s, int side)
{
    int points = 0;
    for (int k = 0; k < JETAN_KINDS; k++)
        points += s->kind_count[side][k] * piece_points[k];
    return points;
}

static int escape_left(const struct jetan_state *s, int side)
{
    return s->escape[side] && s->princess_escape != JETAN_ESCAPE_OFF;
}

/* The empty squares within the Princess's reach (every square within 3:
 * she jumps) that the enemy, attacking `enemy_attacks`, does not attack. */
static int princess_flight(const struct jetan_state *s, int side,
                           sqset enemy_attacks)
{
    const int ps = s->princess_sq[side];
    return sq_count(box(ps, 3) & empty_squares(s) & ~enemy_attacks);
}

/* Whether the side to move's Princess, attacked by `attackers` pieces (one
 * of them on attacker_sq), has no way out: no safe square, no escape to
 * one, and not a lone attacker its side can take. */
static int princess_trapped(const struct jetan_state *s, sqset own_attacks,
                            sqset enemy_attacks, int flight, int attackers,
                            int attacker_sq)
{
    const int us = s->head.side;
    if (!attackers || flight)
        return 0;
    if (attackers == 1 && sq_in(own_attacks, attacker_sq))
        return 0;
    return !(escape_left(s, us) && (empty_squares(s) & ~enemy_attacks));
}

/* Whether the Chiefs attack each other: then the side to move wins. The
 * relation is symmetric (a path reversed is a path over the same squares),
 * so one direction is enough. */
static int chiefs_meet(const struct jetan_state *s)
{
    const int a = s->chief_sq[0], b = s->chief_sq[1];
    return distance(a, b) <= 3
           && piece_reaches(s, s->board, empty_squares(s), a, b);
}

static void jetan_features(const void *st, double *f)
{
    const struct jetan_state *s = st;
    const int us = s->head.side, them = us ^ 1;
    const int our_p = s->princess_sq[us], their_p = s->princess_sq[them];
    const int our_c = s->chief_sq[us], their_c = s->chief_sq[them];
    assert(our_p != JETAN_NO_SQUARE && their_p != JETAN_NO_SQUARE);
    assert(our_c != JETAN_NO_SQUARE && their_c != JETAN_NO_SQUARE);
    /* Each side's attacks with the enemy Princess lifted, as her flight
     * is judged (docs/rules.md#jetan-the-princess); mobility counts the
     * same sets, so a path through her square counts as open there: a
     * small overcount. */
    const sqset ours = attacks(s, us, their_p);
    const sqset theirs = attacks(s, them, our_p);
    const sqset empty = empty_squares(s);
    const int material = material_of(s, us) - material_of(s, them);
    const int lead = material > 0 ? material : 0;
    const int deficit = material < 0 ? -material : 0;

    f[F_MATERIAL] = material;
    f[F_MOBILITY] = sq_count(ours & ~occupancy(s, us))
                    - sq_count(theirs & ~occupancy(s, them));
    f[F_WIN_NOW] = sq_in(ours, their_p) || chiefs_meet(s);

    int attacker_sq = JETAN_NO_SQUARE, unused;
    const int attackers = sq_in(theirs, our_p)
                              ? attackers_of(s, s->board, empty,
                                             occupancy(s, them), our_p, 1,
                                             JETAN_MAX_PIECES,
                                             &attacker_sq)
                              : 0;
    const int our_flight = princess_flight(s, us, theirs);
    const int their_flight = princess_flight(s, them, ours);
    f[F_PRINCESS_ATTACKERS] = -attackers;
    f[F_PRINCESS_FLIGHT] = (our_flight < FLIGHT_CAP ? our_flight : FLIGHT_CAP)
                           - (their_flight < FLIGHT_CAP ? their_flight
                                                        : FLIGHT_CAP);
    f[F_PRINCESS_TRAPPED] = -princess_trapped(s, ours, theirs, our_flight,
                                              attackers, attacker_sq);
    f[F_PRINCESS_ESCAPE] = escape_left(s, us) - escape_left(s, them);

    const int we_can_draw = sq_in(ours, their_c)
                            && attackers_of(s, s->board, empty,
                                            occupancy(s, us), their_c, 0, 1,
                                            &unused);
    const int they_can_draw = sq_in(theirs, our_c)
                              && attackers_of(s, s->board, empty,
                                              occupancy(s, them), our_c, 0, 1,
                                              &unused);
    f[F_CHIEF_DRAW] = we_can_draw ? deficit : 0;
    f[F_CHIEF_EXPOSED] = they_can_draw ? -lead : 0;
}

/* ---- move ordering and quiescence ------------------------------------ */

/* A Chief taken by another piece draws; the draw is worth to the mover
 * its material deficit, as in the chief_draw feature. */
static int jetan_capture_value(const void *st, move_t m)
{
    const struct jetan_state *s = st;
    const int p = s->board[JETAN_TO(m)];
    if (!p)
        return 0;
    switch (JETAN_KIND_OF(p)) {
    case JETAN_PRINCESS: return WIN_POINTS;
    case JETAN_CHIEF: {
        if (JETAN_KIND_OF(s->board[JETAN_FROM(m)]) == JETAN_CHIEF)
            return WIN_POINTS;
        const int us = s->head.side;
        const int material = material_of(s, us) - material_of(s, us ^ 1);
        return material < 0 ? -material : 0;
    }
    default: return piece_points[JETAN_KIND_OF(p)];
    }
}

/* Forcing: a quiet move after which the mover attacks the enemy Princess
 * and did not before (before, it would take her instead). Only the moved
 * piece, landing within 3 of her, or a piece whose path ran through the
 * square it left (within 2 of her) can make that attack, so most moves
 * cost a few compares, and the costlier check of what attacked her
 * before runs only once an attack after the move is found. A Chief that
 * comes to attack the enemy Chief is attacked back and loses at once
 * (chiefs_meet), so that is never forcing. */
static int jetan_is_forcing(const void *st, move_t m)
{
    const struct jetan_state *s = st;
    const int from = JETAN_FROM(m), to = JETAN_TO(m), us = s->head.side;
    const int target = s->princess_sq[us ^ 1];
    if (s->board[to])
        return 0;
    const int lands_near = distance(to, target) <= 3;
    const int leaves_near = distance(from, target) <= 2;
    if (!lands_near && !leaves_near)
        return 0;
    uint8_t after[JETAN_SQUARES];
    memcpy(after, s->board, sizeof after);
    after[to] = after[from];
    after[from] = 0;
    const sqset moved = (sqset)1 << from | (sqset)1 << to;
    const sqset empty = empty_squares(s), ours = occupancy(s, us);
    int unused;
    const int attacks_after
        = (lands_near && piece_reaches(s, after, empty ^ moved, to, target))
          || (leaves_near
              && attackers_of(s, after, empty ^ moved, ours ^ moved, target,
                              1, 1, &unused));
    return attacks_after
           && !attackers_of(s, s->board, empty, ours, target, 1, 1, &unused);
}

/* The replies to an attack on the mover's Princess that may save her:
 * a capture (of the attacker, or one that ends the game), a Princess move
 * (her escape included) to a square the enemy does not attack once she
 * has left hers, or a move onto a square within 2 of her, where it may
 * block a path (every path of 2 or 3 steps ends with steps inside that
 * box; Panthans, Fliers and jumping Thoats cannot be blocked). Any
 * other move leaves the attack as it is: Jetan has no check and no rule
 * against leaving her attacked, and the attacker's capture, a legal move,
 * keeps the opponent from having none. Such a move could still end the
 * game by the countdown or the ply cap, so with either one ply from its
 * end this cannot tell. */
static int jetan_threat_replies(const void *st, const move_t *mv, int n,
                                unsigned char *keep)
{
    const struct jetan_state *s = st;
    const int us = s->head.side, princess = s->princess_sq[us];
    if (princess == JETAN_NO_SQUARE
        || (s->countdown == JETAN_CD_RUNNING && s->countdown_left <= 1)
        || (s->max_plies && s->ply + 1 >= s->max_plies))
        return 0;
    /* her square is never on a path to itself, so whether it is attacked
     * is the same with her taken off it: one set serves both questions */
    const sqset unsafe = attacks(s, us ^ 1, princess);
    if (!sq_in(unsafe, princess))
        return 0;
    const sqset near = box(princess, 2);
    for (int i = 0; i < n; i++) {
        const int from = JETAN_FROM(mv[i]), to = JETAN_TO(mv[i]);
        keep[i] = from == princess ? !sq_in(unsafe, to)
                                   : s->board[to] || sq_in(near, to);
    }
    return 1;
}

const struct game_eval jetan_eval = {
    &jetan_game,          jetan_weights,       F_COUNT,
    jetan_features,       jetan_capture_value, jetan_is_forcing,
    jetan_threat_replies};
