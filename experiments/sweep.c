/*
 * sweep.c -- reading a sweep file and expanding it into cells.
 *
 * The file is read by our own small INI reader, strict on purpose: sweep
 * files decide what is played and stored, so nothing in one may be read
 * differently from what it says. Lines are of any length; each line stands
 * alone (an indented line is read like any other, never as the rest of the
 * line above); `;` and `#` start comments, at the start of a line or after
 * a space; a key given twice in a section, a section opened twice, a NUL
 * byte, a control character or bytes that are not UTF-8 are errors naming
 * the line. Reading happens in two steps: read_lines() splits a writable
 * copy of the text into sections and entries (pointers into the copy, so
 * no length limits), then each section is interpreted in a fixed order
 * ([sweep], the games, [agents], [matchups]), so every error can name the
 * file and line of the entry at fault and say what is allowed.
 */
#include "sweep.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "rng.h"

/* Caps that keep a sweep from expanding without bound. */
#define MAX_VALUES 16 /* values in one game key's list */
#define MAX_ORDERED_PAIRS (SWEEP_MAX_AGENTS * SWEEP_MAX_AGENTS)
#define MAX_CELLS 100000

static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";

struct entry {
    char *key, *value; /* in the reader's copy, without spaces or comment */
    int line;
};

struct section {
    char name[16]; /* sweep, agents, matchups or game */
    const struct game *game; /* for [game NAME] */
    int line;
    int first, n_entries; /* its entries, contiguous in reader.entries */
};

struct reader {
    const char *path;
    char *copy; /* the text, split into lines in place */
    struct section *sections;
    int n_sections, cap_sections;
    struct entry *entries;
    int n_entries, cap_entries;
    char *err;
    size_t errsz;
    int failed;
    int read_files; /* 0: an openings FILE is not read (sweep_parse_stored) */
};

/* Writes "path:line: message" into r->err (the first error only) and
 * returns -1. Line 0 leaves the line out. */
static int fail(struct reader *r, int line, const char *fmt, ...)
{
    if (!r->failed && r->err && r->errsz) {
        int w = line > 0 ? snprintf(r->err, r->errsz, "%s:%d: ", r->path, line)
                         : snprintf(r->err, r->errsz, "%s: ", r->path);
        va_list ap;
        va_start(ap, fmt);
        if (w >= 0 && (size_t)w < r->errsz)
            vsnprintf(r->err + w, r->errsz - (size_t)w, fmt, ap);
        va_end(ap);
    }
    r->failed = 1;
    return -1;
}

/* ---- reading lines ------------------------------------------------------- */

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Narrows [*b, *e) to its text without spaces and tabs around it. */
static void trim(char **b, char **e)
{
    while (*b < *e && is_blank(**b))
        (*b)++;
    while (*e > *b && is_blank((*e)[-1]))
        (*e)--;
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0 if the
 * bytes there are not one (overlong forms and surrogates included). */
static size_t utf8_length(const unsigned char *p, size_t n)
{
    if (p[0] < 0x80)
        return 1;
    size_t len = p[0] >= 0xc2 && p[0] <= 0xdf   ? 2
                 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
                 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4
                                                : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f)
        || (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
        return 0;
    return len;
}

/* Checks the bytes of one line [b, e) (its '\n' excluded): UTF-8, no NUL,
 * no control character but tab, and CR only as the last byte. */
static int check_bytes(struct reader *r, int line, const char *b,
                       const char *e)
{
    for (const char *p = b; p < e;) {
        unsigned char c = (unsigned char)*p;
        if (c == 0)
            return fail(r, line, "NUL byte (a sweep file is UTF-8 text)");
        if ((c < 0x20 && c != '\t' && !(c == '\r' && p + 1 == e)) || c == 0x7f)
            return fail(r, line, "control character 0x%02x (allowed: tab, "
                        "and CR before the line end)", c);
        size_t len = utf8_length((const unsigned char *)p, (size_t)(e - p));
        if (len == 0)
            return fail(r, line, "not UTF-8 text (byte 0x%02x; a sweep file "
                        "is UTF-8)", c);
        p += len;
    }
    return 0;
}

/* Ends the line [b, *e) at its comment: `;` or `#` at its start or after
 * a space or tab. */
static void cut_comment(char *b, char **e)
{
    for (char *p = b; p < *e; p++)
        if ((*p == ';' || *p == '#') && (p == b || is_blank(p[-1]))) {
            *e = p;
            return;
        }
}

static int grow(struct reader *r, void **items, int *cap, size_t size)
{
    int n = *cap ? 2 * *cap : 16;
    void *grown = realloc(*items, size * (size_t)n);
    if (!grown)
        return fail(r, 0, "out of memory");
    *items = grown;
    *cap = n;
    return 0;
}

static void list_games(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; game_list[i]; i++) {
        int w = snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
                         game_list[i]->name);
        if (w < 0 || (size_t)w >= n - len)
            return;
        len += (size_t)w;
    }
}

