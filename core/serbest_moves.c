/*
 * serbest_moves.c -- attacks and legal move generation for Serbest.
 *
 * Drops make positions with ~700 legal moves, so the generator never plays
 * a candidate to test it. It first finds, from the mover's king outward, the
 * pieces giving check and the pinned pieces (with their pin lines); then
 * king moves are tested against attacks with the king lifted off the board,
 * other moves are kept if they capture the checker, stand between it and the
 * king, and stay on their pin line; drops go anywhere empty, or between the
 * checker and the king when in check, minus the squares beside the enemy
 * king from which the dropped piece would give check. The naive reference
 * in tests/ref/serbest_ref.c (which does play every candidate) checks this.
 * random_move writes the moves of the pieces but only counts the drops,
 * most of a position's moves, and finds the one drawn among them.
 */
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "serbest.h"
#include "serbest_internal.h"

static const int orthogonal[4] = {12, -12, 1, -1};
static const int diagonal[4] = {13, 11, -11, -13};
const int serbest_knight_jumps[8] = {25, 23, 14, 10, -10, -14, -23, -25};
/* The order the near-attack table's bits follow (serbest_tables_gen.c). */
static const int king_steps[8] = {12, -12, 1, -1, 13, 11, -11, -13};

#include "serbest_tables.inc"

/* The diagonal steps on which a pawn of colour c captures: forward first,
 * then (Subedei only) backward. */
const int serbest_pawn_captures[2][4] = {{13, 11, -11, -13},
                                         {-11, -13, 13, 11}};

/* SERBEST_FILE and SERBEST_RANK by table, for the searches for attacks,
 * which ask them of every piece: row k of each is mailbox rank k. */
static const int8_t square_file[SERBEST_SQUARES] = {
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
};
static const int8_t square_rank[SERBEST_SQUARES] = {
    -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
};

static int piece(int kind, int colour)
{
    return SERBEST_PIECE(kind, colour);
}

/* Whether one of colour's knights attacks sq. */
static int knight_attacks(const uint8_t *b, int sq, int colour)
{
    for (int i = 0; i < 8; i++)
        if (b[sq + serbest_knight_jumps[i]] == piece(SERBEST_KNIGHT, colour))
            return 1;
    return 0;
}

/* Whether one of colour's pawns attacks sq: a pawn on sq - step does if
 * step is one of its capture steps, forward steps for both kinds,
 * backward for Subedei. */
static int pawn_attacks(const uint8_t *b, int sq, int colour)
{
    for (int i = 0; i < 4; i++) {
        int p = b[sq - serbest_pawn_captures[colour][i]];
        if (p == piece(SERBEST_SUBEDEI, colour)
            || (i < 2 && p == piece(SERBEST_PAWN, colour)))
            return 1;
    }
    return 0;
}

/* Whether the slider on the first square from sq along step (square
 * `ignore` taken as empty) is one of `colour`'s of kind `slider` or a
 * queen. */
static int ray_attacks(const uint8_t *b, int sq, int step, int ignore,
                       int slider, int colour)
{
    int t = sq + step;
    while (b[t] == SERBEST_EMPTY || t == ignore)
        t += step;
    return b[t] == piece(slider, colour)
           || b[t] == piece(SERBEST_QUEEN, colour);
}

int serbest_attacked(const struct serbest_state *s, int sq, int colour,
                     int ignore)
{
    const uint8_t *b = s->board;
    for (int i = 0; i < 8; i++)
        if (b[sq + king_steps[i]] == piece(SERBEST_KING, colour))
            return 1;
    if (knight_attacks(b, sq, colour) || pawn_attacks(b, sq, colour))
        return 1;
    for (int i = 0; i < 8; i++)
        if (ray_attacks(b, sq, king_steps[i], ignore,
                        i < 4 ? SERBEST_ROOK : SERBEST_BISHOP, colour))
            return 1;
    return 0;
}

int serbest_in_check(const struct serbest_state *s, int colour)
{
    int k = s->king_sq[colour];
    return k && serbest_attacked(s, k, colour ^ 1, 0);
}

/* ---- checks and pins ------------------------------------------------- */

