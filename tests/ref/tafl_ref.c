/*
 * tafl_ref.c -- naive reference implementation of Hnefatafl 9x9, written
 * from the rules (docs/rules.md#hnefatafl-9x9-tafl). See tafl_ref.h for the
 * contracts. Clarity over speed: every rule is checked square by square, on
 * a 9x9 char array.
 */
#include "tafl_ref.h"

#include <stdlib.h>
#include <string.h>

#define N 9

/* Square contents. */
#define EMPTY    '.'
#define ATTACKER 'a'
#define DEFENDER 'd'
#define KING     'k'

/* A position: sq[f][r], f = file 0..8 (a..i), r = rank 0..8 (1..9). */
typedef struct {
    char sq[N][N];
    char side; /* 'a' or 'd' */
} pos_t;

/* The four orthogonal directions. */
static const int DF[4] = { 1, -1, 0, 0 };
static const int DR[4] = { 0, 0, 1, -1 };

void tafl_ref_defaults(tafl_ref_params *p)
{
    p->first_defenders = 0;
    p->throne_passable = 1;
    p->throne_hostile = 0;
    p->king_armed = 0;
    p->edge_captures_king = 1;
    p->king_custodial = 0;
    p->escape_edge = 0;
    p->king_throne_barred = 0;
}

/* ---------------------------------------------------------------- geometry */

static int on_board(int f, int r)
{
    return f >= 0 && f < N && r >= 0 && r < N;
}

static int is_throne(int f, int r)
{
    return f == 4 && r == 4; /* e5 */
}

static int is_throne_or_neighbour(int f, int r)
{
    if (is_throne(f, r)) return 1;
    return (f == 4 && (r == 3 || r == 5)) || (r == 4 && (f == 3 || f == 5));
}

static int is_corner_square(int f, int r)
{
    return (f == 0 || f == N - 1) && (r == 0 || r == N - 1);
}

/* A corner in the rule sense: only with escape=corner (with escape=edge the
 * corners are ordinary squares). */
static int is_special_corner(const tafl_ref_params *p, int f, int r)
{
    return !p->escape_edge && is_corner_square(f, r);
}

static int is_edge_square(int f, int r)
{
    return f == 0 || f == N - 1 || r == 0 || r == N - 1;
}

/* ---------------------------------------------------------------- parsing */

/* Parses the board and side fields; returns 0 or -1. */
static int parse_pos(const char *fen, pos_t *pos)
{
    int rank, f, kings = 0;
    const char *s = fen;

    if (fen == NULL) return -1;
    for (rank = N - 1; rank >= 0; rank--) {
        f = 0;
        while (*s != '\0' && *s != '/' && *s != ' ') {
            if (*s >= '1' && *s <= '9') {
                int n = 0;
                while (*s >= '0' && *s <= '9') {
                    n = n * 10 + (*s - '0');
                    if (n > N) return -1;
                    s++;
                }
                if (f + n > N) return -1;
                while (n-- > 0) pos->sq[f++][rank] = EMPTY;
            } else if (*s == ATTACKER || *s == DEFENDER || *s == KING) {
                if (f >= N) return -1;
                if (*s == KING) kings++;
                pos->sq[f++][rank] = *s;
                s++;
            } else {
                return -1;
            }
        }
        if (f != N) return -1;
        if (rank > 0) {
            if (*s != '/') return -1;
            s++;
        }
    }
    if (kings > 1) return -1;
    if (*s != ' ') return -1;
    s++;
    if (*s != 'a' && *s != 'd') return -1;
    pos->side = *s;
    s++;
    /* Further fields are ignored, but the side field must end here. */
    if (*s != '\0' && *s != ' ') return -1;
    return 0;
}