/* Opens the section of the header [b, e) (brackets and all) on `line`. */
static int open_section(struct reader *r, int line, char *b, char *e)
{
    char *close = memchr(b, ']', (size_t)(e - b));
    if (!close)
        return fail(r, line, "section header without ']' (write [sweep], "
                    "[game NAME], [agents] or [matchups])");
    char *rest = close + 1;
    cut_comment(rest, &e);
    trim(&rest, &e);
    if (rest != e)
        return fail(r, line, "text after the section header (only a ; or # "
                    "comment may follow it)");
    char *nb = b + 1, *ne = close;
    trim(&nb, &ne);
    *ne = '\0';
    struct section sec = {"", NULL, line, r->n_entries, 0};
    if (strcmp(nb, "sweep") == 0 || strcmp(nb, "agents") == 0
        || strcmp(nb, "matchups") == 0) {
        strcpy(sec.name, nb);
    } else if (strncmp(nb, "game", 4) == 0 && is_blank(nb[4])) {
        char *game = nb + 4, *game_end = ne;
        trim(&game, &game_end);
        strcpy(sec.name, "game");
        sec.game = game_find(game);
        if (!sec.game) {
            char games[256];
            list_games(games, sizeof games);
            return fail(r, line, "unknown game '%s' in [%s] (games: %s)", game,
                        nb, games);
        }
    } else {
        return fail(r, line, "unknown section [%s] (sections: [sweep], "
                    "[game NAME], [agents], [matchups])", nb);
    }
    for (int i = 0; i < r->n_sections; i++) {
        const struct section *o = &r->sections[i];
        if (strcmp(o->name, sec.name) == 0 && o->game == sec.game)
            return fail(r, line, "[%s%s%s] opened twice (first at line %d); "
                        "open each section once", sec.name, sec.game ? " " : "",
                        sec.game ? sec.game->name : "", o->line);
    }
    if (r->n_sections == r->cap_sections
        && grow(r, (void **)&r->sections, &r->cap_sections, sizeof sec))
        return -1;
    r->sections[r->n_sections++] = sec;
    return 0;
}

/* Reads `key = value` from the line [b, e) into the current section. */
static int add_entry(struct reader *r, int line, char *b, char *e)
{
    char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq)
        return fail(r, line, "not INI: expected [section], key = value or a "
                    "; comment (each line stands alone: a list stays on one "
                    "line)");
    if (r->n_sections == 0)
        return fail(r, line, "key = value before any section (start with "
                    "[sweep])");
    char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
    trim(&kb, &ke);
    trim(&vb, &ve);
    if (kb == ke)
        return fail(r, line, "no key before '='");
    *ke = '\0';
    *ve = '\0';
    struct section *sec = &r->sections[r->n_sections - 1];
    for (int i = sec->first; i < sec->first + sec->n_entries; i++) {
        if (strcmp(r->entries[i].key, kb) != 0)
            continue;
        if (strcmp(sec->name, "agents") == 0)
            return fail(r, line, "agent '%s' named twice (first at line %d)",
                        kb, r->entries[i].line);
        return fail(r, line, "%s given twice in [%s%s%s] (first at line %d)",
                    kb, sec->name, sec->game ? " " : "",
                    sec->game ? sec->game->name : "", r->entries[i].line);
    }
    if (r->n_entries == r->cap_entries
        && grow(r, (void **)&r->entries, &r->cap_entries, sizeof(struct entry)))
        return -1;
    r->entries[r->n_entries++] = (struct entry){kb, vb, line};
    sec->n_entries++;
    return 0;
}

/* Splits r->copy (len bytes) into sections and entries. */
static int read_lines(struct reader *r, size_t len)
{
    char *p = r->copy, *end = r->copy + len;
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3; /* a UTF-8 byte order mark */
    for (int line = 1; p < end; line++) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *b = p, *e = nl ? nl : end;
        p = nl ? nl + 1 : end;
        if (check_bytes(r, line, b, e))
            return -1;
        if (e > b && e[-1] == '\r')
            e--;
        cut_comment(b, &e);
        trim(&b, &e);
        if (b == e)
            continue;
        if (*b == '[' ? open_section(r, line, b, e) : add_entry(r, line, b, e))
            return -1;
    }
    return 0;
}

