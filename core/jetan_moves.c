/*
 * jetan_moves.c -- Jetan move generation: which squares each piece
 * reaches, the Princess's safety and escape, and the attack sets.
 *
 * No path is walked here. A build-time program (jetan_tables_gen.c) walks
 * every path of every piece once and writes `static const` tables into the
 * build directory (jetan_tables.inc, included below), so the core has no
 * start-up code and no global that changes. Sets are 128-bit integers,
 * bit sq for square sq. Per piece kind and square: pieces that cannot be
 * blocked (the 1-step Panthan, the jumping Flier, Princess and jumping
 * Thoat) have one destination set. The walkers' reach has two forms, each
 * measured faster where it is used:
 *  - by tables (reach_walk): a walker's first squares (and second
 *    squares) with the destinations reached through them, ORed where
 *    those squares are empty; a few branches on a crowded board, where
 *    most first squares are blocked (legal_moves, attacks: perft and ab);
 *  - by sets (reach_sets): the empty squares one step away, grown a step
 *    at a time with shifts of the whole set; no branch on the board, which
 *    random playouts' open and changing boards make unpredictable
 *    (random_move, has_move).
 * Either way a square reached by several paths is one move for free.
 * Pieces are visited kind by kind (struct jetan_state's kind_occ), so the
 * code for each kind runs with no branch on the kind.
 */
#include <string.h>

#include "bits.h"
#include "jetan.h"
#include "rng.h"

__extension__ typedef unsigned __int128 jt_bb;
#define JT_BB(hi, lo) (((jt_bb)(hi) << 64) | (jt_bb)(lo))

/* A 2-step walker on one square: the destinations through mid[i], open
 * when mid[i] is empty. */
struct jt_walk2 {
    jt_bb dest[8];
    uint8_t n;
    uint8_t mid[8];
};

/* A 3-step walker on one square: the destinations dest[i * W + j]
 * through s1[i] then s2[i * W + j], open when both are empty (W = 3 for
 * the Dwar, 7 for the Chief and Princess). */
struct jt_walk3_dwar {
    jt_bb dest[4 * 3];
    uint8_t n1;
    uint8_t s1[4];
    uint8_t n2[4];
    uint8_t s2[4 * 3];
};

struct jt_walk3_chief {
    jt_bb dest[8 * 7];
    uint8_t n1;
    uint8_t s1[8];
    uint8_t n2[8];
    uint8_t s2[8 * 7];
};

#include "jetan_tables.inc"

/* The destinations of a 2-step walker on `board`. */
static inline jt_bb walk2(const struct jt_walk2 *w, const uint8_t *board)
{
    jt_bb r = 0;
    for (int i = 0; i < w->n; i++)
        if (!board[w->mid[i]])
            r |= w->dest[i];
    return r;
}

/* The destinations of a 3-step walker whose tables have rows `width`
 * long (struct jt_walk3_*), on `board`. */
static inline jt_bb walk3(int n1, const uint8_t *s1, const uint8_t *n2,
                          const uint8_t *s2, const jt_bb *dest, int width,
                          const uint8_t *board)
{
    jt_bb r = 0;
    for (int i = 0; i < n1; i++) {
        if (board[s1[i]])
            continue;
        for (int j = i * width; j < i * width + n2[i]; j++)
            if (!board[s2[j]])
                r |= dest[j];
    }
    return r;
}

/* The squares the piece of `kind` and `side` on sq could move to if each
 * of them were empty or held an enemy piece, on `board`, by tables. */
static inline __attribute__((always_inline)) jt_bb reach_walk(
    const struct jetan_state *s, const uint8_t *board, int sq, int kind,
    int side)
{
    switch (kind) {
    case JETAN_CHIEF:
        return walk3(jt_chief[sq].n1, jt_chief[sq].s1, jt_chief[sq].n2,
                     jt_chief[sq].s2, jt_chief[sq].dest, 7, board);
    case JETAN_PRINCESS: return jt_princess[sq];
    case JETAN_FLIER: return jt_flier[sq];
    case JETAN_DWAR:
        return walk3(jt_dwar[sq].n1, jt_dwar[sq].s1, jt_dwar[sq].n2,
                     jt_dwar[sq].s2, jt_dwar[sq].dest, 3, board);
    case JETAN_PADWAR: return walk2(&jt_padwar[sq], board);
    case JETAN_WARRIOR: return walk2(&jt_warrior[sq], board);
    case JETAN_THOAT:
        return s->thoat_jumps ? jt_thoat_jump[sq] : walk2(&jt_thoat[sq], board);
    default: return jt_panthan[side][sq];
    }
}

