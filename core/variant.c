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
    case PARAM_TEXT:
        return snprintf(buf, n, "text");
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

const char *spec_text_value(const struct spec_texts *texts, double value)
{
    return value < 0 || !texts || value >= texts->n ? ""
                                                     : texts->text[(int)value];
}

/* Whether c may stand in a text value written without quotes. */
static int bare_char(char c)
{
    return isalnum((unsigned char)c) || (c && strchr("_./:+-", c));
}

/* Writes text bare when it is a plain word, else in quotes with `"` and
 * `\` escaped. Length, or -1 if it does not fit. */
static int quote_text(const char *text, char *buf, size_t n)
{
    int bare = text[0] != '\0';
    for (const char *c = text; *c && bare; c++)
        bare = bare_char(*c);
    if (bare)
        return snprintf(buf, n, "%s", text);
    size_t len = 0;
    if (n < 3)
        return -1;
    buf[len++] = '"';
    for (const char *c = text; *c; c++) {
        if (len + 4 > n) /* an escape, the byte, the closing quote, NUL */
            return -1;
        if (*c == '"' || *c == '\\')
            buf[len++] = '\\';
        buf[len++] = *c;
    }
    buf[len++] = '"';
    buf[len] = '\0';
    return (int)len;
}

/* param_value_text, with the texts of text parameters (texts may be
 * NULL). */
static int value_text(const struct param_spec *p, double value,
                      const struct spec_texts *texts, char *buf, size_t n)
{
    if (p->type == PARAM_TEXT && texts)
        return quote_text(spec_text_value(texts, value), buf, n);
    if (p->type == PARAM_TEXT)
        return snprintf(buf, n, value < 0 ? "\"\"" : "(text)");
    return param_value_text(p, value, buf, n);
}

int param_value_text(const struct param_spec *p, double value, char *buf,
                     size_t n)
{
    if (p->type == PARAM_TEXT)
        return value_text(p, value, NULL, buf, n);
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
/* Reads the text value [b, e) of parameter p into texts: a bare word or
 * one whole quoted text. Returns 0 with *out its index, or -1 with the
 * error set. */
static int parse_text(const char *owner, const struct param_spec *p,
                      const char *b, const char *e, double *out,
                      struct spec_texts *texts, char *err, size_t errsz)
{
    if (!texts || texts->n == SPEC_MAX_TEXTS)
        return game_error(err, errsz, "%s: no room for the text of %s",
                          owner, p->name);
    char *t = texts->text[texts->n];
    size_t len = 0;
    const char *c = b;
    if (*b != '"') {
        while (c < e && bare_char(*c) && len + 1 < SPEC_TEXT_MAX)
            t[len++] = *c++;
        if (c < e || len == 0)
            return game_error(err, errsz, "%s: value '%.*s' for %s is no "
                              "bare word of at most %d bytes (letters, "
                              "digits and _ . / : + -): put it in double "
                              "quotes", owner, (int)(e - b), b, p->name,
                              SPEC_TEXT_MAX - 1);
    } else {
        for (c = b + 1; c < e && *c != '"' && len + 1 < SPEC_TEXT_MAX; c++) {
            if (*c == '\\' && (c + 1 == e || (c[1] != '"' && c[1] != '\\')))
                return game_error(err, errsz, "%s: in the text of %s, a "
                                  "backslash escapes only \" and \\",
                                  owner, p->name);
            c += *c == '\\';
            t[len++] = *c;
        }
        if (c + 1 != e || *c != '"')
            return game_error(err, errsz, "%s: the text of %s must be one "
                              "quoted text of at most %d bytes", owner,
                              p->name, SPEC_TEXT_MAX - 1);
    }
    t[len] = '\0';
    for (const char *x = t; *x; x++)
        if ((unsigned char)*x < 0x20 || *x == 0x7f)
            return game_error(err, errsz, "%s: control character 0x%02x in "
                              "the text of %s", owner, (unsigned char)*x,
                              p->name);
    *out = texts->n++;
    return 0;
}

static int parse_value(const char *owner, const struct param_spec *p,
                       const char *b, const char *e, double *out,
                       struct spec_texts *texts, char *err, size_t errsz)
{
    char allowed[256];
    size_t len = (size_t)(e - b);
    param_allowed_text(p, allowed, sizeof allowed);
    if (p->type == PARAM_TEXT)
        return parse_text(owner, p, b, e, out, texts, err, errsz);
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
                            int *seen, double *values,
                            struct spec_texts *texts, char *err, size_t errsz)
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
        return parse_value(owner, &params[i], vb, ve, &values[i], texts, err,
                           errsz);
    }
    list_keys(params, n_params, keys, sizeof keys);
    game_error(err, errsz, "%s: unknown key '%.*s' (keys: %s)", owner,
               (int)klen, kb, n_params ? keys : "none");
    return -1;
}

