/*
 * protocol.c -- reading protocol lines from a pipe with a deadline, and
 * parsing both sides' lines (docs/protocol.md).
 *
 * The reader keeps what it has read past a line for the next call, so a
 * reply split over many writes and many replies in one write read the
 * same. The parsers are strict about the lines they know (a bad number or
 * a missing word is an error naming it) and ignore the lines they do not.
 */
#define _POSIX_C_SOURCE 200809L
#include "protocol.h"
#include "clock.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "variant.h"

void line_reader_init(struct line_reader *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
}

void line_reader_free(struct line_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->start = r->len = r->cap = 0;
}

/* Waits until r->fd has bytes or the deadline passes (negative: for ever).
 * Returns 1 when readable, 0 on timeout. */
static int wait_readable(int fd, double deadline)
{
    for (;;) {
        int ms = -1;
        if (deadline >= 0) {
            double left = deadline - clock_seconds();
            if (left <= 0)
                return 0;
            ms = (int)ceil(left * 1e3);
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int n = poll(&p, 1, ms);
        if (n > 0)
            return 1;
        if (n < 0 && errno != EINTR)
            return 1; /* let read() report it */
    }
}

/* Makes room for another read: drops consumed bytes, grows the buffer up
 * to PROTO_LINE_MAX + 1 bytes. Returns 0, or LINE_NO_MEMORY. */
static int make_room(struct line_reader *r)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->len - r->start);
        r->len -= r->start;
        r->start = 0;
    }
    if (r->len + 4096 <= r->cap || r->cap > PROTO_LINE_MAX)
        return 0;
    size_t cap = r->cap ? 2 * r->cap : 8192;
    if (cap > PROTO_LINE_MAX + 2)
        cap = PROTO_LINE_MAX + 2;
    char *grown = realloc(r->buf, cap);
    if (!grown)
        return LINE_NO_MEMORY;
    r->buf = grown;
    r->cap = cap;
    return 0;
}

enum line_status line_read(struct line_reader *r, double deadline,
                           char **line)
{
    for (;;) {
        char *b = r->buf ? r->buf + r->start : NULL; /* NULL: nothing read */
        char *nl = r->len > r->start ? memchr(b, '\n', r->len - r->start)
                                     : NULL;
        if (nl) {
            *nl = '\0';
            if (nl > b && nl[-1] == '\r')
                nl[-1] = '\0';
            r->start = (size_t)(nl - r->buf) + 1;
            *line = b;
            return LINE_OK;
        }
        if (r->len - r->start > PROTO_LINE_MAX)
            return LINE_TOO_LONG;
        if (make_room(r) != 0)
            return LINE_NO_MEMORY;
        if (!wait_readable(r->fd, deadline))
            return LINE_TIMEOUT;
        ssize_t got = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return LINE_EOF;
        r->len += (size_t)got;
    }
}

int proto_words(char *line, char **words, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            return n;
        if (n == max)
            return -1;
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
}

/* Reads a whole number of at most 18 digits into *out. 0 or -1. */
static int whole_number(const char *text, long long *out)
{
    double x;
    if (strlen(text) > 18 || spec_parse_number(text, 1, &x) != 0)
        return -1;
    *out = (long long)x;
    return 0;
}

/* Reads a decimal number below 2^64 (digits only) into *out. 0 or -1. */
static int parse_seed(const char *text, uint64_t *out)
{
    if (!*text || strspn(text, "0123456789") != strlen(text))
        return -1;
    errno = 0;
    unsigned long long x = strtoull(text, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *out = x;
    return 0;
}

/* ---- replies ------------------------------------------------------------ */

/* Copies the words [from, n) joined by single spaces into out (one
 * PROTO_NAME_MAX buffer). Returns 0, or -1 when none or too long. */
static int join_words(char **w, int from, int n, char *out)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = from; i < n; i++) {
        int wrote = snprintf(out + len, PROTO_NAME_MAX - len, "%s%s",
                             i > from ? " " : "", w[i]);
        if (wrote < 0 || (size_t)wrote >= PROTO_NAME_MAX - len)
            return -1;
        len += (size_t)wrote;
    }
    return len ? 0 : -1;
}