/* The 100 squares of the board, and the board without its first file
 * (a) or its last (j): a square that steps east must not be on file j. */
#define BOARD_MASK JT_BB(0xfffffffffULL, ~0ULL)
#define NOT_FILE_A JT_BB(0xffbfeffbfULL, 0xeffbfeffbfeffbfeULL)
#define NOT_FILE_J JT_BB(0x7fdff7fdfULL, 0xf7fdff7fdff7fdffULL)

static inline jt_bb occupancy(const struct jetan_state *s, int side)
{
    return JT_BB(s->occ[side][1], s->occ[side][0]);
}

/* The squares one orthogonal step from a square of b. */
static inline jt_bb orth_dilate(jt_bb b)
{
    const jt_bb e = b & NOT_FILE_J, w = b & NOT_FILE_A;
    return ((e << 1) | (w >> 1) | (b << 10) | (b >> 10)) & BOARD_MASK;
}

/* The squares one diagonal step from a square of b. */
static inline jt_bb diag_dilate(jt_bb b)
{
    const jt_bb e = b & NOT_FILE_J, w = b & NOT_FILE_A;
    return ((e << 11) | (w << 9) | (e >> 9) | (w >> 11)) & BOARD_MASK;
}

/* The destinations of a 3-step walker on `home` (a one-square set) with
 * the first steps `first` (its orthogonal steps, or king steps when `king`)
 * and the squares of `empty` empty: the squares one step on from an empty
 * s2 one step on from an empty s1, none entered twice. Growing the sets
 * step by step is exact but for one case: a square t next to home is
 * reached only through an s1 other than itself, that is through an s2
 * next to two of the s1 (t is one of them), the set `twice`. */
static inline jt_bb walk3_sets(jt_bb first, jt_bb empty, jt_bb home,
                               int king)
{
    const jt_bb s1 = first & empty;
    const jt_bb e = s1 & NOT_FILE_J, w = s1 & NOT_FILE_A;
    jt_bb step[8] = {e << 1, w >> 1, s1 << 10, s1 >> 10,
                     e << 11, w << 9, e >> 9, w >> 11};
    jt_bb once = 0, twice = 0;
    for (int d = 0; d < (king ? 8 : 4); d++) {
        twice |= once & step[d];
        once |= step[d];
    }
    const jt_bb s2 = once & empty & BOARD_MASK & ~home;
    const jt_bb t2 = twice & empty & BOARD_MASK & ~home;
    if (king)
        return ((orth_dilate(s2) | diag_dilate(s2)) & ~s1 & ~home)
               | (s1 & (orth_dilate(t2) | diag_dilate(t2)));
    return (orth_dilate(s2) & ~s1 & ~home) | (s1 & orth_dilate(t2));
}

/* reach_walk's squares, by sets: with the squares of `empty` empty. */
static inline __attribute__((always_inline)) jt_bb reach_sets(
    const struct jetan_state *s, jt_bb empty, int sq, int kind, int side)
{
    const jt_bb home = (jt_bb)1 << sq;
    switch (kind) {
    case JETAN_CHIEF: return walk3_sets(jt_king_step[sq], empty, home, 1);
    case JETAN_PRINCESS: return jt_princess[sq];
    case JETAN_FLIER: return jt_flier[sq];
    case JETAN_DWAR: return walk3_sets(jt_orth_step[sq], empty, home, 0);
    case JETAN_PADWAR:
        return diag_dilate(jt_diag_step[sq] & empty) & ~home;
    case JETAN_WARRIOR:
        return orth_dilate(jt_orth_step[sq] & empty) & ~home;
    case JETAN_THOAT:
        return s->thoat_jumps ? jt_thoat_jump[sq]
                              : diag_dilate(jt_orth_step[sq] & empty)
                                    | orth_dilate(jt_diag_step[sq] & empty);
    default: return jt_panthan[side][sq];
    }
}

