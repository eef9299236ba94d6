/*
 * sweep.c -- reading a sweep file and expanding it into cells.
 *
 * Reading happens in two steps. libinih hands every key to collect(),
 * which only checks the section and stores the entry with its line number
 * (counted by our own line reader, since the packaged inih does not pass
 * line numbers). Then each section is interpreted, so every error can name
 * the file and line of the entry at fault and say what is allowed.
 */
#include "sweep.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "rng.h"

struct entry {
    char section[64], key[64], value[256];
    int line;
};

struct reader {
    const char *path, *text, *pos;
    int line;
    struct entry *entries;
    int n_entries, cap_entries;
    char *err;
    size_t errsz;
    int failed;
};

static int fail(struct reader *r, int line, const char *fmt, ...)
{
    if (!r->failed && r->err && r->errsz) {
        int w = snprintf(r->err, r->errsz, "%s:%d: ", r->path, line);
        va_list ap;
        va_start(ap, fmt);
        if (w >= 0 && (size_t)w < r->errsz)
            vsnprintf(r->err + w, r->errsz - (size_t)w, fmt, ap);
        va_end(ap);
    }
    r->failed = 1;
    return -1;
}

/* inih's line reader, counting lines. */
static char *read_line(char *str, int num, void *stream)
{
    struct reader *r = stream;
    if (!*r->pos)
        return NULL;
    int n = 0;
    while (n < num - 1 && r->pos[n] && r->pos[n] != '\n')
        n++;
    if (r->pos[n] == '\n' && n < num - 1)
        n++;
    memcpy(str, r->pos, (size_t)n);
    str[n] = '\0';
    r->pos += n;
    r->line++;
    return str;
}

static int known_section(const char *section)
{
    return strcmp(section, "sweep") == 0 || strcmp(section, "agents") == 0
           || strcmp(section, "matchups") == 0
           || strncmp(section, "game ", 5) == 0;
}

/* inih's handler: checks the section, stores the entry. */
static int collect(void *user, const char *section, const char *key,
                   const char *value)
{
    struct reader *r = user;
    int line = r->line; /* the line just read */
    if (!known_section(section))
        return fail(r, line, "unknown section [%s] (sections: [sweep], "
                    "[game NAME], [agents], [matchups])", section), 0;
    if (r->n_entries == r->cap_entries) {
        r->cap_entries = r->cap_entries ? 2 * r->cap_entries : 32;
        struct entry *grown = realloc(r->entries,
                                      sizeof *grown * (size_t)r->cap_entries);
        if (!grown)
            return fail(r, line, "out of memory"), 0;
        r->entries = grown;
    }
    struct entry *e = &r->entries[r->n_entries++];
    snprintf(e->section, sizeof e->section, "%s", section);
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->value, sizeof e->value, "%s", value);
    e->line = line;
    return 1;
}

/* ---- [sweep] ------------------------------------------------------------ */

static int parse_number(struct reader *r, const struct entry *e, double lo,
                        double hi, int whole, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(e->value, &end);
    if (!*e->value || *end || errno || x < lo || x > hi
        || (whole && x != (double)(long long)x))
        return fail(r, e->line, "%s must be a %s from %g to %g, not '%s'",
                    e->key, whole ? "whole number" : "number", lo, hi,
                    e->value);
    *out = x;
    return 0;
}

