/*
 * runner.c -- the OpenMP runner: the work list, one game per thread, the
 * critical section that stores results, early stopping, progress and
 * signals.
 *
 * Early stopping must not depend on which games happen to finish first.
 * So with a stop rule each cell stores its games strictly in index order:
 * a game that finishes ahead of a gap waits in memory, and the rule is
 * judged after every game added to the stored prefix. Once it stops a cell,
 * later games are not started, and any already finished are dropped.
 * Without a stop rule games are stored as they finish.
 *
 * Workers never touch the database: they hand each finished game to a
 * bounded queue, and one writer thread stores, commits and prints the
 * progress line. So a commit or a WAL checkpoint never holds up play.
 */
#include "runner.h"

#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "rng.h"
#include "stats.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    stop_requested = 1;
    signal(sig, SIG_DFL); /* a second signal ends the program at once */
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- one game ---------------------------------------------------------- */

/* Makes room in *moves for one more move of up to 31 characters. */
static int reserve_move(char **moves, size_t *cap, size_t len)
{
    if (len + 33 <= *cap)
        return 0;
    size_t grown = *cap ? 2 * *cap : 2048;
    char *p = realloc(*moves, grown);
    if (!p)
        return -1;
    *moves = p;
    *cap = grown;
    return 0;
}

int runner_play_game(const struct sweep *s, const struct sweep_cell *c,
                     int index, struct game_record *rec, char **moves,
                     size_t *cap, char *err, size_t errsz)
{
    const struct game *g = c->variant.game;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct agent *seat[2] = {NULL, NULL};
    uint64_t seed = sweep_game_seed(s, c, index), x = seed;
    double t0 = now_seconds();
    int rc = -1;
    for (int i = 0; i < 2; i++)
        if (agent_create(s->agents[c->agent[i]].spec, rng_splitmix64(&x),
                         &seat[i], err, errsz) != 0)
            goto done;
    g->init(st, &c->variant);
    memset(rec, 0, sizeof *rec);
    rec->side[0] = g->seat_side(st, 0);
    rec->side[1] = g->seat_side(st, 1);
    size_t len = 0;
    if (reserve_move(moves, cap, len))
        goto oom;
    (*moves)[0] = '\0';
    while (g->status(st).outcome == GAME_ONGOING) {
        move_t m = agent_choose(seat[g->to_move(st)], g, st);
        if (reserve_move(moves, cap, len))
            goto oom;
        if (len)
            (*moves)[len++] = ' ';
        len += (size_t)g->move_to_text(st, m, *moves + len, 32);
        agent_observe(seat[0], g, st, m);
        agent_observe(seat[1], g, st, m);
        g->apply(st, m);
        rec->plies++;
    }
    struct game_status status = g->status(st);
    rec->game_index = index;
    rec->seed = seed;
    rec->outcome = status.outcome;
    rec->reason = status.reason;
    rec->duration_ms = (now_seconds() - t0) * 1e3;
    rec->moves = *moves;
    rec->moves_len = len;
    rc = 0;
    goto done;
oom:
    snprintf(err, errsz, "out of memory recording a game");
done:
    agent_free(seat[0]);
    agent_free(seat[1]);
    return rc;
}

/* ---- the shared state of a run ---------------------------------------- */

struct pending {
    struct game_record rec;
    char *moves;
    int cell; /* index into the sweep's cells */
};

struct cell_state {
    int64_t id;
    int stopped_at; /* games after which a stop rule ended it, or -1 */
    int prefix; /* games 0..prefix-1 are stored (stop rule only) */
    long wins, draws, losses; /* seat 0's, over the stored prefix */
    struct pending **waiting; /* finished past the prefix (stop rule only) */
};

struct work {
    int cell, index;
};

#define QUEUE_SIZE 1024
#define WRITER_NAP 0.05 /* seconds the writer sleeps when the queue is short */

/* Finished games on their way from the workers to the writer. */
struct queue {
    pthread_mutex_t lock;
    pthread_cond_t not_empty, not_full;
    struct pending *items[QUEUE_SIZE];
    int head, count, closed;
};

struct run {
    const struct sweep *s;
    struct store *st;
    const struct run_options *o;
    struct cell_state *cells;
    struct work *work;
    long n_work, done, since_commit, dropped;
    double t0, last_commit, last_progress;
    int failed, tty, last_cell;
    char *err;
    size_t errsz;
    struct queue queue;
};