/* Scans [b, e) for the first c outside double quotes (a quote's
 * backslash escapes skipped). Returns it, or NULL; *open (may be NULL)
 * gets whether a quote is open where the scan stopped. */
static const char *scan_unquoted(const char *b, const char *e, char c,
                                 int *open)
{
    int quoted = 0;
    const char *found = NULL;
    for (const char *p = b; p < e && !found; p++) {
        if (quoted && *p == '\\' && p + 1 < e)
            p++;
        else if (*p == '"')
            quoted = !quoted;
        else if (!quoted && *p == c)
            found = p;
    }
    if (open)
        *open = quoted;
    return found;
}

const char *spec_find_unquoted(const char *b, const char *e, char c)
{
    return scan_unquoted(b, e, c, NULL);
}

/* Whether [b, e) (text without a NUL) leaves a double quote open. */
static int quote_left_open(const char *b, const char *e)
{
    int open;
    scan_unquoted(b, e, '\0', &open);
    return open;
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
    /* The one ')' outside quotes ends the text, spaces apart; no '('
     * outside quotes between. */
    const char *end = open + strlen(open);
    if (quote_left_open(open + 1, end)) {
        game_error(err, errsz, "%s: a double quote is left open in '%s'",
                   name, text);
        return -1;
    }
    const char *close = spec_find_unquoted(open + 1, end, ')');
    const char *p = close ? close + 1 : NULL;
    while (p && isspace((unsigned char)*p))
        p++;
    if (!close || *p != '\0' || spec_find_unquoted(open + 1, close, '(')) {
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
                    double *values, struct spec_texts *texts, char *err,
                    size_t errsz)
{
    assert(n_params <= VARIANT_MAX_PARAMS);
    if (texts)
        texts->n = 0;
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
        const char *comma = spec_find_unquoted(s, args_end, ',');
        const char *e = comma ? comma : args_end;
        if (parse_assignment(owner, params, n_params, s, e, seen, values,
                             texts, err, errsz) != 0)
            return -1;
        s = e + 1;
    }
    return 0;
}

/* Writes owner(key=value,...) with the keys keep[] marks, sorted; with
 * bare set and no key kept, just owner. Length or -1. */
static int spec_text(const char *owner, const struct param_spec *params,
                     int n_params, const double *values,
                     const struct spec_texts *texts, const int *keep,
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
        char val[2 * SPEC_TEXT_MAX + 3];
        if (!keep[order[k]])
            continue;
        if (value_text(p, values[order[k]], texts, val, sizeof val) < 0)
            return -1;
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
                   int n_params, const double *values,
                   const struct spec_texts *texts, char *buf, size_t n)
{
    int keep[VARIANT_MAX_PARAMS];
    for (int i = 0; i < n_params; i++)
        keep[i] = 1;
    return spec_text(owner, params, n_params, values, texts, keep, 0, buf, n);
}

int spec_identity(const char *owner, const struct param_spec *params,
                  int n_params, const double *values,
                  const struct spec_texts *texts, char *buf, size_t n)
{
    int keep[VARIANT_MAX_PARAMS];
    for (int i = 0; i < n_params; i++) {
        char val[2 * SPEC_TEXT_MAX + 3], def[64];
        value_text(&params[i], values[i], texts, val, sizeof val);
        value_text(&params[i], params[i].def, texts, def, sizeof def);
        keep[i] = params[i].since <= 1 || strcmp(val, def) != 0;
    }
    return spec_text(owner, params, n_params, values, texts, keep, 1, buf, n);
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
                        values, NULL, err, errsz) != 0)
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
    return spec_canonical(g->name, g->params, g->n_params, values, NULL, buf,
                          n);
}

int variant_identity(const struct variant *v, char *buf, size_t n)
{
    const struct game *g = v->game;
    double values[VARIANT_MAX_PARAMS];
    for (int i = 0; i < g->n_params; i++)
        values[i] = v->values[i];
    return spec_identity(g->name, g->params, g->n_params, values, NULL, buf,
                         n);
}

int variant_get(const struct variant *v, const char *name)
{
    for (int i = 0; i < v->game->n_params; i++)
        if (strcmp(v->game->params[i].name, name) == 0)
            return v->values[i];
    assert(!"variant_get: no such parameter");
    return 0;
}
