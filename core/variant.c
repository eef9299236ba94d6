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

int spec_parse_number(const char *text, int whole, double *out)
{
    const char *p = text;
    int digits = 0;
    if (*p == '-')
        p++;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (!whole && *p == '.') {
        p++;
        while (isdigit((unsigned char)*p))
            p++, digits++;
    }
    if (digits == 0)
        return -1;
    if (!whole && (*p == 'e' || *p == 'E')) {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p != '\0')
        return -1;
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (end != p || errno || !isfinite(x))
        return -1;
    *out = x == 0 ? 0.0 : x; /* -0 is 0: one value, one canonical text */
    return 0;
}

/* Parses the value [b, e) (no surrounding spaces) of parameter p, of any
 * length. Returns 0 or -1 with the error set. */
static int parse_value(const char *owner, const struct param_spec *p,
                       const char *b, const char *e, double *out, char *err,
                       size_t errsz)
{
    char allowed[256];
    size_t len = (size_t)(e - b);
    param_allowed_text(p, allowed, sizeof allowed);
    if (p->type == PARAM_ENUM) {
        for (int i = 0; p->choices[i]; i++) {
            if (strlen(p->choices[i]) == len
                && memcmp(b, p->choices[i], len) == 0) {
                *out = i;
                return 0;
            }
        }
    } else {
        char *text = malloc(len + 1);
        if (!text)
            return game_error(err, errsz, "%s: out of memory", owner);
        memcpy(text, b, len);
        text[len] = '\0';
        double x = 0;
        int ok = spec_parse_number(text, p->type != PARAM_REAL, &x) == 0;
        free(text);
        double lo = p->type == PARAM_BOOL ? 0 : p->min;
        double hi = p->type == PARAM_BOOL ? 1 : p->max;
        if (ok && x >= lo && x <= hi) {
            char canonical[64];
            param_value_text(p, x, canonical, sizeof canonical);
            if (p->type == PARAM_REAL && strtod(canonical, NULL) != x)
                return game_error(err, errsz, "%s: value '%.*s' for %s has "
                                  "more digits than its canonical text '%s' "
                                  "keeps (6 significant digits)", owner,
                                  (int)len, b, p->name, canonical);
            *out = x;
            return 0;
        }
    }
    game_error(err, errsz, "%s: bad value '%.*s' for %s (allowed: %s)", owner,
               (int)len, b, p->name, allowed);
    return -1;
}

/* Narrows [*b, *e) to its text without surrounding spaces. */
static void trim_range(const char **b, const char **e)
{
    while (*b < *e && isspace((unsigned char)**b))
        (*b)++;
    while (*e > *b && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

/* Copies the token [s, e) with surrounding spaces removed into buf.
 * Returns 0, or -1 when it does not fit (buf then holds nothing). */
static int trim_copy(const char *s, const char *e, char *buf, size_t n)
{
    trim_range(&s, &e);
    size_t len = (size_t)(e - s);
    buf[0] = '\0';
    if (len >= n)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return 0;
}

/* Reads one `key = value` in [s, e): keys and values of any length. */
static int parse_assignment(const char *owner, const struct param_spec *params,
                            int n_params, const char *s, const char *e,
                            int *seen, double *values, char *err, size_t errsz)
{
    const char *eq = memchr(s, '=', (size_t)(e - s));
    char keys[512];
    if (!eq) {
        trim_range(&s, &e);
        game_error(err, errsz, "%s: expected key=value, got '%.*s'", owner,
                   (int)(e - s), s);
        return -1;
    }
    const char *kb = s, *ke = eq, *vb = eq + 1, *ve = e;
    trim_range(&kb, &ke);
    trim_range(&vb, &ve);
    size_t klen = (size_t)(ke - kb);
    for (int i = 0; i < n_params; i++) {
        if (strlen(params[i].name) != klen
            || memcmp(kb, params[i].name, klen) != 0)
            continue;
        if (seen[i]) {
            game_error(err, errsz, "%s: key '%s' given twice", owner,
                       params[i].name);
            return -1;
        }
        seen[i] = 1;
        return parse_value(owner, &params[i], vb, ve, &values[i], err, errsz);
    }
    list_keys(params, n_params, keys, sizeof keys);
    game_error(err, errsz, "%s: unknown key '%.*s' (keys: %s)", owner,
               (int)klen, kb, n_params ? keys : "none");
    return -1;
}

int spec_split(const char *text, char *name, size_t name_size,
               const char **args, const char **args_end, char *err,
               size_t errsz)
{
    const char *open = strchr(text, '(');
    const char *name_end = open ? open : text + strlen(text);
    *args = *args_end = NULL;
    if (trim_copy(text, name_end, name, name_size) != 0) {
        const char *b = text;
        trim_range(&b, &name_end);
        game_error(err, errsz, "name '%.*s' is too long (at most %zu "
                   "characters)", (int)(name_end - b), b, name_size - 1);
        return -1;
    }
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
    const char *first = args, *last = args_end;
    trim_range(&first, &last);
    if (first == last)
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
