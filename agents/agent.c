/*
 * agent.c -- the registry of agent kinds, agents made from spec strings,
 * and the random agent (the smallest example of a kind).
 */
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcts.h"
#include "rng.h"

/* ---- random: uniform over the legal moves ---------------------------- */

struct random_agent {
    struct rng rng;
    move_t moves[GAME_MAX_MOVES];
};

static void *random_create(const double *values, uint64_t seed)
{
    (void)values;
    struct random_agent *r = malloc(sizeof *r);
    if (r)
        rng_seed(&r->rng, seed);
    return r;
}

static move_t random_choose(void *self, const struct game *g, const void *st,
                            struct agent_stats *stats)
{
    struct random_agent *r = self;
    int n = g->legal_moves(st, r->moves);
    memset(stats, 0, sizeof *stats);
    return r->moves[rng_below(&r->rng, (uint32_t)n)];
}

static const struct agent_kind random_kind = {
    "random", "plays a uniformly random legal move", NULL, 0,
    random_create, random_choose, NULL, free, 1};

/* ---- the registry ---------------------------------------------------- */

const struct agent_kind *const agent_kinds[] = {&random_kind, &mcts_kind,
                                                NULL};

int agent_kinds_text(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; agent_kinds[i]; i++) {
        const struct agent_kind *k = agent_kinds[i];
        int w = snprintf(buf + len, n - len, "%s - %s\n", k->name, k->doc);
        for (int p = 0; w >= 0 && (size_t)w < n - len && p < k->n_params; p++) {
            len += (size_t)w;
            char def[64], allowed[128];
            param_value_text(&k->params[p], k->params[p].def, def, sizeof def);
            param_allowed_text(&k->params[p], allowed, sizeof allowed);
            w = snprintf(buf + len, n - len, "  %-12s default %-8s allowed "
                         "%-16s %s\n", k->params[p].name, def, allowed,
                         k->params[p].doc);
        }
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    return (int)len;
}

/* The kind called name, or NULL. */
static const struct agent_kind *find_kind(const char *name)
{
    for (int i = 0; agent_kinds[i]; i++)
        if (strcmp(agent_kinds[i]->name, name) == 0)
            return agent_kinds[i];
    return NULL;
}

const struct agent_kind *agent_kind_of(const char *spec)
{
    char name[64];
    const char *args, *args_end;
    if (spec_split(spec, name, sizeof name, &args, &args_end, NULL, 0))
        return NULL;
    return find_kind(name);
}

int agent_identity(const char *spec, char *buf, size_t n, char *err,
                   size_t errsz)
{
    char name[64];
    const char *args, *args_end;
    if (spec_split(spec, name, sizeof name, &args, &args_end, err, errsz))
        return -1;
    const struct agent_kind *kind = find_kind(name);
    double values[VARIANT_MAX_PARAMS];
    if (!kind)
        return game_error(err, errsz, "unknown agent '%s'", name);
    if (spec_parse_args(kind->name, kind->params, kind->n_params, args,
                        args_end, values, err, errsz))
        return -1;
    int len = spec_identity(kind->name, kind->params, kind->n_params, values,
                            buf, n);
    if (len < 0)
        return game_error(err, errsz, "%s: the identity is too long", spec);
    return len;
}

int agent_create(const char *spec, uint64_t seed, struct agent **out,
                 char *err, size_t errsz)
{
    char name[64];
    const char *args, *args_end;
    *out = NULL;
    if (spec_split(spec, name, sizeof name, &args, &args_end, err, errsz))
        return -1;
    const struct agent_kind *kind = find_kind(name);
    if (!kind) {
        char kinds[2048];
        agent_kinds_text(kinds, sizeof kinds);
        game_error(err, errsz, "unknown agent '%s'; the agents are:\n%s", name,
                  kinds);
        return -1;
    }
    double values[VARIANT_MAX_PARAMS];
    if (spec_parse_args(kind->name, kind->params, kind->n_params, args,
                        args_end, values, err, errsz))
        return -1;
    struct agent *a = calloc(1, sizeof *a);
    if (!a || !(a->self = kind->create(values, seed))) {
        free(a);
        game_error(err, errsz, "%s: out of memory", spec);
        return -1;
    }
    a->kind = kind;
    if (kind->n_params)
        spec_canonical(kind->name, kind->params, kind->n_params, values,
                       a->spec, sizeof a->spec);
    else
        snprintf(a->spec, sizeof a->spec, "%s", kind->name);
    *out = a;
    return 0;
}

move_t agent_choose(struct agent *a, const struct game *g, const void *st)
{
    return a->kind->choose(a->self, g, st, &a->stats);
}

void agent_observe(struct agent *a, const struct game *g, const void *st,
                   move_t m)
{
    if (a->kind->observe)
        a->kind->observe(a->self, g, st, m);
}

void agent_free(struct agent *a)
{
    if (!a)
        return;
    a->kind->destroy(a->self);
    free(a);
}
