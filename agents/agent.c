/*
 * agent.c -- the registry of agent kinds, agents made from spec strings,
 * and the random agent (the smallest example of a kind).
 */
#include "agent.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"
#include "eval.h"
#include "ext.h"
#include "mcts.h"
#include "rng.h"

/* ---- random: uniform over the legal moves ---------------------------- */

struct random_agent {
    struct rng rng;
};

static void *random_create(const double *values,
                           const struct spec_texts *texts, uint64_t seed,
                           char *err, size_t errsz)
{
    (void)values, (void)texts, (void)err, (void)errsz;
    struct random_agent *r = malloc(sizeof *r);
    if (r)
        rng_seed(&r->rng, seed);
    return r;
}

static move_t random_choose(void *self, const struct game *g, const void *st,
                            struct agent_stats *stats)
{
    struct random_agent *r = self;
    move_t m = 0;
    memset(stats, 0, sizeof *stats);
    /* the move moves[rng_below(n)] of the list would be (game.h) */
    game_random_move(g, st, &r->rng, &m);
    return m;
}

static const struct agent_kind random_kind = {
    .name = "random",
    .doc = "plays a uniformly random legal move",
    .create = random_create,
    .choose = random_choose,
    .destroy = free,
    .behaviour_version = 1,
};

/* ---- the registry ---------------------------------------------------- */

const struct agent_kind *const agent_kinds[] = {&random_kind, &mcts_kind,
                                                &ab_kind, &ext_kind, NULL};

/* The index among every evaluation weight of the one named [b, e), or
 * -1. */
static int weight_named(const char *b, const char *e)
{
    size_t len = (size_t)(e - b);
    for (int i = 0; i < eval_weight_count(); i++) {
        const char *name = eval_weight(i)->name;
        if (strlen(name) == len && memcmp(name, b, len) == 0)
            return i;
    }
    return -1;
}

/* Whether [b, e) names one of the first n parameters of table. */
static int named_in(const struct param_spec *table, int n, const char *b,
                    const char *e)
{
    for (int i = 0; i < n; i++)
        if (strlen(table[i].name) == (size_t)(e - b)
            && memcmp(table[i].name, b, (size_t)(e - b)) == 0)
            return 1;
    return 0;
}

int agent_spec_params(const struct agent_kind *kind, const char *args,
                      const char *args_end, struct param_spec *out,
                      int *weights, char *err, size_t errsz)
{
    int n = 0;
    if (kind->n_params > VARIANT_MAX_PARAMS)
        return game_error(err, errsz, "agent %s takes %d parameters, more "
                          "than the %d a spec holds (VARIANT_MAX_PARAMS, "
                          "core/variant.h)", kind->name, kind->n_params,
                          VARIANT_MAX_PARAMS);
    for (int i = 0; i < kind->n_params; i++)
        out[n++] = kind->params[i];
    for (const char *s = args; kind->uses_eval && s && s < args_end;) {
        const char *comma = spec_find_unquoted(s, args_end, ',');
        const char *e = comma ? comma : args_end;
        const char *eq = memchr(s, '=', (size_t)(e - s));
        const char *kb = s, *ke = eq ? eq : e;
        while (kb < ke && isspace((unsigned char)*kb))
            kb++;
        while (ke > kb && isspace((unsigned char)ke[-1]))
            ke--;
        int w = weight_named(kb, ke);
        if (w >= 0 && !named_in(out, n, kb, ke)) {
            if (n == VARIANT_MAX_PARAMS)
                return game_error(err, errsz, "agent %s: a spec holds at "
                                  "most %d parameters and weights "
                                  "(VARIANT_MAX_PARAMS, core/variant.h)",
                                  kind->name, VARIANT_MAX_PARAMS);
            if (weights)
                weights[n] = w;
            out[n++] = *eval_weight(w);
        }
        s = e + 1;
    }
    return n;
}

/* Appends to buf (of size n, len used) one line per parameter in params:
 * name, default, what is allowed, doc. Returns the new length, or -1 if
 * it does not fit. */
