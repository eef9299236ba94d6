/*
 * fuzz_agent.c -- libFuzzer target: agent specs ("mcts(iterations=200)").
 *
 * The spec is parsed step by step the way agent_create does (spec_split,
 * the kind's table for these arguments, spec_parse_args, the kind's
 * resolve and check), then agent_create itself runs on it, unless the
 * spec is valid and asks for a node pool or a transposition table over 64
 * MiB (a legitimate request, but more memory than a fuzzing run allows) or
 * is of a kind that starts a program (ext: fuzzed text must never run as
 * a command). Properties: agent_create and agent_canonical accept exactly
 * the specs the steps accept, a rejected spec comes with an error; the
 * canonical spec of an accepted one is its own canonical spec, has the
 * same identity, and is the agent's own spec.
 */
#include "agent.h"
#include "fuzz_util.h"

/* The value of parameter `name` in values, or `otherwise` if the kind has
 * no such parameter. */
static double param_value(const struct agent_kind *k, const double *values,
                          const char *name, double otherwise)
{
    for (int i = 0; i < k->n_params; i++)
        if (strcmp(k->params[i].name, name) == 0)
            return values[i];
    return otherwise;
}

/* 0 if text is a valid spec (its kind in *kind, its own parameters'
 * values first in values), else -1 with an error in err. */
static int parse_steps(const char *text, const struct agent_kind **kind,
                       double *values, struct spec_texts *texts, char *err,
                       size_t errsz)
{
    char name[64];
    const char *args, *args_end;
    struct param_spec params[VARIANT_MAX_PARAMS];
    *kind = NULL;
    if (spec_split(text, name, sizeof name, &args, &args_end, err, errsz))
        return -1;
    for (int i = 0; agent_kinds[i] && !*kind; i++)
        if (strcmp(agent_kinds[i]->name, name) == 0)
            *kind = agent_kinds[i];
    if (!*kind) {
        snprintf(err, errsz, "unknown kind");
        return -1;
    }
    const struct agent_kind *k = *kind;
    int n = agent_spec_params(k, args, args_end, params, NULL, err, errsz);
    if (n < 0
        || spec_parse_args(k->name, params, n, args, args_end, values, texts,
                           err, errsz)
        || (k->resolve && k->resolve(values, texts, err, errsz))
        || (k->check && k->check(values, texts, err, errsz)))
        return -1;
    return 0;
}

/* Checks the canonical spec of an accepted text: its own canonical spec,
 * with the same identity. Writes it into canon. */
static void check_canonical(const char *text, char *canon, size_t n)
{
    char again[VARIANT_TEXT_MAX], id[VARIANT_TEXT_MAX], id2[VARIANT_TEXT_MAX];
    char err[4096];
    fuzz_check(agent_canonical(text, canon, n, err, sizeof err) > 0,
               "an accepted spec has a canonical form");
    fuzz_check(agent_canonical(canon, again, sizeof again, err, sizeof err)
                       > 0
                   && strcmp(canon, again) == 0,
               "the canonical spec is its own canonical spec");
    fuzz_check(agent_identity(text, id, sizeof id, err, sizeof err) > 0
                   && agent_identity(canon, id2, sizeof id2, err, sizeof err)
                          > 0
                   && strcmp(id, id2) == 0,
               "the canonical spec has the spec's identity");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[4096] = "", canon[VARIANT_TEXT_MAX];
    double values[VARIANT_MAX_PARAMS];
    struct spec_texts texts;
    const struct agent_kind *kind;
    int valid = parse_steps(text, &kind, values, &texts, err,
                            sizeof err) == 0;
    fuzz_check(valid || err[0] != '\0', "a rejected spec has an error");
    if (!valid) {
        fuzz_check(agent_canonical(text, canon, sizeof canon, err,
                                   sizeof err) < 0,
                   "agent_canonical rejects what the steps reject");
        goto done;
    }
    check_canonical(text, canon, sizeof canon);
    if (kind->external)
        goto done;
    double nodes = param_value(kind, values, "max_nodes", 0);
    double mb = param_value(kind, values, "max_mb", 1);
    double tt_mb = param_value(kind, values, "tt_mb", 1);
    if (nodes > 1e6 || (nodes == 0 && mb > 64) || tt_mb > 64)
        goto done;
    struct agent *a;
    err[0] = '\0';
    int rc = agent_create(text, 1, &a, err, sizeof err);
    fuzz_check(rc == 0, "agent_create accepts the valid specs");
    fuzz_check(strcmp(a->spec, canon) == 0,
               "the agent's spec is the canonical spec");
    agent_free(a);
done:
    free(text);
    return 0;
}