/* Whether the stored prefix of a cell meets the sweep's stop rule. */
static int should_stop(const struct sweep *s, const struct cell_state *c)
{
    long n = c->wins + c->draws + c->losses;
    if (s->stop == STOP_NONE || n < s->min_games)
        return 0;
    if (s->stop == STOP_SPRT) {
        double llr;
        return stats_sprt(c->wins, c->draws, c->losses, s->sprt_p0,
                          s->sprt_p1, s->alpha, s->beta, &llr)
               != STATS_SPRT_CONTINUE;
    }
    double lo, hi;
    stats_wilson((double)c->wins + 0.5 * (double)c->draws, (double)n, 1.96,
                 &lo, &hi);
    return hi - lo <= s->ci_width;
}

static void count_result(struct cell_state *c, enum game_outcome o)
{
    if (o == GAME_WIN_SEAT0)
        c->wins++;
    else if (o == GAME_WIN_SEAT1)
        c->losses++;
    else
        c->draws++;
}

static int store_one(struct run *r, struct game_record *rec)
{
    int rc = store_insert_game(r->st, rec, r->err, r->errsz);
    if (rc == STORE_GAME_ALREADY)
        snprintf(r->err, r->errsz, "game %d of cell %lld was stored by "
                 "another run while this one played it", rec->game_index,
                 (long long)rec->cell_id);
    if (rc != 0)
        return -1;
    r->done++;
    r->since_commit++;
    return 0;
}

/* Stores the finished games of a stop-rule cell that extend its prefix,
 * judging the rule after each. Takes ownership of p. */
static int store_in_order(struct run *r, struct cell_state *c,
                          struct pending *p)
{
    int limit = r->s->games_per_cell;
    if (c->stopped_at >= 0 && p->rec.game_index >= c->stopped_at) {
        free(p->moves);
        free(p);
        r->dropped++;
        return 0;
    }
    c->waiting[p->rec.game_index] = p;
    while (c->prefix < limit && c->waiting[c->prefix]) {
        struct pending *next = c->waiting[c->prefix];
        c->waiting[c->prefix] = NULL;
        int rc = store_one(r, &next->rec);
        count_result(c, next->rec.outcome);
        free(next->moves);
        free(next);
        if (rc)
            return -1;
        c->prefix++;
        if (should_stop(r->s, c)) {
            #pragma omp atomic write
            c->stopped_at = c->prefix;
            if (store_set_stopped(r->st, c->id, c->prefix))
                return -1;
            for (int i = c->prefix; i < limit; i++)
                if (c->waiting[i]) {
                    free(c->waiting[i]->moves);
                    free(c->waiting[i]);
                    c->waiting[i] = NULL;
                    r->dropped++;
                }
            break;
        }
    }
    return 0;
}

static void progress(struct run *r, const struct sweep_cell *cell, int force)
{
    double now = now_seconds();
    if (r->o->quiet || (!force && now - r->last_progress < (r->tty ? 0.5 : 10)))
        return;
    r->last_progress = now;
    double rate = r->done / (now - r->t0 + 1e-9);
    long left = r->n_work - r->done - r->dropped;
    double eta = rate > 0 ? (double)left / rate : 0;
    fprintf(stderr, "%s%ld/%ld games (%.0f%%), %.1f games/s, ETA %dm%02ds, "
            "cell: %s %s vs %s%s", r->tty ? "\r\033[K" : "", r->done,
            r->n_work, r->n_work ? 100.0 * (double)(r->done + r->dropped)
                                   / (double)r->n_work : 100.0,
            rate, (int)eta / 60, (int)eta % 60, cell->variant_text,
            r->s->agents[cell->agent[0]].name,
            r->s->agents[cell->agent[1]].name, r->tty ? "" : "\n");
    fflush(stderr);
}

/* ---- the queue and the writer ------------------------------------------ */