/* 1 for the kinds that slide along ranks and files, and along diagonals. */
static const uint8_t slides_straight[SERBEST_KINDS] = {
    [SERBEST_QUEEN] = 1, [SERBEST_ROOK] = 1};
static const uint8_t slides_diagonally[SERBEST_KINDS] = {
    [SERBEST_QUEEN] = 1, [SERBEST_BISHOP] = 1};

/* Fills a with colour's attackers, seen from the other colour's king on
 * ksq (not 0). No branch on a piece's kind or place: they would be
 * mispredicted. */
static void find_attackers(const struct serbest_state *s, int colour, int ksq,
                           struct attackers *a)
{
    const int kfile = square_file[ksq], krank = square_rank[ksq];
    memset(a, 0, sizeof *a);
    for (int i = 0; i < s->pieces[colour].count; i++) {
        const int sq = s->pieces[colour].sq[i];
        const int kind = SERBEST_KIND(s->board[sq]);
        const int file = square_file[sq], rank = square_rank[sq];
        const uint32_t straight = slides_straight[kind];
        const uint32_t slanted = slides_diagonally[kind];
        a->lines[0] |= straight << rank;
        a->lines[1] |= straight << file;
        a->lines[2] |= slanted << (file - rank + 9);
        a->lines[3] |= slanted << (file + rank);
        /* Offsets past 3 either way become 7, a row or column of 0s. */
        unsigned dx = (unsigned)(file - kfile + 3);
        unsigned dy = (unsigned)(rank - krank + 3);
        dx = dx < 7 ? dx : 7;
        dy = dy < 7 ? dy : 7;
        a->near |= serbest_near_attacks[colour][kind][dy * 8 + dx];
    }
}

/* Bit i: whether the line of square sq along king_steps[i] (12, -12, 1,
 * -1, 13, 11, -11, -13) holds one of a's sliders that moves along it. */
static inline unsigned slider_rays(const struct attackers *a, int sq)
{
    const int file = square_file[sq], rank = square_rank[sq];
    return (a->lines[1] >> file & 1u) * 0x03u
           | (a->lines[0] >> rank & 1u) * 0x0cu
           | (a->lines[2] >> (file - rank + 9) & 1u) * 0x90u
           | (a->lines[3] >> (file + rank) & 1u) * 0x60u;
}

static void add_checker(struct king_safety *ks, int sq, int step)
{
    ks->checkers++;
    ks->checker_sq = sq;
    ks->check_step = step;
}

/* Looks outward from the king on ksq of colour us for checks and pins,
 * and fills ks->them; with ksq 0 (the king in hand), none. */
void serbest_find_checks_and_pins(const struct serbest_state *s, int us,
                                  int ksq, struct king_safety *ks)
{
    const uint8_t *b = s->board;
    const int them = us ^ 1;
    memset(ks, 0, sizeof *ks);
    if (!ksq)
        return;
    find_attackers(s, them, ksq, &ks->them);
    if (ks->them.near >> 8 & 1) { /* a knight or a pawn gives check */
        for (int i = 0; i < 8; i++)
            if (b[ksq + serbest_knight_jumps[i]] == piece(SERBEST_KNIGHT, them))
                add_checker(ks, ksq + serbest_knight_jumps[i], 0);
        for (int i = 0; i < 4; i++) {
            int sq = ksq - serbest_pawn_captures[them][i];
            int p = b[sq];
            if (p == piece(SERBEST_SUBEDEI, them)
                || (i < 2 && p == piece(SERBEST_PAWN, them)))
                add_checker(ks, sq, 0);
        }
    }
    /* A ray along a line without a slider that moves along it finds no
     * check and no pin. */
    for (unsigned rays = slider_rays(&ks->them, ksq); rays;
         rays &= rays - 1) {
        const int i = __builtin_ctz(rays);
        const int step = king_steps[i];
        const int slider = i < 4 ? SERBEST_ROOK : SERBEST_BISHOP;
        int t = ksq + step;
        while (b[t] == SERBEST_EMPTY)
            t += step;
        int first = b[t];
        if (first == SERBEST_OFF)
            continue;
        int kind = SERBEST_KIND(first);
        if (SERBEST_COLOUR(first) == them) {
            if (kind == slider || kind == SERBEST_QUEEN)
                add_checker(ks, t, step);
            continue;
        }
        int pinned = t;
        t += step;
        while (b[t] == SERBEST_EMPTY)
            t += step;
        if (b[t] == piece(slider, them) || b[t] == piece(SERBEST_QUEEN, them)) {
            ks->pinned_sq[ks->pinned_count] = pinned;
            ks->pin_step[ks->pinned_count++] = step;
        }
    }
}

