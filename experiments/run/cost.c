/*
 * cost.c -- the calibration behind `run --dry-run`'s estimates (cost.h):
 * a cell's first games played on OpenMP threads, each timed by its
 * thread's CPU clock (CLOCK_THREAD_CPUTIME_ID), none stored.
 */
#include "cost.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner.h"

/* The CPU-seconds the calling thread has used. */
static double thread_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Calibrates cell c into *out; 0, or -1 with a message. */
static int calibrate_cell(const struct sweep *s, const struct sweep_cell *c,
                          double seconds, struct cell_cost *out, char *err,
                          size_t errsz)
{
    struct game_buffers b = {0};
    double used = 0;
    int games = 0, rc = 0;
    int most = s->games_per_cell < COST_MAX_GAMES ? s->games_per_cell
                                                  : COST_MAX_GAMES;
    while (games < most && (games == 0 || used < seconds)) {
        struct game_record rec;
        struct opening_played opening;
        double t0 = thread_seconds();
        rc = runner_play_game(s, c, games, 0, &rec, &b, &opening, err, errsz);
        if (rc != 0)
            break;
        used += thread_seconds() - t0;
        games++;
    }
    free(b.moves);
    free(b.stats);
    out->games = games;
    out->per_game = games ? used / games : 0;
    return rc;
}

int cost_calibrate(const struct sweep *s, double seconds, int threads,
                   struct cell_cost *out, void (*progress)(int done, int n),
                   char *err, size_t errsz)
{
    int failed = 0, done = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int i = 0; i < s->n_cells; i++) {
        int stop;
#pragma omp atomic read
        stop = failed;
        if (stop)
            continue;
        char e[1024];
        if (calibrate_cell(s, &s->cells[i], seconds, &out[i], e, sizeof e)
            != 0) {
#pragma omp critical(cost_error)
            if (!failed) {
#pragma omp atomic write
                failed = 1;
                snprintf(err, errsz, "calibrating cell %d (%s): %s", i,
                         s->cells[i].variant_text, e);
            }
            continue;
        }
#pragma omp critical(cost_progress)
        {
            done++;
            if (progress)
                progress(done, s->n_cells);
        }
    }
    return failed ? -1 : 0;
}

double cost_of_shard(const struct sweep *s, const struct shard *sh,
                     const struct cell_cost *cost)
{
    double sum = 0;
    for (int i = 0; i < s->n_cells; i++)
        sum += cost[i].per_game
             * (double)shard_count(s, sh, i, 0, s->games_per_cell);
    return sum;
}

void cost_shard_range(const struct sweep *s, const struct cell_cost *cost,
                      int n, const int *plan, double *least, double *most)
{
    for (int k = 0; k < n; k++) {
        struct shard sh = {k, n, plan};
        double x = cost_of_shard(s, &sh, cost);
        *least = k == 0 || x < *least ? x : *least;
        *most = k == 0 || x > *most ? x : *most;
    }
}

int cost_write_plan(const struct sweep *s, const struct cell_cost *cost,
                    int n, const char *path, int *plan, char *err,
                    size_t errsz)
{
    double *each = malloc((size_t)(s->n_cells ? s->n_cells : 1) * sizeof *each);
    if (!each) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    for (int i = 0; i < s->n_cells; i++)
        each[i] = cost[i].per_game * s->games_per_cell;
    int rc = -1;
    if (shard_plan_balance(each, s->n_cells, n, plan) != 0)
        snprintf(err, errsz, "out of memory");
    else
        rc = shard_plan_write(path, s, n, plan, each, err, errsz);
    free(each);
    return rc;
}