/* The pairs of an info line, words [1, n). */
static enum reply_kind parse_info(char **w, int n, struct reply *r,
                                  char *err, size_t errsz)
{
    for (int i = 1; i + 1 < n; i += 2) {
        long long x;
        if (strcmp(w[i], "depth") == 0 || strcmp(w[i], "nodes") == 0) {
            if (whole_number(w[i + 1], &x) != 0 || x < 0) {
                game_error(err, errsz, "info %s: '%s' is no whole number",
                           w[i], w[i + 1]);
                return r->kind = REPLY_BAD;
            }
            *(strcmp(w[i], "depth") == 0 ? &r->depth : &r->nodes) = x;
        } else if (strcmp(w[i], "score") == 0) {
            double s;
            if (spec_parse_number(w[i + 1], 0, &s) != 0 || s < 0 || s > 1) {
                game_error(err, errsz, "info score: '%s' is no number from "
                           "0 to 1", w[i + 1]);
                return r->kind = REPLY_BAD;
            }
            r->score = s;
        } /* other pairs are for later versions */
    }
    return r->kind = REPLY_INFO;
}

enum reply_kind proto_parse_reply(const char *line, struct reply *r,
                                  char *err, size_t errsz)
{
    char copy[PROTO_NAME_MAX * 2], *w[64];
    memset(r, 0, sizeof *r);
    r->depth = r->nodes = -1;
    r->score = -1;
    r->kind = REPLY_OTHER;
    if (strlen(line) >= sizeof copy) /* no known line is that long */
        return r->kind;
    strcpy(copy, line);
    int n = proto_words(copy, w, 64);
    if (n <= 0)
        return r->kind;
    if (strcmp(w[0], "id") == 0 && n >= 2
        && (strcmp(w[1], "name") == 0 || strcmp(w[1], "version") == 0)) {
        int name = strcmp(w[1], "name") == 0;
        if (join_words(w, 2, n, r->text) != 0) {
            game_error(err, errsz, "id %s: expected 1 to %d bytes of text",
                       w[1], PROTO_NAME_MAX - 1);
            return r->kind = REPLY_BAD;
        }
        return r->kind = name ? REPLY_ID_NAME : REPLY_ID_VERSION;
    }
    if (strcmp(w[0], "want") == 0)
        return r->kind = n == 2 && strcmp(w[1], "legal") == 0
                             ? REPLY_WANT_LEGAL : REPLY_OTHER;
    if (strcmp(w[0], "ready") == 0) {
        long long v;
        if (n != 2 || whole_number(w[1], &v) != 0 || v < 1) {
            game_error(err, errsz, "expected 'ready N' (N the protocol "
                       "version), got '%s'", line);
            return r->kind = REPLY_BAD;
        }
        r->version = v > PROTO_VERSION ? PROTO_VERSION + 1 : (int)v;
        return r->kind = REPLY_READY;
    }
    if (strcmp(w[0], "info") == 0)
        return parse_info(w, n, r, err, errsz);
    if (strcmp(w[0], "bestmove") == 0) {
        if (n != 2) {
            game_error(err, errsz, "expected 'bestmove MOVE', got '%s'", line);
            return r->kind = REPLY_BAD;
        }
        snprintf(r->text, sizeof r->text, "%s", w[1]);
        return r->kind = REPLY_BESTMOVE;
    }
    return r->kind;
}

/* ---- commands ----------------------------------------------------------- */

/* position (startpos | text T...) [opening M...] [moves M...] in words
 * [1, n). */
