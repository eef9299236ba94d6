/*
 * notation.c -- squares, piece letters and the board field of position
 * text, as all three games write them (notation.h says what each does).
 * None of it is on a hot path except notation_square_text, which is
 * inline in the header.
 */
#include "notation.h"

#include <ctype.h>
#include <string.h>

#include "game.h"

int notation_read_square(const char **p, const struct board_geometry *g)
{
    const char *c = *p;
    if (*c < 'a' || *c >= 'a' + g->files || c[1] < '1' || c[1] > '9')
        return -1;
    int number = c[1] - '0', len = 2;
    if (isdigit((unsigned char)c[2]))
        number = number * 10 + (c[2] - '0'), len = 3;
    if (number > g->ranks || isdigit((unsigned char)c[len]))
        return -1;
    *p = c + len;
    return g->origin + (number - 1) * g->stride + (*c - 'a');
}

int notation_move_text(const struct board_geometry *g, int from,
                       const char *between, int to, char *buf, size_t n)
{
    char tmp[16];
    int len = from >= 0 ? notation_square_name(g, from, tmp) : 0;
    for (; *between && len < 8; between++)
        tmp[len++] = *between;
    len += notation_square_name(g, to, tmp + len);
    return notation_copy_out(tmp, len, buf, n);
}

int notation_mirror_move(const struct board_geometry *g, const char *text,
                         char *buf, size_t n)
{
    size_t len = 0;
    for (const char *p = text; *p;) {
        int sq = notation_read_square(&p, g), file, rank;
        char name[4];
        int k = 1;
        if (sq >= 0) {
            file = (sq - g->origin) % g->stride;
            rank = (sq - g->origin) / g->stride;
            k = notation_square_text(g->files - 1 - file, rank, name);
        } else {
            name[0] = *p++;
        }
        if (len + (size_t)k >= n)
            return -1;
        memcpy(buf + len, name, (size_t)k);
        len += (size_t)k;
    }
    buf[len] = '\0';
    return (int)len;
}

/* Writes the tokens of one rank (runs and letters) from `from` to `to`
 * in reverse order at out. */
static size_t mirror_rank(const char *from, const char *to, char *out)
{
    size_t len = 0;
    while (to > from) {
        const char *start = to - 1;
        while (start > from && isdigit((unsigned char)*start)
               && isdigit((unsigned char)start[-1]))
            start--; /* a run of two digits is one token */
        memcpy(out + len, start, (size_t)(to - start));
        len += (size_t)(to - start);
        to = start;
    }
    return len;
}

int notation_mirror_position(const char *text, char *buf, size_t n)
{
    size_t total = strlen(text), len = 0;
    if (total + 1 > n)
        return -1;
    const char *p = text;
    while (*p && *p != ' ' && *p != '[') {
        const char *end = p;
        while (*end && *end != '/' && *end != ' ' && *end != '[')
            end++;
        len += mirror_rank(p, end, buf + len);
        p = end;
        if (*p == '/')
            buf[len++] = *p++;
    }
    memcpy(buf + len, p, strlen(p) + 1);
    return (int)total;
}

int notation_letter_index(const char *letters, char c)
{
    const char *at = c ? strchr(letters, toupper((unsigned char)c)) : NULL;
    return at ? (int)(at - letters) : -1;
}

int notation_copy_out(const char *text, int len, char *buf, size_t n)
{
    if (len < 0 || (size_t)len >= n)
        return -1;
    memcpy(buf, text, (size_t)len + 1);
    return len;
}

/* Writes a run of `empty` squares (1..99) at out; returns its length. */
static int write_run(char *out, int empty)
{
    int len = 0;
    if (empty >= 10)
        out[len++] = (char)('0' + empty / 10);
    out[len++] = (char)('0' + empty % 10);
    return len;
}

int notation_write_board(char *out, const void *st,
                         char (*piece_at)(const void *st, int file, int rank),
                         int files, int ranks)
{
    int len = 0;
    for (int rank = ranks - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < files; file++) {
            char c = piece_at(st, file, rank);
            if (c == '.') {
                empty++;
                continue;
            }
            if (empty)
                len += write_run(out + len, empty), empty = 0;
            out[len++] = c;
        }
        if (empty)
            len += write_run(out + len, empty);
        if (rank)
            out[len++] = '/';
    }
    out[len] = '\0';
    return len;
}

const char *notation_read_board(const char *text, const struct board_format *f,
                                notation_put_fn put, void *ctx, char *err,
                                size_t errsz)
{
    const int files = f->files;
    int rank = f->ranks - 1, file = 0;
    const char *c = text;
    for (; *c && !strchr(f->end, *c); c++) {
        if (*c == '/') {
            if (file != files)
                return game_error(err, errsz, "%s position: rank %d does not "
                                  "have %d squares", f->game, rank + 1, files),
                       NULL;
            if (rank == 0)
                return game_error(err, errsz, "%s position: more than %d "
                                  "ranks", f->game, f->ranks), NULL;
            rank--, file = 0;
            continue;
        }
        int run = 0;
        if (files >= 10 && c[0] == '1' && c[1] == '0')
            run = 10;
        else if (*c >= '1' && *c <= '9')
            run = *c - '0';
        else if (!strchr(f->letters, *c))
            return game_error(err, errsz, "%s position: unexpected '%c' (%s)",
                              f->game, *c, f->letters_hint), NULL;
        if (file + (run ? run : 1) > files)
            return game_error(err, errsz, "%s position: rank %d has more "
                              "than %d squares", f->game, rank + 1, files),
                   NULL;
        if (!run && put(ctx, *c, file, rank, err, errsz) != 0)
            return NULL;
        file += run ? run : 1;
        c += run == 10;
    }
    if (file != files || rank != 0)
        return game_error(err, errsz, "%s position: the board needs %d ranks "
                          "of %d squares, separated by '/'", f->game, f->ranks,
                          files), NULL;
    return c;
}
