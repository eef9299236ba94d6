/*
 * serbest_ref.c -- naive reference legal move generator for Serbest.
 * See serbest_ref.h for the contracts and the rules implemented.
 * Clarity over speed: everything is a plain loop over the 10x10 board.
 */
#include "serbest_ref.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 10            /* board size */
#define WHITE 0
#define BLACK 1

/* Hand piece kinds, in the canonical output order. */
static const char KINDS[] = "KQRBNPS";
#define NKINDS 7

typedef struct {
    char sq[N][N];          /* sq[file][rank], file 0 = 'a', rank 0 = rank 1; '.' = empty */
    int hand[2][NKINDS];    /* counts per colour per kind (index into KINDS) */
    int side;               /* WHITE or BLACK to move */
} pos_t;

/* ---------------------------------------------------------------- helpers */

static int on_board(int f, int r) { return f >= 0 && f < N && r >= 0 && r < N; }

static int kind_index(char upper)
{
    const char *q = strchr(KINDS, upper);
    if (upper == '\0' || q == NULL) return -1;
    return (int)(q - KINDS);
}

/* Colour of a piece letter, or -1 for an empty square. */
static int colour_of(char c)
{
    if (c == '.') return -1;
    return isupper((unsigned char)c) ? WHITE : BLACK;
}

static char piece_letter(char kind_upper, int colour)
{
    return colour == WHITE ? kind_upper : (char)tolower((unsigned char)kind_upper);
}

static int iabs(int x) { return x < 0 ? -x : x; }

/* ---------------------------------------------------------------- parsing */

static int parse_fen(const char *fen, pos_t *ps)
{
    const char *s = fen;
    int rank, f, c, k;
    int kings[2] = {0, 0};
    int hand_letters = 0;

    if (fen == NULL) return -1;
    memset(ps, 0, sizeof *ps);
    for (f = 0; f < N; f++)
        for (rank = 0; rank < N; rank++) ps->sq[f][rank] = '.';

    /* Board: ranks 10 .. 1 */
    for (rank = N - 1; rank >= 0; rank--) {
        f = 0;
        while (*s != '\0' && *s != '/' && *s != '[') {
            if (isdigit((unsigned char)*s)) {
                int n = 0;
                if (*s == '0') return -1;           /* no leading zero */
                while (isdigit((unsigned char)*s)) {
                    n = n * 10 + (*s - '0');
                    if (n > N) return -1;
                    s++;
                }
                if (n < 1 || f + n > N) return -1;
                f += n;
            } else {
                char up = (char)toupper((unsigned char)*s);
                if (!isalpha((unsigned char)*s) || kind_index(up) < 0) return -1;
                if (f >= N) return -1;
                ps->sq[f][rank] = *s;
                if (up == 'K') kings[colour_of(*s)]++;
                f++;
                s++;
            }
        }
        if (f != N) return -1;
        if (rank > 0) {
            if (*s != '/') return -1;
            s++;
        }
    }

    /* Hands */
    if (*s != '[') return -1;
    s++;
    while (*s != ']') {
        char up;
        if (*s == '\0' || !isalpha((unsigned char)*s)) return -1;
        up = (char)toupper((unsigned char)*s);
        k = kind_index(up);
        if (k < 0) return -1;
        c = colour_of(*s);
        ps->hand[c][k]++;
        if (up == 'K') kings[c]++;
        if (++hand_letters > 256) return -1;   /* keeps write_fen bounded */
        s++;
    }
    s++;

    /* Side to move */
    if (*s != ' ') return -1;
    while (*s == ' ') s++;
    if (*s == 'w') ps->side = WHITE;
    else if (*s == 'b') ps->side = BLACK;
    else return -1;
    s++;
    if (*s != '\0' && !isspace((unsigned char)*s)) return -1;

    if (kings[WHITE] > 1 || kings[BLACK] > 1) return -1;
    return 0;
}