/* ---- [sweep] ------------------------------------------------------------ */

/* A name of a sweep or an agent: 1 to SWEEP_NAME_MAX - 1 characters from
 * name_chars. */
static int valid_name(const char *name)
{
    size_t len = strlen(name);
    return len > 0 && len < SWEEP_NAME_MAX && strspn(name, name_chars) == len;
}

static int sweep_key(struct reader *r, const struct entry *e, struct sweep *s)
{
    if (strcmp(e->key, "name") == 0) {
        if (!valid_name(e->value))
            return fail(r, e->line, "name must be 1-%d letters, digits, "
                        "'_', '-' or '.' (ASCII), not '%s'",
                        SWEEP_NAME_MAX - 1, e->value);
        strcpy(s->name, e->value);
        return 0;
    }
    if (strcmp(e->key, "stop") == 0) {
        if (strcmp(e->value, "none") == 0)
            s->stop = STOP_NONE;
        else if (strcmp(e->value, "sprt") == 0)
            s->stop = STOP_SPRT;
        else if (strcmp(e->value, "ci") == 0)
            s->stop = STOP_CI;
        else
            return fail(r, e->line, "stop must be none, sprt or ci, not '%s'",
                        e->value);
        return 0;
    }
    static const struct { const char *key; double lo, hi; int whole; } keys[] = {
        {"seed", 0, 9007199254740991.0, 1}, {"games", 1, 10000000, 1},
        {"max_plies", 0, 100000, 1}, {"sprt_p0", 0.001, 0.999, 0},
        {"sprt_p1", 0.001, 0.999, 0}, {"alpha", 1e-6, 0.4, 0},
        {"beta", 1e-6, 0.4, 0}, {"ci_width", 1e-4, 1, 0},
        {"min_games", 1, 10000000, 1}};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        if (strcmp(e->key, keys[i].key) != 0)
            continue;
        double x = 0;
        if (spec_parse_number(e->value, keys[i].whole, &x) != 0
            || !(x >= keys[i].lo && x <= keys[i].hi)) {
            if (keys[i].whole)
                return fail(r, e->line, "%s must be a whole number from %.0f "
                            "to %.0f in decimal digits, not '%s'", e->key,
                            keys[i].lo, keys[i].hi, e->value);
            return fail(r, e->line, "%s must be a number from %g to %g "
                        "(decimal, like 0.05 or 5e-2), not '%s'", e->key,
                        keys[i].lo, keys[i].hi, e->value);
        }
        switch (i) {
        case 0: s->seed = (uint64_t)x; break;
        case 1: s->games_per_cell = (int)x; break;
        case 2: s->max_plies = (int)x; break;
        case 3: s->sprt_p0 = x; break;
        case 4: s->sprt_p1 = x; break;
        case 5: s->alpha = x; break;
        case 6: s->beta = x; break;
        case 7: s->ci_width = x; break;
        default: s->min_games = (int)x; break;
        }
        return 0;
    }
    return fail(r, e->line, "unknown key '%s' in [sweep] (keys: name, seed, "
                "games, max_plies, stop, sprt_p0, sprt_p1, alpha, beta, "
                "ci_width, min_games)", e->key);
}

/* ---- lists -------------------------------------------------------------- */

/* Takes the next comma-separated item of the list at *p, ends it with a
 * NUL and trims it; *p moves past it (NULL after the last). An empty item
 * is an error naming `what`. */
static int next_item(struct reader *r, int line, const char *what, char **p,
                     char **item)
{
    char *b = *p, *comma = strchr(b, ','), *e = comma ? comma : b + strlen(b);
    *p = comma ? comma + 1 : NULL;
    trim(&b, &e);
    if (b == e)
        return fail(r, line, "empty item in the list of %s (values are "
                    "separated by single commas, all on one line)", what);
    *e = '\0';
    *item = b;
    return 0;
}

/* ---- [game NAME] -------------------------------------------------------- */

struct game_key {
    const struct entry *entry;
    int param; /* index into game->params */
    int n_values;
    int values[MAX_VALUES]; /* as struct variant stores them */
};

