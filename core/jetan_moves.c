/*
 * jetan_moves.c -- Jetan move generation: which squares each piece
 * reaches, the Princess's safety and escape, and the attack sets.
 *
 * No path is walked here. A build-time program (jetan_tables_gen.c) walks
 * every path of every piece once and writes `static const` tables into the
 * build directory (jetan_tables.inc, included below), so the core has no
 * start-up code and no global that changes. Per piece kind and square:
 * pieces that cannot be blocked (the 1-step Panthan, the jumping Flier,
 * Princess and jumping Thoat) have one destination set; walkers list their
 * first squares (and second squares) with the destinations reached through
 * them, and the generator ORs the sets whose squares are empty. So a square
 * reached by several paths is one move for free, and a piece's moves cost a
 * handful of table reads and bit operations. Sets are 128-bit integers, bit
 * sq for square sq.
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

/* The 100 squares of the board. */
#define BOARD_MASK JT_BB(0xfffffffffULL, ~0ULL)

static inline jt_bb occupancy(const struct jetan_state *s, int side)
{
    return JT_BB(s->occ[side][1], s->occ[side][0]);
}

/* All ones if square sq of board is empty, else 0: paths are opened by
 * masks, not branches, which the board's contents make unpredictable. */
static inline jt_bb open_mask(const uint8_t *board, int sq)
{
    return (jt_bb)0 - (jt_bb)(board[sq] == 0);
}

/* by_mask (a constant where reach is inlined) picks how paths are
 * opened: by masks, with no branch (random_move: measured faster in
 * random playouts, whose boards make branches unpredictable), or by
 * branches (legal_moves: measured faster in perft's early positions). */
static inline jt_bb walk2(const struct jt_walk2 *w, const uint8_t *board,
                          int by_mask)
{
    jt_bb r = 0;
    for (int i = 0; i < w->n; i++) {
        if (by_mask)
            r |= w->dest[i] & open_mask(board, w->mid[i]);
        else if (!board[w->mid[i]])
            r |= w->dest[i];
    }
    return r;
}

/* The destinations of a 3-step walker whose tables have rows `width`
 * long (struct jt_walk3_*), open on `board`. */
static inline jt_bb walk3(int n1, const uint8_t *s1, const uint8_t *n2,
                          const uint8_t *s2, const jt_bb *dest, int width,
                          const uint8_t *board, int by_mask)
{
    jt_bb r = 0;
    for (int i = 0; i < n1; i++) {
        if (board[s1[i]])
            continue;
        for (int j = i * width; j < i * width + n2[i]; j++) {
            if (by_mask)
                r |= dest[j] & open_mask(board, s2[j]);
            else if (!board[s2[j]])
                r |= dest[j];
        }
    }
    return r;
}

/* The squares the piece of `kind` and `side` on sq could move to if each
 * of them were empty or held an enemy piece, on `board`; by_mask as for
 * walk2. */
