/*
 * proof.c -- checking a proof certificate (contract in proof.h, format in
 * solver.h) from scratch. It shares nothing with the search: only the
 * game's own move generator and rules decide whether each line holds, so a
 * bug in the solver cannot make a wrong proof pass.
 *
 * The file is read as it is checked, one line ahead: the strategy tree is
 * in preorder, so a depth-first walk of the game tree meets its lines in
 * file order. Memory is one game state and one move list per ply of the
 * bound (at most SOLVER_MAX_PLIES), whatever the size of the file.
 *
 * The reader is strict: the header lines come once each, in the order of
 * the format; a move line is a ply number (no sign, no leading zero), one
 * space and one move, nothing after it; every error names the file line
 * where it is found and what is wrong there.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "proof.h"
#include "solver.h" /* SOLVER_MAX_PLIES: the bound a proof may have */

/* The longest line read (header values included), newline excluded. */
#define PROOF_LINE_MAX 2047

/* A move line of the file, as taken by the walk. */
struct line {
    int ply, number;
    char move[32];
};

struct checker {
    const struct game *g;
    int attacker, plies;
    FILE *in;
    int number; /* lines read so far */
    /* the next move line, read ahead: have = 1 when next holds it; its
     * ply is 0 for the 'end' line, -1 when reading it failed */
    int have;
    struct line next;
    long nodes; /* move lines read */
    int failed; /* fail() was called: the first message stands */
    char *err;
    size_t errsz;
};

/* Records the first failure's message; returns -1. */
static int fail(struct checker *c, const char *fmt, ...)
{
    if (!c->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, c->errsz, fmt, ap);
        va_end(ap);
        c->failed = 1;
    }
    return -1;
}

/* Reads the next line of the file into buf (PROOF_LINE_MAX + 1 bytes),
 * without its "\n" or "\r\n"; the last line may lack the newline.
 * Returns 1, 0 at the end of the file, or -1 (a line too long, a NUL
 * byte, a read error) after fail(). */
static int read_line(struct checker *c, char *buf)
{
    size_t len = 0;
    int ch;
    while ((ch = getc(c->in)) != EOF && ch != '\n') {
        if (len == PROOF_LINE_MAX)
            return fail(c, "line %d: longer than %d characters",
                        c->number + 1, PROOF_LINE_MAX);
        if (ch == '\0')
            return fail(c, "line %d: a NUL byte", c->number + 1);
        buf[len++] = (char)ch;
    }
    if (ferror(c->in))
        return fail(c, "line %d: read error", c->number + 1);
    if (ch == EOF && len == 0)
        return 0;
    c->number++;
    if (len && buf[len - 1] == '\r')
        len--;
    buf[len] = '\0';
    return 1;
}

/* Parses a ply number: 1 to SOLVER_MAX_PLIES, digits only, no leading
 * zero. Returns the number and sets *end after it, or -1. */
static int parse_ply(const char *s, const char **end)
{
    int v = 0;
    if (*s < '1' || *s > '9')
        return -1;
    while (*s >= '0' && *s <= '9') {
        v = 10 * v + (*s++ - '0');
        if (v > SOLVER_MAX_PLIES)
            return -1;
    }
    *end = s;
    return v;
}

/* The ply of the next move line, reading it if needed: >= 1 for a move
 * line, 0 for the 'end' line, -1 if the file ends first or the line is
 * not a move line (after fail(); the walk then unwinds). */
static int peek(struct checker *c)
{
    char buf[PROOF_LINE_MAX + 1];
    if (c->have)
        return c->next.ply;
    c->have = 1;
    c->next.ply = -1;
    int rc = read_line(c, buf);
    if (rc < 0)
        return -1;
    c->next.number = c->number;
    if (rc == 0) {
        fail(c, "line %d: the proof ends before its 'end' line",
             c->number + 1);
        return -1;
    }
    if (strcmp(buf, "end") == 0) {
        c->next.ply = 0;
        return 0;
    }
    const char *p, *move;
    int ply = parse_ply(buf, &p);
    if (ply < 0 || *p != ' ') {
        fail(c, "line %d: expected '<ply> <move>' with a ply of 1 to %d, "
             "got '%.60s'", c->number, SOLVER_MAX_PLIES, buf);
        return -1;
    }
    move = p + 1;
    size_t len = strcspn(move, " \t");
    if (len == 0 || len >= sizeof c->next.move) {
        fail(c, "line %d: expected '<ply> <move>', got '%.60s'", c->number,
             buf);
        return -1;
    }
    if (move[len]) {
        fail(c, "line %d: '%.60s' after the move '%.*s'", c->number,
             move + len, (int)len, move);
        return -1;
    }
    memcpy(c->next.move, move, len + 1);
    c->next.ply = ply;
    c->nodes++;
    return ply;
}