struct game_section {
    const struct game *game;
    int line;
    int n_keys;
    struct game_key keys[VARIANT_MAX_PARAMS];
    const struct entry *openings; /* its `openings` key, if any */
    int openings_index; /* into sweep.openings, or -1 */
};

static int param_index(const struct game *g, const char *name)
{
    for (int i = 0; i < g->n_params; i++)
        if (strcmp(g->params[i].name, name) == 0)
            return i;
    return -1;
}

/* Reads one game key's list: each value checked by the variant parser on
 * its own, each at most once. */
static int game_key(struct reader *r, struct game_section *gs,
                    const struct entry *e)
{
    const struct game *g = gs->game;
    struct game_key *k = &gs->keys[gs->n_keys];
    k->param = param_index(g, e->key);
    if (k->param < 0) {
        char keys[512] = "";
        size_t len = 0;
        for (int i = 0; i < g->n_params; i++) {
            int w = snprintf(keys + len, sizeof keys - len, "%s%s",
                             i ? ", " : "", g->params[i].name);
            if (w < 0 || (size_t)w >= sizeof keys - len)
                break;
            len += (size_t)w;
        }
        return fail(r, e->line, "%s: unknown key '%s' (keys: %s)", g->name,
                    e->key, keys);
    }
    k->entry = e;
    k->n_values = 0;
    const char *texts[MAX_VALUES];
    for (char *p = e->value; p;) {
        char *item, err[512];
        if (next_item(r, e->line, e->key, &p, &item))
            return -1;
        if (k->n_values == MAX_VALUES)
            return fail(r, e->line, "more than %d values for %s", MAX_VALUES,
                        e->key);
        size_t n = strlen(g->name) + strlen(e->key) + strlen(item) + 4;
        char *text = malloc(n);
        if (!text)
            return fail(r, e->line, "out of memory");
        snprintf(text, n, "%s(%s=%s)", g->name, e->key, item);
        struct variant v;
        int rc = variant_parse(text, &v, err, sizeof err);
        free(text);
        if (rc != 0)
            return fail(r, e->line, "%s", err);
        int value = v.values[k->param];
        for (int j = 0; j < k->n_values; j++) {
            if (k->values[j] != value)
                continue;
            if (strcmp(texts[j], item) == 0)
                return fail(r, e->line, "%s lists %s twice (list each value "
                            "once)", e->key, item);
            return fail(r, e->line, "%s lists %s twice (the same value as %s); "
                        "list each value once", e->key, item, texts[j]);
        }
        texts[k->n_values] = item;
        k->values[k->n_values++] = value;
    }
    gs->n_keys++;
    return 0;
}

/* ---- [agents] and [matchups] ------------------------------------------ */

static int find_agent(const struct sweep *s, const char *name, size_t len)
{
    for (int i = 0; i < s->n_agents; i++)
        if (strlen(s->agents[i].name) == len
            && memcmp(s->agents[i].name, name, len) == 0)
            return i;
    return -1;
}

/* Adds the agent `name = spec`; lines[] holds each agent's line. */
static int agent_entry(struct reader *r, const struct entry *e,
                       struct sweep *s, int *lines)
{
    char err[4096];
    struct agent *a;
    if (!valid_name(e->key))
        return fail(r, e->line, "agent name '%s' is not allowed (1-%d "
                    "letters, digits, '_', '-' or '.', ASCII)", e->key,
                    SWEEP_NAME_MAX - 1);
    if (s->n_agents == SWEEP_MAX_AGENTS)
        return fail(r, e->line, "more than %d agents", SWEEP_MAX_AGENTS);
    /* Making the agent checks the spec; a seed of 0 and at once freed. */
    if (agent_create(e->value, 0, &a, err, sizeof err) != 0)
        return fail(r, e->line, "agent %s: %s", e->key, err);
    struct sweep_agent *sa = &s->agents[s->n_agents];
    int w = snprintf(sa->spec, sizeof sa->spec, "%s", a->spec);
    agent_free(a);
    if (w < 0 || (size_t)w >= sizeof sa->spec)
        return fail(r, e->line, "agent %s: its canonical spec is longer than "
                    "%d characters", e->key, (int)sizeof sa->spec - 1);
    for (int i = 0; i < s->n_agents; i++)
        if (strcmp(s->agents[i].spec, sa->spec) == 0)
            return fail(r, e->line, "agent %s is the same agent as %s (line "
                        "%d): both are %s, and their cells would share "
                        "results (give each name a different spec)", e->key,
                        s->agents[i].name, lines[i], sa->spec);
    strcpy(sa->name, e->key);
    lines[s->n_agents++] = e->line;
    return 0;
}

