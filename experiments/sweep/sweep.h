/*
 * sweep.h -- sweep files: what an experiment plays.
 *
 * A sweep file is INI, read by sweep.c's own strict reader:
 *
 *   - UTF-8 text, lines of any length, LF or CRLF; a NUL byte, a control
 *     character other than tab, or bytes that are not UTF-8 are errors.
 *   - Each line stands alone: blank, a comment (first character `;` or
 *     `#`), `[section]` (a comment may follow), or `key = value`, where a
 *     `;` or `#` after a space or tab starts a comment. Indentation is
 *     ignored: an indented line is read on its own, never as the rest of
 *     the line above, so a list is written on one line.
 *   - Each section at most once, each key at most once in its section; the
 *     sections may come in any order.
 *   - Names (the sweep's and the agents'): 1-63 ASCII letters, digits,
 *     '_', '-' or '.'.
 *   - Numbers are decimal, as in specs (spec_parse_number): digits for
 *     whole numbers (leading zeros allowed: 010 is ten), 0.05, .05 or 5e-2
 *     for the others; no '+', hex, inf or nan.
 *   - Lists are comma-separated; an empty item is an error, and so is a
 *     value or a pair listed twice, B vs A next to A vs B with orders =
 *     both, or two agent names with one canonical spec (cells would share
 *     results).
 *
 *     [sweep]
 *     name = kings_landing        ; results are keyed by name and seed
 *     seed = 1
 *     games = 200                 ; games per cell
 *     max_plies = 400             ; optional: the ply cap of every game
 *                                 ; section that does not set max_plies
 *     stop = sprt                 ; optional: none (default), sprt or ci
 *     sprt_p0 = 0.5               ; sprt: H0 and H1 on the seat-0 score
 *     sprt_p1 = 0.6
 *     alpha = 0.05                ; sprt error rates
 *     beta = 0.05
 *     ci_width = 0.1              ; ci: stop once the 95% Wilson interval
 *                                 ; of the seat-0 score is this narrow
 *     min_games = 20              ; no early stop before this many games
 *     record = search             ; optional: none (default) or search:
 *                                 ; store each move's search figures
 *                                 ; (value, iterations, nodes, depth,
 *                                 ; proven) in move_stats, for agents
 *                                 ; that search; the games are the same
 *
 *     [game serbest]              ; one section per game; each key is a
 *     kings_landing = 7, 8, 9     ; parameter with a list of values, all
 *                                 ; combinations played (cartesian product)
 *     [game tafl]                 ; no keys: the game's defaults
 *     openings = random_plies:4   ; optional, per game section: where its
 *                                 ; games start (openings.h): random_plies:N,
 *                                 ; safe_plies:N, a FILE of openings, or
 *                                 ; none (default)
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
 * first). Cells come game section by game section in file order; within
 * one, variant by variant (the last key varying fastest), and for each
 * variant the pairs as listed, each followed by its other seat order
 * (`pairs` left out: all). Each game's seed comes from the sweep seed, the
 * identities of the variant and of both agent specs in seat order (the
 * cell's seed key) and the game's index alone. A section with openings
 * adds a fourth line to its cells' seed key, "openings=IDENTITY", so its
 * cells are other cells than without (or with other) openings; the seeds
 * still come from the first three lines.
 */
#ifndef RULELAB_SWEEP_H
#define RULELAB_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "openings.h"

#define SWEEP_MAX_AGENTS 32
#define SWEEP_NAME_MAX 64

enum sweep_stop { STOP_NONE = 0, STOP_SPRT, STOP_CI };

struct sweep_agent {
    char name[SWEEP_NAME_MAX];
    char spec[VARIANT_TEXT_MAX]; /* canonical */
};

/* A cell's seed key: its variant's identity and its two agents'
 * identities in seat order, joined by newlines (results/README.md), and
 * "openings=IDENTITY" on a fourth line when its section has openings. */
#define SWEEP_SEED_KEY_MAX (3 * VARIANT_TEXT_MAX + 80)

struct sweep_cell {
    struct variant variant;
    char variant_text[VARIANT_TEXT_MAX]; /* canonical */
    int agent[2]; /* seat 0 and seat 1, indices into sweep.agents */
    int openings; /* index into sweep.openings, or -1: from the start */
    char seed_key[SWEEP_SEED_KEY_MAX]; /* set by sweep_cell_seed_key */
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
    int record_search; /* record = search: the runner stores move_stats */
    struct sweep_agent agents[SWEEP_MAX_AGENTS];
    int n_agents;
    struct sweep_cell *cells;
    int n_cells;
    struct openings *openings; /* one per game section that sets them */
    int n_openings;
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

/* sweep_parse for a sweep file as stored with its results: an openings
 * FILE is not read (its setting is kept, its lines are not), so a report
 * can read the rules of a sweep whose files are elsewhere. Such a sweep
 * must not be run. */
int sweep_parse_stored(const char *text, struct sweep *s, char *err,
                       size_t errsz);

void sweep_free(struct sweep *s);

/* The openings of cell c, or NULL when its games start from the start. */
const struct openings *sweep_cell_openings(const struct sweep *s,
                                           const struct sweep_cell *c);

/* Sets c->seed_key from c's variant and agents (sweep_parse does it for
 * every cell). Returns 0, or -1 with a message when it does not fit. */
int sweep_cell_seed_key(const struct sweep *s, struct sweep_cell *c,
                        char *err, size_t errsz);

/* The seed of game `index` of cell c: from the sweep seed, the three
 * lines of c->seed_key, and the index alone. */
uint64_t sweep_game_seed(const struct sweep *s, const struct sweep_cell *c,
                         int index);

/* The pair id of game `index` of cell c when its section has openings:
 * the same for game `index` of the cell with the two agents in the other
 * seats (the same opening, seats swapped), from the sweep seed, the seed
 * key's variant, openings and the two agent identities in sorted order,
 * and the index; never 0. 0 when the cell has no openings. */
int64_t sweep_pair_id(const struct sweep *s, const struct sweep_cell *c,
                      int index);

#endif