static enum command_kind parse_position(char **w, int n, struct command *c,
                                        char *err, size_t errsz)
{
    int i = 2;
    if (n >= 2 && strcmp(w[1], "text") == 0) {
        size_t len = 0;
        for (; i < n && strcmp(w[i], "opening") && strcmp(w[i], "moves");
             i++) {
            int wrote = snprintf(c->position + len, sizeof c->position - len,
                                 "%s%s", len ? " " : "", w[i]);
            if (wrote < 0 || (size_t)wrote >= sizeof c->position - len) {
                game_error(err, errsz, "position text: longer than %zu bytes",
                           sizeof c->position - 1);
                return c->kind = COMMAND_BAD;
            }
            len += (size_t)wrote;
        }
        if (len == 0) {
            game_error(err, errsz, "position text: no position");
            return c->kind = COMMAND_BAD;
        }
    } else if (n < 2 || strcmp(w[1], "startpos") != 0) {
        game_error(err, errsz, "expected 'position startpos' or 'position "
                   "text POSITION'");
        return c->kind = COMMAND_BAD;
    }
    if (i < n && strcmp(w[i], "opening") == 0) {
        c->opening = &w[++i];
        while (i < n && strcmp(w[i], "moves") != 0)
            i++, c->n_opening++;
    }
    if (i < n && strcmp(w[i], "moves") == 0) {
        c->moves = &w[++i];
        c->n_moves = n - i;
        i = n;
    }
    if (i != n) {
        game_error(err, errsz, "position: unexpected '%s'", w[i]);
        return c->kind = COMMAND_BAD;
    }
    return c->kind = COMMAND_POSITION;
}

/* go [ms N] [nodes N] [limit N] in words [1, n). */
static enum command_kind parse_go(char **w, int n, struct command *c,
                                  char *err, size_t errsz)
{
    for (int i = 1; i < n; i += 2) {
        long long *field = strcmp(w[i], "ms") == 0      ? &c->ms
                           : strcmp(w[i], "nodes") == 0 ? &c->nodes
                           : strcmp(w[i], "limit") == 0 ? &c->limit
                                                        : NULL;
        if (field && (i + 1 == n || whole_number(w[i + 1], field) != 0)) {
            game_error(err, errsz, "go %s: expected a whole number", w[i]);
            return c->kind = COMMAND_BAD;
        }
    }
    return c->kind = COMMAND_GO;
}

enum command_kind proto_parse_command(char *line, char **words,
                                      struct command *c, char *err,
                                      size_t errsz)
{
    memset(c, 0, sizeof *c);
    int n = proto_words(line, words, PROTO_WORDS_MAX);
    if (n < 0) {
        game_error(err, errsz, "more than %d words in a line",
                   PROTO_WORDS_MAX);
        return c->kind = COMMAND_BAD;
    }
    if (n == 0)
        return c->kind = COMMAND_OTHER;
    const char *w0 = words[0];
    long long x;
    if (strcmp(w0, "rulelab") == 0) {
        if (n != 2 || whole_number(words[1], &x) != 0 || x < 1) {
            game_error(err, errsz, "expected 'rulelab N' (N the protocol "
                       "version)");
            return c->kind = COMMAND_BAD;
        }
        c->version = x > PROTO_VERSION ? PROTO_VERSION + 1 : (int)x;
        return c->kind = COMMAND_HELLO;
    }
    if (strcmp(w0, "option") == 0) {
        if (n != 3) {
            game_error(err, errsz, "expected 'option NAME VALUE'");
            return c->kind = COMMAND_BAD;
        }
        c->name = words[1];
        c->value = words[2];
        return c->kind = COMMAND_OPTION;
    }
    if (strcmp(w0, "newgame") == 0) {
        if (n != 3 || parse_seed(words[2], &c->seed) != 0) {
            game_error(err, errsz, "expected 'newgame VARIANT SEED' (SEED "
                       "a whole number below 2^64)");
            return c->kind = COMMAND_BAD;
        }
        c->variant = words[1];
        return c->kind = COMMAND_NEWGAME;
    }
    if (strcmp(w0, "position") == 0)
        return parse_position(words, n, c, err, errsz);
    if (strcmp(w0, "legal") == 0) {
        c->moves = words + 1;
        c->n_moves = n - 1;
        return c->kind = COMMAND_LEGAL;
    }
    if (strcmp(w0, "go") == 0)
        return parse_go(words, n, c, err, errsz);
    if (strcmp(w0, "quit") == 0)
        return c->kind = COMMAND_QUIT;
    return c->kind = COMMAND_OTHER;
}
