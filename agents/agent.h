/*
 * agent.h -- players. An agent is made from a spec string such as `random`
 * or `mcts(iterations=2000,c=1.4)` and a seed, chooses moves for states of
 * any game through core/game.h alone, and is told every move actually
 * played (so a search tree can be kept between moves).
 *
 * Every agent is deterministic given its spec and seed, unless its spec
 * asks for a wall-clock budget.
 */
#ifndef RULELAB_AGENT_H
#define RULELAB_AGENT_H

#include <stdint.h>

#include "game.h"

/* What the last choose() found; zeros for agents that do not search. */
struct agent_stats {
    uint64_t iterations; /* search iterations of the last move */
    uint32_t nodes; /* nodes in the tree after it */
    int depth; /* longest path from the root the search went down */
    double value; /* chosen move's mean reward for the mover, 0..1 */
    int proven; /* +1 proven win for the mover, -1 proven loss, 0 unknown */
    int hit_cap; /* the node pool was full during the search */
    /* 0, or the end_reason (REASON_FORFEIT_*) for which the agent gave up
     * the game instead of choosing: an outside program's bad, late or
     * missing reply (ext.h). The move returned is then no move. */
    int forfeit;
};

/* One kind of agent: its parameters and its operations. `self` is the
 * kind's own data. */
struct agent_kind {
    const char *name;
    const char *doc; /* one line */
    const struct param_spec *params; /* the kind's own parameters */
    int n_params;
    /* Returns new agent data, or NULL with a message in err (left empty
     * when memory is short). values holds the kind's own n_params values,
     * then, if uses_eval, every evaluation weight (eval_weight's order);
     * texts the values of its PARAM_TEXT parameters. */
    void *(*create)(const double *values, const struct spec_texts *texts,
                    uint64_t seed, char *err, size_t errsz);
    /* Chooses a legal move for st (the game must not be over). */
    move_t (*choose)(void *self, const struct game *g, const void *st,
                     struct agent_stats *stats);
    /* A game begins (agent_start). May be NULL. */
    void (*start)(void *self, const struct game *g, const char *variant,
                  const char *position, const char *opening);
    /* Move m was played from st (by either side). May be NULL. */
    void (*observe)(void *self, const struct game *g, const void *st,
                    move_t m);
    void (*destroy)(void *self);
    /* Bumped by every change after which the same spec and seed choose
     * other moves (a float that becomes a double, a new way to draw a
     * random move). Results record it, and a sweep cell is never resumed
     * under another (results/README.md). 1 at first. */
    int behaviour_version;
    /* Whether the kind evaluates positions (eval.h): its specs then take
     * any evaluation weight as a parameter too (agent_spec_params), and
     * create gets every weight's value. */
    int uses_eval;
    /* Checks a spec's values together (what each parameter's range cannot
     * tell, e.g. a search with no budget at all). Returns 0, or -1 with a
     * message in err naming the parameters. May be NULL. */
    int (*check)(const double *values, const struct spec_texts *texts,
                 char *err, size_t errsz);
    /* Fills in, before the spec is checked, made canonical or identified,
     * what it leaves to the process's configuration (ext: an engine's
     * declared version and options, from the engines file). Returns 0, or
     * -1 with a message (the spec contradicts it). May be NULL. */
    int (*resolve)(double *values, struct spec_texts *texts, char *err,
                   size_t errsz);
    /* Whether the kind plays through another program (ext): making one
     * starts a process, so fuzzers and tests that make every kind leave
     * it out. */
    int external;
};

struct agent {
    const struct agent_kind *kind;
    void *self;
    struct agent_stats stats;
    char spec[VARIANT_TEXT_MAX]; /* canonical spec: every own parameter,
                                  * and the weights off their defaults */
};

/* Every agent kind, NULL-terminated. */
extern const struct agent_kind *const agent_kinds[];

/* Makes an agent from spec and seed. Returns 0, or -1 with a message in
 * err that lists the kinds (unknown kind) or the parameters (bad key or
 * value) or says memory was short. */
int agent_create(const char *spec, uint64_t seed, struct agent **out,
                 char *err, size_t errsz);

/* Whether agent a can play game g: a kind that evaluates positions needs
 * the game's evaluation (eval_of). Returns 0, or -1 with a message naming
 * both. */
int agent_plays(const struct agent *a, const struct game *g, char *err,
                size_t errsz);

/* agent_plays for the agent spec would make (the spec checked as
 * agent_create checks it). */
int agent_spec_plays(const char *spec, const struct game *g, char *err,
                     size_t errsz);

/* A game begins: v is its canonical variant text, position the text of
 * the position it starts from ("" for the variant's start) and opening the
 * plies played from there by no agent (space-separated, "" for none),
 * after which the agents play. Call it before the game's first choose or
 * observe; an agent that plays through another program (ext) needs it,
 * the others ignore it. */
void agent_start(struct agent *a, const struct game *g, const char *variant,
                 const char *position, const char *opening);

/* Chooses a move for st. When a->stats.forfeit is set afterwards, the
 * agent gave up the game instead (agent_stats). */
move_t agent_choose(struct agent *a, const struct game *g, const void *st);

/* Tells the agent that m was played from st; call it for every move of
 * the game, the agent's own included. */
void agent_observe(struct agent *a, const struct game *g, const void *st,
                   move_t m);

void agent_free(struct agent *a);

/* Writes the canonical spec of an agent spec (struct agent's spec) after
 * checking it as agent_create does, without making the agent. Returns its
 * length, or -1 with a message in err. */
int agent_canonical(const char *spec, char *buf, size_t n, char *err,
                    size_t errsz);

/* The kind named by spec (the name before any parenthesis), or NULL. */
const struct agent_kind *agent_kind_of(const char *spec);

/* Writes the identity of an agent spec (see spec_identity): what results
 * are keyed by. Returns its length, or -1 with a message in err for a bad
 * spec or a buffer too small. */
int agent_identity(const char *spec, char *buf, size_t n, char *err,
                   size_t errsz);

/* Writes into out (room for VARIANT_MAX_PARAMS) the table a spec of kind
 * with the arguments [args, args_end) (args may be NULL) is read against:
 * the kind's own parameters, then, if it evaluates positions, the
 * evaluation weights the arguments name (a key that is neither is left
 * for the parser to name). weights (may be NULL) gets, at each index past
 * the own parameters, that weight's index among all (eval_weight).
 * Returns how many, or -1 with a message when they do not fit, which the
 * spec is then refused for, in every build. Every game's weights can be
 * set this way while the table holds only those given. */
int agent_spec_params(const struct agent_kind *kind, const char *args,
                      const char *args_end, struct param_spec *out,
                      int *weights, char *err, size_t errsz);

/* Writes, one per line, each kind with its parameters and defaults, then
 * the evaluation weights that the kinds marked uses_eval take. */
int agent_kinds_text(char *buf, size_t n);

#endif