static inline __attribute__((always_inline)) jt_bb reach(
    const struct jetan_state *s, const uint8_t *board, int sq, int kind,
    int side, int by_mask)
{
    switch (kind) {
    case JETAN_CHIEF:
        return walk3(jt_chief[sq].n1, jt_chief[sq].s1, jt_chief[sq].n2,
                     jt_chief[sq].s2, jt_chief[sq].dest, 7, board, by_mask);
    case JETAN_PRINCESS: return jt_princess[sq];
    case JETAN_FLIER: return jt_flier[sq];
    case JETAN_DWAR:
        return walk3(jt_dwar[sq].n1, jt_dwar[sq].s1, jt_dwar[sq].n2,
                     jt_dwar[sq].s2, jt_dwar[sq].dest, 3, board, by_mask);
    case JETAN_PADWAR: return walk2(&jt_padwar[sq], board, by_mask);
    case JETAN_WARRIOR: return walk2(&jt_warrior[sq], board, by_mask);
    case JETAN_THOAT:
        return s->thoat_jumps ? jt_thoat_jump[sq]
                              : walk2(&jt_thoat[sq], board, by_mask);
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
                r |= reach(s, board, sq, kind, side, 0);
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

static inline int emit(move_t *out, int n, int from, jt_bb targets,
                       move_t flag)
{
    const move_t base = (move_t)from | flag;
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
                n = emit(out, n, sq,
                         reach(s, s->board, sq, kind, side, 0) & ~own, 0);
        }
    }
    const int ps = s->princess_sq[side];
    if (ps != JETAN_NO_SQUARE) {
        jt_bb normal, escape;
        princess_targets(s, ps, all, &normal, &escape);
        n = emit(out, n, ps, normal, 0);
        n = emit(out, n, ps, escape, JETAN_MOVE(0, 0, 1));
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

/* jetan_game.random_move (game.h): the destination sets legal_moves would
 * emit, in its order, counted instead of written; the index drawn from
 * their total is read off the set it falls in. */
int jetan_random_move(const void *st, struct rng *r, move_t *m)
{
    const struct jetan_state *s = st;
    const int side = s->head.side;
    if (s->head.outcome != GAME_ONGOING)
        return 0;
    const jt_bb own = occupancy(s, side);
    const jt_bb all = own | occupancy(s, side ^ 1);
    jt_bb targets[JETAN_MAX_PIECES + 1]; /* the Princess has two sets */
    move_t base[JETAN_MAX_PIECES + 1];
    int count[JETAN_MAX_PIECES + 1], sets = 0, n = 0;
    for (int half = 0; half < 2; half++) {
        for (uint64_t w = s->occ[side][half]; w; w &= w - 1) {
            int sq = half * 64 + __builtin_ctzll(w);
            int kind = JETAN_KIND_OF(s->board[sq]);
            if (kind == JETAN_PRINCESS)
                continue;
            targets[sets] = reach(s, s->board, sq, kind, side, 1) & ~own;
            base[sets] = (move_t)sq;
            count[sets] = count128(targets[sets]);
            n += count[sets++];
        }
    }
    const int ps = s->princess_sq[side];
    if (ps != JETAN_NO_SQUARE) {
        princess_targets(s, ps, all, &targets[sets], &targets[sets + 1]);
        base[sets] = (move_t)ps;
        base[sets + 1] = (move_t)ps | JETAN_MOVE(0, 0, 1);
        for (int i = sets; i < sets + 2; i++) {
            count[i] = count128(targets[i]);
            n += count[i];
        }
        sets += 2;
    }
    if (n == 0)
        return 0;
    int k = (int)rng_below(r, (uint32_t)n), i = 0;
    while (k >= count[i])
        k -= count[i++];
    *m = base[i] | (move_t)nth128(targets[i], k) << 7;
    return n;
}

int jetan_has_move(const struct jetan_state *s)
{
    const int side = s->head.side;
    const jt_bb own = occupancy(s, side);
    const jt_bb all = own | occupancy(s, side ^ 1);
    /* Cheapest first: a Panthan's or Flier's reach is one table read, and
     * one of them can almost always move. */
    for (int half = 0; half < 2; half++) {
        for (uint64_t w = s->occ[side][half]; w; w &= w - 1) {
            int sq = half * 64 + __builtin_ctzll(w);
            int kind = JETAN_KIND_OF(s->board[sq]);
            if ((kind == JETAN_PANTHAN || kind == JETAN_FLIER)
                && (reach(s, s->board, sq, kind, side, 0) & ~own))
                return 1;
        }
    }
    for (int half = 0; half < 2; half++) {
        for (uint64_t w = s->occ[side][half]; w; w &= w - 1) {
            int sq = half * 64 + __builtin_ctzll(w);
            int kind = JETAN_KIND_OF(s->board[sq]);
            if (kind != JETAN_PRINCESS && kind != JETAN_PANTHAN
                && kind != JETAN_FLIER
                && (reach(s, s->board, sq, kind, side, 0) & ~own))
                return 1;
        }
    }
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
        && has_square(reach(s, s->board, chief, JETAN_CHIEF, side, 0),
                      enemy_chief))
        return 1;
    if (princess == JETAN_NO_SQUARE)
        return 0;
    for (int half = 0; half < 2; half++) {
        for (uint64_t w = s->occ[side][half]; w; w &= w - 1) {
            int sq = half * 64 + __builtin_ctzll(w);
            int kind = JETAN_KIND_OF(s->board[sq]);
            if (kind != JETAN_PRINCESS
                && has_square(reach(s, s->board, sq, kind, side, 0),
                              princess))
                return 1;
        }
    }
    return 0;
}
