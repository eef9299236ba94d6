/*
 * proof.c -- checking a proof certificate (format in solver.h) from
 * scratch. It shares nothing with the search: only the game's own move
 * generator and rules decide whether each line holds, so a bug in the
 * solver cannot make a wrong proof pass.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

struct line {
    int ply, number;
    char move[32];
};

struct checker {
    const struct game *g;
    int attacker, plies;
    struct line *lines;
    int n, next;
    char *err;
    size_t errsz;
};

static int fail(struct checker *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errsz, fmt, ap);
    va_end(ap);
    return -1;
}

static int check_or(struct checker *c, const void *st, int ply);

/* After `move` (on line l) the game is over: it must be the attacker's
 * win, and nothing may hang below it. */
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
    if (c->next < c->n && c->lines[c->next].ply > ply)
        return fail(c, "line %d: a move after the game ended at line %d",
                    c->lines[c->next].number, l->number);
    return 0;
}

/* Reads a move line at `ply` and checks it is legal in st. */
static int take_move(struct checker *c, const void *st, int ply, move_t *m,
                     const struct line **out)
{
    char why[256];
    if (c->next >= c->n || c->lines[c->next].ply != ply)
        return -1;
    const struct line *l = &c->lines[c->next++];
    if (game_parse_move(c->g, st, l->move, m, why, sizeof why) != 0)
        return fail(c, "line %d: %s", l->number, why), -2;
    *out = l;
    return 0;
}

static int check_and(struct checker *c, const void *st, int ply,
                     const struct line *parent);

static int check_or(struct checker *c, const void *st, int ply)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    const struct line *l;
    move_t m;
    int rc = take_move(c, st, ply + 1, &m, &l);
    if (rc == -1)
        return fail(c, "line %d: the attacker's move at ply %d is missing",
                    c->next < c->n ? c->lines[c->next].number : c->n + 1,
                    ply + 1);
    if (rc)
        return -1;
    memcpy(child, st, c->g->state_size);
    c->g->apply(child, m);
    rc = check_leaf_or_go_on(c, child, ply + 1, l);
    if (rc == -2)
        rc = check_and(c, child, ply + 1, l);
    if (rc)
        return -1;
    if (c->next < c->n && c->lines[c->next].ply == ply + 1)
        return fail(c, "line %d: a second attacker move at ply %d",
                    c->lines[c->next].number, ply + 1);
    return 0;
}

/* The defender's turn after the attacker's move on line `parent`: every
 * legal defender move must be answered. */
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
        const struct line *l;
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
        if (seen[k]) {
            rc = fail(c, "line %d: defender move %s given twice", l->number,
                      l->move);
            break;
        }
        seen[k] = 1;
        memcpy(child, st, c->g->state_size);
        c->g->apply(child, m);
        rc = check_leaf_or_go_on(c, child, ply + 1, l);
        if (rc == -2)
            rc = fail(c, "line %d: the defender moves twice", l->number);
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

/* Copies a header value; -1 if it does not fit. */
static int copy_field(char *out, size_t n, const char *value)
{
    size_t len = strlen(value);
    if (len >= n)
        return -1;
    memcpy(out, value, len + 1);
    return 0;
}

/* Reads "key value" header lines and the move lines. */
static int read_file(FILE *in, struct checker *c, struct proof_info *info)
{
    char buf[2048];
    int number = 0, state = 0, cap = 0;
    while (fgets(buf, sizeof buf, in)) {
        number++;
        buf[strcspn(buf, "\r\n")] = '\0';
        if (state == 0) {
            if (strcmp(buf, "rulelab-proof 1") != 0)
                return fail(c, "line %d: not a rulelab proof (expected "
                            "'rulelab-proof 1')", number);
            state = 1;
        } else if (state == 1) {
            if (strncmp(buf, "variant ", 8) == 0) {
                if (copy_field(info->variant, sizeof info->variant, buf + 8))
                    return fail(c, "line %d: variant too long", number);
            } else if (strncmp(buf, "position ", 9) == 0) {
                if (copy_field(info->position, sizeof info->position, buf + 9))
                    return fail(c, "line %d: position too long", number);
            } else if (strncmp(buf, "plies ", 6) == 0)
                info->plies = atoi(buf + 6);
            else if (strcmp(buf, "moves") == 0)
                state = 2;
            else
                return fail(c, "line %d: unexpected '%s' in the header",
                            number, buf);
        } else if (state == 2) {
            if (strcmp(buf, "end") == 0) {
                state = 3;
                continue;
            }
            if (c->n == cap) {
                cap = cap ? 2 * cap : 1024;
                struct line *grown = realloc(c->lines, sizeof *grown * (size_t)cap);
                if (!grown)
                    return fail(c, "out of memory");
                c->lines = grown;
            }
            struct line *l = &c->lines[c->n];
            if (sscanf(buf, "%d %31s", &l->ply, l->move) != 2 || l->ply < 1)
                return fail(c, "line %d: expected '<ply> <move>', got '%s'",
                            number, buf);
            l->number = number;
            c->n++;
        } else if (buf[0]) {
            return fail(c, "line %d: text after 'end'", number);
        }
    }
    if (state != 3)
        return fail(c, "line %d: the proof ends before its 'end' line",
                    number + 1);
    return 0;
}

int proof_verify(FILE *in, struct proof_info *info, char *err, size_t errsz)
{
    struct checker c = {0};
    c.err = err;
    c.errsz = errsz;
    memset(info, 0, sizeof *info);
    int rc = read_file(in, &c, info);
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char root[GAME_MAX_STATE_SIZE];
    char why[512];
    if (rc == 0 && variant_parse(info->variant, &v, why, sizeof why) != 0)
        rc = fail(&c, "line 2: %s", why);
    if (rc == 0 && v.game->from_text(root, &v, info->position, why,
                                     sizeof why) != 0)
        rc = fail(&c, "line 3: %s", why);
    if (rc == 0 && (info->plies < 1 || info->plies > SOLVER_MAX_PLIES))
        rc = fail(&c, "line 4: the ply bound must be 1 to %d",
                  SOLVER_MAX_PLIES);
    if (rc == 0 && v.game->status(root).outcome != GAME_ONGOING)
        rc = fail(&c, "line 3: the game is already over there");
    if (rc == 0) {
        c.g = v.game;
        c.attacker = v.game->to_move(root);
        c.plies = info->plies;
        rc = check_or(&c, root, 0);
        if (rc == 0 && c.next < c.n)
            rc = fail(&c, "line %d: a line outside the strategy tree",
                      c.lines[c.next].number);
    }
    info->nodes = c.n;
    free(c.lines);
    return rc;
}