static jt_bb attacked_by(const struct jetan_state *s, int side, int removed)
{
    uint8_t board[JETAN_SQUARES];
    memcpy(board, s->board, sizeof board);
    if (removed != JETAN_NO_SQUARE)
        board[removed] = 0;
    jt_bb r = 0;
    for (int half = 0; half < 2; half++) {
        for (uint64_t w = s->occ[side][half]; w; w &= w - 1) {
            int sq = half * 64 + __builtin_ctzll(w);
            if (sq == removed)
                continue;
            int kind = JETAN_KIND_OF(board[sq]);
            if (kind != JETAN_PRINCESS)
                r |= reach_walk(s, board, sq, kind, side);
        }
    }
    return r;
}

void jetan_attacks(const struct jetan_state *s, int side, int removed,
                   uint64_t out[2])
{
    jt_bb r = attacked_by(s, side, removed);
    out[0] = (uint64_t)r;
    out[1] = (uint64_t)(r >> 64);
}

/* Writes the moves base | to << 7 for each square `to` of targets, in
 * square order, from out[n]; returns the new count. */
static inline int emit(move_t *out, int n, move_t base, jt_bb targets)
{
    for (uint64_t lo = (uint64_t)targets; lo; lo &= lo - 1)
        out[n++] = base | (move_t)__builtin_ctzll(lo) << 7;
    for (uint64_t hi = (uint64_t)(targets >> 64); hi; hi &= hi - 1)
        out[n++] = base | (move_t)(64 + __builtin_ctzll(hi)) << 7;
    return n;
}

/* The Princess's normal targets and escape targets for the side to move. */
static void princess_targets(const struct jetan_state *s, int ps, jt_bb all,
                             jt_bb *normal, jt_bb *escape)
{
    const int side = s->head.side;
    const int can_escape = s->escape[side]
                           && s->princess_escape != JETAN_ESCAPE_OFF;
    const int escape_safe = s->princess_safe
                            || s->princess_escape == JETAN_ESCAPE_SAFE;
    jt_bb unsafe = 0;
    if (s->princess_safe || (can_escape && escape_safe))
        unsafe = attacked_by(s, side ^ 1, ps);
    *normal = jt_princess[ps] & ~all;
    if (s->princess_safe)
        *normal &= ~unsafe;
    *escape = 0;
    if (can_escape)
        *escape = BOARD_MASK & ~all & (escape_safe ? ~unsafe : ~(jt_bb)0);
}

int jetan_legal_moves(const void *st, move_t *out)
{
    const struct jetan_state *s = st;
    const int side = s->head.side;
    if (s->head.outcome != GAME_ONGOING)
        return 0;
    const jt_bb own = occupancy(s, side);
    const jt_bb all = own | occupancy(s, side ^ 1);
    int n = 0;
    for (int half = 0; half < 2; half++) {
        for (uint64_t w = s->occ[side][half]; w; w &= w - 1) {
            int sq = half * 64 + __builtin_ctzll(w);
            int kind = JETAN_KIND_OF(s->board[sq]);
            if (kind != JETAN_PRINCESS)
                n = emit(out, n, (move_t)sq,
                         reach_walk(s, s->board, sq, kind, side) & ~own);
        }
    }
    const int ps = s->princess_sq[side];
    if (ps != JETAN_NO_SQUARE) {
        jt_bb normal, escape;
        princess_targets(s, ps, all, &normal, &escape);
        n = emit(out, n, (move_t)ps, normal);
        n = emit(out, n, (move_t)ps | JETAN_MOVE(0, 0, 1), escape);
    }
    return n;
}

/* ---- a random move without the list ---------------------------------- */

static inline int count128(jt_bb set)
{
    return bits_count64((uint64_t)set) + bits_count64((uint64_t)(set >> 64));
}

/* The square of the k-th (from 0) set bit of set, as emit orders them. */
static inline int nth128(jt_bb set, int k)
{
    const int low = bits_count64((uint64_t)set);
    return k < low ? bits_nth64((uint64_t)set, k)
                   : 64 + bits_nth64((uint64_t)(set >> 64), k - low);
}

