/*
 * jetan_ref.c -- naive REFERENCE move generator for Jetan. See jetan_ref.h.
 *
 * Everything is computed literally from the rule text: for each piece every
 * sequence of exactly N steps is enumerated by depth-first search, and the
 * set of distinct destination squares is collected. No precomputed tables.
 */
#include "jetan_ref.h"

#include <stdlib.h>
#include <string.h>

#define NFILES 10
#define NRANKS 10

/* A position. board[rank][file], rank 0 = rank "1", file 0 = file 'a'.
 * '.' = empty, otherwise the piece letter (uppercase Black, lowercase Orange). */
typedef struct {
    char board[NRANKS][NFILES];
    int black_to_move;     /* 1 = Black ('b'), 0 = Orange ('o') */
    int black_escape;      /* 1 = Black's Princess escape still available */
    int orange_escape;     /* 1 = Orange's Princess escape still available */
} pos_t;

/* A move: from and to as (rank, file); escape = 1 for a Princess escape. */
typedef struct {
    int fr, ff, tr, tf;
    int escape;
    char text[8];
} move_t;

/* ------------------------------------------------------------------------ */
/* Parsing and printing                                                      */
/* ------------------------------------------------------------------------ */

static int is_piece_letter(char c)
{
    return strchr("CPFDAWTNcpfdawtn", c) != NULL && c != '\0';
}

/* Returns 0 on success, -1 on a text that cannot be parsed. */
static int parse_pos(const char *fen, pos_t *pos)
{
    const char *s = fen;
    int rank, file;

    if (fen == NULL)
        return -1;
    memset(pos, 0, sizeof *pos);
    for (rank = 0; rank < NRANKS; rank++)
        for (file = 0; file < NFILES; file++)
            pos->board[rank][file] = '.';

    /* board: rank 10 first, down to rank 1 */
    for (rank = NRANKS - 1; rank >= 0; rank--) {
        file = 0;
        while (*s != '\0' && *s != '/' && *s != ' ') {
            if (*s == '1' && s[1] == '0') {          /* "10" */
                if (file + 10 > NFILES)
                    return -1;
                file += 10;
                s += 2;
            } else if (*s >= '1' && *s <= '9') {
                int n = *s - '0';
                if (file + n > NFILES)
                    return -1;
                file += n;
                s++;
            } else if (is_piece_letter(*s)) {
                if (file >= NFILES)
                    return -1;
                pos->board[rank][file] = *s;
                file++;
                s++;
            } else {
                return -1;
            }
        }
        if (file != NFILES)
            return -1;
        if (rank > 0) {
            if (*s != '/')
                return -1;
            s++;
        }
    }

    /* side to move */
    if (*s != ' ')
        return -1;
    while (*s == ' ')
        s++;
    if (*s == 'b')
        pos->black_to_move = 1;
    else if (*s == 'o')
        pos->black_to_move = 0;
    else
        return -1;
    s++;

    /* escapes still available */
    if (*s != ' ')
        return -1;
    while (*s == ' ')
        s++;
    if (*s == '-') {
        s++;
    } else {
        int n = 0;
        while (*s == 'P' || *s == 'p') {
            if (*s == 'P') {
                if (pos->black_escape)
                    return -1;
                pos->black_escape = 1;
            } else {
                if (pos->orange_escape)
                    return -1;
                pos->orange_escape = 1;
            }
            s++;
            n++;
        }
        if (n == 0)
            return -1;
    }
    /* the field must end here; anything after a space is ignored */
    if (*s != '\0' && *s != ' ')
        return -1;
    return 0;
}

/* Appends an empty-square count (0 = nothing, 1..10) to buf at n. */
static size_t put_count(char *buf, size_t n, int empty)
{
    if (empty == 10) {
        buf[n++] = '1';
        buf[n++] = '0';
    } else if (empty > 0) {
        buf[n++] = (char)('0' + empty);
    }
    return n;
}

