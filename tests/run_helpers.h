/*
 * run_helpers.h -- playing a sweep into a database from a test, as `rulelab
 * run` does (two threads, quiet), failing the test on any error. Include
 * after <cmocka.h>.
 */
#ifndef RULELAB_RUN_HELPERS_H
#define RULELAB_RUN_HELPERS_H

#include "runner.h"
#include "shard.h"
#include "store.h"
#include "sweep.h"

/* Plays shard sh of s into path (sh.n 0: the whole sweep), creating the
 * database if needed; returns the games this run played. */
static inline long run_play(const struct sweep *s, const char *path,
                            struct shard sh)
{
    struct store *st;
    char err[1024];
    if (store_open(path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct run_options o = {2, 1, 2.0, 500, sh};
    struct run_result r;
    if (runner_run(s, st, &o, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
    return r.played;
}

#endif