/* Whether `to` is on the ray from ksq along step (the pin line). */
static int on_ray(const uint8_t *b, int ksq, int step, int to)
{
    for (int t = ksq + step; b[t] != SERBEST_OFF; t += step)
        if (t == to)
            return 1;
    return 0;
}

/* Whether a non-king move to `to` answers a single check: it takes the
 * checker or stands between it and the king. */
static int answers_check(const struct king_safety *ks, int ksq, int to)
{
    if (to == ks->checker_sq)
        return 1;
    if (!ks->check_step)
        return 0;
    for (int t = ksq + ks->check_step; t != ks->checker_sq; t += ks->check_step)
        if (t == to)
            return 1;
    return 0;
}

/* ---- moves of the pieces on the board ------------------------------- */

/* enterable[us][p]: 1 where a piece of colour us may move onto a square
 * holding p (empty, or the other colour's piece), 0 for its own pieces
 * and the border. The move generators write each candidate and move on
 * by this flag, with no branch to mispredict; so a piece's moves may
 * write one slot past those they return (every caller's buffer holds
 * GAME_MAX_MOVES, far more than a position's moves). Measured: 1.29x
 * Serbest random plies/s (scripts/bench_ab.sh, 7 rounds of 2 s). */
static const uint8_t enterable[2][SERBEST_OFF + 1] = {
    {[SERBEST_EMPTY] = 1, [8 + SERBEST_KING] = 1, [8 + SERBEST_QUEEN] = 1,
     [8 + SERBEST_ROOK] = 1, [8 + SERBEST_BISHOP] = 1, [8 + SERBEST_KNIGHT] = 1,
     [8 + SERBEST_PAWN] = 1, [8 + SERBEST_SUBEDEI] = 1},
    {[SERBEST_EMPTY] = 1, [SERBEST_KING] = 1, [SERBEST_QUEEN] = 1,
     [SERBEST_ROOK] = 1, [SERBEST_BISHOP] = 1, [SERBEST_KNIGHT] = 1,
     [SERBEST_PAWN] = 1, [SERBEST_SUBEDEI] = 1},
};

static int slide(const uint8_t *b, int from, const int *steps, int nsteps,
                 int us, move_t *out)
{
    int n = 0;
    for (int i = 0; i < nsteps; i++) {
        int t = from + steps[i];
        for (; b[t] == SERBEST_EMPTY; t += steps[i])
            out[n++] = SERBEST_MOVE(from, t);
        out[n] = SERBEST_MOVE(from, t); /* kept if it takes an enemy */
        n += enterable[us][b[t]];
    }
    return n;
}

int serbest_enterable(const uint8_t *b, int sq, int us)
{
    return enterable[us][b[sq]];
}

static int pawn_moves(const uint8_t *b, int from, int kind, int us,
                      move_t *out)
{
    int n = 0;
    for (int i = 0; i < 4; i++) {
        const int one = from + orthogonal[i], two = one + orthogonal[i];
        const int free1 = b[one] == SERBEST_EMPTY;
        out[n] = SERBEST_MOVE(from, one);
        n += free1;
        out[n] = SERBEST_MOVE(from, two);
        n += free1 & (b[two] == SERBEST_EMPTY);
    }
    const int ncaptures = kind == SERBEST_SUBEDEI ? 4 : 2;
    for (int i = 0; i < ncaptures; i++) {
        const int to = from + serbest_pawn_captures[us][i];
        out[n] = SERBEST_MOVE(from, to);
        n += enterable[us][b[to]] & (b[to] != SERBEST_EMPTY);
    }
    return n;
}