static int sweep_key(struct reader *r, const struct entry *e, struct sweep *s)
{
    double x = 0;
    if (strcmp(e->key, "name") == 0) {
        size_t len = strlen(e->value);
        if (len == 0 || len >= sizeof s->name
            || strspn(e->value, "abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != len)
            return fail(r, e->line, "name must be 1-%d letters, digits, "
                        "'_', '-' or '.'", (int)sizeof s->name - 1);
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
        if (parse_number(r, e, keys[i].lo, keys[i].hi, keys[i].whole, &x))
            return -1;
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

/* ---- [agents] and [matchups] ------------------------------------------ */

static int find_agent(const struct sweep *s, const char *name)
{
    for (int i = 0; i < s->n_agents; i++)
        if (strcmp(s->agents[i].name, name) == 0)
            return i;
    return -1;
}

static int agent_entry(struct reader *r, const struct entry *e,
                       struct sweep *s)
{
    char err[4096];
    struct agent *a;
    if (find_agent(s, e->key) >= 0)
        return fail(r, e->line, "agent '%s' named twice", e->key);
    if (s->n_agents == SWEEP_MAX_AGENTS)
        return fail(r, e->line, "more than %d agents", SWEEP_MAX_AGENTS);
    if (strlen(e->key) >= SWEEP_NAME_MAX)
        return fail(r, e->line, "agent name '%s' is too long", e->key);
    /* Making the agent checks the spec; a seed of 0 and at once freed. */
    if (agent_create(e->value, 0, &a, err, sizeof err) != 0)
        return fail(r, e->line, "agent %s: %s", e->key, err);
    struct sweep_agent *sa = &s->agents[s->n_agents++];
    strcpy(sa->name, e->key);
    snprintf(sa->spec, sizeof sa->spec, "%s", a->spec);
    agent_free(a);
    return 0;
}

/* Copies the token [b, e) without surrounding spaces. */
static void trimmed(const char *b, const char *e, char *out, size_t n)
{
    while (b < e && isspace((unsigned char)*b))
        b++;
    while (e > b && isspace((unsigned char)e[-1]))
        e--;
    size_t len = (size_t)(e - b) < n - 1 ? (size_t)(e - b) : n - 1;
    memcpy(out, b, len);
    out[len] = '\0';
}

/* Adds the pairs of `pairs = A vs B, C vs D` (or `all`) into pairs[]. */
static int parse_pairs(struct reader *r, const struct entry *e,
                       const struct sweep *s, int (*pairs)[2], int *n_pairs)
{
    *n_pairs = 0;
    if (strcmp(e->value, "all") == 0) {
        for (int i = 0; i < s->n_agents; i++)
            for (int j = i + 1; j < s->n_agents; j++) {
                pairs[*n_pairs][0] = i;
                pairs[(*n_pairs)++][1] = j;
            }
        if (*n_pairs == 0)
            return fail(r, e->line, "pairs = all needs two agents or more");
        return 0;
    }
    for (const char *p = e->value; *p;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        char pair[256], names[2][SWEEP_NAME_MAX];
        trimmed(p, end, pair, sizeof pair);
        const char *vs = strstr(pair, " vs ");
        if (!vs)
            return fail(r, e->line, "'%s' is no pair: write A vs B, with "
                        "agent names from [agents]", pair);
        trimmed(pair, vs, names[0], sizeof names[0]);
        trimmed(vs + 4, pair + strlen(pair), names[1], sizeof names[1]);
        for (int k = 0; k < 2; k++) {
            pairs[*n_pairs][k] = find_agent(s, names[k]);
            if (pairs[*n_pairs][k] < 0)
                return fail(r, e->line, "unknown agent '%s' (agents in "
                            "[agents] come before [matchups])", names[k]);
        }
        if (++*n_pairs == SWEEP_MAX_AGENTS * SWEEP_MAX_AGENTS)
            return fail(r, e->line, "too many pairs");
        p = comma ? comma + 1 : end;
    }
    return 0;
}

/* ---- [game NAME] -------------------------------------------------------- */

struct game_section {
    const struct game *game;
    int line;
    int n_keys;
    const struct entry *keys[VARIANT_MAX_PARAMS];
    char values[VARIANT_MAX_PARAMS][16][64]; /* each key's list */
    int n_values[VARIANT_MAX_PARAMS];
};

static int add_cell(struct reader *r, struct sweep *s, int *cap,
                    const struct variant *v, int a0, int a1)
{
    if (s->n_cells == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        struct sweep_cell *grown = realloc(s->cells, sizeof *grown * (size_t)*cap);
        if (!grown)
            return fail(r, 0, "out of memory");
        s->cells = grown;
    }
    struct sweep_cell *c = &s->cells[s->n_cells++];
    c->variant = *v;
    variant_canonical(v, c->variant_text, sizeof c->variant_text);
    c->agent[0] = a0;
    c->agent[1] = a1;
    return 0;
}

/* Splits one game key's list and checks each value on its own. */
static int game_key(struct reader *r, struct game_section *gs,
                    const struct entry *e)
{
    char err[512], text[VARIANT_TEXT_MAX];
    for (int k = 0; k < gs->n_keys; k++)
        if (strcmp(gs->keys[k]->key, e->key) == 0)
            return fail(r, e->line, "%s given twice for %s", e->key,
                        gs->game->name);
    if (gs->n_keys == VARIANT_MAX_PARAMS)
        return fail(r, e->line, "too many keys");
    int k = gs->n_keys++;
    gs->keys[k] = e;
    gs->n_values[k] = 0;
    for (const char *p = e->value; *p;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        if (gs->n_values[k] == 16)
            return fail(r, e->line, "more than 16 values for %s", e->key);
        char *value = gs->values[k][gs->n_values[k]++];
        trimmed(p, end, value, 64);
        struct variant v;
        snprintf(text, sizeof text, "%s(%s=%s)", gs->game->name, e->key, value);
        if (variant_parse(text, &v, err, sizeof err) != 0)
            return fail(r, e->line, "%s", err);
        p = comma ? comma + 1 : end;
    }
    return 0;
}

/* Expands one game section's product into cells for every pair. */
static int expand_game(struct reader *r, struct sweep *s,
                       const struct game_section *gs, int (*pairs)[2],
                       int n_pairs, int both_orders, int *cap)
{
    int index[VARIANT_MAX_PARAMS] = {0};
    for (;;) {
        char text[VARIANT_TEXT_MAX], err[512];
        int len = snprintf(text, sizeof text, "%s(", gs->game->name);
        int has_cap = 0;
        for (int k = 0; k < gs->n_keys; k++) {
            len += snprintf(text + len, sizeof text - (size_t)len, "%s%s=%s",
                            k ? "," : "", gs->keys[k]->key,
                            gs->values[k][index[k]]);
            has_cap |= strcmp(gs->keys[k]->key, "max_plies") == 0;
        }
        if (s->max_plies >= 0 && !has_cap)
            len += snprintf(text + len, sizeof text - (size_t)len,
                            "%smax_plies=%d", gs->n_keys ? "," : "",
                            s->max_plies);
        snprintf(text + len, sizeof text - (size_t)len, ")");
        struct variant v;
        if (variant_parse(text, &v, err, sizeof err) != 0)
            return fail(r, gs->line, "%s", err);
        for (int p = 0; p < n_pairs; p++) {
            if (add_cell(r, s, cap, &v, pairs[p][0], pairs[p][1]))
                return -1;
            if (both_orders && pairs[p][0] != pairs[p][1]
                && add_cell(r, s, cap, &v, pairs[p][1], pairs[p][0]))
                return -1;
        }
        int k = gs->n_keys - 1;
        while (k >= 0 && ++index[k] == gs->n_values[k])
            index[k--] = 0;
        if (k < 0)
            return 0;
    }
}

/* ---- the whole file ------------------------------------------------------ */

static int interpret(struct reader *r, struct sweep *s)
{
    static int pairs[SWEEP_MAX_AGENTS * SWEEP_MAX_AGENTS][2];
    static struct game_section sections[8];
    int n_sections = 0, n_pairs = -1, both_orders = 1, pairs_line = 0;
    int has_name = 0, has_games = 0;
    for (int i = 0; i < r->n_entries; i++) {
        const struct entry *e = &r->entries[i];
        if (strcmp(e->section, "sweep") == 0) {
            has_name |= strcmp(e->key, "name") == 0;
            has_games |= strcmp(e->key, "games") == 0;
            if (sweep_key(r, e, s))
                return -1;
        } else if (strcmp(e->section, "agents") == 0) {
            if (agent_entry(r, e, s))
                return -1;
        } else if (strcmp(e->section, "matchups") == 0) {
            if (strcmp(e->key, "pairs") == 0) {
                pairs_line = e->line;
                if (parse_pairs(r, e, s, pairs, &n_pairs))
                    return -1;
            } else if (strcmp(e->key, "orders") == 0) {
                if (strcmp(e->value, "both") && strcmp(e->value, "given"))
                    return fail(r, e->line, "orders must be both or given, "
                                "not '%s'", e->value);
                both_orders = strcmp(e->value, "both") == 0;
            } else {
                return fail(r, e->line, "unknown key '%s' in [matchups] "
                            "(keys: pairs, orders)", e->key);
            }
        } else {
            const char *name = e->section + 5;
            struct game_section *gs = NULL;
            for (int k = 0; k < n_sections; k++)
                if (strcmp(sections[k].game->name, name) == 0)
                    gs = &sections[k];
            if (!gs) {
                const struct game *g = game_find(name);
                if (!g)
                    return fail(r, e->line, "unknown game '%s' in [game %s]",
                                name, name);
                if (n_sections == 8)
                    return fail(r, e->line, "too many [game] sections");
                gs = &sections[n_sections++];
                memset(gs, 0, sizeof *gs);
                gs->game = g;
                gs->line = e->line;
            }
            if (game_key(r, gs, e))
                return -1;
        }
    }
    /* A [game NAME] section without keys plays the defaults; inih does
     * not report empty sections, so find them in the text. */
    int line = 1;
    for (const char *p = r->text; *p; line++) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char buf[128];
        trimmed(p, p + (len < 127 ? len : 127), buf, sizeof buf);
        if (strncmp(buf, "[game ", 6) == 0 && buf[strlen(buf) - 1] == ']') {
            buf[strlen(buf) - 1] = '\0';
            const char *name = buf + 6;
            int found = 0;
            for (int k = 0; k < n_sections; k++)
                found |= strcmp(sections[k].game->name, name) == 0;
            if (!found) {
                const struct game *g = game_find(name);
                if (!g)
                    return fail(r, line, "unknown game '%s'", name);
                if (n_sections == 8)
                    return fail(r, line, "too many [game] sections");
                memset(&sections[n_sections], 0, sizeof sections[0]);
                sections[n_sections].game = g;
                sections[n_sections++].line = line;
            }
        }
        p = eol ? eol + 1 : p + len;
    }
    if (!has_name)
        return fail(r, 1, "[sweep] needs a name");
    if (!has_games)
        return fail(r, 1, "[sweep] needs games (games per cell)");
    if (n_sections == 0)
        return fail(r, 1, "no [game NAME] section (games: serbest, jetan, "
                    "tafl)");
    if (s->n_agents == 0)
        return fail(r, 1, "no agents: add an [agents] section with "
                    "name = spec lines");
    if (n_pairs < 0) {
        if (s->n_agents < 2)
            return fail(r, 1, "[matchups] pairs is missing");
        pairs_line = 1;
        struct entry all = {"matchups", "pairs", "all", 1};
        if (parse_pairs(r, &all, s, pairs, &n_pairs))
            return -1;
    }
    (void)pairs_line;
    if (s->stop == STOP_SPRT && !(s->sprt_p0 < s->sprt_p1))
        return fail(r, 1, "stop = sprt needs sprt_p0 < sprt_p1");
    int cap = 0;
    for (int k = 0; k < n_sections; k++)
        if (expand_game(r, s, &sections[k], pairs, n_pairs, both_orders, &cap))
            return -1;
    return 0;
}

int sweep_parse(const char *path, const char *text, struct sweep *s,
                char *err, size_t errsz)
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
    struct reader r = {path, text, text, 0, NULL, 0, 0, err, errsz, 0};
    int rc = ini_parse_stream(read_line, &r, collect, &r);
    if (rc > 0 && !r.failed)
        fail(&r, rc, "not INI: expected [section] or key = value");
    if (rc == 0 && !r.failed)
        interpret(&r, s);
    for (int i = 0; i < s->n_cells && !r.failed; i++)
        if (sweep_cell_seed_key(s, &s->cells[i], err, errsz) != 0)
            r.failed = 1;
    free(r.entries);
    if (r.failed) {
        sweep_free(s);
        return -1;
    }
    s->file_text = malloc(strlen(text) + 1);
    if (!s->file_text) {
        sweep_free(s);
        snprintf(err, errsz, "%s: out of memory", path);
        return -1;
    }
    strcpy(s->file_text, text);
    return 0;
}

int sweep_load(const char *path, struct sweep *s, char *err, size_t errsz)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 8192;
            char *grown = realloc(text, cap);
            if (!grown) {
                free(text);
                fclose(f);
                snprintf(err, errsz, "%s: out of memory", path);
                return -1;
            }
            text = grown;
        }
        size_t got = fread(text + len, 1, 4096, f);
        len += got;
        if (got < 4096)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        snprintf(err, errsz, "%s: read error", path);
        return -1;
    }
    text[len] = '\0';
    int rc = sweep_parse(path, text, s, err, errsz);
    free(text);
    return rc;
}

void sweep_free(struct sweep *s)
{
    free(s->cells);
    free(s->file_text);
    s->cells = NULL;
    s->file_text = NULL;
    s->n_cells = 0;
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