static int write_fen(const pos_t *ps, char *out, size_t outsz)
{
    char buf[512];
    size_t n = 0;
    int rank, f, c, k, i;

    for (rank = N - 1; rank >= 0; rank--) {
        int empty = 0;
        for (f = 0; f < N; f++) {
            if (ps->sq[f][rank] == '.') {
                empty++;
            } else {
                if (empty > 0) n += (size_t)sprintf(buf + n, "%d", empty);
                empty = 0;
                buf[n++] = ps->sq[f][rank];
            }
        }
        if (empty > 0) n += (size_t)sprintf(buf + n, "%d", empty);
        if (rank > 0) buf[n++] = '/';
    }
    buf[n++] = '[';
    for (c = WHITE; c <= BLACK; c++)
        for (k = 0; k < NKINDS; k++)
            for (i = 0; i < ps->hand[c][k]; i++)
                buf[n++] = piece_letter(KINDS[k], c);
    buf[n++] = ']';
    buf[n++] = ' ';
    buf[n++] = ps->side == WHITE ? 'w' : 'b';
    buf[n] = '\0';
    if (out == NULL || n + 1 > outsz) return -1;
    memcpy(out, buf, n + 1);
    return 0;
}

/* ---------------------------------------------------------------- attacks */

/* Is the straight or diagonal line strictly between (f0,r0) and (f1,r1)
 * empty?  Caller guarantees the two squares are on one line. */
static int path_clear(const pos_t *ps, int f0, int r0, int f1, int r1)
{
    int df = (f1 > f0) - (f1 < f0);
    int dr = (r1 > r0) - (r1 < r0);
    int f = f0 + df, r = r0 + dr;
    while (f != f1 || r != r1) {
        if (ps->sq[f][r] != '.') return 0;
        f += df;
        r += dr;
    }
    return 1;
}

/* Does the piece standing on (f0,r0) attack square (f1,r1)?  "Attack" means
 * it could capture an enemy piece standing there. */
static int piece_attacks(const pos_t *ps, int f0, int r0, int f1, int r1)
{
    char pc = ps->sq[f0][r0];
    char up = (char)toupper((unsigned char)pc);
    int df = f1 - f0, dr = r1 - r0;
    int adf = iabs(df), adr = iabs(dr);
    int fwd;

    if (pc == '.' || (df == 0 && dr == 0)) return 0;
    fwd = colour_of(pc) == WHITE ? 1 : -1;

    switch (up) {
    case 'K':
        return adf <= 1 && adr <= 1;
    case 'N':
        return (adf == 1 && adr == 2) || (adf == 2 && adr == 1);
    case 'R':
        return (df == 0 || dr == 0) && path_clear(ps, f0, r0, f1, r1);
    case 'B':
        return adf == adr && path_clear(ps, f0, r0, f1, r1);
    case 'Q':
        return (df == 0 || dr == 0 || adf == adr) && path_clear(ps, f0, r0, f1, r1);
    case 'P':
        return adf == 1 && dr == fwd;
    case 'S':
        return adf == 1 && adr == 1;
    default:
        return 0;
    }
}

/* Is square (f,r) attacked by any piece of colour `by`? */
static int square_attacked(const pos_t *ps, int f, int r, int by)
{
    int pf, pr;
    for (pf = 0; pf < N; pf++)
        for (pr = 0; pr < N; pr++)
            if (colour_of(ps->sq[pf][pr]) == by && piece_attacks(ps, pf, pr, f, r))
                return 1;
    return 0;
}

/* Finds colour c's king on the board; returns 1 and sets *kf,*kr, or 0. */
static int find_king(const pos_t *ps, int c, int *kf, int *kr)
{
    int f, r;
    char k = piece_letter('K', c);
    for (f = 0; f < N; f++)
        for (r = 0; r < N; r++)
            if (ps->sq[f][r] == k) {
                *kf = f;
                *kr = r;
                return 1;
            }
    return 0;
}

/* Is colour c's king on the board and attacked? */
static int king_attacked(const pos_t *ps, int c)
{
    int kf, kr;
    if (!find_king(ps, c, &kf, &kr)) return 0;
    return square_attacked(ps, kf, kr, 1 - c);
}

