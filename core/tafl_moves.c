/*
 * tafl_moves.c -- tafl's move generation: every legal move
 * (legal_moves), one uniformly random move without the list
 * (random_move), and whether there is any (the status's no-moves rule).
 *
 * A piece's moves are its rook's reach along its rank and its file: each
 * line keeps a 9-bit occupancy mask (tafl.h), so the reach is one lookup
 * in a table written at build time (tafl_tables_gen.c), less the squares
 * the rules close to it (the throne and, with escape=corner, the corners
 * for men; the throne for a barred King). random_move counts the reaches' bits
 * instead of writing the moves, draws an index into the list legal_moves
 * would have written, and writes that one move. The only move the
 * shuttle rule can forbid is the reversal of the side's last move, so the
 * generator compares against that one move instead of tracking history.
 */
#include "tafl.h"

#include "bits.h"
#include "rng.h"

#define NO_MOVE ((move_t)0xffffffffu)

/* A square's file and rank, from -1 to 9 (the border's are -1 or 9):
 * sq % 11 - 1 and sq / 11 - 1 by table (random tafl play: 6.69-6.70 M
 * plies/s against 6.37-6.42 M with the division, two 2 s runs each on the
 * 2-core AMD EPYC). Row k of each is mailbox rank k. */
const int8_t tafl_square_file[TAFL_SQUARES] = {
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
};
const int8_t tafl_square_rank[TAFL_SQUARES] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
};

/* ---- move generation ------------------------------------------------ */

/* The one move the shuttle rule forbids for the side to move, if any. */
static move_t forbidden_move(const struct tafl_state *s)
{
    int side = s->head.side;
    if (s->repetition_limit == 0
        || s->shuttle_len[side] < 2u * s->repetition_limit)
        return NO_MOVE;
    return TAFL_MOVE(s->last_to[side], s->last_from[side]);
}

#include "tafl_tables.inc"

/* The squares a rook at position p of a 9-square line reaches, given the
 * line's occupancy (bit i = square i; p's own bit is ignored): up to the
 * first blocker on each side, by a table written at build time
 * (tafl_tables_gen.c). The lookup took 1.17x off `perft tafl 5` against
 * the branch-free bit arithmetic it replaced (user time 2.67-2.73 s
 * against 3.13-3.22 s, three runs each, 2026-12-04, 2-core AMD EPYC VM). */
static inline uint32_t line_reach(uint32_t occupancy, int p)
{
    return tafl_line_reach[p][occupancy]; /* 9 bits: tafl.h's masks */
}

/* Per line (rank or file index): squares men may not stop on, and squares
 * that block men (the throne when throne_passable=0). The throne is square
 * 4 of rank 4 and of file 4; the corners are squares 0 and 8 of lines 0, 8. */
static uint32_t line_restricted(const struct tafl_state *s, int line)
{
    uint32_t r = line == 4 ? 1u << 4 : 0;
    if (!s->escape_edge && (line == 0 || line == 8))
        r |= 1u | 1u << 8;
    return r;
}

/* Whether men may not stop on sq. */
int tafl_restricted(const struct tafl_state *s, int sq)
{
    return (int)(line_restricted(s, tafl_rank(sq)) >> tafl_file(sq)) & 1;
}

static uint32_t line_blocked(const struct tafl_state *s, int line)
{
    return line == 4 && !s->throne_passable ? 1u << 4 : 0;
}

/* The throne's bit in a line: set for rank 4 and file 4. */
static uint32_t line_throne(int line)
{
    return line == 4 ? 1u << 4 : 0;
}

/* Writes the moves along a rank and a file from `from` into out; returns
 * how many. */
static inline int write_moves(int from, uint32_t along_rank,
                              uint32_t along_file, move_t *out)
{
    /* TAFL_MOVE(from, to) is from | to << 7: the move to square k of the
     * line is the move to its square 0 plus k squares' steps, shifted. */
    const move_t rank_base = TAFL_MOVE(from, TAFL_SQ(0, tafl_rank(from)));
    const move_t file_base = TAFL_MOVE(from, TAFL_SQ(tafl_file(from), 0));
    int n = 0;
    for (; along_rank; along_rank &= along_rank - 1)
        out[n++] = rank_base + ((move_t)__builtin_ctz(along_rank) << 7);
    for (; along_file; along_file &= along_file - 1)
        out[n++] = file_base + (move_t)__builtin_ctz(along_file) * (11u << 7);
    return n;
}

/* A piece's moves as two line masks: the squares it reaches along its
 * rank (bit = file) and along its file (bit = rank). legal_moves writes
 * the rank's moves first, then the file's, each in rising bit order. */
struct reach {
    uint32_t along_rank, along_file;
};

/* The reach of the King on `from` under king_throne=barred: the throne
 * blocks it and it may not stop there, as for men with throne_passable=0.
 * Only once it has left the throne, says
 * docs/rules.md#tafl-movement-and-the-shuttle-rule; but a King on the
 * throne never passes over or stops on its own square, and a King off it
 * has left it (it starts there and, barred, cannot come back), so the rule
 * needs no history and holds for positions read from text. Apart from
 * piece_reach, so that the default rules' path stays as it was. */
static __attribute__((noinline)) struct reach barred_king_reach(
    const struct tafl_state *s, int from)
{
    const int file = tafl_file(from), rank = tafl_rank(from);
    struct reach r;
    r.along_rank = line_reach(s->rank_occupancy[rank] | line_throne(rank),
                              file)
                   & ~line_throne(rank);
    r.along_file = line_reach(s->file_occupancy[file] | line_throne(file),
                              rank)
                   & ~line_throne(file);
    return r;
}