/* A worker hands over a finished game (and its moves buffer). */
static void queue_push(struct queue *q, struct pending *p)
{
    pthread_mutex_lock(&q->lock);
    while (q->count == QUEUE_SIZE)
        pthread_cond_wait(&q->not_full, &q->lock);
    q->items[(q->head + q->count++) % QUEUE_SIZE] = p;
    /* Waking the writer for every game costs more than storing it: it
     * naps and drains the queue, and is woken early only when half full. */
    if (q->count == QUEUE_SIZE / 2)
        pthread_cond_signal(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
}

/* The writer takes the next game, waiting up to `seconds`; NULL when the
 * queue is closed and empty, or on time-out (then *timed_out is set). */
static struct pending *queue_pop(struct queue *q, double seconds,
                                 int *timed_out)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)seconds;
    until.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    struct pending *p = NULL;
    *timed_out = 0;
    pthread_mutex_lock(&q->lock);
    while (q->count == 0 && !q->closed && !*timed_out)
        *timed_out = pthread_cond_timedwait(&q->not_empty, &q->lock, &until)
                     != 0;
    if (q->count) {
        p = q->items[q->head];
        q->head = (q->head + 1) % QUEUE_SIZE;
        q->count--;
        pthread_cond_signal(&q->not_full);
    }
    pthread_mutex_unlock(&q->lock);
    return p;
}

