/*
 * protocol.h -- the line protocol between rulelab and a program that plays
 * (docs/protocol.md): both sides' messages parsed, and lines read from a
 * pipe with a deadline.
 *
 * The harness (agents/ext.c) sends commands and reads replies; `rulelab
 * engine` (experiments/cli/cmd_engine.c) reads commands and writes
 * replies. A line is text up to '\n' (a '\r' before it is dropped), its
 * words separated by spaces or tabs. Lines a side does not know are
 * ignored, so the protocol can grow; the version in the hello says which
 * lines each side may send.
 */
#ifndef RULELAB_PROTOCOL_H
#define RULELAB_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_VERSION 1
#define PROTO_LINE_MAX (1 << 18) /* bytes of one line, '\n' apart */
#define PROTO_WORDS_MAX 8192 /* words of one line */
#define PROTO_NAME_MAX 256 /* an engine's name or version, a move */

/* ---- reading lines ---------------------------------------------------- */

struct line_reader {
    int fd;
    char *buf;
    size_t start, len, cap; /* unread bytes are buf[start, len) */
};

enum line_status {
    LINE_OK = 1,
    LINE_TIMEOUT = 0,
    LINE_EOF = -1, /* the other side closed (or a read failed) */
    LINE_TOO_LONG = -2, /* over PROTO_LINE_MAX bytes: the reader is spent */
    LINE_NO_MEMORY = -3
};

void line_reader_init(struct line_reader *r, int fd);
void line_reader_free(struct line_reader *r);

/* Reads the next line into *line (NUL-terminated, without its end; valid
 * until the next call), waiting until `deadline` (clock_seconds(), clock.h; a
 * negative deadline waits for ever). A line may arrive in many writes and
 * many lines in one. */
enum line_status line_read(struct line_reader *r, double deadline,
                           char **line);

/* Splits line in place into at most max words (spaces and tabs between).
 * Returns how many, or -1 when there are more. */
int proto_words(char *line, char **words, int max);

/* ---- what the engine sends -------------------------------------------- */

enum reply_kind {
    REPLY_OTHER, /* a line to ignore */
    REPLY_ID_NAME, /* id name TEXT */
    REPLY_ID_VERSION, /* id version TEXT */
    REPLY_WANT_LEGAL, /* want legal: send `legal` before each go */
    REPLY_READY, /* ready N: the handshake's end, protocol version N */
    REPLY_INFO, /* info [depth N] [nodes N] [score X] ... */
    REPLY_BESTMOVE, /* bestmove MOVE */
    REPLY_BAD /* a known line, malformed */
};

struct reply {
    enum reply_kind kind;
    char text[PROTO_NAME_MAX]; /* the name, version or move */
    int version; /* REPLY_READY */
    /* REPLY_INFO: each -1 when not given; score is the mover's expected
     * result, 0 (loss) to 1 (win). */
    long long depth, nodes;
    double score;
};

/* Parses one line from an engine. Returns its kind (also in r->kind);
 * REPLY_BAD with what is wrong in err. */
enum reply_kind proto_parse_reply(const char *line, struct reply *r,
                                  char *err, size_t errsz);

/* ---- what the harness sends ------------------------------------------- */

enum command_kind {
    COMMAND_OTHER, /* a line to ignore */
    COMMAND_HELLO, /* rulelab N */
    COMMAND_OPTION, /* option NAME VALUE (one word each) */
    COMMAND_NEWGAME, /* newgame VARIANT SEED */
    COMMAND_POSITION, /* position (startpos|text T...) [opening M...]
                         [moves M...] */
    COMMAND_LEGAL, /* legal M... */
    COMMAND_GO, /* go [ms N] [nodes N] [limit N] */
    COMMAND_QUIT,
    COMMAND_BAD
};

struct command {
    enum command_kind kind;
    int version; /* hello */
    const char *variant; /* newgame */
    uint64_t seed; /* newgame */
    const char *name, *value; /* option */
    char position[1024]; /* position text; "" for startpos */
    char **opening, **moves; /* position: words of the parsed line */
    int n_opening, n_moves;
    long long ms, nodes, limit; /* go: 0 when not given */
};

/* Parses one line from the harness, in place (the command's pointers are
 * into line, split by proto_words into words, room for PROTO_WORDS_MAX).
 * Returns its kind (also in c->kind); COMMAND_BAD with what is wrong in
 * err. */
enum command_kind proto_parse_command(char *line, char **words,
                                      struct command *c, char *err,
                                      size_t errsz);

#endif