/* Pseudo-legal moves of the non-king piece on `from`. */
static int piece_moves(const uint8_t *b, int from, int us, move_t *out)
{
    int kind = SERBEST_KIND(b[from]);
    switch (kind) {
    case SERBEST_QUEEN:
        return slide(b, from, king_steps, 8, us, out);
    case SERBEST_ROOK:
        return slide(b, from, orthogonal, 4, us, out);
    case SERBEST_BISHOP:
        return slide(b, from, diagonal, 4, us, out);
    case SERBEST_KNIGHT: {
        int n = 0;
        for (int i = 0; i < 8; i++) {
            const int t = from + serbest_knight_jumps[i];
            out[n] = SERBEST_MOVE(from, t);
            n += enterable[us][b[t]];
        }
        return n;
    }
    default:
        return pawn_moves(b, from, kind, us, out);
    }
}

/* Whether the board squares sq and king are neighbours (the mailbox's
 * border columns keep a difference of 1, 11, 12 or 13 from wrapping round
 * a rank's end). */
static int beside(int sq, int king)
{
    int d = sq > king ? sq - king : king - sq;
    return d == 1 || (d >= 11 && d <= 13);
}

/* ---- the king's steps -------------------------------------------------- */

/* Whether one of the sliders of colour, whose lines a holds, attacks sq
 * with square `ignore` taken as empty: serbest_attacked's rays, with
 * those that cannot find a slider left out. */
static int slider_attacks(const uint8_t *b, const struct attackers *a, int sq,
                          int colour, int ignore)
{
    for (unsigned rays = slider_rays(a, sq); rays; rays &= rays - 1) {
        const int i = __builtin_ctz(rays);
        if (ray_attacks(b, sq, king_steps[i], ignore,
                        i < 4 ? SERBEST_ROOK : SERBEST_BISHOP, colour))
            return 1;
    }
    return 0;
}

/* The legal steps of the king on ksq, whose checks and pins ks holds: onto
 * an empty square or an enemy's that the enemy's king, knights and pawns
 * do not attack (ks->them.near) and no slider does with the king gone. */
int serbest_king_moves(const struct serbest_state *s,
                       const struct king_safety *ks, int ksq, int us,
                       move_t *out)
{
    const uint8_t *b = s->board;
    int n = 0;
    for (int i = 0; i < 8; i++) {
        int t = ksq + king_steps[i];
        if (enterable[us][b[t]] && !(ks->them.near >> i & 1)
            && !slider_attacks(b, &ks->them, t, us ^ 1, ksq))
            out[n++] = SERBEST_MOVE(ksq, t);
    }
    return n;
}

/* Keeps those of the n moves in out that a pin or a check allows. */
static int filter_moves(const uint8_t *b, const struct king_safety *ks,
                        int ksq, int pin_step, move_t *out, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int to = SERBEST_TO(out[i]);
        if (pin_step && !on_ray(b, ksq, pin_step, to))
            continue;
        if (ks->checkers && !answers_check(ks, ksq, to))
            continue;
        out[kept++] = out[i];
    }
    return kept;
}

/* Legal moves of the non-king piece on `from`, given the checks and pins
 * found from the king on ksq (0 if the king is in hand). */
int serbest_legal_piece_moves(const struct serbest_state *s,
                              const struct king_safety *ks, int ksq,
                              int from, move_t *out)
{
    int n = piece_moves(s->board, from, s->head.side, out);
    int pin_step = 0;
    for (int p = 0; p < ks->pinned_count; p++)
        if (ks->pinned_sq[p] == from)
            pin_step = ks->pin_step[p];
    if (pin_step || ks->checkers)
        n = filter_moves(s->board, ks, ksq, pin_step, out, n);
    return n;
}

/* ---- drops ------------------------------------------------------------ */

/* Kinds that, dropped on the square (dx, dy) away from an enemy king of the
 * other colour, would attack it from beside it (a bit per kind). `us` is
 * the dropper; its pawns attack diagonally forward only. */
static unsigned adjacent_check_kinds(int dx, int dy, int us)
{
    if (dx == 0 || dy == 0)
        return 1u << SERBEST_QUEEN | 1u << SERBEST_ROOK;
    unsigned kinds = 1u << SERBEST_QUEEN | 1u << SERBEST_BISHOP
                     | 1u << SERBEST_SUBEDEI;
    /* A white pawn below the king (dy = -1) attacks it; black from above. */
    if (dy == (us == SERBEST_WHITE ? -1 : 1))
        kinds |= 1u << SERBEST_PAWN;
    return kinds;
}