/* The ordered pairs (seat 0, seat 1) that `pairs` (or `all` when e is NULL)
 * and `orders` give; each at most once. */
static int parse_pairs(struct reader *r, const struct entry *e,
                       const struct sweep *s, int both_orders,
                       int (*ordered)[2], int *n_ordered)
{
    int listed[MAX_ORDERED_PAIRS][2], n_listed = 0;
    if (!e || strcmp(e->value, "all") == 0) {
        for (int i = 0; i < s->n_agents; i++)
            for (int j = i + 1; j < s->n_agents; j++) {
                listed[n_listed][0] = i;
                listed[n_listed++][1] = j;
            }
        if (n_listed == 0)
            return fail(r, e ? e->line : 1, "pairs = all needs two agents "
                        "or more");
    } else {
        for (char *p = e->value; p;) {
            char *item;
            if (next_item(r, e->line, "pairs", &p, &item))
                return -1;
            /* three words: A vs B */
            const char *word[4];
            size_t len[4];
            int n = 0;
            for (const char *q = item; *q && n < 4;) {
                while (is_blank(*q))
                    q++;
                word[n] = q;
                while (*q && !is_blank(*q))
                    q++;
                len[n] = (size_t)(q - word[n]);
                n++;
                while (is_blank(*q))
                    q++;
            }
            if (n != 3 || len[1] != 2 || memcmp(word[1], "vs", 2) != 0)
                return fail(r, e->line, "'%s' is no pair: write A vs B, with "
                            "agent names from [agents]", item);
            if (n_listed == MAX_ORDERED_PAIRS)
                return fail(r, e->line, "more than %d pairs",
                            MAX_ORDERED_PAIRS);
            for (int k = 0; k < 2; k++) {
                const char *name = word[2 * k];
                listed[n_listed][k] = find_agent(s, name, len[2 * k]);
                if (listed[n_listed][k] < 0)
                    return fail(r, e->line, "unknown agent '%.*s' (agents are "
                                "the names in [agents])", (int)len[2 * k],
                                name);
            }
            n_listed++;
        }
    }
    *n_ordered = 0;
    for (int i = 0; i < n_listed; i++) {
        int a = listed[i][0], b = listed[i][1];
        for (int j = 0; e && j < i; j++) {
            const char *c = s->agents[listed[j][0]].name;
            const char *d = s->agents[listed[j][1]].name;
            if (listed[j][0] == a && listed[j][1] == b)
                return fail(r, e->line, "pair '%s vs %s' listed twice (each "
                            "pair once)", c, d);
            if (both_orders && listed[j][0] == b && listed[j][1] == a)
                return fail(r, e->line, "pair '%s vs %s' is '%s vs %s' in the "
                            "other seat order, and orders = both plays each "
                            "pair in both orders (list it once, or set "
                            "orders = given)", d, c, c, d);
        }
        ordered[*n_ordered][0] = a;
        ordered[(*n_ordered)++][1] = b;
        if (both_orders && a != b) {
            ordered[*n_ordered][0] = b;
            ordered[(*n_ordered)++][1] = a;
        }
    }
    return 0;
}

/* ---- expansion ---------------------------------------------------------- */

/* Adds the cell (v, a0 vs a1) with the section's openings; line is its
 * game section's, for errors. */
static int add_cell(struct reader *r, struct sweep *s, int *cap, int line,
                    const struct variant *v, int a0, int a1, int openings)
{
    if (s->n_cells == *cap
        && grow(r, (void **)&s->cells, cap, sizeof(struct sweep_cell)))
        return -1;
    struct sweep_cell *c = &s->cells[s->n_cells];
    memset(c, 0, sizeof *c);
    c->variant = *v;
    if (variant_canonical(v, c->variant_text, sizeof c->variant_text) < 0)
        return fail(r, line, "a %s variant's canonical text is longer than %d "
                    "characters", v->game->name, VARIANT_TEXT_MAX - 1);
    c->agent[0] = a0;
    c->agent[1] = a1;
    c->openings = openings;
    s->n_cells++;
    return 0;
}

/* Expands one game section's product (the last key varying fastest) into
 * a cell for every ordered pair. The [sweep] max_plies applies where the
 * section does not set max_plies; max_plies_line is its line. */
