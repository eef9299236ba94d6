/*
 * sweep.h -- sweep files: what an experiment plays.
 *
 * A sweep file is INI (read with libinih):
 *
 *     [sweep]
 *     name = kings_landing        ; results are keyed by name and seed
 *     seed = 1
 *     games = 200                 ; games per cell
 *     max_plies = 400             ; optional: every variant's ply cap
 *     stop = sprt                 ; optional: none (default), sprt or ci
 *     sprt_p0 = 0.5               ; sprt: H0 and H1 on the seat-0 score
 *     sprt_p1 = 0.6
 *     alpha = 0.05                ; sprt error rates
 *     beta = 0.05
 *     ci_width = 0.1              ; ci: stop once the 95% Wilson interval
 *                                 ; of the seat-0 score is this narrow
 *     min_games = 20              ; no early stop before this many games
 *
 *     [game serbest]              ; one section per game; each key is a
 *     kings_landing = 7, 8, 9     ; parameter with a list of values, all
 *                                 ; combinations played (cartesian product)
 *     [agents]
 *     weak = mcts(iterations=200) ; short name = agent spec
 *     strong = mcts(iterations=2000)
 *
 *     [matchups]
 *     pairs = weak vs strong, strong vs strong   ; or: all
 *     orders = both               ; both (default): each pair in both seat
 *                                 ; orders; given: only as written
 *
 * A cell is one canonical variant and one ordered pair of agents (seat 0
 * first). Each game's seed comes from the sweep seed, the canonical
 * variant, both agent specs in seat order and the game's index alone.
 */
#ifndef RULELAB_SWEEP_H
#define RULELAB_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define SWEEP_MAX_AGENTS 32
#define SWEEP_NAME_MAX 64

enum sweep_stop { STOP_NONE = 0, STOP_SPRT, STOP_CI };

struct sweep_agent {
    char name[SWEEP_NAME_MAX];
    char spec[VARIANT_TEXT_MAX]; /* canonical */
};

struct sweep_cell {
    struct variant variant;
    char variant_text[VARIANT_TEXT_MAX]; /* canonical */
    int agent[2]; /* seat 0 and seat 1, indices into sweep.agents */
};

struct sweep {
    char path[512];
    char *file_text; /* the whole file, stored with the results */
    char name[SWEEP_NAME_MAX];
    uint64_t seed;
    int games_per_cell;
    int max_plies; /* -1: each variant's own */
    enum sweep_stop stop;
    double sprt_p0, sprt_p1, alpha, beta, ci_width;
    int min_games;
    struct sweep_agent agents[SWEEP_MAX_AGENTS];
    int n_agents;
    struct sweep_cell *cells;
    int n_cells;
};

/* Reads and expands a sweep file. Returns 0, or -1 with an error that
 * names the file, the line and what is allowed. */
int sweep_load(const char *path, struct sweep *s, char *err, size_t errsz);

/* The same from text in memory; `path` only names it in errors. */
int sweep_parse(const char *path, const char *text, struct sweep *s,
                char *err, size_t errsz);

/* The same from len bytes, which may hold a NUL (an error naming its
 * line): what sweep_load and the fuzzer read. */
int sweep_parse_bytes(const char *path, const char *text, size_t len,
                      struct sweep *s, char *err, size_t errsz);

void sweep_free(struct sweep *s);

/* The seed of game `index` of cell c. */
uint64_t sweep_game_seed(const struct sweep *s, const struct sweep_cell *c,
                         int index);

#endif
