/*
 * ratings.h -- Elo ratings of agent specs per variant, from every stored
 * game, by maximum likelihood, with a first-move term fitted at the same
 * time.
 *
 * The model (Davidson 1970's Bradley-Terry with ties, plus a seat term).
 * With k = ln(10) / 400 (the Elo scale), a game between the agent of
 * rating r0 in seat 0 and the one of rating r1 in seat 1 ends
 *   seat 0 wins  with weight exp(k (r0 + adv)),
 *   seat 1 wins  with weight exp(k r1),
 *   a draw       with weight nu * exp(k (r0 + adv + r1) / 2),
 * each divided by the sum of the three. adv is the first-move advantage in
 * Elo (seat 0 moves first), nu >= 0 the draw parameter: between equal
 * agents with adv = 0 a game is drawn with probability nu / (2 + nu).
 *
 * Why Davidson's and not BayesElo's (P(win) = F(x - d), P(loss) =
 * F(-x - d)): (1) among decisive games the model is the plain Bradley-Terry
 * one, P(seat 0 wins | decisive) = 1 / (1 + 10^(-(r0 + adv - r1) / 400)),
 * so an Elo difference means what it means without draws and does not
 * stretch with the draw rate; (2) a draw counts half a point exactly: the
 * likelihood equations set each agent's expected points (wins + draws/2)
 * to its actual points, as the report's score counts them, and the seat
 * term's equation does the same for seat 0's points; (3) it is a
 * multinomial logit, linear in (k r, k adv, ln nu), so the log-likelihood
 * is concave and Newton's method from zero finds the maximum when there is
 * one. With no draw in a variant nu is 0 (its estimate) and the model is
 * Bradley-Terry with a seat term.
 *
 * Intervals. 95% intervals are estimate +/- 1.959964 standard errors from
 * the inverse of the observed information (minus the Hessian of the
 * log-likelihood) at the maximum, with the anchor held fixed, so an
 * agent's interval is that of its difference from the anchor (the
 * anchor's own is a point). For this model the observed information
 * equals the expected (canonical link), and it needs no resampling, so
 * 10^6 games cost one pass over their counts. nu's interval is
 * exp(ln nu +/- 1.96 se). LOS (likelihood of superiority) of an agent over
 * the next one down is Phi(d / se(d)) for their rating difference d, with
 * se(d) from the same covariance (the normal approximation).
 *
 * When there is no finite estimate. Ratings are only defined within a
 * connected set of agents: those that never met the anchor's group,
 * directly or through others, are listed as not rated. Within it, the
 * maximum exists only if no group of agents won every game against the
 * others (that group's ratings would be +infinite), and the seat term only
 * if each seat won at least one game; every game drawn leaves the ratings
 * undefined. Such a variant is reported with the reason and without
 * numbers.
 */
#ifndef RULELAB_RATINGS_H
#define RULELAB_RATINGS_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "game.h"
#include "table.h"

/* The counts of one (seat-0 agent, seat-1 agent) pairing: the agents are
 * indices into the fit's agents; a0 == a1 is self-play (it informs the
 * seat term and the draw parameter only). */
struct ratings_count {
    int a0, a1;
    long wins0, draws, wins1; /* seat 0 won, drawn, seat 1 won */
};

enum ratings_status {
    RATINGS_OK,
    RATINGS_NO_GAMES,
    RATINGS_INFINITE, /* no finite maximum: see message */
    RATINGS_NOT_CONVERGED /* Newton's method failed (message says how) */
};

/* What a fit found. Arrays have one entry per agent of the fit. */
struct ratings_fit {
    enum ratings_status status;
    char message[512]; /* why not RATINGS_OK; "" otherwise */
    int n_agents;
    int *rated; /* 1: in the anchor's connected group, rated */
    double *elo, *se; /* rating and standard error (vs the anchor) */
    double *cov; /* n_agents^2: covariance of the ratings, in Elo^2 */
    double adv, adv_se; /* first-move advantage, Elo */
    int has_draws; /* 0: no draws, nu = 0 and no interval */
    double nu, nu_lo, nu_hi; /* draw parameter and its 95% interval */
    int iterations; /* Newton steps taken */
    long games; /* games the fit used */
};

/* Fits the model to n_rows counts over n_agents agents (n_agents >= 1),
 * with agent `anchor` held at anchor_elo; names[i] (names may be NULL)
 * names agent i in messages. Agents not connected to the anchor by games
 * between different agents are left unrated. Returns 0 with *fit filled
 * (status says whether there are ratings), or -1 when memory ran short
 * (message in err). Free with ratings_fit_free (also after -1). */
int ratings_fit(const struct ratings_count *rows, int n_rows, int n_agents,
                int anchor, double anchor_elo, const char *const *names,
                struct ratings_fit *fit, char *err, size_t errsz);

void ratings_fit_free(struct ratings_fit *fit);

/* P(agent i is stronger than agent j) under the normal approximation of
 * the fit (both rated; i != j). */
double ratings_los(const struct ratings_fit *fit, int i, int j);

/* One agent of a variant's ratings. */
struct ratings_agent {
    int64_t id; /* agents.id */
    char name[64]; /* short name in the first cell it played */
    char spec[VARIANT_TEXT_MAX]; /* canonical */
    char identity[VARIANT_TEXT_MAX]; /* agents.identity */
    long games; /* against other agents */
    double points; /* wins + draws/2 in those games */
    int named; /* matches the anchor asked for */
};

struct ratings_variant {
    int64_t variant_id; /* variants.id */
    char variant[VARIANT_TEXT_MAX], short_variant[VARIANT_TEXT_MAX];
    long games; /* every game of the variant read */
    int n_sweeps; /* sweeps (name and seed) its games came from */
    int64_t *sweep_ids, first_sweep; /* their ids; the lowest */
    char sweeps[512]; /* "quick (seed 1), big (seed 2)" */
    int n_agents;
    struct ratings_agent *agents; /* in order of first appearance */
    int anchor; /* index into agents */
    double anchor_elo;
    char anchor_note[256]; /* how the anchor was chosen */
    int *order; /* agents by rating, highest first; unrated last */
    struct ratings_count *rows;
    int n_rows;
    struct ratings_fit fit;
};

struct ratings {
    struct ratings_variant *variants;
    int n_variants;
    int one_sweep; /* --sweep given: games are not pooled across names */
    char sweep[64];
};

/* Reads every game of db (or of the sweeps named `sweep`) inside one read
 * savepoint, counted by SQL per cell, and fits each variant separately.
 * anchor (NULL: the default) names an agent by its spec (any spelling of
 * it: compared by identity) or by a short name from a sweep file, held at
 * anchor_elo; a variant without it is anchored by default, and its
 * anchor_note says so. The default: `random` at 0 when it played in the
 * variant, else the first agent of the (first) sweep file that did.
 * Returns 0, or -1 with a message (an unknown anchor: the message lists
 * the agents of db). */
int ratings_build(sqlite3 *db, const char *sweep, const char *anchor,
                  double anchor_elo, struct ratings *r, char *err,
                  size_t errsz);

void ratings_free(struct ratings *r);

void ratings_print(const struct ratings *r, enum report_format f, FILE *out);

/* calloc that never asks for 0 items (a NULL from calloc(0) would read as
 * out of memory): what ratings.c and ratings_fit.c allocate with. */
void *ratings_calloc(size_t n, size_t size);

#endif