static int expand_game(struct reader *r, struct sweep *s,
                       const struct game_section *gs, int (*ordered)[2],
                       int n_ordered, int max_plies_line, int *cap)
{
    int index[VARIANT_MAX_PARAMS] = {0};
    int cap_param = param_index(gs->game, "max_plies");
    for (int k = 0; k < gs->n_keys; k++)
        if (gs->keys[k].param == cap_param)
            cap_param = -2; /* the section sets it */
    if (s->max_plies >= 0 && cap_param != -2) {
        const struct param_spec *p = cap_param >= 0
                                         ? &gs->game->params[cap_param] : NULL;
        if (!p || s->max_plies < p->min || s->max_plies > p->max)
            return fail(r, max_plies_line, "max_plies = %d does not fit %s "
                        "(allowed there: %.0f..%.0f)", s->max_plies,
                        gs->game->name, p ? p->min : 0, p ? p->max : -1);
    }
    for (;;) {
        struct variant v;
        variant_default(gs->game, &v);
        for (int k = 0; k < gs->n_keys; k++)
            v.values[gs->keys[k].param] = gs->keys[k].values[index[k]];
        if (s->max_plies >= 0 && cap_param >= 0)
            v.values[cap_param] = s->max_plies;
        if (gs->openings_index >= 0) {
            char err[1024];
            if (openings_check(&s->openings[gs->openings_index], &v, err,
                               sizeof err))
                return fail(r, gs->openings->line, "%s", err);
        }
        for (int p = 0; p < n_ordered; p++)
            if (add_cell(r, s, cap, gs->line, &v, ordered[p][0],
                         ordered[p][1], gs->openings_index))
                return -1;
        int k = gs->n_keys - 1;
        while (k >= 0 && ++index[k] == gs->keys[k].n_values)
            index[k--] = 0;
        if (k < 0)
            return 0;
    }
}

/* ---- the whole file ------------------------------------------------------ */

/* Reads the `openings` key of a game section, if it has one other than
 * none, into the next of s->openings. */
static int read_openings(struct reader *r, struct sweep *s,
                         struct game_section *gs)
{
    gs->openings_index = -1;
    if (!gs->openings)
        return 0;
    if (!s->openings
        && !(s->openings = calloc(8, sizeof *s->openings)))
        return fail(r, gs->openings->line, "out of memory");
    struct openings *o = &s->openings[s->n_openings];
    char err[1024];
    if (openings_parse(gs->openings->value, r->path, r->read_files, o, err,
                       sizeof err))
        return fail(r, gs->openings->line, "%s", err);
    if (o->kind != OPENINGS_NONE)
        gs->openings_index = s->n_openings++;
    return 0;
}

/* The entries of the section called `name` (NULL, 0 if there is none). */
static const struct entry *section_entries(const struct reader *r,
                                           const char *name, int *n,
                                           int *line)
{
    for (int i = 0; i < r->n_sections; i++)
        if (strcmp(r->sections[i].name, name) == 0) {
            *n = r->sections[i].n_entries;
            *line = r->sections[i].line;
            /* no entries at all: r->entries may be NULL */
            return *n ? r->entries + r->sections[i].first : NULL;
        }
    *n = 0;
    *line = 1;
    return NULL;
}