/* Drops of the non-king kinds in hand on the empty square sq. */
int serbest_drops_on(const struct serbest_state *s, int sq, const int *kinds,
                     int nkinds, int enemy_king, move_t *out)
{
    unsigned forbidden = 0;
    if (enemy_king && !s->adjacent_drop_check) {
        int dx = SERBEST_FILE(sq) - SERBEST_FILE(enemy_king);
        int dy = SERBEST_RANK(sq) - SERBEST_RANK(enemy_king);
        if (abs(dx) <= 1 && abs(dy) <= 1)
            forbidden = adjacent_check_kinds(dx, dy, s->head.side);
    }
    int n = 0;
    for (int k = 0; k < nkinds; k++)
        if (!(forbidden >> kinds[k] & 1))
            out[n++] = SERBEST_DROP(kinds[k], sq);
    return n;
}

/* Marks in map every square colour's pieces attack (the board inside
 * the border only). One pass over the pieces: cheaper than asking
 * serbest_attacked for each of the up to 90 squares a king may drop on. */
static void attack_map(const struct serbest_state *s, int colour,
                       uint8_t map[SERBEST_SQUARES])
{
    const uint8_t *b = s->board;
    memset(map, 0, SERBEST_SQUARES);
    for (int i = 0; i < s->pieces[colour].count; i++) {
        const int from = s->pieces[colour].sq[i];
        const int kind = SERBEST_KIND(b[from]);
        const int *steps = king_steps;
        int nsteps = 8, slides = 0;
        switch (kind) {
        case SERBEST_QUEEN: slides = 1; break;
        case SERBEST_ROOK: steps = orthogonal, nsteps = 4, slides = 1; break;
        case SERBEST_BISHOP: steps = diagonal, nsteps = 4, slides = 1; break;
        case SERBEST_KNIGHT: steps = serbest_knight_jumps; break;
        case SERBEST_PAWN:
            steps = serbest_pawn_captures[colour], nsteps = 2;
            break;
        case SERBEST_SUBEDEI:
            steps = serbest_pawn_captures[colour], nsteps = 4;
            break;
        default: break; /* king: the 8 steps, once */
        }
        for (int d = 0; d < nsteps; d++) {
            int t = from + steps[d];
            if (slides)
                for (; b[t] == SERBEST_EMPTY; t += steps[d])
                    map[t] = 1;
            if (b[t] != SERBEST_OFF)
                map[t] = 1;
        }
    }
}

/* King drops: ranks 1..kings_landing from the dropper's side, never onto
 * an attacked square. The dropper has no king on the board, so no check
 * or pin limits anything else. */
static int king_drops(const struct serbest_state *s, move_t *out)
{
    const int us = s->head.side;
    uint8_t attacked[SERBEST_SQUARES];
    attack_map(s, us ^ 1, attacked);
    int n = 0;
    for (int r = 0; r < s->kings_landing; r++) {
        int rank = us == SERBEST_WHITE ? r : 9 - r;
        for (int f = 0; f < 10; f++) {
            int sq = SERBEST_SQ(f, rank);
            if (s->board[sq] == SERBEST_EMPTY && !attacked[sq])
                out[n++] = SERBEST_DROP(SERBEST_KING, sq);
        }
    }
    return n;
}

