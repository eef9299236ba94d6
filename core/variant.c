/*
 * variant.c -- parsing and printing specs `name(key=value,...)`: game
 * variants here, and through the spec_* functions agent specs too.
 *
 * The parser is strict: every key must be one the owner declares, every
 * value must be allowed, a key may appear once, and junk is named in the
 * error. Errors list what would have been accepted, so a user can fix the
 * string without opening the docs.
 */
#include "variant.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

int param_allowed_text(const struct param_spec *p, char *buf, size_t n)
{
    switch (p->type) {
    case PARAM_BOOL:
        return snprintf(buf, n, "0 or 1");
    case PARAM_INT:
        return snprintf(buf, n, "%.0f..%.0f", p->min, p->max);
    case PARAM_REAL:
        return snprintf(buf, n, "%g..%g", p->min, p->max);
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

int param_value_text(const struct param_spec *p, double value, char *buf,
                     size_t n)
{
    if (p->type == PARAM_ENUM)
        return snprintf(buf, n, "%s", p->choices[(int)value]);
    if (p->type == PARAM_REAL)
        return snprintf(buf, n, "%g", value);
    return snprintf(buf, n, "%.0f", value);
}

/* Lists names, comma-separated, for error messages. */
static void list_keys(const struct param_spec *params, int n_params,
                      char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n_params && len < n; i++) {
        int w = snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
                         params[i].name);
        if (w < 0)
            return;
        len += (size_t)w;
    }
}

/* Parses one value of parameter p. Returns 0 or -1 with the error set. */
static int parse_value(const char *owner, const struct param_spec *p,
                       const char *text, double *out, char *err, size_t errsz)
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
    } else {
        char *end;
        errno = 0;
        double x = p->type == PARAM_REAL ? strtod(text, &end)
                                         : (double)strtol(text, &end, 10);
        double lo = p->type == PARAM_BOOL ? 0 : p->min;
        double hi = p->type == PARAM_BOOL ? 1 : p->max;
        if (*text != '\0' && *end == '\0' && !errno && isfinite(x) && x >= lo
            && x <= hi) {
            *out = x;
            return 0;
        }
    }
    game_error(err, errsz, "%s: bad value '%s' for %s (allowed: %s)", owner,
              text, p->name, allowed);
    return -1;
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

static int parse_assignment(const char *owner, const struct param_spec *params,
                            int n_params, const char *s, const char *e,
                            int *seen, double *values, char *err, size_t errsz)
{
    const char *eq = memchr(s, '=', (size_t)(e - s));
    char key[64], val[64], keys[512];
    if (!eq) {
        trim_copy(s, e, key, sizeof key);
        game_error(err, errsz, "%s: expected key=value, got '%s'", owner, key);
        return -1;
    }
    trim_copy(s, eq, key, sizeof key);
    trim_copy(eq + 1, e, val, sizeof val);
    for (int i = 0; i < n_params; i++) {
        if (strcmp(key, params[i].name) != 0)
            continue;
        if (seen[i]) {
            game_error(err, errsz, "%s: key '%s' given twice", owner, key);
            return -1;
        }
        seen[i] = 1;
        return parse_value(owner, &params[i], val, &values[i], err, errsz);
    }
    list_keys(params, n_params, keys, sizeof keys);
    game_error(err, errsz, "%s: unknown key '%s' (keys: %s)", owner, key,
              n_params ? keys : "none");
    return -1;
}

int spec_split(const char *text, char *name, size_t name_size,
               const char **args, const char **args_end, char *err,
               size_t errsz)
{
    const char *open = strchr(text, '(');
    trim_copy(text, open ? open : text + strlen(text), name, name_size);
    *args = *args_end = NULL;
    if (!open) {
        if (strchr(text, ')')) {
            game_error(err, errsz, "malformed '%s' (expected %s or "
                      "%s(key=value,...))", text, name, name);
            return -1;
        }
        return 0;
    }
    const char *close = strrchr(open, ')');
    const char *p = close ? close + 1 : NULL;
    while (p && isspace((unsigned char)*p))
        p++;
    if (!close || *p != '\0' || memchr(open + 1, '(', (size_t)(close - open))
        || memchr(open + 1, ')', (size_t)(close - open - 1))) {
        game_error(err, errsz, "%s: malformed '%s' (expected %s or "
                  "%s(key=value,...))", name, text, name, name);
        return -1;
    }
    *args = open + 1;
    *args_end = close;
    return 0;
}