/* Writes the position text (3 fields). Returns 0, or -1 if it does not fit. */
static int print_pos(const pos_t *pos, char *out, size_t outsz)
{
    char buf[160];
    size_t n = 0;
    int rank, file;

    for (rank = NRANKS - 1; rank >= 0; rank--) {
        int empty = 0;
        for (file = 0; file < NFILES; file++) {
            char c = pos->board[rank][file];
            if (c == '.') {
                empty++;
            } else {
                n = put_count(buf, n, empty);
                empty = 0;
                buf[n++] = c;
            }
        }
        n = put_count(buf, n, empty);
        if (rank > 0)
            buf[n++] = '/';
    }
    buf[n++] = ' ';
    buf[n++] = pos->black_to_move ? 'b' : 'o';
    buf[n++] = ' ';
    if (!pos->black_escape && !pos->orange_escape) {
        buf[n++] = '-';
    } else {
        if (pos->black_escape)
            buf[n++] = 'P';
        if (pos->orange_escape)
            buf[n++] = 'p';
    }
    buf[n] = '\0';
    if (out == NULL || n + 1 > outsz)
        return -1;
    memcpy(out, buf, n + 1);
    return 0;
}

/* Appends the square name ("e1", "a10") at dst; returns the new end. */
static char *square_text(int rank, int file, char *dst)
{
    *dst++ = (char)('a' + file);
    if (rank + 1 == 10) {
        *dst++ = '1';
        *dst++ = '0';
    } else {
        *dst++ = (char)('1' + rank);
    }
    return dst;
}

static void move_text(move_t *m)
{
    char *e = square_text(m->fr, m->ff, m->text);
    if (m->escape)
        *e++ = '^';
    e = square_text(m->tr, m->tf, e);
    *e = '\0';
}

/* ------------------------------------------------------------------------ */
/* Pieces                                                                    */
/* ------------------------------------------------------------------------ */

static int is_black(char c) { return c >= 'A' && c <= 'Z'; }
static int is_orange(char c) { return c >= 'a' && c <= 'z'; }
static int is_empty(char c) { return c == '.'; }

/* 1 if piece c belongs to the side black (1) / orange (0) */
static int belongs_to(char c, int black)
{
    return black ? is_black(c) : is_orange(c);
}

static int on_board(int rank, int file)
{
    return rank >= 0 && rank < NRANKS && file >= 0 && file < NFILES;
}

/* Step kinds used in the step patterns below. */
#define STEP_ORTH    'O'   /* orthogonally adjacent                       */
#define STEP_DIAG    'D'   /* diagonally adjacent                         */
#define STEP_ANY     'A'   /* orthogonally or diagonally adjacent         */
#define STEP_PANTHAN 'N'   /* forward, diagonally forward or sideways     */

/* Is (dr, df) -- one of the 8 king directions -- a step of this kind for a
 * piece of the given side? */
static int step_allowed(char kind, int dr, int df, int black)
{
    int orth = (dr == 0) != (df == 0);
    int diag = dr != 0 && df != 0;
    int forward = black ? 1 : -1;
    switch (kind) {
    case STEP_ORTH: return orth;
    case STEP_DIAG: return diag;
    case STEP_ANY:  return orth || diag;
    case STEP_PANTHAN:
        return dr == forward || (dr == 0 && df != 0);
    default:        return 0;
    }
}

/* How a kind of piece moves: one or more step patterns (a string giving the
 * kind of each step; the number of steps is the string length), whether it
 * jumps (squares before the last may be occupied), whether it can capture. */
typedef struct {
    const char *patterns[2];
    int npatterns;
    int jumps;
    int captures;
} piece_rule;

