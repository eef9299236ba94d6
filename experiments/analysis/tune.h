/*
 * tune.h -- evaluation weights fitted to stored game results (`rulelab
 * tune`), Texel-style: positions sampled from the stored
 * games of one variant, each labelled with its game's final result from
 * the side to move's view, and the evaluation's weights (eval.h) fitted
 * by logistic regression of that label on the position's features.
 *
 * tune.c samples and labels the positions and splits them into train and
 * held-out sets by game; tune_fit.c fits (its opening comment says why the
 * scale is fixed and what the L2 pull toward the hand-set weights does);
 * tune_print.c prints the result. The command is experiments/cli/cmd_tune.c.
 */
#ifndef RULELAB_TUNE_H
#define RULELAB_TUNE_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "eval.h"
#include "table.h"

/* The logistic scale the fit uses, fixed: ab's (AB_VALUE_SCALE) and the
 * default eval_scale of mcts. */
#define TUNE_SCALE 200.0

/* The default of tune_options.skip_plies: Jetan's games between ab
 * agents often end within 10 plies, so more would leave few positions. */
#define TUNE_SKIP_PLIES 2

struct tune_fit_options {
    double scale; /* > 0 */
    double l2; /* >= 0: the pull toward the prior (tune_fit.c) */
    int max_iterations; /* Newton steps at most */
    double tolerance; /* stop once half the Newton decrement is below */
};

struct tune_fit_result {
    double w[EVAL_MAX_FEATURES];
    int fixed[EVAL_MAX_FEATURES]; /* 0 in every position: w is the prior */
    int iterations, converged;
    double objective; /* the mean log-loss plus the penalty at w */
};

/* The mean log-loss over the n positions x (n rows of nf features,
 * row-major) with results y (each 0, 1/2 or 1, or anything in [0, 1]) of
 * the prediction eval_win_probability(w . x, scale); NaN when n is 0. */
double tune_log_loss(const double *x, const double *y, int n, int nf,
                     const double *w, double scale);

/* Fits nf weights to the n positions x with results y, minimising the
 * mean log-loss plus the L2 pull toward prior (tune_fit.c), starting from
 * prior. Returns 0 with out filled (converged 0 when max_iterations ran
 * out first), or -1 for bad arguments or a singular system (linearly
 * dependent features with l2 0); then out->w holds the prior. */
int tune_fit(const double *x, const double *y, int n, int nf,
             const double *prior, const struct tune_fit_options *o,
             struct tune_fit_result *out);

/* Whether the game of id game_id is in the held-out set: a hash of seed
 * and the id alone, below holdout (a share in [0, 1]), so a game's
 * positions all fall on one side and the split is the same for every
 * --positions. */
int tune_is_held_out(uint64_t seed, int64_t game_id, double holdout);

/* One sampled position. */
struct tune_position {
    int64_t game_id; /* games.id */
    int ply; /* agent plies played before it (the opening not counted) */
    double label; /* the game's result for the side to move: 1, 1/2, 0 */
    int held_out;
    double f[EVAL_MAX_FEATURES]; /* eval_features */
};

struct tune_options {
    const char *sweep; /* only games of sweeps of this name, or NULL */
    int skip_plies; /* positions after fewer agent plies are not sampled */
    int max_positions; /* sample at most this many (uniformly), >= 1 */
    double holdout; /* the share of games held out, in [0, 1) */
    uint64_t seed; /* for the sample and the split */
    struct tune_fit_options fit;
};

/* The positions sampled from the stored games of one variant (its
 * canonical text). */
struct tune_sample {
    int n; /* positions */
    struct tune_position *p; /* n, ordered by game id, then ply */
    long games, games_held_out; /* games read, and of those held out */
    long eligible; /* positions that could have been sampled */
};

/* Samples the positions of every stored game of variant (canonical text)
 * of o->sweep (or of every sweep): each game is replayed from its opening
 * (position, then moves) through its agents' moves; a position is
 * eligible when o->skip_plies agent plies or more were played before it,
 * the game is not over in it, and the side to move cannot win in one move
 * (positions decided at once teach the evaluation nothing: its search
 * sees them); o->max_positions of them are kept uniformly at random
 * (reservoir sampling, seeded by o->seed). Returns 0, or -1 with a message
 * (a stored move that does not replay, naming the game id and ply; out of
 * memory). */
int tune_sample_variant(sqlite3 *db, const char *variant,
                        const struct tune_options *o, struct tune_sample *out,
                        char *err, size_t errsz);

void tune_sample_free(struct tune_sample *s);

/* The result of tuning one variant. */
struct tune_result {
    char variant[VARIANT_TEXT_MAX]; /* canonical */
    const struct game_eval *eval;
    int train, held; /* positions in each set */
    long games, games_held_out;
    double hand[EVAL_MAX_FEATURES], fitted[EVAL_MAX_FEATURES];
    int fixed[EVAL_MAX_FEATURES]; /* no information: kept hand-set */
    int clamped[EVAL_MAX_FEATURES]; /* fitted beyond the parameter's range */
    double loss_hand[2], loss_fitted[2]; /* train, held out (NaN if none) */
    int iterations, converged;
};

/* The canonical texts of the variants of game `game` that hold games (of
 * sweeps named sweep, or of all), sorted; *out (free it) holds *n. Returns
 * 0, or -1 with a message. */
int tune_variants(sqlite3 *db, const char *game, const char *sweep,
                  char (**out)[VARIANT_TEXT_MAX], int *n, char *err,
                  size_t errsz);

/* Samples variant and fits its weights (positions of held-out games are
 * not fitted on). Returns 0; or -1 with a message: no games, fewer than
 * TUNE_MIN_PER_WEIGHT training positions per weight, no held-out position
 * when holdout > 0, a fit that fails. */
#define TUNE_MIN_PER_WEIGHT 20
int tune_variant(sqlite3 *db, const char *variant, const struct tune_options *o,
                 struct tune_result *out, char *err, size_t errsz);

/* Writes the fitted weights as an agent spec: agent ("ab") with
 * (name=value,...) after it, or, when agent is a spec ("ab(nodes=20000)"),
 * the weights added inside its parentheses; every weight of the game, each
 * with four significant digits in plain decimal (the spec number syntax). */
void tune_spec(const struct tune_result *r, const char *agent, char *buf,
               size_t n);

/* Saves the results of n variants (tuned on sweep `sweep`, or NULL: every
 * game) in st's tunings table, one row each, stamped now; spec as
 * tune_spec's with agent. Takes the writer lock. Returns 0, or -1 with a
 * message. */
struct store;
int tune_save(struct store *st, const struct tune_result *r, int n,
              const char *sweep, const char *agent, char *err, size_t errsz);

/* Prints the results of n variants in format f; agent as tune_spec's. */
void tune_print(const struct tune_result *r, int n, const struct tune_options *o,
                const char *agent, enum report_format f, FILE *out);

#endif
