/*
 * agent_helpers.h -- what the agent suites (test_agents.c, test_mcts.c,
 * test_ab.c) share: a position given as variant and text, set up (a
 * Serbest position may leave out a king, see serbest_from_text_fragment),
 * and an agent made from a spec, each failing the test with the message
 * when the text is bad. Header-only (static), like tafl_helpers.h.
 */
#ifndef RULELAB_AGENT_HELPERS_H
#define RULELAB_AGENT_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "agent.h"
#include "serbest.h"

/* A position of a game, for the tests. */
struct position {
    const char *variant, *text;
};

static inline void setup(const struct position *p, struct variant *v,
                         void *st)
{
    char err[512];
    if (variant_parse(p->variant, v, err, sizeof err) != 0)
        fail_msg("%s: %s", p->variant, err);
    int rc = v->game == &serbest_game
             ? serbest_from_text_fragment(st, v, p->text, err, sizeof err)
             : game_setup(v, st, p->text, NULL, err, sizeof err);
    if (rc != 0)
        fail_msg("%s %s: %s", p->variant, p->text, err);
}

static inline struct agent *make_agent(const char *spec, uint64_t seed)
{
    struct agent *a;
    char err[4096];
    if (agent_create(spec, seed, &a, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
    return a;
}

#endif