static piece_rule rule_for(char piece, const jetan_ref_params *p)
{
    piece_rule r;
    memset(&r, 0, sizeof r);
    r.captures = 1;
    r.npatterns = 1;
    switch (piece >= 'a' ? (char)(piece - 'a' + 'A') : piece) {
    case 'N': r.patterns[0] = "N"; break;                 /* Panthan  */
    case 'T': r.patterns[0] = "OD"; r.patterns[1] = "DO"; /* Thoat    */
              r.npatterns = 2; r.jumps = p->thoat_jumps ? 1 : 0; break;
    case 'W': r.patterns[0] = "OO"; break;                /* Warrior  */
    case 'A': r.patterns[0] = "DD"; break;                /* Padwar   */
    case 'D': r.patterns[0] = "OOO"; break;               /* Dwar     */
    case 'F': r.patterns[0] = "DDD"; r.jumps = 1; break;  /* Flier    */
    case 'C': r.patterns[0] = "AAA"; break;               /* Chief    */
    case 'P': r.patterns[0] = "AAA"; r.jumps = 1;         /* Princess */
              r.captures = 0; break;
    default:  r.npatterns = 0; break;
    }
    return r;
}

/* Depth-first search over all step sequences following pattern.
 * (rank, file) is the current square after `done` steps; visited marks every
 * square entered so far (the start included). Every reachable destination
 * gets dest[rank][file] = 1. */
static void walk(const pos_t *pos, int black, const char *pattern, int done,
                 int rank, int file, int visited[NRANKS][NFILES],
                 int jumps, int captures, int dest[NRANKS][NFILES])
{
    int nsteps = (int)strlen(pattern);
    int dr, df;

    if (done == nsteps) {
        char c = pos->board[rank][file];
        if (is_empty(c) || (captures && belongs_to(c, !black)))
            dest[rank][file] = 1;
        return;
    }
    /* a square we are standing on before the last step must be empty,
     * unless the piece jumps (the start square is not checked) */
    if (done > 0 && !jumps && !is_empty(pos->board[rank][file]))
        return;

    for (dr = -1; dr <= 1; dr++) {
        for (df = -1; df <= 1; df++) {
            int nr = rank + dr, nf = file + df;
            if (dr == 0 && df == 0)
                continue;
            if (!step_allowed(pattern[done], dr, df, black))
                continue;
            if (!on_board(nr, nf))
                continue;
            if (visited[nr][nf])
                continue;
            visited[nr][nf] = 1;
            walk(pos, black, pattern, done + 1, nr, nf, visited, jumps,
                 captures, dest);
            visited[nr][nf] = 0;
        }
    }
}

/* All destination squares of the piece on (rank, file), by the step rules
 * alone (no princess_safe filtering). */
static void piece_destinations(const pos_t *pos, int rank, int file,
                               const jetan_ref_params *p,
                               int dest[NRANKS][NFILES])
{
    char piece = pos->board[rank][file];
    int black = is_black(piece);
    piece_rule r = rule_for(piece, p);
    int visited[NRANKS][NFILES];
    int i;

    memset(dest, 0, sizeof(int) * NRANKS * NFILES);
    for (i = 0; i < r.npatterns; i++) {
        memset(visited, 0, sizeof visited);
        visited[rank][file] = 1;
        walk(pos, black, r.patterns[i], 0, rank, file, visited, r.jumps,
             r.captures, dest);
    }
}

/* Marks in map every square attacked by side `by_black`: a square one of
 * its pieces other than a Princess could move to by the rules on this
 * board. */