static int write_pos(const pos_t *pos, char *out, size_t outsz)
{
    char buf[128];
    size_t k = 0;
    int rank, f;

    for (rank = N - 1; rank >= 0; rank--) {
        int empties = 0;
        for (f = 0; f < N; f++) {
            char c = pos->sq[f][rank];
            if (c == EMPTY) {
                empties++;
            } else {
                if (empties > 0) buf[k++] = (char)('0' + empties);
                empties = 0;
                buf[k++] = c;
            }
        }
        if (empties > 0) buf[k++] = (char)('0' + empties);
        if (rank > 0) buf[k++] = '/';
    }
    buf[k++] = ' ';
    buf[k++] = pos->side;
    buf[k] = '\0';
    if (out == NULL || k + 1 > outsz) return -1;
    memcpy(out, buf, k + 1);
    return 0;
}

/* ---------------------------------------------------------------- pieces */

/* Does the piece on (f,r) belong to side s ('a' or 'd')? */
static int belongs_to(char piece, char s)
{
    if (s == 'a') return piece == ATTACKER;
    return piece == DEFENDER || piece == KING;
}

/* ---------------------------------------------------------------- moves */

typedef struct {
    int ff, fr, tf, tr;
} move_t;

/* May the piece `piece` end its move on (f,r)? (The square is empty.) */
static int may_stop_on(const tafl_ref_params *p, char piece, int f, int r)
{
    /* king_throne=barred: once it has left the throne (and a King that
     * stops somewhere has left it) the King may not stop on it. */
    if (piece == KING) return !(p->king_throne_barred && is_throne(f, r));
    /* Only the King may end on the throne or a corner. */
    if (is_throne(f, r)) return 0;
    if (is_special_corner(p, f, r)) return 0;
    return 1;
}

/* May the piece `piece` pass over the empty square (f,r)? */
static int may_pass_over(const tafl_ref_params *p, char piece, int f, int r)
{
    /* king_throne=barred: nor pass over it. */
    if (piece == KING) return !(p->king_throne_barred && is_throne(f, r));
    if (is_throne(f, r)) return p->throne_passable;
    return 1; /* corners lie on the edge; nothing ever passes over them */
}

/* Generates all legal moves of the side to move, unordered. */
static int gen_moves(const pos_t *pos, const tafl_ref_params *p, move_t *mv)
{
    int n = 0, f, r, d;

    for (f = 0; f < N; f++) {
        for (r = 0; r < N; r++) {
            char piece = pos->sq[f][r];
            if (!belongs_to(piece, pos->side)) continue;
            for (d = 0; d < 4; d++) {
                int tf = f + DF[d], tr = r + DR[d];
                /* Like a rook: over empty squares to an empty square. */
                while (on_board(tf, tr) && pos->sq[tf][tr] == EMPTY) {
                    if (may_stop_on(p, piece, tf, tr)) {
                        mv[n].ff = f;
                        mv[n].fr = r;
                        mv[n].tf = tf;
                        mv[n].tr = tr;
                        n++;
                    }
                    if (!may_pass_over(p, piece, tf, tr)) break;
                    tf += DF[d];
                    tr += DR[d];
                }
            }
        }
    }
    return n;
}

static void move_text(const move_t *m, char *t)
{
    t[0] = (char)('a' + m->ff);
    t[1] = (char)('1' + m->fr);
    t[2] = (char)('a' + m->tf);
    t[3] = (char)('1' + m->tr);
    t[4] = '\0';
}

static int cmp_text(const void *x, const void *y)
{
    return strcmp((const char *)x, (const char *)y);
}

int tafl_ref_moves(const char *fen, const tafl_ref_params *p, char out[][8], int max)
{
    pos_t pos;
    move_t mv[TAFL_REF_MAX_MOVES];
    char txt[TAFL_REF_MAX_MOVES][8];
    int n, i;

    if (p == NULL || parse_pos(fen, &pos) != 0) return -1;
    n = gen_moves(&pos, p, mv);
    for (i = 0; i < n; i++) move_text(&mv[i], txt[i]);
    qsort(txt, (size_t)n, sizeof txt[0], cmp_text);
    for (i = 0; i < n && i < max; i++) memcpy(out[i], txt[i], 8);
    return n;
}

