/*
 * variant.c -- parsing and printing variant strings `game(key=value,...)`.
 *
 * The parser is strict: every key must be one the game declares, every
 * value must be allowed, a key may appear once, and junk is named in the
 * error. Errors list what would have been accepted, so a user can fix the
 * string without opening the docs.
 */
#include "variant.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

static void set_error(char *err, size_t errsz, const char *fmt, ...)
{
    if (!err || errsz == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
}

void variant_default(const struct game *g, struct variant *v)
{
    assert(g->n_params <= VARIANT_MAX_PARAMS);
    memset(v, 0, sizeof *v);
    v->game = g;
    for (int i = 0; i < g->n_params; i++)
        v->values[i] = g->params[i].def;
}

int param_allowed_text(const struct param_spec *p, char *buf, size_t n)
{
    switch (p->type) {
    case PARAM_BOOL:
        return snprintf(buf, n, "0 or 1");
    case PARAM_INT:
        return snprintf(buf, n, "%d..%d", p->min, p->max);
    case PARAM_ENUM: {
        size_t len = 0;
        buf[0] = '\0';
        for (int i = 0; p->choices[i]; i++) {
            int w = snprintf(buf + len, n - len, "%s%s", i ? "|" : "",
                             p->choices[i]);
            if (w < 0 || (size_t)w >= n - len)
                return -1;
            len += (size_t)w;
        }
        return (int)len;
    }
    }
    return -1;
}

int variant_value_text(const struct param_spec *p, int value, char *buf,
                       size_t n)
{
    if (p->type == PARAM_ENUM)
        return snprintf(buf, n, "%s", p->choices[value]);
    return snprintf(buf, n, "%d", value);
}

/* Lists a game's keys, comma-separated, for error messages. */
static void list_keys(const struct game *g, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < g->n_params && len < n; i++) {
        int w = snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
                         g->params[i].name);
        if (w < 0)
            return;
        len += (size_t)w;
    }
}

static void list_games(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; game_list[i] && len < n; i++) {
        int w = snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
                         game_list[i]->name);
        if (w < 0)
            return;
        len += (size_t)w;
    }
}

/* Parses one value of parameter p. Returns 0 or -1 with the error set. */
static int parse_value(const struct game *g, const struct param_spec *p,
                       const char *text, int *out, char *err, size_t errsz)
{
    char allowed[256];
    param_allowed_text(p, allowed, sizeof allowed);
    if (p->type == PARAM_ENUM) {
        for (int i = 0; p->choices[i]; i++) {
            if (strcmp(text, p->choices[i]) == 0) {
                *out = i;
                return 0;
            }
        }
        set_error(err, errsz, "%s: bad value '%s' for %s (allowed: %s)",
                  g->name, text, p->name, allowed);
        return -1;
    }
    char *end;
    long x = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || x < (p->type == PARAM_BOOL ? 0 : p->min)
        || x > (p->type == PARAM_BOOL ? 1 : p->max)) {
        set_error(err, errsz, "%s: bad value '%s' for %s (allowed: %s)",
                  g->name, text, p->name, allowed);
        return -1;
    }
    *out = (int)x;
    return 0;
}

/* Copies the token [s, e) with surrounding spaces removed into buf. */
static void trim_copy(const char *s, const char *e, char *buf, size_t n)
{
    while (s < e && isspace((unsigned char)*s))
        s++;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    size_t len = (size_t)(e - s);
    if (len >= n)
        len = n - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
}

static int parse_assignment(struct variant *v, const char *s, const char *e,
                            int *seen, char *err, size_t errsz)
{
    const struct game *g = v->game;
    const char *eq = memchr(s, '=', (size_t)(e - s));
    char key[64], val[64], keys[512];
    if (!eq) {
        trim_copy(s, e, key, sizeof key);
        set_error(err, errsz, "%s: expected key=value, got '%s'", g->name,
                  key);
        return -1;
    }
    trim_copy(s, eq, key, sizeof key);
    trim_copy(eq + 1, e, val, sizeof val);
    for (int i = 0; i < g->n_params; i++) {
        if (strcmp(key, g->params[i].name) != 0)
            continue;
        if (seen[i]) {
            set_error(err, errsz, "%s: key '%s' given twice", g->name, key);
            return -1;
        }
        seen[i] = 1;
        return parse_value(g, &g->params[i], val, &v->values[i], err, errsz);
    }
    list_keys(g, keys, sizeof keys);
    set_error(err, errsz, "%s: unknown key '%s' (keys: %s)", g->name, key,
              keys);
    return -1;
}

int variant_parse(const char *text, struct variant *v, char *err, size_t errsz)
{
    char name[64], games[256];
    const char *open = strchr(text, '(');
    const char *name_end = open ? open : text + strlen(text);
    trim_copy(text, name_end, name, sizeof name);
    const struct game *g = game_find(name);
    if (!g) {
        list_games(games, sizeof games);
        set_error(err, errsz, "unknown game '%s' (games: %s)", name, games);
        return -1;
    }
    variant_default(g, v);
    if (!open)
        return 0;
    const char *close = strrchr(open, ')');
    const char *p = close ? close + 1 : NULL;
    while (p && isspace((unsigned char)*p))
        p++;
    if (!close || *p != '\0' || memchr(open + 1, '(', (size_t)(close - open))
        || memchr(open + 1, ')', (size_t)(close - open - 1))) {
        set_error(err, errsz, "%s: malformed variant '%s' (expected %s or "
                  "%s(key=value,...))", g->name, text, g->name, g->name);
        return -1;
    }
    int seen[VARIANT_MAX_PARAMS] = {0};
    const char *s = open + 1;
    char body[VARIANT_TEXT_MAX];
    trim_copy(s, close, body, sizeof body);
    if (body[0] == '\0')
        return 0;
    while (s <= close) {
        const char *comma = memchr(s, ',', (size_t)(close - s));
        const char *e = comma ? comma : close;
        if (parse_assignment(v, s, e, seen, err, errsz) != 0)
            return -1;
        s = e + 1;
    }
    return 0;
}

int variant_canonical(const struct variant *v, char *buf, size_t n)
{
    const struct game *g = v->game;
    int order[VARIANT_MAX_PARAMS];
    for (int i = 0; i < g->n_params; i++) {
        int j = i;
        while (j > 0 && strcmp(g->params[order[j - 1]].name,
                               g->params[i].name) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    size_t len = 0;
    int w = snprintf(buf, n, "%s(", g->name);
    if (w < 0 || (size_t)w >= n)
        return -1;
    len = (size_t)w;
    for (int k = 0; k < g->n_params; k++) {
        const struct param_spec *p = &g->params[order[k]];
        char val[64];
        variant_value_text(p, v->values[order[k]], val, sizeof val);
        w = snprintf(buf + len, n - len, "%s%s=%s", k ? "," : "", p->name, val);
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    w = snprintf(buf + len, n - len, ")");
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)(len + 1);
}

int variant_get(const struct variant *v, const char *name)
{
    for (int i = 0; i < v->game->n_params; i++)
        if (strcmp(v->game->params[i].name, name) == 0)
            return v->values[i];
    assert(!"variant_get: no such parameter");
    return 0;
}