/* Takes the next line if it is a move at `ply` and checks the move is
 * legal in st: 0 with the line in *l and the move in *m; -1 if the next
 * line is not at that ply (nothing taken); -2 after fail(). */
static int take_move(struct checker *c, const void *st, int ply, move_t *m,
                     struct line *l)
{
    char why[256];
    int next = peek(c);
    if (next < 0)
        return -2;
    if (next != ply)
        return -1;
    *l = c->next;
    c->have = 0;
    if (game_parse_move(c->g, st, l->move, m, why, sizeof why) != 0)
        return fail(c, "line %d: %s", l->number, why), -2;
    return 0;
}

static int check_or(struct checker *c, const void *st, int ply);
static int check_and(struct checker *c, const void *st, int ply,
                     const struct line *parent);

/* After the move on line l, child is the position at `ply`: a game over
 * must be the attacker's win with nothing below it (0); an ongoing game
 * within the bound goes on at the attacker's turn (checked here) or is
 * the defender's (-2: the caller decides); -1 on failure. */
static int check_leaf_or_go_on(struct checker *c, const void *child, int ply,
                               const struct line *l)
{
    enum game_outcome o = c->g->status(child).outcome;
    if (o == GAME_ONGOING) {
        if (ply >= c->plies)
            return fail(c, "line %d: %s reaches the bound of %d plies without "
                        "a win", l->number, l->move, c->plies);
        return c->g->to_move(child) == c->attacker ? check_or(c, child, ply)
                                                   : -2;
    }
    if (o != (c->attacker == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1))
        return fail(c, "line %d: after %s the game ends in %s, not a win",
                    l->number, l->move, game_outcome_name(o));
    if (peek(c) > ply)
        return fail(c, "line %d: a move after the game ended at line %d",
                    c->next.number, l->number);
    return c->failed ? -1 : 0;
}

/* The attacker's turn in st (`ply` plies played): exactly one move line
 * at ply + 1, and its subtree. Returns 0 or -1. */
static int check_or(struct checker *c, const void *st, int ply)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    struct line l;
    move_t m;
    int rc = take_move(c, st, ply + 1, &m, &l);
    if (rc == -1)
        return fail(c, "line %d: the attacker's move at ply %d is missing",
                    c->next.number, ply + 1);
    if (rc)
        return -1;
    game_copy_state(c->g, child, st);
    c->g->apply(child, m);
    rc = check_leaf_or_go_on(c, child, ply + 1, &l);
    if (rc == -2)
        rc = check_and(c, child, ply + 1, &l);
    if (rc)
        return -1;
    if (peek(c) == ply + 1)
        return fail(c, "line %d: a second attacker move at ply %d",
                    c->next.number, ply + 1);
    return c->failed ? -1 : 0;
}

/* The defender's turn after the attacker's move on line `parent`: every
 * legal defender move must be answered, each once. Returns 0 or -1. */
static int check_and(struct checker *c, const void *st, int ply,
                     const struct line *parent)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    char text[32];
    int n = c->g->legal_moves(st, moves);
    char *seen = calloc((size_t)(n ? n : 1), 1);
    int rc = 0;
    if (!seen)
        return fail(c, "out of memory");
    for (;;) {
        struct line l;
        move_t m;
        int took = take_move(c, st, ply + 1, &m, &l);
        if (took == -1)
            break;
        if (took) {
            rc = -1;
            break;
        }
        int k = 0;
        while (k < n && moves[k] != m)
            k++;
        if (k == n) { /* game_parse_move said legal: a generator bug */
            rc = fail(c, "line %d: %s is not among the defender's legal "
                      "moves", l.number, l.move);
            break;
        }
        if (seen[k]) {
            rc = fail(c, "line %d: defender move %s given twice", l.number,
                      l.move);
            break;
        }
        seen[k] = 1;
        game_copy_state(c->g, child, st);
        c->g->apply(child, m);
        rc = check_leaf_or_go_on(c, child, ply + 1, &l);
        if (rc == -2)
            rc = fail(c, "line %d: the defender moves twice", l.number);
        if (rc)
            break;
    }
    for (int k = 0; k < n && rc == 0; k++)
        if (!seen[k]) {
            c->g->move_to_text(st, moves[k], text, sizeof text);
            rc = fail(c, "line %d: after %s, the defender's move %s (ply %d) "
                      "is not answered", parent->number, parent->move, text,
                      ply + 1);
        }
    free(seen);
    return rc;
}

/* Reads header line `number` (2 to 4), which must be "<key> <value>" for
 * the key at that place (keys[number - 2]); copies the value into out.
 * Returns 0 or -1. */