/* ---------------------------------------------------------------- captures */

/* Is (f,r) a far square that, together with the moved piece of side s,
 * encloses an enemy man? */
static int encloses_for(const pos_t *pos, const tafl_ref_params *p, char s, int f, int r)
{
    char c;

    if (!on_board(f, r)) return 0; /* the edge never captures men */
    c = pos->sq[f][r];
    /* Another of its own pieces (the King only when armed). */
    if (s == 'a' && c == ATTACKER) return 1;
    if (s == 'd' && c == DEFENDER) return 1;
    if (s == 'd' && c == KING && p->king_armed) return 1;
    /* A corner (escape=corner only) encloses pieces of both sides. */
    if (is_special_corner(p, f, r)) return 1;
    /* The EMPTY throne, if hostile (1 or 2), encloses men of both sides. */
    if (is_throne(f, r) && c == EMPTY && p->throne_hostile) return 1;
    /* throne_hostile=2: the occupied throne (the King on it) too. */
    if (is_throne(f, r) && p->throne_hostile == 2) return 1;
    return 0;
}

/* Does the side of the King count this square (next to the King, or off the
 * board) as closed for a surround capture? */
static int closes_king(const pos_t *pos, const tafl_ref_params *p, int f, int r)
{
    if (!on_board(f, r)) return p->edge_captures_king; /* the board's edge */
    if (pos->sq[f][r] == ATTACKER) return 1;
    if (is_throne(f, r) && pos->sq[f][r] == EMPTY) return 1; /* the throne */
    return 0; /* a corner never counts against the King */
}

/* Surround rule: attackers on all 4 sides, or on 3 sides with the throne or
 * (edge_captures_king) the board's edge as the 4th. */
static int king_surrounded(const pos_t *pos, const tafl_ref_params *p, int kf, int kr)
{
    int d, attackers = 0;

    for (d = 0; d < 4; d++) {
        int f = kf + DF[d], r = kr + DR[d];
        if (!closes_king(pos, p, f, r)) return 0;
        if (on_board(f, r) && pos->sq[f][r] == ATTACKER) attackers++;
    }
    return attackers >= 3;
}

/* The attacker just moved to (mf,mr); the King stands next to it on
 * (kf,kr) = (mf+DF[d], mr+DR[d]). Is the King captured? */
static int king_captured(const pos_t *pos, const tafl_ref_params *p,
                         int mf, int mr, int d)
{
    int kf = mf + DF[d], kr = mr + DR[d];

    if (p->king_custodial && !is_throne_or_neighbour(kf, kr)) {
        /* Between two attackers exactly: the moved one and the one opposite. */
        int of = kf + DF[d], orr = kr + DR[d];
        return on_board(of, orr) && pos->sq[of][orr] == ATTACKER;
    }
    return king_surrounded(pos, p, kf, kr);
}

/* Performs the move on pos (which it must be legal in), all captures, and
 * switches the side. Returns 0 (game goes on), 1 (king escaped) or 2 (king
 * captured). */