static int interpret(struct reader *r, struct sweep *s)
{
    int n, line, has_name = 0, has_games = 0, max_plies_line = 1;
    const struct entry *e = section_entries(r, "sweep", &n, &line);
    for (int i = 0; i < n; i++) {
        has_name |= strcmp(e[i].key, "name") == 0;
        has_games |= strcmp(e[i].key, "games") == 0;
        if (strcmp(e[i].key, "max_plies") == 0)
            max_plies_line = e[i].line;
        if (sweep_key(r, &e[i], s))
            return -1;
    }
    if (!has_name)
        return fail(r, line, "[sweep] needs a name");
    if (!has_games)
        return fail(r, line, "[sweep] needs games (games per cell)");
    if (s->stop == STOP_SPRT && !(s->sprt_p0 < s->sprt_p1))
        return fail(r, line, "stop = sprt needs sprt_p0 < sprt_p1");

    struct game_section games[8];
    int n_games = 0;
    for (int i = 0; i < r->n_sections; i++) {
        const struct section *sec = &r->sections[i];
        if (!sec->game)
            continue;
        if (n_games == (int)(sizeof games / sizeof *games))
            return fail(r, sec->line, "too many [game] sections");
        struct game_section *gs = &games[n_games++];
        gs->game = sec->game;
        gs->line = sec->line;
        gs->n_keys = 0;
        gs->openings = NULL;
        for (int k = 0; k < sec->n_entries; k++) {
            const struct entry *ge = &r->entries[sec->first + k];
            if (strcmp(ge->key, "openings") == 0)
                gs->openings = ge;
            else if (game_key(r, gs, ge))
                return -1;
        }
        if (read_openings(r, s, gs))
            return -1;
    }
    if (n_games == 0) {
        char names[256];
        list_games(names, sizeof names);
        return fail(r, 1, "no [game NAME] section (games: %s)", names);
    }

    int agent_lines[SWEEP_MAX_AGENTS];
    e = section_entries(r, "agents", &n, &line);
    for (int i = 0; i < n; i++)
        if (agent_entry(r, &e[i], s, agent_lines))
            return -1;
    if (s->n_agents == 0)
        return fail(r, line, "no agents: add an [agents] section with "
                    "name = spec lines");

    const struct entry *pairs = NULL;
    int both_orders = 1;
    e = section_entries(r, "matchups", &n, &line);
    for (int i = 0; i < n; i++) {
        if (strcmp(e[i].key, "pairs") == 0) {
            pairs = &e[i];
        } else if (strcmp(e[i].key, "orders") == 0) {
            if (strcmp(e[i].value, "both") && strcmp(e[i].value, "given"))
                return fail(r, e[i].line, "orders must be both or given, "
                            "not '%s'", e[i].value);
            both_orders = strcmp(e[i].value, "both") == 0;
        } else {
            return fail(r, e[i].line, "unknown key '%s' in [matchups] "
                        "(keys: pairs, orders)", e[i].key);
        }
    }
    if (!pairs && s->n_agents < 2)
        return fail(r, line, "[matchups] pairs is missing (write pairs = "
                    "A vs B, ...; pairs = all needs two agents or more)");
    int ordered[MAX_ORDERED_PAIRS][2], n_ordered;
    if (parse_pairs(r, pairs, s, both_orders, ordered, &n_ordered))
        return -1;

    /* Count before making: at most MAX_CELLS (each value list holds at
     * most MAX_VALUES, so the running product stays far below overflow
     * as long as it is checked after each factor). */
    long long total = 0;
    for (int k = 0; k < n_games; k++) {
        long long cells = n_ordered;
        for (int i = 0; i < games[k].n_keys && cells <= MAX_CELLS; i++)
            cells *= games[k].keys[i].n_values;
        total += cells;
        if (total > MAX_CELLS)
            return fail(r, games[k].line, "the sweep expands to more than %d "
                        "cells (use fewer values or pairs)", MAX_CELLS);
    }
    int cap = 0;
    for (int k = 0; k < n_games; k++)
        if (expand_game(r, s, &games[k], ordered, n_ordered, max_plies_line,
                        &cap))
            return -1;
    return 0;
}

/* sweep_parse_bytes, reading openings files or not. */
static int parse(const char *path, const char *text, size_t len,
                 struct sweep *s, int read_files, char *err, size_t errsz)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->seed = 1;
    s->max_plies = -1;
    s->sprt_p0 = 0.5;
    s->sprt_p1 = 0.55;
    s->alpha = s->beta = 0.05;
    s->ci_width = 0.1;
    s->min_games = 10;
    struct reader r = {path, NULL, NULL, 0,     0,          NULL,
                       0,    0,    err,  errsz, 0, read_files};
    r.copy = malloc(len + 1);
    s->file_text = malloc(len + 1);
    if (!r.copy || !s->file_text) {
        fail(&r, 0, "out of memory");
    } else {
        memcpy(r.copy, text, len);
        r.copy[len] = '\0';
        memcpy(s->file_text, text, len);
        s->file_text[len] = '\0';
        if (read_lines(&r, len) == 0)
            interpret(&r, s);
        for (int i = 0; i < s->n_cells && !r.failed; i++)
            if (sweep_cell_seed_key(s, &s->cells[i], err, errsz) != 0)
                r.failed = 1;
    }
    free(r.copy);
    free(r.sections);
    free(r.entries);
    if (r.failed) {
        sweep_free(s);
        return -1;
    }
    return 0;
}

int sweep_parse_bytes(const char *path, const char *text, size_t len,
                      struct sweep *s, char *err, size_t errsz)
{
    return parse(path, text, len, s, 1, err, errsz);
}

int sweep_parse_stored(const char *text, struct sweep *s, char *err,
                       size_t errsz)
{
    return parse("the stored sweep file", text, strlen(text), s, 0, err,
                 errsz);
}

