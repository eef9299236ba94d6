/*
 * sweep.c -- interpreting a sweep file and expanding it into cells; the
 * seeds and pair ids of its games. (sweep_read.c is the INI reader that
 * splits the text into sections and entries first; sweep_internal.h is
 * what the two share.)
 *
 * The sections are interpreted in a fixed order ([sweep], the games,
 * [agents], [matchups]), so every error can name the file and line of the
 * entry at fault and say what is allowed; then each game section's
 * product of values is expanded into cells, one per ordered pair of
 * agents.
 */
#include "sweep.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "ext.h"
#include "rng.h"
#include "sweep_internal.h"

/* Caps that keep a sweep from expanding without bound. */
#define MAX_VALUES 16 /* values in one game key's list */
#define MAX_ORDERED_PAIRS (SWEEP_MAX_AGENTS * SWEEP_MAX_AGENTS)
#define MAX_CELLS 100000

static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";

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
            return sweep_fail(r, e->line,
                              "name must be 1-%d letters, digits, "
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
            return sweep_fail(r, e->line,
                              "stop must be none, sprt or ci, not '%s'",
                              e->value);
        return 0;
    }
    if (strcmp(e->key, "engines") == 0) {
        /* the engines file of ext(engine=NAME) agents, relative to this
         * file; not read for a stored sweep (its specs as written) */
        char path[1024], why[1024];
        const char *slash = strrchr(r->path, '/');
        if (e->value[0] == '/' || !slash)
            snprintf(path, sizeof path, "%s", e->value);
        else
            snprintf(path, sizeof path, "%.*s/%s", (int)(slash - r->path),
                     r->path, e->value);
        if (r->read_files && ext_engines_load(path, why, sizeof why) != 0)
            return sweep_fail(r, e->line, "engines: %s", why);
        return 0;
    }
    if (strcmp(e->key, "record") == 0) {
        if (strcmp(e->value, "none") == 0)
            s->record_search = 0;
        else if (strcmp(e->value, "search") == 0)
            s->record_search = 1;
        else
            return sweep_fail(r, e->line,
                              "record must be none or search, not '%s'",
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
                return sweep_fail(r, e->line,
                                  "%s must be a whole number from %.0f "
                                  "to %.0f in decimal digits, not '%s'",
                                  e->key, keys[i].lo, keys[i].hi, e->value);
            return sweep_fail(r, e->line,
                              "%s must be a number from %g to %g "
                              "(decimal, like 0.05 or 5e-2), not '%s'",
                              e->key, keys[i].lo, keys[i].hi, e->value);
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
    return sweep_fail(r, e->line,
                      "unknown key '%s' in [sweep] (keys: name, seed, "
                      "games, max_plies, stop, sprt_p0, sprt_p1, alpha, beta, "
                      "ci_width, min_games, record, engines)",
                      e->key);
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
        return sweep_fail(r, e->line, "%s: unknown key '%s' (keys: %s)",
                          g->name, e->key, keys);
    }
    k->entry = e;
    k->n_values = 0;
    const char *texts[MAX_VALUES];
    for (char *p = e->value; p;) {
        char *item, err[512];
        if (sweep_next_item(r, e->line, e->key, &p, &item))
            return -1;
        if (k->n_values == MAX_VALUES)
            return sweep_fail(r, e->line, "more than %d values for %s",
                              MAX_VALUES, e->key);
        size_t n = strlen(g->name) + strlen(e->key) + strlen(item) + 4;
        char *text = malloc(n);
        if (!text)
            return sweep_fail(r, e->line, "out of memory");
        snprintf(text, n, "%s(%s=%s)", g->name, e->key, item);
        struct variant v;
        int rc = variant_parse(text, &v, err, sizeof err);
        free(text);
        if (rc != 0)
            return sweep_fail(r, e->line, "%s", err);
        int value = v.values[k->param];
        for (int j = 0; j < k->n_values; j++) {
            if (k->values[j] != value)
                continue;
            if (strcmp(texts[j], item) == 0)
                return sweep_fail(r, e->line,
                                  "%s lists %s twice (list each value "
                                  "once)",
                                  e->key, item);
            return sweep_fail(r, e->line,
                              "%s lists %s twice (the same value as %s); "
                              "list each value once",
                              e->key, item, texts[j]);
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
    if (!valid_name(e->key))
        return sweep_fail(r, e->line,
                          "agent name '%s' is not allowed (1-%d "
                          "letters, digits, '_', '-' or '.', ASCII)",
                          e->key, SWEEP_NAME_MAX - 1);
    if (s->n_agents == SWEEP_MAX_AGENTS)
        return sweep_fail(r, e->line, "more than %d agents", SWEEP_MAX_AGENTS);
    struct sweep_agent *sa = &s->agents[s->n_agents];
    if (agent_canonical(e->value, sa->spec, sizeof sa->spec, err,
                        sizeof err) < 0)
        return sweep_fail(r, e->line, "agent %s: %s", e->key, err);
    for (int i = 0; i < s->n_agents; i++)
        if (strcmp(s->agents[i].spec, sa->spec) == 0)
            return sweep_fail(r, e->line,
                              "agent %s is the same agent as %s (line "
                              "%d): both are %s, and their cells would share "
                              "results (give each name a different spec)",
                              e->key, s->agents[i].name, lines[i], sa->spec);
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
            return sweep_fail(r, e ? e->line : 1,
                              "pairs = all needs two agents "
                              "or more");
    } else {
        for (char *p = e->value; p;) {
            char *item;
            if (sweep_next_item(r, e->line, "pairs", &p, &item))
                return -1;
            /* three words: A vs B */
            const char *word[4];
            size_t len[4];
            int n = 0;
            for (const char *q = item; *q && n < 4;) {
                while (sweep_is_blank(*q))
                    q++;
                word[n] = q;
                while (*q && !sweep_is_blank(*q))
                    q++;
                len[n] = (size_t)(q - word[n]);
                n++;
                while (sweep_is_blank(*q))
                    q++;
            }
            if (n != 3 || len[1] != 2 || memcmp(word[1], "vs", 2) != 0)
                return sweep_fail(r, e->line,
                                  "'%s' is no pair: write A vs B, with "
                                  "agent names from [agents]",
                                  item);
            if (n_listed == MAX_ORDERED_PAIRS)
                return sweep_fail(r, e->line, "more than %d pairs",
                                  MAX_ORDERED_PAIRS);
            for (int k = 0; k < 2; k++) {
                const char *name = word[2 * k];
                listed[n_listed][k] = find_agent(s, name, len[2 * k]);
                if (listed[n_listed][k] < 0)
                    return sweep_fail(r, e->line,
                                      "unknown agent '%.*s' (agents are "
                                      "the names in [agents])",
                                      (int)len[2 * k], name);
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
                return sweep_fail(r, e->line,
                                  "pair '%s vs %s' listed twice (each "
                                  "pair once)",
                                  c, d);
            if (both_orders && listed[j][0] == b && listed[j][1] == a)
                return sweep_fail(
                    r, e->line,
                    "pair '%s vs %s' is '%s vs %s' in the "
                    "other seat order, and orders = both plays each "
                    "pair in both orders (list it once, or set "
                    "orders = given)",
                    d, c, c, d);
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
        && sweep_grow(r, (void **)&s->cells, cap, sizeof(struct sweep_cell)))
        return -1;
    struct sweep_cell *c = &s->cells[s->n_cells];
    memset(c, 0, sizeof *c);
    c->variant = *v;
    if (variant_canonical(v, c->variant_text, sizeof c->variant_text) < 0)
        return sweep_fail(r, line,
                          "a %s variant's canonical text is longer than %d "
                          "characters",
                          v->game->name, VARIANT_TEXT_MAX - 1);
    for (int k = 0; k < 2; k++) {
        char err[1024];
        if (agent_spec_plays(s->agents[k ? a1 : a0].spec, v->game, err,
                             sizeof err) != 0)
            return sweep_fail(r, line, "%s", err);
    }
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
            return sweep_fail(r, max_plies_line,
                              "max_plies = %d does not fit %s "
                              "(allowed there: %.0f..%.0f)",
                              s->max_plies, gs->game->name, p ? p->min : 0,
                              p ? p->max : -1);
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
                return sweep_fail(r, gs->openings->line, "%s", err);
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
        return sweep_fail(r, gs->openings->line, "out of memory");
    struct openings *o = &s->openings[s->n_openings];
    char err[1024];
    if (openings_parse(gs->openings->value, r->path, r->read_files, o, err,
                       sizeof err))
        return sweep_fail(r, gs->openings->line, "%s", err);
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

/* [sweep]: its keys into s, name and games required; *max_plies_line
 * gets the line of max_plies (1 without it). Returns 0, or -1 (said). */
static int read_sweep_section(struct reader *r, struct sweep *s,
                              int *max_plies_line)
{
    int n, line, has_name = 0, has_games = 0;
    const struct entry *e = section_entries(r, "sweep", &n, &line);
    *max_plies_line = 1;
    for (int i = 0; i < n; i++) {
        has_name |= strcmp(e[i].key, "name") == 0;
        has_games |= strcmp(e[i].key, "games") == 0;
        if (strcmp(e[i].key, "max_plies") == 0)
            *max_plies_line = e[i].line;
        if (sweep_key(r, &e[i], s))
            return -1;
    }
    if (!has_name)
        return sweep_fail(r, line, "[sweep] needs a name");
    if (!has_games)
        return sweep_fail(r, line, "[sweep] needs games (games per cell)");
    if (s->stop == STOP_SPRT && !(s->sprt_p0 < s->sprt_p1))
        return sweep_fail(r, line, "stop = sprt needs sprt_p0 < sprt_p1");
    return 0;
}

/* The [game NAME] sections into games (room for max), *n_games of them,
 * each with its parameter lists and openings. Returns 0, or -1 (said). */
static int read_game_sections(struct reader *r, struct sweep *s,
                              struct game_section *games, int max,
                              int *n_games)
{
    *n_games = 0;
    for (int i = 0; i < r->n_sections; i++) {
        const struct section *sec = &r->sections[i];
        if (!sec->game)
            continue;
        if (*n_games == max)
            return sweep_fail(r, sec->line, "too many [game] sections");
        struct game_section *gs = &games[(*n_games)++];
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
    if (*n_games > 0)
        return 0;
    char names[256];
    sweep_list_games(names, sizeof names);
    return sweep_fail(r, 1, "no [game NAME] section (games: %s)", names);
}

/* [agents] into s, and [matchups] into the ordered seat pairs (room for
 * MAX_ORDERED_PAIRS), *n_ordered of them. Returns 0, or -1 (said). */
static int read_agents_and_pairs(struct reader *r, struct sweep *s,
                                 int ordered[][2], int *n_ordered)
{
    int n, line, agent_lines[SWEEP_MAX_AGENTS];
    const struct entry *e = section_entries(r, "agents", &n, &line);
    for (int i = 0; i < n; i++)
        if (agent_entry(r, &e[i], s, agent_lines))
            return -1;
    if (s->n_agents == 0)
        return sweep_fail(r, line,
                          "no agents: add an [agents] section with "
                          "name = spec lines");
    const struct entry *pairs = NULL;
    int both_orders = 1;
    e = section_entries(r, "matchups", &n, &line);
    for (int i = 0; i < n; i++) {
        if (strcmp(e[i].key, "pairs") == 0) {
            pairs = &e[i];
        } else if (strcmp(e[i].key, "orders") == 0) {
            if (strcmp(e[i].value, "both") && strcmp(e[i].value, "given"))
                return sweep_fail(r, e[i].line,
                                  "orders must be both or given, "
                                  "not '%s'",
                                  e[i].value);
            both_orders = strcmp(e[i].value, "both") == 0;
        } else {
            return sweep_fail(r, e[i].line,
                              "unknown key '%s' in [matchups] "
                              "(keys: pairs, orders)",
                              e[i].key);
        }
    }
    if (!pairs && s->n_agents < 2)
        return sweep_fail(r, line,
                          "[matchups] pairs is missing (write pairs = "
                          "A vs B, ...; pairs = all needs two agents or more)");
    return parse_pairs(r, pairs, s, both_orders, ordered, n_ordered);
}

static int interpret(struct reader *r, struct sweep *s)
{
    int max_plies_line, n_games, n_ordered;
    struct game_section games[8];
    int ordered[MAX_ORDERED_PAIRS][2];
    if (read_sweep_section(r, s, &max_plies_line)
        || read_game_sections(r, s, games,
                              (int)(sizeof games / sizeof *games), &n_games)
        || read_agents_and_pairs(r, s, ordered, &n_ordered))
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
            return sweep_fail(r, games[k].line,
                              "the sweep expands to more than %d "
                              "cells (use fewer values or pairs)",
                              MAX_CELLS);
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
        sweep_fail(&r, 0, "out of memory");
    } else {
        memcpy(r.copy, text, len);
        r.copy[len] = '\0';
        memcpy(s->file_text, text, len);
        s->file_text[len] = '\0';
        if (sweep_read_lines(&r, len) == 0)
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