static int drops(const struct serbest_state *s, const struct king_safety *ks,
                 int ksq, move_t *out)
{
    const int us = s->head.side;
    int kinds[SERBEST_KINDS];
    const int nkinds = serbest_hand_kinds(s, kinds);
    const int enemy_king = s->king_sq[us ^ 1];
    int n = 0;
    if (ks->checkers) {
        /* Only a drop between a sliding checker and the king helps. */
        if (ks->check_step)
            for (int t = ksq + ks->check_step; t != ks->checker_sq;
                 t += ks->check_step)
                n += serbest_drops_on(s, t, kinds, nkinds, enemy_king, out + n);
        return n;
    }
    if (nkinds) {
        /* Only the 8 squares beside the enemy king can forbid a kind
         * (serbest_drops_on); on every other empty square each kind in
         * hand is a drop, written from its move bits (to = 0) with the
         * square or'd in. The order is serbest_drops_on's: square by
         * square, kinds in order.
         * All SERBEST_KINDS slots are written each time (a fixed-width
         * loop the compiler vectorises) and n moves on by nkinds, so up to
         * 8 - nkinds slots past the last drop get junk that the next
         * square or move overwrites or nobody reads: at most 6 kinds on at
         * most 100 squares keep every write far below max_moves. */
        const int guarded = enemy_king && !s->adjacent_drop_check;
        move_t base[SERBEST_KINDS] = {0};
        for (int k = 0; k < nkinds; k++)
            base[k] = SERBEST_DROP(kinds[k], 0);
        for (int rank = 0; rank < 10; rank++) {
            const int last = SERBEST_SQ(9, rank);
            for (int sq = SERBEST_SQ(0, rank); sq <= last; sq++) {
                if (s->board[sq] != SERBEST_EMPTY)
                    continue;
                if (guarded && beside(sq, enemy_king)) {
                    n += serbest_drops_on(s, sq, kinds, nkinds, enemy_king,
                                          out + n);
                    continue;
                }
                for (int k = 0; k < SERBEST_KINDS; k++)
                    out[n + k] = base[k] | (move_t)sq;
                n += nkinds;
            }
        }
    }
    if (s->hand[us][SERBEST_KING])
        n += king_drops(s, out + n);
    return n;
}

/* ---- all together ----------------------------------------------------- */

/* The legal moves of the side to move's pieces other than its king, in
 * list order, given the checks and pins ks found from the king on ksq. */
static int pieces_moves(const struct serbest_state *s,
                        const struct king_safety *ks, int ksq, move_t *out)
{
    const struct piece_list *list = &s->pieces[s->head.side];
    int n = 0;
    for (int i = 0; i < list->count; i++)
        if (list->sq[i] != ksq)
            n += serbest_legal_piece_moves(s, ks, ksq, list->sq[i], out + n);
    return n;
}

int serbest_legal_moves(const void *st, move_t *out)
{
    const struct serbest_state *s = st;
    const int us = s->head.side, ksq = s->king_sq[us];
    struct king_safety ks;
    int n = 0;
    if (s->head.outcome != GAME_ONGOING)
        return 0;
    serbest_find_checks_and_pins(s, us, ksq, &ks);
    if (ksq) {
        n = serbest_king_moves(s, &ks, ksq, us, out);
        if (ks.checkers > 1)
            return n;
    }
    n += pieces_moves(s, &ks, ksq, out + n);
    return n + drops(s, &ks, ksq, out + n);
}

/* ---- a random move without the list ---------------------------------- */

/* The kinds other than the king that the side to move holds, in order;
 * returns how many. */
int serbest_hand_kinds(const struct serbest_state *s,
                       int kinds[SERBEST_KINDS])
{
    int n = 0;
    for (int k = SERBEST_QUEEN; k <= SERBEST_SUBEDEI; k++)
        if (s->hand[s->head.side][k])
            kinds[n++] = k;
    return n;
}

/* How many drops of the nkinds > 0 kinds drops() writes out of check:
 * each kind on each empty square, less those the drop-check rule
 * forbids beside the enemy king. */
static int count_drops(const struct serbest_state *s, const int *kinds,
                       int nkinds)
{
    const int enemy_king = s->king_sq[s->head.side ^ 1];
    int n = nkinds * (100 - s->pieces[0].count - s->pieces[1].count);
    if (enemy_king && !s->adjacent_drop_check) {
        move_t buf[SERBEST_KINDS];
        for (int i = 0; i < 8; i++) {
            int t = enemy_king + king_steps[i];
            if (s->board[t] == SERBEST_EMPTY)
                n -= nkinds
                     - serbest_drops_on(s, t, kinds, nkinds, enemy_king, buf);
        }
    }
    return n;
}

/* The j-th (from 0) of the drops count_drops counts, in drops()'s order:
 * square by square, a1 to j10, kinds in order. */