int spec_parse_args(const char *owner, const struct param_spec *params,
                    int n_params, const char *args, const char *args_end,
                    double *values, char *err, size_t errsz)
{
    assert(n_params <= VARIANT_MAX_PARAMS);
    for (int i = 0; i < n_params; i++)
        values[i] = params[i].def;
    if (!args)
        return 0;
    char body[VARIANT_TEXT_MAX];
    trim_copy(args, args_end, body, sizeof body);
    if (body[0] == '\0')
        return 0;
    int seen[VARIANT_MAX_PARAMS] = {0};
    for (const char *s = args; s <= args_end;) {
        const char *comma = memchr(s, ',', (size_t)(args_end - s));
        const char *e = comma ? comma : args_end;
        if (parse_assignment(owner, params, n_params, s, e, seen, values, err,
                             errsz) != 0)
            return -1;
        s = e + 1;
    }
    return 0;
}

/* Writes owner(key=value,...) with the keys keep[] marks, sorted; with
 * bare set and no key kept, just owner. Length or -1. */
static int spec_text(const char *owner, const struct param_spec *params,
                     int n_params, const double *values, const int *keep,
                     int bare, char *buf, size_t n)
{
    int order[VARIANT_MAX_PARAMS];
    for (int i = 0; i < n_params; i++) {
        int j = i;
        while (j > 0 && strcmp(params[order[j - 1]].name, params[i].name) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    int kept = 0;
    for (int i = 0; i < n_params; i++)
        kept += keep[i] != 0;
    int w = snprintf(buf, n, bare && !kept ? "%s" : "%s(", owner);
    if (w < 0 || (size_t)w >= n)
        return -1;
    if (bare && !kept)
        return w;
    size_t len = (size_t)w;
    for (int k = 0, written = 0; k < n_params; k++) {
        const struct param_spec *p = &params[order[k]];
        char val[64];
        if (!keep[order[k]])
            continue;
        param_value_text(p, values[order[k]], val, sizeof val);
        w = snprintf(buf + len, n - len, "%s%s=%s", written++ ? "," : "",
                     p->name, val);
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    w = snprintf(buf + len, n - len, ")");
    if (w < 0 || (size_t)w >= n - len)
        return -1;
    return (int)(len + 1);
}

int spec_canonical(const char *owner, const struct param_spec *params,
                   int n_params, const double *values, char *buf, size_t n)
{
    int keep[VARIANT_MAX_PARAMS];
    for (int i = 0; i < n_params; i++)
        keep[i] = 1;
    return spec_text(owner, params, n_params, values, keep, 0, buf, n);
}

int spec_identity(const char *owner, const struct param_spec *params,
                  int n_params, const double *values, char *buf, size_t n)
{
    int keep[VARIANT_MAX_PARAMS];
    for (int i = 0; i < n_params; i++) {
        char val[64], def[64];
        param_value_text(&params[i], values[i], val, sizeof val);
        param_value_text(&params[i], params[i].def, def, sizeof def);
        keep[i] = params[i].since <= 1 || strcmp(val, def) != 0;
    }
    return spec_text(owner, params, n_params, values, keep, 1, buf, n);
}

/* ---- game variants --------------------------------------------------- */

void variant_default(const struct game *g, struct variant *v)
{
    assert(g->n_params <= VARIANT_MAX_PARAMS);
    memset(v, 0, sizeof *v);
    v->game = g;
    for (int i = 0; i < g->n_params; i++)
        v->values[i] = (int)g->params[i].def;
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

int variant_parse(const char *text, struct variant *v, char *err, size_t errsz)
{
    char name[64], games[256];
    const char *args, *args_end;
    if (spec_split(text, name, sizeof name, &args, &args_end, err, errsz) != 0)
        return -1;
    const struct game *g = game_find(name);
    if (!g) {
        list_games(games, sizeof games);
        game_error(err, errsz, "unknown game '%s' (games: %s)", name, games);
        return -1;
    }
    double values[VARIANT_MAX_PARAMS];
    if (spec_parse_args(g->name, g->params, g->n_params, args, args_end,
                        values, err, errsz) != 0)
        return -1;
    variant_default(g, v);
    for (int i = 0; i < g->n_params; i++)
        v->values[i] = (int)values[i];
    return 0;
}

int variant_canonical(const struct variant *v, char *buf, size_t n)
{
    const struct game *g = v->game;
    double values[VARIANT_MAX_PARAMS];
    for (int i = 0; i < g->n_params; i++)
        values[i] = v->values[i];
    return spec_canonical(g->name, g->params, g->n_params, values, buf, n);
}

int variant_identity(const struct variant *v, char *buf, size_t n)
{
    const struct game *g = v->game;
    double values[VARIANT_MAX_PARAMS];
    for (int i = 0; i < g->n_params; i++)
        values[i] = v->values[i];
    return spec_identity(g->name, g->params, g->n_params, values, buf, n);
}

int variant_get(const struct variant *v, const char *name)
{
    for (int i = 0; i < v->game->n_params; i++)
        if (strcmp(v->game->params[i].name, name) == 0)
            return v->values[i];
    assert(!"variant_get: no such parameter");
    return 0;
}
