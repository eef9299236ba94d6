/*
 * eval.c -- the registry of the games' evaluations and the arithmetic they
 * share (eval.h). The features themselves live in one file per game.
 */
#include "eval.h"

#include <math.h>
#include <string.h>

#include "history.h"

extern const struct game_eval serbest_eval, jetan_eval, tafl_eval;

const struct game_eval *const game_evals[] = {&serbest_eval, &jetan_eval,
                                              &tafl_eval, NULL};

const struct game_eval *eval_of(const struct game *g)
{
    /* by name, the registry's key (game_find): a copy of a game's vtable
     * under its name, as tests make, is the same game */
    for (int i = 0; game_evals[i]; i++)
        if (game_evals[i]->game == g
            || strcmp(game_evals[i]->game->name, g->name) == 0)
            return game_evals[i];
    return NULL;
}

int eval_weight_count(void)
{
    int n = 0;
    for (int i = 0; game_evals[i]; i++)
        n += game_evals[i]->n_features;
    return n;
}

const struct param_spec *eval_weight(int i)
{
    for (int k = 0; game_evals[k]; k++) {
        if (i < game_evals[k]->n_features)
            return &game_evals[k]->weights[i];
        i -= game_evals[k]->n_features;
    }
    return NULL;
}

int eval_weight_offset(const struct game_eval *e)
{
    int n = 0;
    for (int i = 0; game_evals[i] && game_evals[i] != e; i++)
        n += game_evals[i]->n_features;
    return n;
}

void eval_features(const struct game_eval *e, const void *st, double *f)
{
    e->features(st, f);
}

double eval_score(const struct game_eval *e, const double *weights,
                  const void *st)
{
    double f[EVAL_MAX_FEATURES], sum = 0.0;
    eval_features(e, st, f);
    for (int i = 0; i < e->n_features; i++)
        sum += weights[i] * f[i];
    return sum;
}

double eval_win_probability(double score, double scale)
{
    return 1.0 / (1.0 + exp(-score / scale));
}