static void attack_map(const pos_t *pos, int by_black,
                       const jetan_ref_params *p, int map[NRANKS][NFILES])
{
    int r, f, tr, tf;
    int dest[NRANKS][NFILES];

    memset(map, 0, sizeof(int) * NRANKS * NFILES);
    for (r = 0; r < NRANKS; r++) {
        for (f = 0; f < NFILES; f++) {
            char c = pos->board[r][f];
            if (is_empty(c) || !belongs_to(c, by_black))
                continue;
            if (c == 'P' || c == 'p')
                continue;            /* the Princess attacks nothing */
            piece_destinations(pos, r, f, p, dest);
            for (tr = 0; tr < NRANKS; tr++)
                for (tf = 0; tf < NFILES; tf++)
                    if (dest[tr][tf])
                        map[tr][tf] = 1;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Move generation                                                           */
/* ------------------------------------------------------------------------ */

static int cmp_move(const void *a, const void *b)
{
    return strcmp(((const move_t *)a)->text, ((const move_t *)b)->text);
}

/* Generates all legal moves into a freshly allocated, sorted, duplicate-free
 * array. Returns the count (>= 0) and *moves_out, or -1 on allocation
 * failure. The caller frees *moves_out. */
static int generate(const pos_t *pos, const jetan_ref_params *p,
                    move_t **moves_out)
{
    int black = pos->black_to_move;
    int escape_left = black ? pos->black_escape : pos->orange_escape;
    size_t cap = 1, npieces = 0;
    move_t *moves;
    int n = 0, i, k;
    int fr, ff, tr, tf;
    int dest[NRANKS][NFILES];

    /* per piece at most 99 normal destinations and 99 escapes */
    for (fr = 0; fr < NRANKS; fr++)
        for (ff = 0; ff < NFILES; ff++)
            if (belongs_to(pos->board[fr][ff], black))
                npieces++;
    cap += npieces * 2 * (NRANKS * NFILES - 1);
    moves = malloc(cap * sizeof *moves);
    if (moves == NULL)
        return -1;

    for (fr = 0; fr < NRANKS; fr++) {
        for (ff = 0; ff < NFILES; ff++) {
            char c = pos->board[fr][ff];
            int is_princess = (c == 'P' || c == 'p');
            pos_t without;      /* the board with this Princess removed */
            int attacked[NRANKS][NFILES]; /* by the enemy, on `without` */

            if (is_empty(c) || !belongs_to(c, black))
                continue;

            if (is_princess && (p->princess_safe || p->princess_escape == 1)) {
                without = *pos;
                without.board[fr][ff] = '.';
                attack_map(&without, !black, p, attacked);
            }

            /* normal moves */
            piece_destinations(pos, fr, ff, p, dest);
            for (tr = 0; tr < NRANKS; tr++) {
                for (tf = 0; tf < NFILES; tf++) {
                    if (!dest[tr][tf])
                        continue;
                    if (is_princess && p->princess_safe && attacked[tr][tf])
                        continue;
                    moves[n].fr = fr; moves[n].ff = ff;
                    moves[n].tr = tr; moves[n].tf = tf;
                    moves[n].escape = 0;
                    move_text(&moves[n]);
                    n++;
                }
            }

            /* Princess escape: to any empty square (not her own) */
            if (is_princess && escape_left && p->princess_escape != 2) {
                int need_safe = (p->princess_escape == 1) || p->princess_safe;
                for (tr = 0; tr < NRANKS; tr++) {
                    for (tf = 0; tf < NFILES; tf++) {
                        if (!is_empty(pos->board[tr][tf]))
                            continue;       /* her own square is not empty */
                        if (need_safe && attacked[tr][tf])
                            continue;
                        moves[n].fr = fr; moves[n].ff = ff;
                        moves[n].tr = tr; moves[n].tf = tf;
                        moves[n].escape = 1;
                        move_text(&moves[n]);
                        n++;
                    }
                }
            }
        }
    }

    qsort(moves, (size_t)n, sizeof *moves, cmp_move);
    /* remove duplicates (there should be none: one entry per from/to/kind) */
    k = 0;
    for (i = 0; i < n; i++) {
        if (k > 0 && strcmp(moves[k - 1].text, moves[i].text) == 0)
            continue;
        moves[k++] = moves[i];
    }
    *moves_out = moves;
    return k;
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */
/* ------------------------------------------------------------------------ */

int jetan_ref_moves(const char *fen, const jetan_ref_params *p,
                    char out[][8], int max)
{
    pos_t pos;
    move_t *moves = NULL;
    int n, i;

    if (p == NULL || parse_pos(fen, &pos) != 0)
        return -1;
    n = generate(&pos, p, &moves);
    if (n < 0)
        return -1;
    if (n > max) {
        free(moves);
        return -2;
    }
    for (i = 0; i < n; i++)
        memcpy(out[i], moves[i].text, 8);
    free(moves);
    return n;
}

/* Counts the pieces of each side on the board. */
static void count_pieces(const pos_t *pos, int *black, int *orange)
{
    int r, f;
    *black = *orange = 0;
    for (r = 0; r < NRANKS; r++)
        for (f = 0; f < NFILES; f++) {
            *black += is_black(pos->board[r][f]);
            *orange += is_orange(pos->board[r][f]);
        }
}

/* Plays the legal move m on pos and returns the letter it captured ('.'
 * if none). */
static char make_move(pos_t *pos, const move_t *m)
{
    char piece = pos->board[m->fr][m->ff];
    char taken = pos->board[m->tr][m->tf];
    pos->board[m->fr][m->ff] = '.';
    pos->board[m->tr][m->tf] = piece;    /* captures whatever stood there */
    if (m->escape) {
        if (pos->black_to_move)
            pos->black_escape = 0;
        else
            pos->orange_escape = 0;
    }
    pos->black_to_move = !pos->black_to_move;
    return taken;
}

/* Whether a capture of `taken` by `mover` ends the game
 * (docs/rules.md#jetan-end-of-the-game), and how: fills *r. */
static void capture_result(char mover, char taken, jetan_ref_result *r)
{
    char mover_side = is_black(mover) ? 'b' : 'o';
    if (taken == 'P' || taken == 'p') {
        r->over = 1;
        r->winner = mover_side;
        r->reason = "princess_captured";
    } else if (taken == 'C' || taken == 'c') {
        r->over = 1;
        if (mover == 'C' || mover == 'c') {
            r->winner = mover_side;
            r->reason = "chief_captured";
        } else {
            r->winner = 'd';
            r->reason = "chief_captured_by_other";
        }
    }
}

/* Plays m (legal in pos) and writes the result and position text; the
 * tail of jetan_ref_play and jetan_ref_play_listed. */
static int play_and_judge(pos_t *pos, const jetan_ref_params *p,
                          const move_t *m, char *out, size_t outsz,
                          jetan_ref_result *r)
{
    move_t *moves = NULL;
    int n, black, orange;
    char mover = pos->board[m->fr][m->ff];
    char taken = make_move(pos, m);

    r->over = 0;
    r->winner = 0;
    r->reason = "";
    capture_result(mover, taken, r);
    if (!r->over) {
        /* a side with no move at all: draw */
        n = generate(pos, p, &moves);
        if (n < 0)
            return -1;
        free(moves);
        if (n == 0) {
            r->over = 1;
            r->winner = 'd';
            r->reason = "no_moves";
        }
    }
    count_pieces(pos, &black, &orange);
    r->small_armies = black <= 3 && orange <= 3;
    return print_pos(pos, out, outsz);
}

int jetan_ref_play(const char *fen, const jetan_ref_params *p,
                   const char *move, char *out, size_t outsz,
                   jetan_ref_result *r)
{
    pos_t pos;
    move_t *moves = NULL, m;
    int n, i, found = -1;

    if (p == NULL || move == NULL || r == NULL || parse_pos(fen, &pos) != 0)
        return -1;
    n = generate(&pos, p, &moves);
    if (n < 0)
        return -1;
    for (i = 0; i < n; i++) {
        if (strcmp(moves[i].text, move) == 0) {
            found = i;
            break;
        }
    }
    if (found < 0) {
        free(moves);
        return -1;
    }
    m = moves[found];
    free(moves);
    return play_and_judge(&pos, p, &m, out, outsz, r);
}

/* Reads a square ("e1", "a10") at s into rank and file; returns its length
 * (2 or 3), or 0. */
static int read_square(const char *s, int *rank, int *file)
{
    if (s[0] < 'a' || s[0] > 'j' || s[1] < '1' || s[1] > '9')
        return 0;
    *file = s[0] - 'a';
    if (s[1] == '1' && s[2] == '0') {
        *rank = 9;
        return 3;
    }
    *rank = s[1] - '1';
    return 2;
}

int jetan_ref_play_listed(const char *fen, const jetan_ref_params *p,
                          const char *move, char *out, size_t outsz,
                          jetan_ref_result *r)
{
    pos_t pos;
    move_t m;
    int len;

    if (p == NULL || move == NULL || r == NULL || parse_pos(fen, &pos) != 0)
        return -1;
    memset(&m, 0, sizeof m);
    len = read_square(move, &m.fr, &m.ff);
    if (len == 0)
        return -1;
    m.escape = move[len] == '^';
    len += m.escape;
    {
        int len2 = read_square(move + len, &m.tr, &m.tf);
        if (len2 == 0 || move[len + len2] != '\0')
            return -1;
    }
    if (!belongs_to(pos.board[m.fr][m.ff], pos.black_to_move))
        return -1;
    if (m.escape
        && !(pos.black_to_move ? pos.black_escape : pos.orange_escape))
        return -1;
    return play_and_judge(&pos, p, &m, out, outsz, r);
}

int jetan_ref_apply(const char *fen, const jetan_ref_params *p,
                    const char *move, char *out, size_t outsz)
{
    pos_t pos;
    move_t *moves = NULL;
    int n, i, found = -1;

    if (p == NULL || move == NULL || parse_pos(fen, &pos) != 0)
        return -1;
    n = generate(&pos, p, &moves);
    if (n < 0)
        return -1;
    for (i = 0; i < n; i++) {
        if (strcmp(moves[i].text, move) == 0) {
            found = i;
            break;
        }
    }
    if (found < 0) {
        free(moves);
        return -1;
    }
    make_move(&pos, &moves[found]);
    free(moves);
    return print_pos(&pos, out, outsz);
}

/* Counts the move sequences of `depth` (>= 1) from pos, whose game is on;
 * -1 on allocation failure. */
static long long perft_from(const pos_t *pos, const jetan_ref_params *p,
                            int depth)
{
    move_t *moves = NULL;
    long long total = 0;
    int n = generate(pos, p, &moves), i;

    if (n < 0)
        return -1;
    if (depth == 1) {
        free(moves);
        return n;
    }
    for (i = 0; i < n && total >= 0; i++) {
        pos_t child = *pos;
        jetan_ref_result r = {0, 0, "", 0};
        char mover = pos->board[moves[i].fr][moves[i].ff];
        capture_result(mover, make_move(&child, &moves[i]), &r);
        if (r.over)
            continue;          /* the game ended: adds nothing */
        long long below = perft_from(&child, p, depth - 1);
        total = below < 0 ? -1 : total + below;
    }
    free(moves);
    return total;
}

long long jetan_ref_perft(const char *fen, const jetan_ref_params *p,
                          int depth)
{
    pos_t pos;
    const char *royal;
    int r, f, found;

    if (p == NULL || depth < 0 || parse_pos(fen, &pos) != 0)
        return -1;
    if (depth == 0)
        return 1;
    /* a Princess or a Chief missing: the game is over */
    for (royal = "CcPp"; *royal; royal++) {
        found = 0;
        for (r = 0; r < NRANKS; r++)
            for (f = 0; f < NFILES; f++)
                found |= pos.board[r][f] == *royal;
        if (!found)
            return 0;
    }
    return perft_from(&pos, p, depth);
}