/* The reach of the piece on `from`. */
static inline __attribute__((always_inline)) struct reach piece_reach(
    const struct tafl_state *s, int from)
{
    const int file = tafl_file(from), rank = tafl_rank(from);
    struct reach r;
    if (s->board[from] == TAFL_KING) {
        if (__builtin_expect(s->king_throne_barred, 0))
            return barred_king_reach(s, from);
        r.along_rank = line_reach(s->rank_occupancy[rank], file);
        r.along_file = line_reach(s->file_occupancy[file], rank);
    } else {
        r.along_rank = line_reach(s->rank_occupancy[rank]
                                  | line_blocked(s, rank), file)
                       & ~line_restricted(s, rank);
        r.along_file = line_reach(s->file_occupancy[file]
                                  | line_blocked(s, file), rank)
                       & ~line_restricted(s, file);
    }
    return r;
}

/* Writes the moves of the piece on `from` into out; returns how many. */
static inline int piece_moves(const struct tafl_state *s, int from,
                              move_t *out)
{
    struct reach r = piece_reach(s, from);
    return write_moves(from, r.along_rank, r.along_file, out);
}

/* The game's legal_moves: every legal move of the side to move, none once
 * the game is over. */
int tafl_legal_moves(const void *st, move_t *out)
{
    const struct tafl_state *s = st;
    const int side = s->head.side;
    if (s->head.outcome != GAME_ONGOING)
        return 0;
    int n = 0;
    for (int i = 0; i < s->pieces[side].count; i++)
        n += piece_moves(s, s->pieces[side].sq[i], out + n);
    const move_t forbidden = forbidden_move(s);
    if (forbidden != NO_MOVE) {
        for (int i = 0; i < n; i++) {
            if (out[i] == forbidden) {
                out[i] = out[--n];
                break;
            }
        }
    }
    return n;
}

/* ---- a random move without the list ---------------------------------- */

/* How many moves a piece with reach r has. */
static inline int reach_count(struct reach r)
{
    return bits_count32(r.along_rank | r.along_file << 16);
}

/* The k-th (from 0) of the moves write_moves writes for the piece on
 * `from` with reach r; k < reach_count(r). */
static move_t nth_move(int from, struct reach r, int k)
{
    const int on_rank = bits_count32(r.along_rank);
    const int bit = k < on_rank ? bits_nth64(r.along_rank, k)
                                : bits_nth64(r.along_file, k - on_rank);
    return TAFL_MOVE(from, k < on_rank ? TAFL_SQ(bit, tafl_rank(from))
                                       : TAFL_SQ(tafl_file(from), bit));
}

/* Where legal_moves, before it drops the shuttle's forbidden move,
 * would have written it (the side to move's pieces have reaches r and
 * move counts count, in list order), or -1 if it writes no such move. */
static int forbidden_index(const struct tafl_state *s, const struct reach *r,
                           const int *count)
{
    const move_t f = forbidden_move(s);
    if (f == NO_MOVE)
        return -1;
    const int from = TAFL_FROM(f), to = TAFL_TO(f), side = s->head.side;
    const int piece = s->board[from];
    if (piece == TAFL_EMPTY || tafl_side_of(piece) != side)
        return -1;
    const int slot = s->piece_index[from];
    int index = 0;
    for (int i = 0; i < slot; i++)
        index += count[i];
    const uint32_t along_rank = r[slot].along_rank;
    if (tafl_rank(to) == tafl_rank(from)) {
        const uint32_t bit = 1u << tafl_file(to);
        return along_rank & bit ? index + bits_count32(along_rank & (bit - 1))
                                : -1;
    }
    const uint32_t bit = 1u << tafl_rank(to);
    return r[slot].along_file & bit
               ? index + bits_count32(along_rank)
                     + bits_count32(r[slot].along_file & (bit - 1))
               : -1;
}

/* The game's random_move (game.h): counts each piece's moves from its
 * reach, draws the index legal_moves' list would be read at, and writes
 * only that move. legal_moves drops a forbidden move by putting its last
 * move in its place, so that index reads the last move. */
int tafl_random_move(const void *st, struct rng *rng, move_t *m)
{
    const struct tafl_state *s = st;
    const struct piece_list *list = &s->pieces[s->head.side];
    if (s->head.outcome != GAME_ONGOING)
        return 0;
    struct reach r[PIECE_LIST_MAX];
    int count[PIECE_LIST_MAX], n = 0;
    for (int i = 0; i < list->count; i++) {
        r[i] = piece_reach(s, list->sq[i]);
        count[i] = reach_count(r[i]);
        n += count[i];
    }
    const int forbidden = forbidden_index(s, r, count);
    if (forbidden >= 0)
        n--;
    if (n <= 0)
        return 0;
    int k = (int)rng_below(rng, (uint32_t)n);
    if (k == forbidden)
        k = n; /* the last move of the list before the drop */
    int i = 0;
    while (k >= count[i])
        k -= count[i++];
    *m = nth_move(list->sq[i], r[i], k);
    return n;
}

/* Whether the side to move has any legal move: usually its first piece
 * answers (a reach of two squares, or of one that the shuttle rule does
 * not forbid), so this is far cheaper than generating them all. */
int tafl_has_legal_move(const struct tafl_state *s)
{
    const move_t forbidden = forbidden_move(s);
    const struct piece_list *list = &s->pieces[s->head.side];
    for (int i = 0; i < list->count; i++) {
        const struct reach r = piece_reach(s, list->sq[i]);
        const uint32_t any = r.along_rank | r.along_file << 16;
        if ((any & (any - 1))
            || (any && nth_move(list->sq[i], r, 0) != forbidden))
            return 1;
    }
    return 0;
}