int sweep_parse(const char *path, const char *text, struct sweep *s,
                char *err, size_t errsz)
{
    return sweep_parse_bytes(path, text, strlen(text), s, err, errsz);
}

int sweep_load(const char *path, struct sweep *s, char *err, size_t errsz)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    int rc = -1;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 8192;
            char *grown = realloc(text, cap);
            if (!grown) {
                snprintf(err, errsz, "%s: out of memory", path);
                goto done;
            }
            text = grown;
        }
        size_t got = fread(text + len, 1, 4096, f);
        len += got;
        if (got < 4096)
            break;
    }
    if (ferror(f)) {
        snprintf(err, errsz, "%s: read error", path);
        goto done;
    }
    rc = sweep_parse_bytes(path, text, len, s, err, errsz);
done:
    free(text);
    fclose(f);
    return rc;
}

void sweep_free(struct sweep *s)
{
    for (int i = 0; i < s->n_openings; i++)
        openings_free(&s->openings[i]);
    free(s->openings);
    free(s->cells);
    free(s->file_text);
    s->openings = NULL;
    s->n_openings = 0;
    s->cells = NULL;
    s->file_text = NULL;
    s->n_cells = 0;
}

const struct openings *sweep_cell_openings(const struct sweep *s,
                                           const struct sweep_cell *c)
{
    return c->openings >= 0 ? &s->openings[c->openings] : NULL;
}

int sweep_cell_seed_key(const struct sweep *s, struct sweep_cell *c,
                        char *err, size_t errsz)
{
    char *key = c->seed_key;
    int len = variant_identity(&c->variant, key, VARIANT_TEXT_MAX);
    for (int k = 0; k < 2 && len >= 0; k++) {
        key[len++] = '\n';
        int w = agent_identity(s->agents[c->agent[k]].spec, key + len,
                               VARIANT_TEXT_MAX, err, errsz);
        len = w < 0 ? -1 : len + w;
    }
    const struct openings *o = sweep_cell_openings(s, c);
    if (o && len >= 0) {
        int w = snprintf(key + len, sizeof c->seed_key - (size_t)len,
                         "\nopenings=%s", o->identity);
        len = w < 0 || (size_t)(len + w) >= sizeof c->seed_key ? -1 : len + w;
    }
    if (len < 0) {
        snprintf(err, errsz, "%s: cell %s: its identity does not fit", s->path,
                 c->variant_text);
        return -1;
    }
    return 0;
}

uint64_t sweep_game_seed(const struct sweep *s, const struct sweep_cell *c,
                         int index)
{
    /* The hashes of the key's three lines, chained as they were when the
     * key was the canonical texts, which it still is for every identity of
     * version 1: so no stored seed ever changes. */
    char part[VARIANT_TEXT_MAX];
    const char *p = c->seed_key;
    uint64_t h = s->seed;
    assert(p[0] != '\0' && "sweep_cell_seed_key was not called");
    for (int k = 0; k < 3; k++) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(part, sizeof part, "%.*s", (int)n, p);
        h = rng_hash_string(k == 2 ? h ^ 0x5eed : h, part);
        p += n + (end ? 1 : 0);
    }
    h ^= (uint64_t)index * 0x9e3779b97f4a7c15ULL;
    return rng_splitmix64(&h);
}

int64_t sweep_pair_id(const struct sweep *s, const struct sweep_cell *c,
                      int index)
{
    const struct openings *o = sweep_cell_openings(s, c);
    if (!o)
        return 0;
    char line[4][VARIANT_TEXT_MAX];
    const char *p = c->seed_key;
    for (int k = 0; k < 4; k++) {
        size_t n = strcspn(p, "\n");
        snprintf(line[k], sizeof line[k], "%.*s", (int)n, p);
        p += n + (p[n] ? 1 : 0);
    }
    int swap = strcmp(line[1], line[2]) > 0; /* seat order left out */
    uint64_t h = rng_hash_string(s->seed ^ 0x9a17, line[0]);
    h = rng_hash_string(h, line[3]);
    h = rng_hash_string(h, line[1 + swap]);
    h = rng_hash_string(h ^ 0x5eed, line[2 - swap]);
    h ^= (uint64_t)index * 0x9e3779b97f4a7c15ULL;
    int64_t id = (int64_t)(rng_splitmix64(&h) & INT64_MAX);
    return id ? id : 1;
}
