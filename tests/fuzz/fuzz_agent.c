/*
 * fuzz_agent.c -- libFuzzer target: agent specs ("mcts(iterations=200)").
 *
 * The spec is parsed step by step the way agent_create does (spec_split,
 * the kind's parameter table, spec_parse_args, the kind's resolve and
 * check), then agent_create itself runs on it, unless the spec is valid
 * and asks for a node pool or a transposition table over 64 MiB (a
 * legitimate request, but more memory than a fuzzing run allows) or is of
 * a kind that starts a program (ext: fuzzed text must never run as a
 * command). Properties: agent_create accepts exactly the specs the steps
 * accept, a rejected spec comes with an error, and the canonical spec of
 * an accepted one, and the agent's own spec (which leaves out the
 * evaluation weights at their defaults), parse to the same values and
 * texts.
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

/* Whether the values of params (n) are the same in a and b, texts too. */
static int same_values(const struct param_spec *params, int n,
                       const double *a, const struct spec_texts *ta,
                       const double *b, const struct spec_texts *tb)
{
    for (int i = 0; i < n; i++)
        if (params[i].type == PARAM_TEXT
                ? strcmp(spec_text_value(ta, a[i]), spec_text_value(tb, b[i]))
                : a[i] != b[i])
            return 0;
    return 1;
}

/* Whether text parses as a spec of kind k (whole table in params, n) to
 * exactly values and texts. */
static int parses_to(const char *text, const struct agent_kind *k,
                     const struct param_spec *params, int n,
                     const double *values, const struct spec_texts *texts)
{
    char name[64], err[4096];
    const char *args, *args_end;
    double again[VARIANT_MAX_PARAMS];
    struct spec_texts texts_again;
    return spec_split(text, name, sizeof name, &args, &args_end, err,
                      sizeof err) == 0
           && strcmp(name, k->name) == 0
           && spec_parse_args(k->name, params, n, args, args_end, again,
                              &texts_again, err, sizeof err) == 0
           && same_values(params, n, values, texts, again, &texts_again);
}

/* 0 if text is a valid spec (its kind in *kind, canonical text in canon),
 * else -1 with an error in err. */
static int parse_steps(const char *text, const struct agent_kind **kind,
                       char *canon, size_t canon_size, double *values,
                       struct spec_texts *texts, char *err, size_t errsz)
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
    int n = agent_kind_params(k, params);
    if (spec_parse_args(k->name, params, n, args, args_end, values, texts,
                        err, errsz)
        || (k->resolve && k->resolve(values, texts, err, errsz))
        || (k->check && k->check(values, texts, err, errsz)))
        return -1;
    if (!n) {
        snprintf(canon, canon_size, "%s", k->name);
        return 0;
    }
    fuzz_check(spec_canonical(k->name, params, n, values, texts, canon,
                              canon_size) > 0,
               "an accepted spec has a canonical form");
    fuzz_check(parses_to(canon, k, params, n, values, texts),
               "the canonical spec parses to the same values");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[4096] = "", canon[VARIANT_TEXT_MAX];
    double values[VARIANT_MAX_PARAMS];
    struct spec_texts texts;
    const struct agent_kind *kind;
    int valid = parse_steps(text, &kind, canon, sizeof canon, values, &texts,
                            err, sizeof err) == 0;
    fuzz_check(valid || err[0] != '\0', "a rejected spec has an error");
    if (valid && kind->external)
        goto done;
    if (valid) {
        double nodes = param_value(kind, values, "max_nodes", 0);
        double mb = param_value(kind, values, "max_mb", 1);
        double tt_mb = param_value(kind, values, "tt_mb", 1);
        if (nodes > 1e6 || (nodes == 0 && mb > 64) || tt_mb > 64)
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
    struct param_spec params[VARIANT_MAX_PARAMS];
    int n = agent_kind_params(kind, params);
    fuzz_check(!n ? strcmp(a->spec, kind->name) == 0
                  : parses_to(a->spec, kind, params, n, values, &texts),
               "the agent's spec parses to the same values");
    agent_free(a);
done:
    free(text);
    return 0;
}
