/*
 * notation.h -- the pieces of move and position text that every game
 * writes and reads the same way: squares ("a1".."j10"), piece letters,
 * the board field of a position (ranks from the top, separated by '/',
 * runs of empty squares as numbers), and copying a finished text out to
 * the caller's buffer. Each game's own text (its move syntax, the fields
 * after the board) stays in its file and is built from these.
 */
#ifndef RULELAB_NOTATION_H
#define RULELAB_NOTATION_H

#include <stddef.h>

/* Writes square (file, rank), both from 0, as "a1".."j10" with a NUL;
 * returns its length (2 or 3). Move text is written for every ply of every
 * stored game, so this is inline and avoids printf. */
static inline int notation_square_text(int file, int rank, char *buf)
{
    int len = 0;
    buf[len++] = (char)('a' + file);
    if (rank >= 9) {
        buf[len++] = (char)('0' + (rank + 1) / 10);
        buf[len++] = (char)('0' + (rank + 1) % 10);
    } else {
        buf[len++] = (char)('1' + rank);
    }
    buf[len] = '\0';
    return len;
}

/* Where a game keeps square (file, rank) in its board array: at index
 * origin + rank * stride + file (a mailbox with a border around the board
 * has a stride wider than the board and an origin past the border). */
struct board_geometry {
    int files, ranks, stride, origin;
};

/* Writes the name of the square at index sq of a board laid out as g
 * ("a1".."j10", with a NUL); returns its length. */
static inline int notation_square_name(const struct board_geometry *g, int sq,
                                       char *buf)
{
    return notation_square_text((sq - g->origin) % g->stride,
                                (sq - g->origin) / g->stride, buf);
}

/* Reads a square of the board g at *p: a file letter, then the rank as a
 * number from 1 with no leading zero, not followed by another digit.
 * Returns its index and advances *p past it, or returns -1 (*p as it was)
 * if no square of g is there. */
int notation_read_square(const char **p, const struct board_geometry *g);

/* Writes a move's text into buf of size n: the name of square `from` (none
 * if from < 0), then `between` ("" for none, "^" for a Jetan escape, "K@"
 * for a Serbest drop), then the name of square `to`. Returns its length,
 * or -1 if it does not fit. */
int notation_move_text(const struct board_geometry *g, int from,
                       const char *between, int to, char *buf, size_t n);

/* The mirror image, left to right (file a <-> the last file of g), of a
 * move text: every square in it with its file reversed, every other
 * character as it is. Returns its length, or -1 if it does not fit in n. */
int notation_mirror_move(const struct board_geometry *g, const char *text,
                         char *buf, size_t n);

/* The mirror image, left to right, of a position text that begins with
 * its board field (ranks separated by '/', runs of empty squares as
 * numbers, up to the first ' ' or '['): each rank's letters and runs in
 * reverse order, the rest of the text as it is. Returns its length, or
 * -1 if it does not fit in n. */
int notation_mirror_position(const char *text, char *buf, size_t n);

/* The index of letter c (either case) in `letters`, or -1 if it is not
 * there (or is NUL). */
int notation_letter_index(const char *letters, char c);

/* Copies text (len characters and its NUL) into buf of size n and returns
 * len, or returns -1 if it does not fit: what a game's move_to_text and
 * to_text return. */
int notation_copy_out(const char *text, int len, char *buf, size_t n);

/* Writes the board field of st into out (at least files * ranks + ranks
 * bytes): ranks from the top, separated by '/', each as the letters that
 * piece_at gives, with runs of empty squares ('.') as their length. Returns
 * the length written; out is NUL-terminated. */
int notation_write_board(char *out, const void *st,
                         char (*piece_at)(const void *st, int file, int rank),
                         int files, int ranks);

/* What a game's board field looks like, for notation_read_board. */
struct board_format {
    const char *game; /* "tafl": error messages start "tafl position:" */
    int files, ranks;
    const char *letters; /* every piece letter, both colours */
    const char *letters_hint; /* for errors: "pieces are a, d, k" */
    const char *end; /* characters that may follow the board field */
};

/* Called by notation_read_board for each piece letter c (one of the
 * format's letters) on (file, rank); returns 0, or -1 with a message in
 * err (too many pieces, a square the piece may not stand on). */
typedef int (*notation_put_fn)(void *ctx, char c, int file, int rank,
                               char *err, size_t errsz);

/* Reads the board field at text, as notation_write_board writes it (runs
 * of 1..files empty squares, "10" on a board ten wide), calling put for
 * each piece. Stops at NUL or at the first character of f->end and returns
 * a pointer to it, or NULL with a message that starts with "<game>
 * position:" if the field is not f->ranks ranks of f->files squares of
 * the format's letters and runs. */
const char *notation_read_board(const char *text, const struct board_format *f,
                                notation_put_fn put, void *ctx, char *err,
                                size_t errsz);

#endif