/* The squares of side's pieces of `kind`. */
static inline jt_bb kind_set(const struct jetan_state *s, int side, int kind)
{
    return JT_BB(s->kind_occ[side][kind][1], s->kind_occ[side][kind][0]);
}

/* The move sets of side's pieces of `kind` (not the Princess), each at
 * the index of its piece among `movers` in square order. */
static inline __attribute__((always_inline)) void kind_targets(
    const struct jetan_state *s, int side, int kind, jt_bb movers,
    jt_bb own, jt_bb empty, jt_bb *targets, move_t *base)
{
    jt_bb set = kind_set(s, side, kind);
    for (uint64_t lo = (uint64_t)set; lo; lo &= lo - 1) {
        int sq = __builtin_ctzll(lo);
        int i = bits_count64((uint64_t)movers & ((1ULL << sq) - 1));
        targets[i] = reach_sets(s, empty, sq, kind, side) & ~own;
        base[i] = (move_t)sq;
    }
    const int low = bits_count64((uint64_t)movers);
    const uint64_t high_movers = (uint64_t)(movers >> 64);
    for (uint64_t hi = (uint64_t)(set >> 64); hi; hi &= hi - 1) {
        int sq = 64 + __builtin_ctzll(hi);
        int i = low + bits_count64(high_movers & ((1ULL << (sq - 64)) - 1));
        targets[i] = reach_sets(s, empty, sq, kind, side) & ~own;
        base[i] = (move_t)sq;
    }
}

/* The moves of the side to move (the game not over) as sets: the moves
 * base[i] | to << 7 for each square `to` of targets[i], for i below the
 * count returned. The sets are in the order legal_moves writes them: one
 * per piece but the Princess, by square, then the Princess's normal moves
 * and her escapes. They are computed kind by kind (each kind's reach with
 * no branch on the kind) and put in square order by each piece's rank. */
static int move_sets(const struct jetan_state *s, jt_bb *targets,
                     move_t *base)
{
    const int side = s->head.side;
    const jt_bb own = occupancy(s, side);
    const jt_bb all = own | occupancy(s, side ^ 1);
    const jt_bb empty = BOARD_MASK & ~all;
    const jt_bb movers = own & ~kind_set(s, side, JETAN_PRINCESS);
    int sets = count128(movers);
    kind_targets(s, side, JETAN_PANTHAN, movers, own, empty, targets, base);
    kind_targets(s, side, JETAN_FLIER, movers, own, empty, targets, base);
    kind_targets(s, side, JETAN_WARRIOR, movers, own, empty, targets, base);
    kind_targets(s, side, JETAN_PADWAR, movers, own, empty, targets, base);
    kind_targets(s, side, JETAN_THOAT, movers, own, empty, targets, base);
    kind_targets(s, side, JETAN_DWAR, movers, own, empty, targets, base);
    kind_targets(s, side, JETAN_CHIEF, movers, own, empty, targets, base);
    const int ps = s->princess_sq[side];
    if (ps != JETAN_NO_SQUARE) {
        princess_targets(s, ps, all, &targets[sets], &targets[sets + 1]);
        base[sets] = (move_t)ps;
        base[sets + 1] = (move_t)ps | JETAN_MOVE(0, 0, 1);
        sets += 2;
    }
    return sets;
}

/* At most one set per piece, and two for the Princess. */
#define MAX_SETS (JETAN_MAX_PIECES + 1)

/* jetan_game.random_move (game.h): the sets legal_moves would write,
 * counted instead; the index drawn from their total is read off the set
 * it falls in. */
int jetan_random_move(const void *st, struct rng *r, move_t *m)
{
    const struct jetan_state *s = st;
    if (s->head.outcome != GAME_ONGOING)
        return 0;
    jt_bb targets[MAX_SETS];
    move_t base[MAX_SETS];
    int count[MAX_SETS], n = 0;
    const int sets = move_sets(s, targets, base);
    for (int i = 0; i < sets; i++) {
        count[i] = count128(targets[i]);
        n += count[i];
    }
    if (n == 0)
        return 0;
    int k = (int)rng_below(r, (uint32_t)n), i = 0;
    while (k >= count[i])
        k -= count[i++];
    *m = base[i] | (move_t)nth128(targets[i], k) << 7;
    return n;
}