static int params_text(const struct param_spec *params, int n_params,
                       char *buf, size_t n, size_t len)
{
    for (int p = 0; p < n_params; p++) {
        char def[64], allowed[128];
        param_value_text(&params[p], params[p].def, def, sizeof def);
        param_allowed_text(&params[p], allowed, sizeof allowed);
        int w = snprintf(buf + len, n - len, "  %-12s default %-8s allowed "
                         "%-16s %s\n", params[p].name, def, allowed,
                         params[p].doc);
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    return (int)len;
}

/* The kinds with their own parameters; then, if with_weights, the
 * evaluation weights. Returns the length, or -1 if it does not fit. */
static int kinds_text(char *buf, size_t n, int with_weights)
{
    int len = 0, any_eval = 0;
    buf[0] = '\0';
    for (int i = 0; agent_kinds[i] && len >= 0; i++) {
        const struct agent_kind *k = agent_kinds[i];
        int w = snprintf(buf + len, n - (size_t)len, "%s - %s%s\n", k->name,
                         k->doc, k->uses_eval ? " (and the evaluation "
                         "weights below)" : "");
        if (w < 0 || (size_t)w >= n - (size_t)len)
            return -1;
        len = params_text(k->params, k->n_params, buf, n, (size_t)len + (size_t)w);
        any_eval |= k->uses_eval;
    }
    if (len < 0 || !any_eval || !with_weights)
        return len;
    int w = snprintf(buf + len, n - (size_t)len, "evaluation weights (points "
                     "per unit of each feature, for the side to move):\n");
    if (w < 0 || (size_t)w >= n - (size_t)len)
        return -1;
    len += w;
    for (int i = 0; game_evals[i] && len >= 0; i++)
        len = params_text(game_evals[i]->weights, game_evals[i]->n_features,
                          buf, n, (size_t)len);
    return len;
}

int agent_kinds_text(char *buf, size_t n)
{
    return kinds_text(buf, n, 1);
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

/* The most values a kind's create is given: its own parameters, then
 * every evaluation weight. */
#define AGENT_VALUES_MAX 256

/* A spec parsed against its kind's table (agent_spec_params). */
struct parsed_spec {
    const struct agent_kind *kind;
    struct param_spec params[VARIANT_MAX_PARAMS]; /* n_params of them */
    int weights[VARIANT_MAX_PARAMS]; /* agent_spec_params's */
    double values[VARIANT_MAX_PARAMS];
    struct spec_texts texts;
    int n_params;
    /* what create is given: the own values, then every weight (its
     * default unless the spec names it) */
    double all[AGENT_VALUES_MAX];
};

/* Fills p->all from p->values. 0, or -1 with a message. */
static int all_values(struct parsed_spec *p, char *err, size_t errsz)
{
    const struct agent_kind *kind = p->kind;
    int weights = kind->uses_eval ? eval_weight_count() : 0;
    if (kind->n_params + weights > AGENT_VALUES_MAX)
        return game_error(err, errsz, "agent %s: %d parameters and %d "
                          "evaluation weights are more than the %d an agent "
                          "is made with (AGENT_VALUES_MAX, agents/agent.c)",
                          kind->name, kind->n_params, weights,
                          AGENT_VALUES_MAX);
    for (int i = 0; i < kind->n_params; i++)
        p->all[i] = p->values[i];
    for (int i = 0; i < weights; i++)
        p->all[kind->n_params + i] = eval_weight(i)->def;
    for (int i = kind->n_params; i < p->n_params; i++)
        p->all[kind->n_params + p->weights[i]] = p->values[i];
    return 0;
}

/* Finds spec's kind and parses its arguments against the kind's table
 * into p, then lets the kind resolve and check them. Returns 0, or -1
 * with a message in err. */
static int parse_spec(const char *spec, struct parsed_spec *p, char *err,
                      size_t errsz)
{
    char name[64];
    const char *args, *args_end;
    if (spec_split(spec, name, sizeof name, &args, &args_end, err, errsz))
        return -1;
    const struct agent_kind *kind = find_kind(name);
    if (!kind) {
        char kinds[4096];
        kinds_text(kinds, sizeof kinds, 0);
        return game_error(err, errsz, "unknown agent '%s'; the agents are "
                          "(`rulelab list` shows the evaluation weights "
                          "too):\n%s", name, kinds);
    }
    p->kind = kind;
    p->n_params = agent_spec_params(kind, args, args_end, p->params,
                                    p->weights, err, errsz);
    if (p->n_params < 0
        || spec_parse_args(kind->name, p->params, p->n_params, args, args_end,
                           p->values, &p->texts, err, errsz)
        || (kind->resolve
            && kind->resolve(p->values, &p->texts, err, errsz) != 0)
        || (kind->check && kind->check(p->values, &p->texts, err, errsz) != 0))
        return -1;
    return all_values(p, err, errsz);
}

int agent_identity(const char *spec, char *buf, size_t n, char *err,
                   size_t errsz)
{
    struct parsed_spec p;
    if (parse_spec(spec, &p, err, errsz) != 0)
        return -1;
    int len = spec_identity(p.kind->name, p.params, p.n_params, p.values,
                            &p.texts, buf, n);
    if (len < 0)
        return game_error(err, errsz, "%s: the identity is too long", spec);
    return len;
}

/* Whether kind can play g (agent_plays). */
static int kind_plays(const struct agent_kind *kind, const struct game *g,
                      char *err, size_t errsz)
{
    if (kind->uses_eval && !eval_of(g))
        return game_error(err, errsz, "agent %s evaluates positions, and %s "
                          "has no evaluation (agents/eval.h)", kind->name,
                          g->name);
    return 0;
}

int agent_plays(const struct agent *a, const struct game *g, char *err,
                size_t errsz)
{
    return kind_plays(a->kind, g, err, errsz);
}

int agent_spec_plays(const char *spec, const struct game *g, char *err,
                     size_t errsz)
{
    struct parsed_spec p;
    return parse_spec(spec, &p, err, errsz) == 0
               ? kind_plays(p.kind, g, err, errsz) : -1;
}

/* Writes the canonical spec of p: every own parameter but empty texts,
 * and the weights off their defaults (p's table is changed). Length or
 * -1. */
static int canonical_of(struct parsed_spec *p, char *buf, size_t n)
{
    const struct agent_kind *kind = p->kind;
    int shown = 0;
    for (int i = 0; i < p->n_params; i++) {
        int own = i < kind->n_params;
        int empty_text = p->params[i].type == PARAM_TEXT && p->values[i] < 0;
        if (own ? !empty_text : p->values[i] != p->params[i].def) {
            p->params[shown] = p->params[i];
            p->values[shown++] = p->values[i];
        }
    }
    if (!shown) {
        int w = snprintf(buf, n, "%s", kind->name);
        return w < 0 || (size_t)w >= n ? -1 : w;
    }
    return spec_canonical(kind->name, p->params, shown, p->values, &p->texts,
                          buf, n);
}

int agent_canonical(const char *spec, char *buf, size_t n, char *err,
                    size_t errsz)
{
    struct parsed_spec p;
    if (parse_spec(spec, &p, err, errsz) != 0)
        return -1;
    int len = canonical_of(&p, buf, n);
    if (len < 0)
        return game_error(err, errsz, "%s: the canonical spec is longer than "
                          "%zu characters", spec, n - 1);
    return len;
}

int agent_create(const char *spec, uint64_t seed, struct agent **out,
                 char *err, size_t errsz)
{
    struct parsed_spec p;
    *out = NULL;
    if (parse_spec(spec, &p, err, errsz) != 0)
        return -1;
    struct agent *a = calloc(1, sizeof *a);
    if (err && errsz)
        err[0] = '\0';
    if (!a || !(a->self = p.kind->create(p.all, &p.texts, seed, err,
                                         errsz))) {
        free(a);
        if (!err || !errsz || !err[0])
            game_error(err, errsz, "%s: out of memory", spec);
        return -1;
    }
    a->kind = p.kind;
    canonical_of(&p, a->spec, sizeof a->spec);
    *out = a;
    return 0;
}

void agent_start(struct agent *a, const struct game *g, const char *variant,
                 const char *position, const char *opening)
{
    if (a->kind->start)
        a->kind->start(a->self, g, variant, position, opening);
}

move_t agent_choose(struct agent *a, const struct game *g, const void *st)
{
    a->stats.forfeit = 0;
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
