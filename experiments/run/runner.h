/*
 * runner.h -- plays a sweep on OpenMP threads and records every game.
 *
 * One game per thread at a time, dynamically scheduled; each game's agents
 * are made for it from the game's own seed, so results depend on nothing
 * but the sweep (not on threads, order, or interruptions). Finished games go
 * to the store inside one critical section, the only shared write.
 */
#ifndef RULELAB_RUNNER_H
#define RULELAB_RUNNER_H

#include <stddef.h>

#include "shard.h"
#include "store.h"
#include "sweep.h"

struct run_options {
    int threads; /* >= 1 */
    int quiet; /* no progress line */
    double commit_seconds; /* commit at least this often */
    int commit_games; /* ... or after this many games */
    struct shard shard; /* the games to play (shard.h); n 0: all of them */
};

struct run_result {
    long total; /* games the sweep still needed when the run started */
    long played; /* games played and stored by this run */
    long dropped; /* games finished past an early stop, not stored */
    double seconds;
    int interrupted; /* SIGINT or SIGTERM stopped it */
};

/* Plays every game of s (of shard o->shard, when its n is not 0) not yet
 * in st, and records the shard in the run's row. Returns 0, or -1 with a
 * message (a store error). On SIGINT/SIGTERM it stops taking new games,
 * lets the ones in flight finish, commits and returns 0 with interrupted
 * set. */
int runner_run(const struct sweep *s, struct store *st,
               const struct run_options *o, struct run_result *out, char *err,
               size_t errsz);

/* A game's growable buffers (runner_play_game); all zero at first. */
struct game_buffers {
    char *moves; /* the agents' moves as text */
    size_t cap; /* its size */
    struct agent_stats *stats; /* per ply, when recorded */
    int stats_cap; /* its length */
};

/* Plays game `index` of cell c: its opening (none, or the cell's openings,
 * openings.h) into *opening, then the agents from there: the record
 * (cell_id left 0) and the agents' moves as text in b->moves (grown as
 * needed). With `record_stats`, what the mover's agent reported for each
 * ply goes into b->stats (grown as needed) and rec->stats points at it;
 * else rec->stats is NULL. The agents' seat 0 (c->agent[0]) plays the
 * side to move after the opening, and the record's sides, outcome and
 * plies are the agents' (plies: the agents' moves, the opening's not
 * counted). Returns 0, or -1 when memory is short, an agent cannot be
 * made or no opening can be played. The caller frees b's buffers. */
int runner_play_game(const struct sweep *s, const struct sweep_cell *c,
                     int index, int record_stats, struct game_record *rec,
                     struct game_buffers *b, struct opening_played *opening,
                     char *err, size_t errsz);

#endif