/* The squares side's Panthans on `set` step to, all at once. */
static inline jt_bb panthan_steps(jt_bb set, int side)
{
    const jt_bb e = set & NOT_FILE_J, w = set & NOT_FILE_A;
    const jt_bb forward = side == JETAN_BLACK
                              ? (set << 10) | (e << 11) | (w << 9)
                              : (set >> 10) | (e >> 9) | (w >> 11);
    return (forward | (e << 1) | (w >> 1)) & BOARD_MASK;
}

/* Whether one of side's pieces of `kind` (not the Princess) can move. */
static inline __attribute__((always_inline)) int kind_can_move(
    const struct jetan_state *s, int side, int kind, jt_bb own, jt_bb empty)
{
    const jt_bb set = kind_set(s, side, kind);
    for (int half = 0; half < 2; half++)
        for (uint64_t w = (uint64_t)(set >> (64 * half)); w; w &= w - 1)
            if (reach_sets(s, empty, half * 64 + __builtin_ctzll(w), kind, side)
                & ~own)
                return 1;
    return 0;
}

int jetan_has_move(const struct jetan_state *s)
{
    const int side = s->head.side;
    const jt_bb own = occupancy(s, side);
    const jt_bb all = own | occupancy(s, side ^ 1);
    const jt_bb empty = BOARD_MASK & ~all;
    /* Cheapest first: the Panthans all at once, where a move is almost
     * always found, then the Fliers' single table reads. */
    if (panthan_steps(kind_set(s, side, JETAN_PANTHAN), side) & ~own)
        return 1;
    if (kind_can_move(s, side, JETAN_FLIER, own, empty)
        || kind_can_move(s, side, JETAN_WARRIOR, own, empty)
        || kind_can_move(s, side, JETAN_PADWAR, own, empty)
        || kind_can_move(s, side, JETAN_THOAT, own, empty)
        || kind_can_move(s, side, JETAN_DWAR, own, empty)
        || kind_can_move(s, side, JETAN_CHIEF, own, empty))
        return 1;
    const int ps = s->princess_sq[side];
    if (ps == JETAN_NO_SQUARE)
        return 0;
    jt_bb normal, escape;
    princess_targets(s, ps, all, &normal, &escape);
    return (normal | escape) != 0;
}

/* ---- a win on the move (the searches' hook) --------------------------- */

/* Whether bit sq of set is set. */
static inline int has_square(jt_bb set, int sq)
{
    return (int)((set >> sq) & 1);
}

/* jetan_game.wins_at_once (game.h). jetan_apply ends the game on a
 * capture of the Princess (won by the capturer) or of the Chief (won when
 * a Chief took it) before any countdown, ply cap or no-move draw, so the
 * side to move wins at once exactly when one of its pieces but the
 * Princess (who never captures) reaches the enemy Princess's square, or
 * its Chief reaches the enemy Chief's. A reach onto an enemy piece is a
 * legal capture: there is no check in Jetan. */
int jetan_wins_at_once(const void *st)
{
    const struct jetan_state *s = st;
    const int side = s->head.side;
    if (s->head.outcome != GAME_ONGOING)
        return -1;
    const int princess = s->princess_sq[side ^ 1];
    const int chief = s->chief_sq[side], enemy_chief = s->chief_sq[side ^ 1];
    if (chief != JETAN_NO_SQUARE && enemy_chief != JETAN_NO_SQUARE
        && has_square(reach_walk(s, s->board, chief, JETAN_CHIEF, side),
                      enemy_chief))
        return 1;
    if (princess == JETAN_NO_SQUARE)
        return 0;
    for (int half = 0; half < 2; half++) {
        for (uint64_t w = s->occ[side][half]; w; w &= w - 1) {
            int sq = half * 64 + __builtin_ctzll(w);
            int kind = JETAN_KIND_OF(s->board[sq]);
            if (kind != JETAN_PRINCESS
                && has_square(reach_walk(s, s->board, sq, kind, side),
                              princess))
                return 1;
        }
    }
    return 0;
}