static int read_header(struct checker *c, const char *const keys[3],
                       char *out, size_t outsz)
{
    char buf[PROOF_LINE_MAX + 1];
    int rc = read_line(c, buf);
    if (rc < 0)
        return -1;
    int want = c->number - 2 + (rc == 0);
    const char *key = keys[want];
    if (rc == 0)
        return fail(c, "line %d: the proof ends in its header, before the "
                    "'%s' line", c->number + 1, key);
    size_t klen = strlen(key);
    if (strncmp(buf, key, klen) == 0 && buf[klen] == ' ' && buf[klen + 1]) {
        size_t len = strlen(buf + klen + 1);
        if (len >= outsz)
            return fail(c, "line %d: the %s is longer than %zu characters",
                        c->number, key, outsz - 1);
        memcpy(out, buf + klen + 1, len + 1);
        return 0;
    }
    for (int k = 0; k < 3; k++) {
        size_t len = strlen(keys[k]);
        if (strncmp(buf, keys[k], len) == 0
            && (buf[len] == ' ' || buf[len] == '\0') && k != want)
            return fail(c, "line %d: a '%s' line where the '%s' line must "
                        "be%s", c->number, keys[k], key,
                        k < want ? " (a header line repeated)" : "");
    }
    if (strcmp(buf, key) == 0 || (strncmp(buf, key, klen) == 0
                                  && buf[klen] == ' '))
        return fail(c, "line %d: the %s is empty", c->number, key);
    return fail(c, "line %d: expected '%s <%s>', got '%.60s'", c->number, key,
                key, buf);
}

/* Reads and checks the header (lines 1-5) into info and root. Returns 0
 * or -1. */
static int check_header(struct checker *c, struct proof_info *info,
                        struct variant *v, void *root)
{
    static const char *const keys[3] = {"variant", "position", "plies"};
    char buf[PROOF_LINE_MAX + 1], plies[32], why[512];
    const char *end;
    int rc = read_line(c, buf);
    if (rc <= 0 || strcmp(buf, "rulelab-proof 1") != 0)
        return fail(c, "line 1: not a rulelab proof (expected "
                    "'rulelab-proof 1')");
    if (read_header(c, keys, info->variant, sizeof info->variant)
        || read_header(c, keys, info->position, sizeof info->position)
        || read_header(c, keys, plies, sizeof plies))
        return -1;
    info->plies = parse_ply(plies, &end);
    if (info->plies < 0 || *end)
        return fail(c, "line 4: the ply bound must be a number from 1 to %d, "
                    "got '%s'", SOLVER_MAX_PLIES, plies);
    rc = read_line(c, buf);
    if (rc == 0)
        return fail(c, "line 5: the proof ends before its 'moves' line");
    if (rc < 0)
        return -1;
    if (strcmp(buf, "moves") != 0) {
        for (int k = 0; k < 3; k++)
            if (strncmp(buf, keys[k], strlen(keys[k])) == 0
                && buf[strlen(keys[k])] == ' ')
                return fail(c, "line 5: a second '%s' line (a header line "
                            "repeated) where 'moves' must be", keys[k]);
        return fail(c, "line 5: expected 'moves', got '%.60s'", buf);
    }
    if (variant_parse(info->variant, v, why, sizeof why) != 0)
        return fail(c, "line 2: %s", why);
    if (v->game->from_text(root, v, info->position, why, sizeof why) != 0)
        return fail(c, "line 3: %s", why);
    if (v->game->status(root).outcome != GAME_ONGOING)
        return fail(c, "line 3: the game is already over there");
    return 0;
}

int proof_verify(FILE *in, struct proof_info *info, char *err, size_t errsz)
{
    struct checker c = {0};
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char root[GAME_MAX_STATE_SIZE];
    char buf[PROOF_LINE_MAX + 1];
    c.in = in;
    c.err = err;
    c.errsz = errsz;
    memset(info, 0, sizeof *info);
    int rc = check_header(&c, info, &v, root);
    if (rc == 0) {
        c.g = v.game;
        c.attacker = v.game->to_move(root);
        c.plies = info->plies;
        rc = check_or(&c, root, 0);
    }
    /* the tree is whole: the next line must be 'end', and the last */
    if (rc == 0 && peek(&c) != 0)
        rc = fail(&c, "line %d: a line outside the strategy tree",
                  c.next.number);
    if (rc == 0 && !c.failed) {
        int more = read_line(&c, buf);
        if (more > 0)
            rc = fail(&c, "line %d: text after 'end'", c.number);
        else if (more < 0)
            rc = -1;
    }
    info->nodes = c.nodes;
    return c.failed ? -1 : rc;
}