static void queue_close(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->closed = 1;
    pthread_cond_broadcast(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
}

static void free_pending(struct pending *p)
{
    free(p->moves);
    free(p);
}

/* Stores one finished game; takes ownership of p. */
static int write_game(struct run *r, struct pending *p)
{
    struct cell_state *c = &r->cells[p->cell];
    p->rec.cell_id = c->id;
    if (r->s->stop != STOP_NONE)
        return store_in_order(r, c, p);
    int rc = store_one(r, &p->rec);
    free_pending(p);
    return rc;
}

/* The writer thread: stores what the workers finish until the queue is
 * closed, committing every commit_games games or commit_seconds. */
static void *writer_main(void *arg)
{
    struct run *r = arg;
    for (;;) {
        int timed_out;
        struct pending *p = queue_pop(&r->queue, WRITER_NAP, &timed_out);
        if (!p && !timed_out)
            break;
        int failed;
        #pragma omp atomic read
        failed = r->failed;
        if (p && failed) {
            free_pending(p);
            continue;
        }
        int rc = p ? write_game(r, p) : 0;
        double now = now_seconds();
        if (!rc && (r->since_commit >= r->o->commit_games
                    || now - r->last_commit >= r->o->commit_seconds)) {
            rc = store_commit(r->st, r->err, r->errsz);
            r->since_commit = 0;
            r->last_commit = now;
        }
        if (rc) {
            #pragma omp atomic write
            r->failed = 1;
        }
        if (p) {
            int cell;
            #pragma omp atomic read
            cell = r->last_cell;
            progress(r, &r->s->cells[cell], 0);
        }
    }
    return NULL;
}

/* ---- the run ------------------------------------------------------------ */

/* Finds what is left to play; fills r->cells and r->work. */
static int plan(struct run *r, const int64_t *ids)
{
    const struct sweep *s = r->s;
    int n = s->games_per_cell;
    unsigned char *done = malloc((size_t)n);
    signed char *scores = malloc((size_t)n);
    r->cells = calloc((size_t)s->n_cells, sizeof *r->cells);
    r->work = malloc(sizeof *r->work * (size_t)s->n_cells * (size_t)n);
    if (!done || !scores || !r->cells || !r->work)
        goto oom;
    for (int i = 0; i < s->n_cells; i++) {
        struct cell_state *c = &r->cells[i];
        c->id = ids[i];
        if (store_games_done(r->st, c->id, n, done, &c->stopped_at) != 0)
            goto db;
        if (s->stop != STOP_NONE) {
            if (!(c->waiting = calloc((size_t)n, sizeof *c->waiting)))
                goto oom;
            if (store_cell_scores(r->st, c->id, n, scores) != 0)
                goto db;
            while (c->prefix < n && scores[c->prefix] >= 0) {
                int sc = scores[c->prefix++];
                count_result(c, sc == 2 ? GAME_WIN_SEAT0
                                : sc == 0 ? GAME_WIN_SEAT1 : GAME_DRAW);
            }
            if (c->stopped_at < 0 && should_stop(s, c))
                c->stopped_at = c->prefix;
        }
        int limit = c->stopped_at >= 0 && c->stopped_at < n ? c->stopped_at : n;
        for (int k = 0; k < limit; k++)
            if (!done[k])
                r->work[r->n_work++] = (struct work){i, k};
    }
    free(done);
    free(scores);
    return 0;
oom:
    snprintf(r->err, r->errsz, "out of memory");
    free(done);
    free(scores);
    return -1;
db:
    snprintf(r->err, r->errsz, "reading the stored games: %s",
             sqlite3_errmsg(store_db(r->st)));
    free(done);
    free(scores);
    return -1;
}

/* A worker's game: played, then handed to the writer with its buffer. */
static void play_one(struct run *r, const struct work *w)
{
    char err[512];
    struct pending *p = calloc(1, sizeof *p);
    size_t cap = 0;
    if (!p || runner_play_game(r->s, &r->s->cells[w->cell], w->index, &p->rec,
                               &p->moves, &cap, err, sizeof err) != 0) {
        #pragma omp critical(rulelab_error)
        {
            snprintf(r->err, r->errsz, "%s", p ? err : "out of memory");
            #pragma omp atomic write
            r->failed = 1;
        }
        if (p)
            free_pending(p);
        return;
    }
    p->cell = w->cell;
    p->rec.moves = p->moves;
    #pragma omp atomic write
    r->last_cell = w->cell;
    queue_push(&r->queue, p);
}

static void play_all(struct run *r)
{
    #pragma omp parallel for schedule(dynamic, 1) num_threads(r->o->threads)
    for (long i = 0; i < r->n_work; i++) {
        const struct work *w = &r->work[i];
        int stopped_at, failed;
        #pragma omp atomic read
        stopped_at = r->cells[w->cell].stopped_at;
        #pragma omp atomic read
        failed = r->failed;
        if (stop_requested || failed
            || (stopped_at >= 0 && w->index >= stopped_at))
            continue;
        play_one(r, w);
    }
}

int runner_run(const struct sweep *s, struct store *st,
               const struct run_options *o, struct run_result *out, char *err,
               size_t errsz)
{
    struct run r = {0};
    r.s = s;
    r.st = st;
    r.o = o;
    r.err = err;
    r.errsz = errsz;
    r.tty = isatty(STDERR_FILENO);
    memset(out, 0, sizeof *out);
    int64_t *ids = malloc(sizeof *ids * (size_t)(s->n_cells ? s->n_cells : 1));
    int rc = -1;
    if (!ids) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if (store_begin_run(st, s, o->threads, ids, err, errsz) != 0
        || plan(&r, ids) != 0)
        goto done;
    out->total = r.n_work;
    r.t0 = r.last_commit = now_seconds();
    r.last_progress = r.t0 - 1e9;
    pthread_t writer;
    pthread_mutex_init(&r.queue.lock, NULL);
    pthread_cond_init(&r.queue.not_empty, NULL);
    pthread_cond_init(&r.queue.not_full, NULL);
    if (pthread_create(&writer, NULL, writer_main, &r) != 0) {
        snprintf(err, errsz, "cannot start the writer thread");
        goto done;
    }
    stop_requested = 0;
    void (*old_int)(int) = signal(SIGINT, on_signal);
    void (*old_term)(int) = signal(SIGTERM, on_signal);
    play_all(&r);
    queue_close(&r.queue);
    pthread_join(writer, NULL);
    signal(SIGINT, old_int);
    signal(SIGTERM, old_term);
    pthread_mutex_destroy(&r.queue.lock);
    pthread_cond_destroy(&r.queue.not_empty);
    pthread_cond_destroy(&r.queue.not_full);
    out->seconds = now_seconds() - r.t0;
    out->played = r.done;
    out->dropped = r.dropped;
    out->interrupted = stop_requested;
    if (!r.failed && r.n_work)
        progress(&r, &s->cells[r.work[r.n_work - 1].cell], 1);
    if (!o->quiet && r.n_work && r.tty)
        fputc('\n', stderr);
    if (r.failed) {
        store_commit(st, NULL, 0);
        out->played = store_games_committed(st);
        store_end_run(st, "failed");
        goto done;
    }
    if (store_commit(st, err, errsz) != 0) {
        out->played = store_games_committed(st);
        store_end_run(st, "failed");
        goto done;
    }
    out->played = store_games_committed(st);
    store_end_run(st, stop_requested ? "interrupted" : "complete");
    rc = 0;
done:
    if (r.cells)
        for (int i = 0; i < s->n_cells; i++) {
            if (r.cells[i].waiting)
                for (int k = 0; k < s->games_per_cell; k++)
                    if (r.cells[i].waiting[k]) {
                        free(r.cells[i].waiting[k]->moves);
                        free(r.cells[i].waiting[k]);
                    }
            free(r.cells[i].waiting);
        }
    free(r.cells);
    free(r.work);
    free(ids);
    return rc;
}
