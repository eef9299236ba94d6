/*
 * fuzz_agent.c -- libFuzzer target: agent specs ("mcts(iterations=200)").
 *
 * The spec is parsed step by step the way agent_create does (spec_split,
 * the kind's parameter table, spec_parse_args), then agent_create itself
 * runs on it, unless the spec is valid and asks for a node pool over
 * 64 MiB (a legitimate request, but more memory than a fuzzing run allows).
 * Properties: agent_create accepts exactly the specs the steps accept, a
 * rejected spec comes with an error, and the canonical spec of an accepted
 * one parses to the same values and is the agent's spec.
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

/* 0 if text is a valid spec (its kind in *kind, canonical text in canon),
 * else -1 with an error in err. */
static int parse_steps(const char *text, const struct agent_kind **kind,
                       char *canon, size_t canon_size, double *values,
                       char *err, size_t errsz)
{
    char name[64];
    const char *args, *args_end;
    double again[VARIANT_MAX_PARAMS];
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
    if (spec_parse_args(k->name, k->params, k->n_params, args, args_end,
                        values, err, errsz))
        return -1;
    if (!k->n_params) {
        snprintf(canon, canon_size, "%s", k->name);
        return 0;
    }
    fuzz_check(spec_canonical(k->name, k->params, k->n_params, values, canon,
                              canon_size) > 0,
               "an accepted spec has a canonical form");
    fuzz_check(spec_split(canon, name, sizeof name, &args, &args_end, err,
                          errsz) == 0
                   && spec_parse_args(k->name, k->params, k->n_params, args,
                                      args_end, again, err, errsz) == 0,
               "the canonical spec parses");
    fuzz_check(memcmp(values, again, sizeof(double) * (size_t)k->n_params)
                   == 0,
               "the canonical spec has the same values");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[4096] = "", canon[VARIANT_TEXT_MAX];
    double values[VARIANT_MAX_PARAMS];
    const struct agent_kind *kind;
    int valid = parse_steps(text, &kind, canon, sizeof canon, values, err,
                            sizeof err) == 0;
    fuzz_check(valid || err[0] != '\0', "a rejected spec has an error");
    if (valid) {
        double nodes = param_value(kind, values, "max_nodes", 0);
        double mb = param_value(kind, values, "max_mb", 1);
        if (nodes > 1e6 || (nodes == 0 && mb > 64))
            goto done;
    }
    struct agent *a;
    err[0] = '\0';
    int rc = agent_create(text, 1, &a, err, sizeof err);
    fuzz_check((rc == 0) == valid, "agent_create accepts the valid specs");
    if (rc != 0) {
        fuzz_check(err[0] != '\0', "agent_create's rejection has an error");
        goto done;
    }
    fuzz_check(strcmp(a->spec, canon) == 0,
               "the agent's spec is the canonical one");
    agent_free(a);
done:
    free(text);
    return 0;
}