/* ---------------------------------------------------------------- move list */

typedef struct {
    char text[SERBEST_REF_MAX_MOVES][8];
    int n;
} list_t;

/* Writes "e2" / "a10" (f, r in 0..9) into buf (at least 4 bytes). */
static void square_name(int f, int r, char *buf)
{
    int rank = r + 1;
    size_t n = 0;
    buf[n++] = (char)('a' + f);
    if (rank == 10) {
        buf[n++] = '1';
        buf[n++] = '0';
    } else {
        buf[n++] = (char)('0' + rank);
    }
    buf[n] = '\0';
}

/* Appends t; generate() sorts the list and drops duplicates at the end. */
static void add_text(list_t *l, const char *t)
{
    if (l->n < SERBEST_REF_MAX_MOVES) {
        strcpy(l->text[l->n], t);
        l->n++;
    }
}

/* Board move (f0,r0)->(f1,r1): make it on a copy; keep it if the mover's king
 * is not attacked afterwards. */
static void try_move(const pos_t *ps, list_t *l, int f0, int r0, int f1, int r1)
{
    pos_t cp = *ps;
    char t[8];
    cp.sq[f1][r1] = cp.sq[f0][r0];      /* a captured piece simply disappears */
    cp.sq[f0][r0] = '.';
    if (king_attacked(&cp, ps->side)) return;
    square_name(f0, r0, t);
    square_name(f1, r1, t + strlen(t));
    add_text(l, t);
}

/* Pseudo-legal target for a non-pawn: on the board and not own piece. */
static void try_target(const pos_t *ps, list_t *l, int f0, int r0, int f1, int r1)
{
    if (!on_board(f1, r1)) return;
    if (colour_of(ps->sq[f1][r1]) == ps->side) return;
    try_move(ps, l, f0, r0, f1, r1);
}

static void gen_piece_moves(const pos_t *ps, list_t *l, int f0, int r0)
{
    static const int kdirs[8][2] = {{1,0},{-1,0},{0,1},{0,-1},{1,1},{1,-1},{-1,1},{-1,-1}};
    static const int ndirs[8][2] = {{1,2},{2,1},{2,-1},{1,-2},{-1,-2},{-2,-1},{-2,1},{-1,2}};
    char pc = ps->sq[f0][r0];
    char up = (char)toupper((unsigned char)pc);
    int fwd = ps->side == WHITE ? 1 : -1;
    int i, d0, d1;

    switch (up) {
    case 'K':
        for (i = 0; i < 8; i++) try_target(ps, l, f0, r0, f0 + kdirs[i][0], r0 + kdirs[i][1]);
        break;
    case 'N':
        for (i = 0; i < 8; i++) try_target(ps, l, f0, r0, f0 + ndirs[i][0], r0 + ndirs[i][1]);
        break;
    case 'R':
    case 'B':
    case 'Q':
        d0 = (up == 'B') ? 4 : 0;   /* rook: dirs 0..3, bishop 4..7, queen 0..7 */
        d1 = (up == 'R') ? 4 : 8;
        for (i = d0; i < d1; i++) {
            int f = f0 + kdirs[i][0], r = r0 + kdirs[i][1];
            while (on_board(f, r)) {
                if (colour_of(ps->sq[f][r]) == ps->side) break;
                try_move(ps, l, f0, r0, f, r);
                if (ps->sq[f][r] != '.') break;
                f += kdirs[i][0];
                r += kdirs[i][1];
            }
        }
        break;
    case 'P':
    case 'S':
        /* non-capturing: 1 or 2 squares in the 4 orthogonal directions */
        for (i = 0; i < 4; i++) {
            int f1 = f0 + kdirs[i][0], r1 = r0 + kdirs[i][1];
            int f2 = f0 + 2 * kdirs[i][0], r2 = r0 + 2 * kdirs[i][1];
            if (on_board(f1, r1) && ps->sq[f1][r1] == '.') {
                try_move(ps, l, f0, r0, f1, r1);
                if (on_board(f2, r2) && ps->sq[f2][r2] == '.')
                    try_move(ps, l, f0, r0, f2, r2);
            }
        }
        /* captures: diagonally forward; Subedei also diagonally backward */
        for (i = 4; i < 8; i++) {
            int df = kdirs[i][0], dr = kdirs[i][1];
            int f1 = f0 + df, r1 = r0 + dr;
            if (up == 'P' && dr != fwd) continue;
            if (on_board(f1, r1) && colour_of(ps->sq[f1][r1]) == 1 - ps->side)
                try_move(ps, l, f0, r0, f1, r1);
        }
        break;
    default:
        break;
    }
}