static move_t nth_drop(const struct serbest_state *s, const int *kinds,
                       int nkinds, int j)
{
    const int enemy_king = s->king_sq[s->head.side ^ 1];
    const int guarded = enemy_king && !s->adjacent_drop_check;
    for (int sq = SERBEST_SQ(0, 0);; sq++) {
        if (s->board[sq] != SERBEST_EMPTY)
            continue;
        if (guarded && beside(sq, enemy_king)) {
            move_t buf[SERBEST_KINDS];
            int c = serbest_drops_on(s, sq, kinds, nkinds, enemy_king, buf);
            if (j < c)
                return buf[j];
            j -= c;
        } else if (j < nkinds) {
            return SERBEST_DROP(kinds[j], sq);
        } else {
            j -= nkinds;
        }
    }
}

/* serbest_game.random_move (game.h). In check the moves are few, and
 * the list is drawn from. Otherwise the moves of the pieces on the board
 * are written as legal_moves writes them, the other drops only counted,
 * and the king's drops, which come last, written after the pieces'
 * moves; the index drawn is read from those or found among the drops. */
int serbest_random_move(const void *st, struct rng *r, move_t *m)
{
    const struct serbest_state *s = st;
    const int us = s->head.side, ksq = s->king_sq[us];
    move_t moves[GAME_MAX_MOVES];
    struct king_safety ks;
    if (s->head.outcome != GAME_ONGOING)
        return 0;
    serbest_find_checks_and_pins(s, us, ksq, &ks);
    int n;
    if (ks.checkers) {
        n = serbest_legal_moves(s, moves);
        if (n > 0)
            *m = moves[rng_below(r, (uint32_t)n)];
        return n;
    }
    n = ksq ? serbest_king_moves(s, &ks, ksq, us, moves) : 0;
    n += pieces_moves(s, &ks, ksq, moves + n);
    int kinds[SERBEST_KINDS];
    const int nkinds = serbest_hand_kinds(s, kinds);
    const int dropped = nkinds ? count_drops(s, kinds, nkinds) : 0;
    const int king_dropped = s->hand[us][SERBEST_KING]
                                 ? king_drops(s, moves + n) : 0;
    const int total = n + dropped + king_dropped;
    if (total == 0)
        return 0;
    const int k = (int)rng_below(r, (uint32_t)total);
    if (k < n)
        *m = moves[k];
    else if (k < n + dropped)
        *m = nth_drop(s, kinds, nkinds, k - n);
    else
        *m = moves[k - dropped];
    return total;
}

int serbest_has_legal_move(const struct serbest_state *s)
{
    const int us = s->head.side, ksq = s->king_sq[us];
    struct king_safety ks;
    move_t buf[GAME_MAX_MOVES];
    serbest_find_checks_and_pins(s, us, ksq, &ks);
    /* Cheapest first: out of check, a drop of anything but the king is
     * legal on almost every empty square. */
    if (!ks.checkers) {
        int kinds[SERBEST_KINDS];
        const int nkinds = serbest_hand_kinds(s, kinds);
        for (int sq = SERBEST_SQ(0, 0); nkinds && sq <= SERBEST_SQ(9, 9); sq++)
            if (s->board[sq] == SERBEST_EMPTY
                && serbest_drops_on(s, sq, kinds, nkinds, s->king_sq[us ^ 1],
                                    buf))
                return 1;
    }
    /* In a single check, a drop between the checker and the king (the
     * drops in check) is cheaper to find than a king's step, which asks
     * for a whole attack scan per square. */
    if (ks.checkers == 1 && drops(s, &ks, ksq, buf) > 0)
        return 1;
    if (ks.checkers < 2)
        for (int i = 0; i < s->pieces[us].count; i++)
            if (s->pieces[us].sq[i] != ksq
                && serbest_legal_piece_moves(s, &ks, ksq, s->pieces[us].sq[i],
                                             buf))
                return 1;
    if (ksq && serbest_king_moves(s, &ks, ksq, us, buf) > 0)
        return 1;
    return !ks.checkers && drops(s, &ks, ksq, buf) > 0; /* the king's too */
}
