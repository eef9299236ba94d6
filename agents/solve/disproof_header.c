/*
 * disproof_header.c -- the header of a disproof certificate (disproof.h):
 * its lines read one by one and checked, the variant and the position
 * set up, the part's move checked legal at the root. The walk over the
 * data is disproof.c's; what the two share is disproof_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "disproof_internal.h"

/* Reads header line into buf (LINE_MAX_LEN + 1 bytes) without its "\n":
 * 1, or -1 after fail() (the end of the file, a long line, a NUL). */
static int read_line(struct checker *c, char *buf)
{
    size_t len = 0;
    int ch;
    c->line++;
    while ((ch = getc(c->in)) != EOF && ch != '\n') {
        if (len == LINE_MAX_LEN)
            return fail(c, "line %d: longer than %d characters", c->line,
                        LINE_MAX_LEN);
        if (ch == '\0')
            return fail(c, "line %d: a NUL byte", c->line);
        buf[len++] = (char)ch;
    }
    if (ch == EOF)
        return fail(c, "line %d: the file ends in the header", c->line);
    buf[len] = '\0';
    return 1;
}

/* Reads "<key> <value>" as the next line into out. Returns 0 or -1. */
static int field_value(struct checker *c, const char *buf, const char *key,
                       char *out, size_t outsz);

static int read_field(struct checker *c, const char *key, char *out,
                      size_t outsz)
{
    char buf[LINE_MAX_LEN + 1];
    if (read_line(c, buf) < 0)
        return -1;
    return field_value(c, buf, key, out, outsz);
}

/* The value of "<key> <value>" in the header line buf (read as line
 * c->line) into out. Returns 0 or -1. */
static int field_value(struct checker *c, const char *buf, const char *key,
                       char *out, size_t outsz)
{
    size_t klen = strlen(key);
    if (strncmp(buf, key, klen) != 0 || buf[klen] != ' ' || !buf[klen + 1])
        return fail(c, "line %d: expected '%s <%s>', got '%.60s'", c->line,
                    key, key, buf);
    if (strlen(buf + klen + 1) >= outsz)
        return fail(c, "line %d: the %s is too long", c->line, key);
    strcpy(out, buf + klen + 1);
    return 0;
}

/* Parses a count in plain digits (no sign, no leading zero) up to max. */
static int parse_count(const char *s, long max, long *v)
{
    *v = 0;
    if (!*s || (s[0] == '0' && s[1]))
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || *v > (max - (*s - '0')) / 10)
            return -1;
        *v = 10 * *v + (*s - '0');
    }
    return 0;
}

/* The header's part move: legal at the root, whose bound (>= 2) lets it
 * list moves. Returns 0 (c->part_move set), or -1. */
static int check_part_move(struct checker *c, const struct game *g,
                           const void *root, int line)
{
    move_t moves[GAME_MAX_MOVES];
    int n = g->legal_moves(root, moves), legal = 0;
    if (c->info->plies < 2)
        return fail(c, "line %d: a part needs a bound of 2 plies or more",
                    line);
    if (g->move_from_text(root, c->info->part, &c->part_move) == 0)
        for (int i = 0; i < n && !legal; i++)
            legal = moves[i] == c->part_move;
    if (!legal)
        return fail(c, "line %d: the part's move %s is not a legal move at "
                    "the root", line, c->info->part);
    c->part = 1;
    return 0;
}

/* disproof.h */
int disproof_format_of(const char *line)
{
    size_t n = strcspn(line, "\n");
    if (line[n] == '\n' && line[n + 1] != '\0')
        return 0;
    if (n == strlen(DISPROOF_MAGIC) && !strncmp(line, DISPROOF_MAGIC, n))
        return DISPROOF_FORMAT;
    if (n == strlen(DISPROOF_MAGIC_V1) && !strncmp(line, DISPROOF_MAGIC_V1, n))
        return 1;
    return 0;
}

int disproof_check_header(struct checker *c, struct variant *v, void *root)
{
    struct disproof_info *info = c->info;
    char buf[LINE_MAX_LEN + 1], number[64], why[512];
    long plies, shared;
    if (read_line(c, buf) < 0 || !(info->format = disproof_format_of(buf)))
        return fail(c, "line 1: not a rulelab disproof (expected '%s' or "
                    "'%s')", DISPROOF_MAGIC, DISPROOF_MAGIC_V1);
    if (read_field(c, "variant", info->variant, sizeof info->variant)
        || read_field(c, "position", info->position, sizeof info->position))
        return -1;
    if (read_field(c, "plies", number, sizeof number))
        return -1;
    if (parse_count(number, SOLVER_MAX_PLIES, &plies) || plies < 1)
        return fail(c, "line 4: the ply bound must be 1 to %d, got '%s'",
                    SOLVER_MAX_PLIES, number);
    info->plies = (int)plies;
    if (read_line(c, buf) < 0)
        return -1;
    int part_line = 0;
    if (strncmp(buf, "part ", 5) == 0) { /* optional: a split's part */
        part_line = c->line;
        if (field_value(c, buf, "part", info->part, sizeof info->part)
            || read_line(c, buf) < 0)
            return -1;
    }
    if (field_value(c, buf, "nodes", number, sizeof number))
        return -1;
    if (parse_count(number, 0x7fffffffL, &c->nodes_declared)
        || c->nodes_declared < 1)
        return fail(c, "line %d: the node count must be 1 to 2^31 - 1, got "
                    "'%s'", c->line, number);
    if (read_field(c, "shared", number, sizeof number))
        return -1;
    if (parse_count(number, c->nodes_declared, &shared))
        return fail(c, "line %d: the shared count must be 0 to the node "
                    "count, got '%s'", c->line, number);
    if (read_line(c, buf) < 0)
        return -1;
    if (strcmp(buf, "data") != 0)
        return fail(c, "line %d: expected 'data', got '%.60s'", c->line, buf);
    if (variant_parse(info->variant, v, why, sizeof why) != 0)
        return fail(c, "line 2: %s", why);
    if (v->game->from_text(root, v, info->position, why, sizeof why) != 0)
        return fail(c, "line 3: %s", why);
    if (v->game->status(root).outcome != GAME_ONGOING)
        return fail(c, "line 3: the game is already over there");
    if (part_line && check_part_move(c, v->game, root, part_line) != 0)
        return -1;
    c->shared_cap = shared;
    c->shared = calloc((size_t)(shared ? shared : 1), sizeof *c->shared);
    if (!c->shared)
        return fail(c, "out of memory for %ld shared nodes", shared);
    return 0;
}