static int do_move(pos_t *pos, const tafl_ref_params *p, const move_t *m)
{
    char piece = pos->sq[m->ff][m->fr];
    char s = pos->side;
    int mf = m->tf, mr = m->tr;
    int d, result = 0;
    int cap[4] = { 0, 0, 0, 0 };
    int king_cap = -1;

    pos->sq[m->ff][m->fr] = EMPTY;
    pos->sq[mf][mr] = piece;

    /* The King takes part in captures only when armed. */
    if (piece != KING || p->king_armed) {
        /* Decide every capture on the board as it stands after the move,
         * then remove: captures are simultaneous. */
        for (d = 0; d < 4; d++) {
            int ef = mf + DF[d], er = mr + DR[d];
            int ff = ef + DF[d], fr = er + DR[d];
            char e;
            if (!on_board(ef, er)) continue;
            e = pos->sq[ef][er];
            if (e == EMPTY || e == KING || belongs_to(e, s)) continue;
            /* e is an enemy man next to the moved piece. */
            if (encloses_for(pos, p, s, ff, fr)) cap[d] = 1;
        }
        if (s == 'a') {
            for (d = 0; d < 4; d++) {
                int kf = mf + DF[d], kr = mr + DR[d];
                if (on_board(kf, kr) && pos->sq[kf][kr] == KING &&
                    king_captured(pos, p, mf, mr, d))
                    king_cap = d;
            }
        }
        for (d = 0; d < 4; d++)
            if (cap[d]) pos->sq[mf + DF[d]][mr + DR[d]] = EMPTY;
        if (king_cap >= 0) {
            pos->sq[mf + DF[king_cap]][mr + DR[king_cap]] = EMPTY;
            result = 2;
        }
    }

    /* Escape. */
    if (piece == KING) {
        if (p->escape_edge ? is_edge_square(mf, mr) : is_corner_square(mf, mr))
            result = 1;
    }

    pos->side = (s == 'a') ? 'd' : 'a';
    return result;
}

static int parse_square(const char *t, int *f, int *r)
{
    if (t[0] < 'a' || t[0] > 'i') return -1;
    if (t[1] < '1' || t[1] > '9') return -1;
    *f = t[0] - 'a';
    *r = t[1] - '1';
    return 0;
}

int tafl_ref_apply(const char *fen, const tafl_ref_params *p, const char *move,
                   char *out, size_t outsz, int *result)
{
    pos_t pos;
    move_t mv[TAFL_REF_MAX_MOVES];
    move_t want;
    int n, i, found = 0, res;

    if (p == NULL || move == NULL || result == NULL) return -1;
    if (parse_pos(fen, &pos) != 0) return -1;
    if (strlen(move) != 4) return -1;
    if (parse_square(move, &want.ff, &want.fr) != 0) return -1;
    if (parse_square(move + 2, &want.tf, &want.tr) != 0) return -1;

    n = gen_moves(&pos, p, mv);
    for (i = 0; i < n; i++) {
        if (mv[i].ff == want.ff && mv[i].fr == want.fr &&
            mv[i].tf == want.tf && mv[i].tr == want.tr)
            found = 1;
    }
    if (!found) return -1;

    res = do_move(&pos, p, &want);
    if (res == 0 && gen_moves(&pos, p, mv) == 0) res = 3;
    if (write_pos(&pos, out, outsz) != 0) return -1;
    *result = res;
    return 0;
}

/* ---------------------------------------------------------------- perft */

/* Counts the move sequences of `depth` (>= 1) from pos, whose game is on. */
static long long perft_from(const pos_t *pos, const tafl_ref_params *p,
                            int depth)
{
    move_t mv[TAFL_REF_MAX_MOVES];
    int n = gen_moves(pos, p, mv), i;
    long long total = 0;

    if (depth == 1) return n;
    for (i = 0; i < n; i++) {
        pos_t child = *pos;
        if (do_move(&child, p, &mv[i]) != 0) continue; /* the game ended */
        total += perft_from(&child, p, depth - 1);
    }
    return total;
}

long long tafl_ref_perft(const char *fen, const tafl_ref_params *p, int depth)
{
    pos_t pos;
    int f, r, king_on_board = 0, king_escaped = 0;

    if (p == NULL || depth < 0 || parse_pos(fen, &pos) != 0) return -1;
    if (depth == 0) return 1;
    for (f = 0; f < N; f++)
        for (r = 0; r < N; r++)
            if (pos.sq[f][r] == KING) {
                king_on_board = 1;
                king_escaped = p->escape_edge ? is_edge_square(f, r)
                                              : is_corner_square(f, r);
            }
    if (!king_on_board || king_escaped) return 0;
    return perft_from(&pos, p, depth);
}