/* Drop of hand kind k onto empty square (f,r), with all drop rules. */
static void try_drop(const pos_t *ps, const serbest_ref_params *p, list_t *l, int k, int f, int r)
{
    pos_t cp;
    char up = KINDS[k];
    int me = ps->side, them = 1 - ps->side;
    int board_rank = r + 1;   /* 1..10 */
    int ekf, ekr;
    char t[8];

    if (ps->sq[f][r] != '.') return;                  /* a drop never captures */

    if (up == 'K') {                                  /* Kings Landing */
        if (me == WHITE && !(board_rank >= 1 && board_rank <= p->kings_landing)) return;
        if (me == BLACK && !(board_rank >= 11 - p->kings_landing && board_rank <= 10)) return;
    }

    cp = *ps;
    cp.sq[f][r] = piece_letter(up, me);
    cp.hand[me][k]--;

    /* adjacent-drop-check restriction */
    if (p->adjacent_drop_check == 0 && find_king(&cp, them, &ekf, &ekr)) {
        int adjacent = iabs(ekf - f) <= 1 && iabs(ekr - r) <= 1;
        if (adjacent && piece_attacks(&cp, f, r, ekf, ekr)) return;
    }

    /* own king must not be attacked afterwards (also: no king dropped into check) */
    if (king_attacked(&cp, me)) return;

    t[0] = up;
    t[1] = '@';
    square_name(f, r, t + 2);
    add_text(l, t);
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static int valid_params(const serbest_ref_params *p)
{
    return p->kings_landing >= 1 && p->kings_landing <= 9 &&
           (p->adjacent_drop_check == 0 || p->adjacent_drop_check == 1) &&
           p->stalemate >= 0 && p->stalemate <= 2;
}

static void generate(const pos_t *ps, const serbest_ref_params *p, list_t *l)
{
    int f, r, k, kept, i;
    l->n = 0;
    /* board moves */
    for (f = 0; f < N; f++)
        for (r = 0; r < N; r++)
            if (colour_of(ps->sq[f][r]) == ps->side)
                gen_piece_moves(ps, l, f, r);
    /* drops */
    for (k = 0; k < NKINDS; k++)
        if (ps->hand[ps->side][k] > 0)
            for (f = 0; f < N; f++)
                for (r = 0; r < N; r++)
                    try_drop(ps, p, l, k, f, r);
    qsort(l->text, (size_t)l->n, sizeof l->text[0], cmp_text);
    /* no duplicates */
    for (kept = 0, i = 0; i < l->n; i++)
        if (kept == 0 || strcmp(l->text[kept - 1], l->text[i]) != 0)
            memmove(l->text[kept++], l->text[i], sizeof l->text[0]);
    l->n = kept;
}

/* ---------------------------------------------------------------- public API */

static const serbest_ref_params DEFAULT_PARAMS = {7, 0, 0};

int serbest_ref_moves(const char *fen, const serbest_ref_params *p, char out[][8], int max)
{
    static list_t l;   /* large; static keeps it off the stack (not thread-safe) */
    pos_t ps;
    int i;

    if (p == NULL) p = &DEFAULT_PARAMS;
    if (!valid_params(p)) return -1;
    if (parse_fen(fen, &ps) != 0) return -1;
    generate(&ps, p, &l);
    for (i = 0; i < l.n && i < max; i++) strcpy(out[i], l.text[i]);
    return l.n;
}

/* Parses a square like "e2" or "a10" at s; returns chars consumed or 0. */
static int parse_square(const char *s, int *f, int *r)
{
    int rank;
    char fc = (char)tolower((unsigned char)s[0]);
    if (fc < 'a' || fc > 'j') return 0;
    if (!isdigit((unsigned char)s[1])) return 0;
    if (s[1] == '1' && s[2] == '0') {
        rank = 10;
        *f = fc - 'a';
        *r = rank - 1;
        return 3;
    }
    rank = s[1] - '0';
    if (rank < 1 || rank > 9) return 0;
    *f = fc - 'a';
    *r = rank - 1;
    return 2;
}

/* Writes the canonical text of `move` ("N@e5", "e2e4") into norm (8
 * bytes) and its squares into *f0..*r1 (f0, r0 unset for a drop). Returns
 * 0, or -1 if it is not move text. */
static int normalise_move(const char *move, char *norm, int *f0, int *r0,
                          int *f1, int *r1)
{
    int n;
    if (move[0] != '\0' && move[1] == '@') {
        char up = (char)toupper((unsigned char)move[0]);
        if (kind_index(up) < 0) return -1;
        n = parse_square(move + 2, f1, r1);
        if (n == 0 || move[2 + n] != '\0') return -1;
        norm[0] = up;
        norm[1] = '@';
        square_name(*f1, *r1, norm + 2);
    } else {
        int n0 = parse_square(move, f0, r0), n1;
        if (n0 == 0) return -1;
        n1 = parse_square(move + n0, f1, r1);
        if (n1 == 0 || move[n0 + n1] != '\0') return -1;
        square_name(*f0, *r0, norm);
        square_name(*f1, *r1, norm + strlen(norm));
    }
    return 0;
}

/* Plays the legal move with canonical text norm on ps. Returns 1 if it
 * captured a piece, else 0. */
static int make_move(pos_t *ps, const char *norm)
{
    int f0 = 0, r0 = 0, f1 = 0, r1 = 0, captured = 0;
    char tmp[8];
    normalise_move(norm, tmp, &f0, &r0, &f1, &r1);
    if (norm[1] == '@') {
        int k = kind_index(norm[0]);
        ps->sq[f1][r1] = piece_letter(norm[0], ps->side);
        ps->hand[ps->side][k]--;
    } else {
        captured = ps->sq[f1][r1] != '.';
        ps->sq[f1][r1] = ps->sq[f0][r0];   /* captured piece leaves the game */
        ps->sq[f0][r0] = '.';
    }
    ps->side = 1 - ps->side;
    return captured;
}

int serbest_ref_apply(const char *fen, const serbest_ref_params *p, const char *move, char *out, size_t outsz)
{
    static list_t l;
    pos_t ps;
    char norm[8];
    int i, found = 0;
    int f0, r0, f1, r1;

    if (p == NULL) p = &DEFAULT_PARAMS;
    if (!valid_params(p) || move == NULL) return -1;
    if (parse_fen(fen, &ps) != 0) return -1;
    if (normalise_move(move, norm, &f0, &r0, &f1, &r1) != 0) return -1;

    generate(&ps, p, &l);
    for (i = 0; i < l.n; i++)
        if (strcmp(l.text[i], norm) == 0) found = 1;
    if (!found) return -1;

    make_move(&ps, norm);
    return write_fen(&ps, out, outsz);
}

/* The side whose king stands on its far rank (white: rank 10, black:
 * rank 1), WHITE or BLACK; -1 if none, -2 if both. */
static int khan_side(const pos_t *ps)
{
    int f, side = -1;
    for (f = 0; f < N; f++) {
        if (ps->sq[f][N - 1] == 'K') side = side == -1 ? WHITE : -2;
        if (ps->sq[f][0] == 'k') side = side == -1 ? BLACK : -2;
    }
    return side;
}

/* Fills *r with what docs/rules.md#serbest-end-of-the-game says of ps,
 * given the number of legal moves n of the side to move. */
static void judge(const pos_t *ps, const serbest_ref_params *p, int n,
                  serbest_ref_result *r)
{
    int khan = khan_side(ps), mover = ps->side, other = 1 - ps->side;
    r->over = 0;
    r->winner = 0;
    r->reason = "";
    if (khan >= 0) {
        r->over = 1;
        r->winner = khan == WHITE ? 'w' : 'b';
        r->reason = "khan";
    } else if (n == 0 && king_attacked(ps, mover)) {
        r->over = 1;
        r->winner = other == WHITE ? 'w' : 'b';
        r->reason = "checkmate";
    } else if (n == 0) {
        /* no king on the board and nothing to move or drop: stalemated too */
        r->over = 1;
        r->reason = "stalemate";
        if (p->stalemate == 0)
            r->winner = other == WHITE ? 'w' : 'b';
        else if (p->stalemate == 1)
            r->winner = 'd';
        else
            r->winner = mover == WHITE ? 'w' : 'b';
    }
}

int serbest_ref_judge(const char *fen, const serbest_ref_params *p,
                      char out[][8], int max, serbest_ref_result *r)
{
    static list_t l;
    pos_t ps;
    int i;

    if (p == NULL) p = &DEFAULT_PARAMS;
    if (!valid_params(p) || r == NULL) return -1;
    if (parse_fen(fen, &ps) != 0 || khan_side(&ps) == -2) return -1;
    if (khan_side(&ps) >= 0) {
        judge(&ps, p, 0, r);           /* won: no moves to list */
        return 0;
    }
    generate(&ps, p, &l);
    judge(&ps, p, l.n, r);
    for (i = 0; i < l.n && i < max; i++) strcpy(out[i], l.text[i]);
    return l.n;
}

int serbest_ref_result_of(const char *fen, const serbest_ref_params *p,
                          serbest_ref_result *r)
{
    return serbest_ref_judge(fen, p, NULL, 0, r) < 0 ? -1 : 0;
}

int serbest_ref_make_move(const char *fen, const char *move, char *out,
                          size_t outsz)
{
    pos_t ps;
    char norm[8];
    int f0 = 0, r0 = 0, f1, r1;

    if (move == NULL || parse_fen(fen, &ps) != 0) return -1;
    if (normalise_move(move, norm, &f0, &r0, &f1, &r1) != 0) return -1;
    if (norm[1] == '@') {
        if (ps.hand[ps.side][kind_index(norm[0])] == 0) return -1;
        if (ps.sq[f1][r1] != '.') return -1;
    } else if (colour_of(ps.sq[f0][r0]) != ps.side) {
        return -1;
    }
    make_move(&ps, norm);
    return write_fen(&ps, out, outsz);
}

/* Counts the move sequences of `depth` (>= 1) from ps, whose game is on;
 * -1 on allocation failure. */
static long long perft_from(const pos_t *ps, const serbest_ref_params *p,
                            int depth)
{
    list_t *l = malloc(sizeof *l);
    long long total = 0;
    int i;

    if (l == NULL) return -1;
    generate(ps, p, l);
    if (depth == 1) {
        total = l->n;
    } else {
        for (i = 0; i < l->n && total >= 0; i++) {
            pos_t child = *ps;
            long long below;
            make_move(&child, l->text[i]);
            if (khan_side(&child) >= 0) continue; /* won: adds nothing */
            below = perft_from(&child, p, depth - 1);
            total = below < 0 ? -1 : total + below;
        }
    }
    free(l);
    return total;
}

long long serbest_ref_perft(const char *fen, const serbest_ref_params *p,
                            int depth)
{
    pos_t ps;

    if (p == NULL) p = &DEFAULT_PARAMS;
    if (!valid_params(p) || depth < 0) return -1;
    if (parse_fen(fen, &ps) != 0 || khan_side(&ps) == -2) return -1;
    if (depth == 0) return 1;
    if (khan_side(&ps) >= 0) return 0;
    return perft_from(&ps, p, depth);
}

int serbest_ref_in_check(const char *fen)
{
    pos_t ps;
    if (parse_fen(fen, &ps) != 0) return -1;
    return king_attacked(&ps, ps.side);
}
